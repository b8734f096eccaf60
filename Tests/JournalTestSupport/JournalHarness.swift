import Foundation
import JournalCore
import JournalProjections
import Testing

/// A journal in memory with a clock the test moves: run commands, then look
/// at the folded documents.
package final class JournalHarness: @unchecked Sendable {
  package let store: InMemoryEventStore
  package let ids: SequentialIDs
  package let journal: Journal
  /// The wall clock commands run at.
  package var now: Date {
    didSet { store.wallClock = now.milliseconds }
  }

  package init(
    now: Date = Date(timeIntervalSince1970: 1_767_225_600),
    store: InMemoryEventStore = InMemoryEventStore(),
    ids: SequentialIDs = SequentialIDs()
  ) throws {
    self.store = store
    self.ids = ids
    self.now = now
    store.wallClock = now.milliseconds
    self.journal = try Journal(store: store, newID: ids.make)
  }

  /// Runs `command` on `device` and moves the clock on by `advance` seconds.
  @discardableResult
  package func run(
    _ command: JournalCommand,
    device: String = "phone",
    at: Date? = nil,
    advance: TimeInterval = 60,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [FoldEvent] {
    let events = try journal.execute(command, device: device, at: at, now: now)
    now += advance
    return events
  }

  /// Expects `command` to be refused with a message containing `message`,
  /// and the store to be unchanged.
  package func expectRefused(
    _ command: JournalCommand,
    at: Date? = nil,
    containing message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = store.stored
    do {
      try journal.execute(command, device: "phone", at: at, now: now)
      Issue.record("expected refusal containing '\(message)'", sourceLocation: sourceLocation)
    } catch let error as CommandError {
      #expect(
        error.message.contains(message),
        "got '\(error.message)'",
        sourceLocation: sourceLocation
      )
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
    let after = store.stored
    let unchanged = after == before
    #expect(
      unchanged,
      "a refused command appended \(after.count - before.count) events",
      sourceLocation: sourceLocation
    )
  }

  /// The folded state now.
  package var state: JournalState { journal.state() }

  /// The only live workout.
  package func workout(sourceLocation: SourceLocation = #_sourceLocation) throws -> WorkoutDocument
  {
    let live = state.liveWorkouts
    #expect(live.count == 1, sourceLocation: sourceLocation)
    return try #require(live.last?.document, sourceLocation: sourceLocation)
  }

  /// The log of the only live workout named `name`.
  package func log(
    _ name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws
    -> WorkoutLogDocument
  {
    try #require(
      try workout(sourceLocation: sourceLocation).logs.first { $0.exerciseName == name },
      sourceLocation: sourceLocation
    )
  }

  /// A split with a weighted, a bodyweight and a timed exercise.
  @discardableResult
  package func makeUpperBody(name: String = "Upper Body") throws -> String {
    let events = try run(
      .createSplit(
        SplitSettings(
          name: name,
          color: "blue",
          systemImage: "figure.strengthtraining.traditional",
          restSeconds: 90
        ),
        exercises: [
          ExercisePlan(name: "Bench Press", sets: 3, reps: 5, weight: 100, loadType: .weight),
          ExercisePlan(name: "Push-up", sets: 2, reps: 15, weight: 0, loadType: .none),
          ExercisePlan(
            name: "Plank",
            sets: 2,
            reps: 0,
            weight: 0,
            loadType: .duration,
            durationSeconds: 60
          ),
        ]
      )
    )
    return events[0].streamID
  }
}
