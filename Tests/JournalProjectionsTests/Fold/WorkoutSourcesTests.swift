import Foundation
import JournalCore
import Testing

@testable import JournalProjections

/// A workout keeps each log's entry sources by log id (`WorkoutState.provenance`): they
/// follow their logs whatever changes the logs.
@Suite struct WorkoutSourcesTests {
  static let start = Date(timeIntervalSince1970: 0)

  static func log(_ id: String, order: Int) -> WorkoutLogDocument {
    WorkoutLogDocument(
      plan: LogPlan(
        logID: id,
        order: order,
        plan: ExercisePlan(name: id, sets: 3, reps: 5, weight: 20, loadType: .weight)
      ),
      date: start
    )
  }

  static func workout(logs: [String]) -> WorkoutState {
    var document = WorkoutDocument(id: "w", start: start, createdAt: start, updatedAt: start)
    document.logs = logs.enumerated().map { log($1, order: $0) }
    return WorkoutState(document: document, timeZone: .gmt)
  }

  /// The fold of a log added, sets recorded on it and on another, and a log removed: the
  /// sources follow their logs.
  @Test func theFoldKeepsSourcesWithTheirLogs() {
    var workout = Self.workout(logs: ["a", "c"])
    func event(_ id: String, _ event: JournalEvent) -> FoldEvent {
      FoldEvent(
        id: id,
        device: "phone",
        sequence: 1,
        milliseconds: 0,
        stream: "workout:w",
        event: event
      )
    }
    let plan = LogPlan(
      logID: "b",
      order: 1,
      plan: ExercisePlan(name: "b", sets: 1, reps: 1, weight: 0, loadType: .none)
    )
    #expect(
      workout.apply(event("e1", .setCompleted(SetCompleted(logID: "c", actuals: nil)))) == nil
    )
    #expect(workout.apply(event("e2", .logAdded(plan))) == nil)
    #expect(workout.document.logs.map(\.id) == ["a", "b", "c"])
    // The same log again is refused, and changes nothing.
    let added = workout
    #expect(workout.apply(event("e2b", .logAdded(plan))) == "log 'b' exists already")
    #expect(workout == added)
    #expect(
      workout.apply(event("e3", .setCompleted(SetCompleted(logID: "b", actuals: nil)))) == nil
    )
    #expect(
      workout.apply(event("e4", .setCompleted(SetCompleted(logID: "c", actuals: nil)))) == nil
    )
    #expect(
      workout.provenance.mapValues { $0.map(\.eventID) } == ["b": ["e3"], "c": ["e1", "e4"]]
    )
    #expect(workout.apply(event("e5", .logRemoved(logID: "b"))) == nil)
    #expect(workout.document.logs.map(\.id) == ["a", "c"])
    #expect(workout.provenance.mapValues { $0.map(\.eventID) } == ["c": ["e1", "e4"]])
  }
}
