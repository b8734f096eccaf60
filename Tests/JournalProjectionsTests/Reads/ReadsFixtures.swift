import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

/// One workout of "Upper Body" in Europe/Paris that shows every provenance.
///
/// - Bench Press (3 × 5 @ 100): set 1 recorded 5 × 100, set 2 recorded 4 × 102.5
///   then adjusted to 5 reps on the watch, set 3 filled from the plan when the
///   log is completed; a legacy cursor-only `set.completed` v1 is delivered on
///   Push-up; one Push-up set is recorded and undone.
/// - Plank: skipped.
struct ReadsScenario {
  let h: JournalHarness
  let workoutID: String
  let benchID: String
  let pushID: String
  /// The `set.completed` of bench set 2 and its adjustment.
  let secondSet: String
  let adjustment: String
  /// The undone Push-up set and the undo.
  let undoneSet: String
  let undo: String
  let legacySet: String

  init() throws {
    let h = try JournalHarness()
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "Upper Body", timeZone: "Europe/Paris"))
    let workout = try h.workout()
    workoutID = workout.id
    benchID = try #require(workout.logs.first { $0.exerciseName == "Bench Press" }?.id)
    pushID = try #require(workout.logs.first { $0.exerciseName == "Push-up" }?.id)
    try h.run(.completeSet(workout: nil, exercise: "Bench Press", SetActuals(reps: 5, weight: 100)))
    secondSet = try #require(
      try h.run(
        .completeSet(workout: nil, exercise: "Bench Press", SetActuals(reps: 4, weight: 102.5))
      ).first?.id
    )
    adjustment = try #require(
      try h.run(
        .adjustSet(workout: nil, exercise: "Bench Press", set: 2, SetActuals(reps: 5)),
        device: "watch"
      ).first?.id
    )
    try h.run(.completeLog(workout: nil, exercise: "Bench Press"))
    undoneSet = try #require(
      try h.run(.completeSet(workout: nil, exercise: "Push-up", SetActuals(reps: 12))).first?.id
    )
    undo = try h.journal.undo(device: "phone", now: h.now).revert.id
    h.now += 60
    // A legacy progress event (version 1, no actuals) synced from an old watch app.
    legacySet = "01JLEGACY00000000000000001"
    h.store.deliver([
      StoredEvent(
        id: legacySet,
        device: "oldwatch",
        sequence: 1,
        milliseconds: h.now.milliseconds,
        counter: 0,
        stream: "workout:\(workoutID)",
        type: "set.completed",
        version: 1,
        payload: ["logID": .string(pushID), "index": 1],
        location: "memory/oldwatch:1"
      )
    ])
    try h.journal.reload()
    h.now += 60
    try h.run(.completeLog(workout: nil, exercise: "Push-up"))
    try h.run(.skipLog(workout: nil, exercise: "Plank"))
    self.h = h
  }

  var history: [FoldEvent] { h.journal.history }

  var workoutPath: String {
    get throws { try #require(h.state.workouts[workoutID]).path }
  }
}
