import Foundation
import JournalProjections
import JournalTestSupport
import Testing

@Suite struct UndoTests {
  func started() throws -> JournalHarness {
    let h = try JournalHarness()
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "Upper Body", timeZone: "UTC"))
    return h
  }

  func tree(_ h: JournalHarness) throws -> [String: Data] { try h.state.documentTree() }

  /// Runs `command`, undoes it, and expects the documents of before (apart from
  /// the `updatedAt` stamps, which follow the fold: undo re-folds without the event).
  func expectUndoRestores(
    _ command: JournalCommand,
    in h: JournalHarness,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = h.state.liveWorkouts.map(\.document)
    try h.run(command)
    #expect(
      h.state.liveWorkouts.map(\.document) != before,
      "the command changed nothing",
      sourceLocation: sourceLocation
    )
    try h.journal.undo(device: "phone", now: h.now)
    #expect(h.state.liveWorkouts.map(\.document) == before, sourceLocation: sourceLocation)
  }

  @Test func undoingAResetBringsTheSetsBack() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 4)))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 3)))
    try expectUndoRestores(.resetLog(workout: nil, exercise: "Bench Press"), in: h)
    #expect(try h.log("Bench Press").setEntries?.map(\.reps) == [4, 3])
  }

  @Test func undoingEachKindOfActionRestoresTheDocument() throws {
    let commands: [JournalCommand] = [
      .completeSet(workout: nil, exercise: nil, SetActuals(reps: 2, weight: 90)),
      .skipLog(workout: nil, exercise: "Plank"),
      .addSet(workout: nil, exercise: "Bench Press"),
      .completeLog(workout: nil, exercise: "Push-up"),
      .editPlan(
        workout: nil,
        exercise: "Bench Press",
        {
          var edit = PlanEdited(logID: "")
          edit.weight = .set(105)
          edit.notes = .set("belt")
          return edit
        }()
      ),
      .removeLog(workout: nil, exercise: "Plank"),
      .endWorkout(workout: nil),
      .recordMetrics(workout: nil, MetricsRecorded(avgHeartRate: 120, source: .watch)),
    ]
    for command in commands {
      let h = try started()
      try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
      try expectUndoRestores(command, in: h)
    }
  }

  @Test func undoingADeleteBringsTheDocumentBackAndRemovesTheStub() throws {
    let h = try started()
    let id = try h.workout().id
    let live = try tree(h)
    try h.run(.deleteWorkout(workout: id))
    #expect(try tree(h).keys.contains { $0.hasPrefix("Stubs/") })
    try h.journal.undo(device: "phone", now: h.now)
    #expect(try tree(h) == live)
  }

  @Test func aCommandOfSeveralEventsIsUndoneAsOne() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    let before = try h.workout()
    // The last set also completes the log: two events, one action.
    let events = try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    #expect(events.count == 2)
    let reversal = try h.journal.undo(device: "phone", now: h.now)
    #expect(reversal.eventIDs == events.map(\.id))
    #expect(try h.workout() == before)
  }

  @Test func redoEqualsTheOriginalAndCanBeUndone() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 4)))
    let done = try tree(h)
    try h.journal.undo(device: "phone", now: h.now)
    let undone = try tree(h)
    #expect(undone != done)
    try h.journal.redo(device: "phone", now: h.now)
    #expect(try tree(h) == done)
    try h.journal.undo(device: "phone", now: h.now)
    #expect(try tree(h) == undone)
  }

  @Test func undoTwiceGoesTwoActionsBack() throws {
    let h = try started()
    let fresh = try h.workout()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    try h.journal.undo(device: "phone", now: h.now)
    try h.journal.undo(device: "phone", now: h.now)
    #expect(try h.workout() == fresh)
  }

  @Test func undoOnlyTouchesThisDevice() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 1)), device: "watch")
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 2)), device: "phone")
    try h.run(
      .completeSet(workout: nil, exercise: nil, SetActuals(reps: 3), keepOpen: true),
      device: "watch"
    )
    try h.journal.undo(device: "phone", now: h.now)
    #expect(try h.log("Bench Press").setEntries?.map(\.reps) == [1, 3])
  }

  @Test func undoingWhatLaterEventsNeedIsRefused() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()), device: "watch")
    try h.run(.adjustSet(workout: nil, exercise: nil, set: 1, SetActuals(reps: 3)), device: "phone")
    let before = h.store.stored
    #expect(throws: CommandError.self) { try h.journal.undo(device: "watch", now: h.now) }
    #expect(h.store.stored == before)
  }

  @Test func rewindReturnsToThePointAndIsItselfUndoable() throws {
    let h = try started()
    let point = try #require(h.journal.history.last?.id)
    let atPoint = try tree(h)
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    try h.run(.skipLog(workout: nil, exercise: "Plank"), device: "watch")
    try h.journal.undo(device: "phone", now: h.now)
    try h.run(.addSet(workout: nil, exercise: "Push-up"))
    let beforeRewind = try tree(h)
    try h.journal.rewind(to: .event(point), device: "phone", now: h.now)
    #expect(try tree(h) == atPoint)
    try h.journal.undo(device: "phone", now: h.now)
    #expect(try tree(h) == beforeRewind)
  }

  @Test func nothingToUndoIsAClearError() throws {
    let h = try JournalHarness()
    #expect(throws: CommandError("nothing to undo on device 'phone'")) {
      try h.journal.undo(device: "phone", now: h.now)
    }
  }
}
