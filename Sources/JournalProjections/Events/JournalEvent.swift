import Foundation
import JournalCore

/// Every fact the journal records, in the current version of each type.
///
/// The type strings are stable literals: they are the on-disk format and never
/// derive from Swift names. Workout events live on stream `workout:<id>`,
/// split and exercise events on `split:<id>`, the splits order on `splits`, and
/// reverts on `history`.
///
/// The rarer events with large payloads are `indirect` (boxed): an event is as large as its
/// largest case, and a history holds one per event, most of them sets and log changes.
package enum JournalEvent: Sendable, Hashable {
  indirect case splitCreated(SplitCreated)
  indirect case splitUpdated(SplitUpdated)
  case splitsReordered(SplitsReordered)
  case splitDeleted
  indirect case exerciseAdded(ExerciseAdded)
  indirect case exerciseUpdated(ExerciseUpdated)
  case exerciseRemoved(ExerciseRemoved)
  case exerciseMoved(ExerciseMoved)
  indirect case exerciseDuplicated(ExerciseDuplicated)

  indirect case workoutStarted(WorkoutStarted)
  indirect case logAdded(LogPlan)
  case logRemoved(logID: String)
  indirect case planEdited(PlanEdited)
  case logStarted(logID: String)
  case setCompleted(SetCompleted)
  indirect case setAdjusted(SetAdjusted)
  /// One More: the log gets one more planned set.
  case setAdded(logID: String)
  case logCompleted(logID: String)
  case logSkipped(logID: String)
  case logReset(logID: String)
  /// End the workout keeping progress: unresolved logs become skipped.
  case workoutEnded
  indirect case metricsRecorded(MetricsRecorded)
  case workoutDeleted
  /// Where a workout imported from another tracker came from (``WorkoutImported``).
  indirect case workoutImported(WorkoutImported)

  case eventsReverted(EventsReverted)
}

// MARK: - Type strings and versions

extension JournalEvent {
  /// The stable type string of each event, as written on disk.
  package enum TypeName {
    package static let splitCreated = "split.created"
    package static let splitUpdated = "split.updated"
    package static let splitsReordered = "splits.reordered"
    package static let splitDeleted = "split.deleted"
    package static let exerciseAdded = "exercise.added"
    package static let exerciseUpdated = "exercise.updated"
    package static let exerciseRemoved = "exercise.removed"
    package static let exerciseMoved = "exercise.moved"
    package static let exerciseDuplicated = "exercise.duplicated"
    package static let workoutStarted = "workout.started"
    package static let logAdded = "log.added"
    package static let logRemoved = "log.removed"
    package static let planEdited = "plan.edited"
    package static let logStarted = "log.started"
    package static let setCompleted = "set.completed"
    package static let setAdjusted = "set.adjusted"
    package static let setAdded = "set.added"
    package static let logCompleted = "log.completed"
    package static let logSkipped = "log.skipped"
    package static let logReset = "log.reset"
    package static let workoutEnded = "workout.ended"
    package static let metricsRecorded = "metrics.recorded"
    package static let workoutDeleted = "workout.deleted"
    package static let workoutImported = "workout.imported"
    package static let eventsReverted = "events.reverted"
  }

  /// The version this build writes for each type; the highest it reads.
  package static let currentVersions: [String: Int] = [
    TypeName.splitCreated: 2,
    TypeName.splitUpdated: 1,
    TypeName.splitsReordered: 1,
    TypeName.splitDeleted: 1,
    TypeName.exerciseAdded: 3,
    TypeName.exerciseUpdated: 3,
    TypeName.exerciseRemoved: 1,
    TypeName.exerciseMoved: 1,
    TypeName.exerciseDuplicated: 1,
    TypeName.workoutStarted: 3,
    TypeName.logAdded: 1,
    TypeName.logRemoved: 1,
    TypeName.planEdited: 1,
    TypeName.logStarted: 1,
    TypeName.setCompleted: 3,
    TypeName.setAdjusted: 1,
    TypeName.setAdded: 1,
    TypeName.logCompleted: 2,
    TypeName.logSkipped: 1,
    TypeName.logReset: 2,
    TypeName.workoutEnded: 1,
    TypeName.metricsRecorded: 1,
    TypeName.workoutDeleted: 1,
    TypeName.workoutImported: 1,
    TypeName.eventsReverted: 1,
  ]

  /// The type string of this event.
  package var typeName: String {
    switch self {
    case .splitCreated: TypeName.splitCreated
    case .splitUpdated: TypeName.splitUpdated
    case .splitsReordered: TypeName.splitsReordered
    case .splitDeleted: TypeName.splitDeleted
    case .exerciseAdded: TypeName.exerciseAdded
    case .exerciseUpdated: TypeName.exerciseUpdated
    case .exerciseRemoved: TypeName.exerciseRemoved
    case .exerciseMoved: TypeName.exerciseMoved
    case .exerciseDuplicated: TypeName.exerciseDuplicated
    case .workoutStarted: TypeName.workoutStarted
    case .logAdded: TypeName.logAdded
    case .logRemoved: TypeName.logRemoved
    case .planEdited: TypeName.planEdited
    case .logStarted: TypeName.logStarted
    case .setCompleted: TypeName.setCompleted
    case .setAdjusted: TypeName.setAdjusted
    case .setAdded: TypeName.setAdded
    case .logCompleted: TypeName.logCompleted
    case .logSkipped: TypeName.logSkipped
    case .logReset: TypeName.logReset
    case .workoutEnded: TypeName.workoutEnded
    case .metricsRecorded: TypeName.metricsRecorded
    case .workoutDeleted: TypeName.workoutDeleted
    case .workoutImported: TypeName.workoutImported
    case .eventsReverted: TypeName.eventsReverted
    }
  }

  /// What the fold of an event reads and changes, besides the event count and the time.
  package enum FoldTarget: Sendable, Hashable {
    /// The splits, any of them.
    case splits
    /// The workout of the event's stream, and no other.
    case workout
    /// Nothing (a revert acts before the fold; an import's provenance is read beside it).
    case nothing
  }

  /// What the fold of this event reads and changes.
  ///
  /// The one rule that routes an event in ``JournalState/apply(_:)``. Events of different
  /// workouts, and split events, never touch each other's state, which lets a long history
  /// be folded in parts at once (``Replayer/fold(_:upTo:observe:)``).
  package var foldTarget: FoldTarget {
    switch self {
    case .splitCreated, .splitUpdated, .splitsReordered, .splitDeleted, .exerciseAdded,
      .exerciseUpdated, .exerciseRemoved, .exerciseMoved, .exerciseDuplicated:
      .splits
    case .workoutStarted, .logAdded, .logRemoved, .planEdited, .logStarted, .setCompleted,
      .setAdjusted, .setAdded, .logCompleted, .logSkipped, .logReset, .workoutEnded,
      .metricsRecorded, .workoutDeleted:
      .workout
    case .eventsReverted, .workoutImported:
      .nothing
    }
  }

  /// The log an event is about, for log-level events.
  package var logID: String? {
    switch self {
    case .logAdded(let plan): plan.logID
    case .logRemoved(let id), .logStarted(let id), .setAdded(let id), .logCompleted(let id),
      .logSkipped(let id), .logReset(let id):
      id
    case .planEdited(let edit): edit.logID
    case .setCompleted(let set): set.logID
    case .setAdjusted(let adjustment): adjustment.logID
    default: nil
    }
  }
}
