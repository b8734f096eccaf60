import Foundation
import JournalCore

/// The plan snapshot of one log of a workout.
package struct LogPlan: Sendable, Hashable {
  package var logID: String
  package var order: Int
  package var plan: ExercisePlan
  package var notes: String?

  package init(logID: String, order: Int, plan: ExercisePlan, notes: String? = nil) {
    self.logID = logID
    self.order = order
    self.plan = plan
    self.notes = notes
  }
}

/// `workout.started`: a session begins from a split, with a plan-time snapshot
/// (stream `workout:<id>`).
package struct WorkoutStarted: Sendable, Hashable {
  package var splitID: String?
  package var splitName: String?
  /// The device's time zone identifier: decides the file's `YYYY/MM` bucket.
  package var timeZone: String
  package var restSeconds: Int?
  package var autoAdvance: Bool?
  package var targetHeartRate: Int?
  package var logs: [LogPlan]

  package init(
    splitID: String?,
    splitName: String?,
    timeZone: String,
    restSeconds: Int? = nil,
    autoAdvance: Bool? = nil,
    targetHeartRate: Int? = nil,
    logs: [LogPlan]
  ) {
    self.splitID = splitID
    self.splitName = splitName
    self.timeZone = timeZone
    self.restSeconds = restSeconds
    self.autoAdvance = autoAdvance
    self.targetHeartRate = targetHeartRate
    self.logs = logs
  }
}

/// `plan.edited`: the plan of one log changed mid-workout.
public struct PlanEdited: Sendable, Hashable {
  public var logID: String
  public var sets: Change<Int> = .unchanged
  public var reps: Change<Int> = .unchanged
  public var weight: Change<Double> = .unchanged
  public var durationSeconds: Change<Int> = .unchanged
  public var notes: Change<String> = .unchanged
  public var machineSettings: Change<[MachineSetting]> = .unchanged

  public init(logID: String) { self.logID = logID }
}

/// What was actually done in one set; nil fields take the plan's value.
public struct SetActuals: Sendable, Hashable {
  public var reps: Int?
  public var weight: Double?
  public var seconds: Int?

  public init(reps: Int? = nil, weight: Double? = nil, seconds: Int? = nil) {
    self.reps = reps
    self.weight = weight
    self.seconds = seconds
  }

  var isEmpty: Bool { reps == nil && weight == nil && seconds == nil }
}

/// `set.completed`: the next set of a log was done.
///
/// The event's id names the set from then on (adjustments refer to it). The set was done at the
/// event's action time (``FoldEvent/at``); version 3 also says when work on it began.
package struct SetCompleted: Sendable, Hashable {
  package var logID: String
  /// The actuals, and the start when there is one.
  private var storage: Storage

  /// What was done; nil when only the progress cursor moved (legacy events
  /// that predate per-set actuals: the set is filled in from the plan).
  package var actuals: SetActuals? {
    get { storage.actuals }
    set { storage = Storage(actuals: newValue, startedAt: startedAt) }
  }

  /// When work on the set began (stored as the payload's `start`, in milliseconds); nil when
  /// it is not known: every event older than version 3, and a set recorded without one.
  package var startedAt: Date? {
    get { storage.startedAt }
    set { storage = Storage(actuals: actuals, startedAt: newValue) }
  }

  package init(logID: String, actuals: SetActuals?, startedAt: Date? = nil) {
    self.logID = logID
    self.storage = Storage(actuals: actuals, startedAt: startedAt)
  }

  /// The actuals alone, or boxed with the start: a set event is the most common value of a
  /// history, and a start stored beside the actuals would make every ``JournalEvent`` (and
  /// every folded event) 16 bytes larger; the box's reference takes no room of its own.
  private enum Storage: Sendable, Hashable {
    case actuals(SetActuals?)
    indirect case started(SetActuals?, milliseconds: Int64)

    init(actuals: SetActuals?, startedAt: Date?) {
      self = startedAt.map { .started(actuals, milliseconds: $0.milliseconds) } ?? .actuals(actuals)
    }

    var actuals: SetActuals? {
      switch self {
      case .actuals(let actuals), .started(let actuals, _): actuals
      }
    }

    var startedAt: Date? {
      guard case .started(_, let milliseconds) = self else { return nil }
      return Date(milliseconds: milliseconds)
    }
  }
}

/// `set.adjusted`: a correction of a recorded set, by the id of the event
/// that recorded it.
package struct SetAdjusted: Sendable, Hashable {
  package var logID: String
  package var setEventID: String
  package var actuals: SetActuals

  package init(logID: String, setEventID: String, actuals: SetActuals) {
    self.logID = logID
    self.setEventID = setEventID
    self.actuals = actuals
  }
}

/// `workout.metrics.recorded`: health metrics of the session.
public struct MetricsRecorded: Sendable, Hashable {
  public var activeEnergyKcal: Double?
  public var avgHeartRate: Double?
  public var maxHeartRate: Double?
  public var minHeartRate: Double?
  public var hrZoneSeconds: [Double]?
  public var healthKitWorkoutUUID: String?
  public var source: MetricSource
  /// A volume the recording device computed (imports); nil: computed from
  /// the actuals whenever the document is produced.
  public var totalVolume: Double?

  public init(
    activeEnergyKcal: Double? = nil,
    avgHeartRate: Double? = nil,
    maxHeartRate: Double? = nil,
    minHeartRate: Double? = nil,
    hrZoneSeconds: [Double]? = nil,
    healthKitWorkoutUUID: String? = nil,
    source: MetricSource,
    totalVolume: Double? = nil
  ) {
    self.activeEnergyKcal = activeEnergyKcal
    self.avgHeartRate = avgHeartRate
    self.maxHeartRate = maxHeartRate
    self.minHeartRate = minHeartRate
    self.hrZoneSeconds = hrZoneSeconds
    self.healthKitWorkoutUUID = healthKitWorkoutUUID
    self.source = source
    self.totalVolume = totalVolume
  }
}

/// `events.reverted`: cancels events by id (undo).
///
/// Reverting a revert is redo.
package struct EventsReverted: Sendable, Hashable {
  package var eventIDs: [String]
  /// Why: `undo`, `redo` or `rewind`.
  package var reason: String

  package init(eventIDs: [String], reason: String) {
    self.eventIDs = eventIDs
    self.reason = reason
  }
}
