import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@Suite struct RevisionsTests {
  @Test func listsCorrectionsRevertsResetsAndFilledSets() throws {
    let h = try JournalHarness()
    try h.run(
      .createSplit(
        SplitSettings(name: "Push", color: "red", systemImage: "figure"),
        exercises: [
          ExercisePlan(name: "Bench", sets: 3, reps: 5, weight: 100, loadType: .weight),
          ExercisePlan(name: "Row", sets: 2, reps: 8, weight: 60, loadType: .weight),
        ]
      )
    )
    try h.run(.startWorkout(split: "Push", timeZone: "Europe/Berlin"))
    let workout = try h.workout().id
    try h.run(.completeSet(workout: nil, exercise: "Bench", SetActuals(reps: 5, weight: 100)))
    try h.run(
      .adjustSet(workout: nil, exercise: "Bench", set: 1, SetActuals(reps: 4)),
      device: "watch"
    )
    try h.run(.completeSet(workout: nil, exercise: "Bench", SetActuals(reps: 5, weight: 100)))
    let undone = h.now
    try h.journal.undo(device: "phone", now: undone)
    h.now += 60
    try h.run(.completeLog(workout: nil, exercise: "Bench"))  // sets 2 and 3 from the plan
    try h.run(.completeSet(workout: nil, exercise: "Row", SetActuals(reps: 8, weight: 60)))
    try h.run(.resetLog(workout: nil, exercise: "Row"))
    let state = h.journal.state()
    let history = h.journal.history
    let audit = Audit(state: state, history: history)
    let entries = Revisions.entries(history: history, state: state, rows: audit.rows)
    #expect(entries.map(\.kind) == [.correction, .undo, .filledFromPlan, .reset])
    #expect(entries.allSatisfy { $0.workoutID == workout && $0.timeZone == "Europe/Berlin" })
    #expect(entries[0].device == "watch")
    #expect(entries[0].summary.hasPrefix("Bench set 1 adjusted: 4 reps"))
    #expect(entries[1].summary == "undo of 1 event")
    #expect(entries[1].at == undone)
    #expect(entries[2].summary == "Bench: 2 sets filled in from the plan")
    #expect(entries[3].summary == "reset Row: its sets cleared")
    // A range keeps what was done in it.
    let later = Revisions.entries(
      history: history,
      state: state,
      rows: audit.rows,
      since: undone.addingTimeInterval(1)
    )
    #expect(later.map(\.kind) == [.filledFromPlan, .reset])
  }

  @Test func aRedoNamesTheWorkoutItsUndoChanged() throws {
    let h = try JournalHarness()
    _ = try h.makeUpperBody()
    try h.run(.startWorkout(split: "Upper Body", timeZone: "UTC"))
    let workout = try h.workout().id
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: 60)))
    try h.journal.undo(device: "phone", now: h.now)
    h.now += 60
    try h.journal.redo(device: "phone", now: h.now)
    let state = h.journal.state()
    let entries = Revisions.entries(
      history: h.journal.history,
      state: state,
      rows: Audit(state: state, history: h.journal.history).rows
    )
    #expect(entries.map(\.kind) == [.undo, .redo])
    #expect(entries.map(\.workoutID) == [workout, workout])
    // The redo cancelled the undo.
    #expect(entries[0].revertedBy == entries[1].eventID)
  }
}
