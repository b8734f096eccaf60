import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@Suite struct WorkoutHistoryTests {
  @Test func theTimelineMarksEffectiveRevertedAndRevertEvents() throws {
    let s = try ReadsScenario()
    let entries = WorkoutHistory.entries(workout: s.workoutID, history: s.history)
    #expect(entries.first?.type == "workout.started")
    #expect(entries.first?.summary == "started Upper Body with 3 exercises")
    let undone = try #require(entries.first { $0.eventID == s.undoneSet })
    #expect(undone.mark == .reverted)
    #expect(undone.revertedBy == s.undo)
    #expect(undone.summary == "Push-up set ?: 12 reps")
    let revert = try #require(entries.first { $0.eventID == s.undo })
    #expect(revert.mark == .revert)
    #expect(revert.summary == "undo: cancels 1 event of this workout")
    let adjusted = try #require(entries.first { $0.eventID == s.adjustment })
    #expect(adjusted.mark == .effective)
    #expect(adjusted.device == "watch")
    #expect(adjusted.summary == "Bench Press set 2 adjusted: 5 reps (now 5 reps @ 102.5)")
    let second = try #require(entries.first { $0.eventID == s.secondSet })
    #expect(second.summary == "Bench Press set 2: 4 reps @ 102.5")
    let legacy = try #require(entries.first { $0.eventID == s.legacySet })
    #expect(legacy.summary == "Push-up set 1 done (progress only: 15 reps)")
    #expect(entries.allSatisfy { $0.anomalies.isEmpty })
  }

  @Test func oneLogKeepsItsEventsAndTheWorkoutWideOnes() throws {
    let s = try ReadsScenario()
    let entries = WorkoutHistory.entries(workout: s.workoutID, log: s.benchID, history: s.history)
    #expect(entries.allSatisfy { $0.logID == nil || $0.logID == s.benchID })
    #expect(
      entries.map(\.type) == [
        "workout.started", "set.completed", "set.completed", "set.adjusted", "log.completed",
      ]
    )
  }

  @Test func anAnomalyTheFoldReportedIsMarked() throws {
    let s = try ReadsScenario()
    // An old watch records a set on the bench log after the phone completed it.
    s.h.store.deliver([
      StoredEvent(
        id: "01JLATE000000000000000001",
        device: "oldwatch",
        sequence: 2,
        milliseconds: s.h.now.milliseconds,
        counter: 0,
        stream: "workout:\(s.workoutID)",
        type: "set.completed",
        version: 2,
        payload: ["logID": .string(s.benchID), "reps": 3],
        location: "memory/oldwatch:2"
      )
    ])
    try s.h.journal.reload()
    let entries = WorkoutHistory.entries(workout: s.workoutID, history: s.history)
    let late = try #require(entries.last)
    #expect(late.eventID == "01JLATE000000000000000001")
    #expect(late.mark == .effective)
    #expect(late.anomalies.count == 1)
    #expect(late.anomalies.first?.contains("completed") == true)
  }
}
