import Foundation

/// One performed set.
///
/// Which fields are set follows the log's ``LoadType``:
/// weight → reps and weight; none → reps; duration → seconds.
public struct SetEntry: Codable, Sendable, Hashable {
  public var reps: Int?
  public var weight: Double?
  public var seconds: Int?
  public var completedAt: Date

  public init(reps: Int? = nil, weight: Double? = nil, seconds: Int? = nil, completedAt: Date) {
    self.reps = reps
    self.weight = weight
    self.seconds = seconds
    self.completedAt = completedAt
  }
}

/// Health metrics of a workout.
public struct WorkoutMetrics: Codable, Sendable, Hashable {
  public var activeEnergyKcal: Double?
  public var avgHeartRate: Double?
  public var maxHeartRate: Double?
  public var minHeartRate: Double?
  /// Σ reps × weight over the effective set entries of weighted logs.
  public var totalVolume: Double?
  /// Seconds in each of five heart-rate zones, low to high.
  public var hrZoneSeconds: [Double]?
  public var healthKitWorkoutUUID: String?
  public var source: MetricSource
  public var recordedAt: Date

  public init(
    activeEnergyKcal: Double? = nil,
    avgHeartRate: Double? = nil,
    maxHeartRate: Double? = nil,
    minHeartRate: Double? = nil,
    totalVolume: Double? = nil,
    hrZoneSeconds: [Double]? = nil,
    healthKitWorkoutUUID: String? = nil,
    source: MetricSource,
    recordedAt: Date
  ) {
    self.activeEnergyKcal = activeEnergyKcal
    self.avgHeartRate = avgHeartRate
    self.maxHeartRate = maxHeartRate
    self.minHeartRate = minHeartRate
    self.totalVolume = totalVolume
    self.hrZoneSeconds = hrZoneSeconds
    self.healthKitWorkoutUUID = healthKitWorkoutUUID
    self.source = source
    self.recordedAt = recordedAt
  }
}

/// One exercise of a workout: a plan snapshot plus progress and actuals.
public struct WorkoutLogDocument: Codable, Sendable, Hashable {
  public var id: String
  public var exerciseName: String
  public var order: Int
  /// Planned sets, snapshot from the exercise.
  public var sets: Int
  public var reps: Int
  public var weight: Double
  public var loadType: LoadType
  public var durationSeconds: Int
  /// Progress through the set sequence: the number of sets done.
  public var currentStateIndex: Int
  /// Change only through ``transition(to:at:)``.
  public var status: WorkoutStatus
  public var notes: String?
  public var date: Date
  public var machineSettings: [MachineSetting]?
  /// The first move to in-progress.
  public var startedAt: Date?
  /// The last move to completed.
  public var completedAt: Date?
  /// Per-set actuals in set order; nil when nothing is recorded.
  public var setEntries: [SetEntry]?
  /// Per-log modification time.
  public var updatedAt: Date?
  public var libraryName: String?

  public init(
    id: String,
    exerciseName: String,
    order: Int,
    sets: Int,
    reps: Int,
    weight: Double,
    loadType: LoadType,
    durationSeconds: Int,
    currentStateIndex: Int = 0,
    status: WorkoutStatus = .notStarted,
    notes: String? = nil,
    date: Date,
    machineSettings: [MachineSetting]? = nil,
    startedAt: Date? = nil,
    completedAt: Date? = nil,
    setEntries: [SetEntry]? = nil,
    updatedAt: Date? = nil,
    libraryName: String? = nil
  ) {
    self.id = id
    self.exerciseName = exerciseName
    self.order = order
    self.sets = sets
    self.reps = reps
    self.weight = weight
    self.loadType = loadType
    self.durationSeconds = durationSeconds
    self.currentStateIndex = currentStateIndex
    self.status = status
    self.notes = notes
    self.date = date
    self.machineSettings = machineSettings
    self.startedAt = startedAt
    self.completedAt = completedAt
    self.setEntries = setEntries
    self.updatedAt = updatedAt
    self.libraryName = libraryName
  }
}

/// One session: `Workouts/YYYY/MM/<id>.json`, schema version 5.
public struct WorkoutDocument: Codable, Sendable, Hashable {
  /// The schema version this build writes.
  public static let currentSchemaVersion = 5
  /// How long a per-log deletion tombstone is kept.
  public static let deletedLogGrace: TimeInterval = 30 * 24 * 3600

  public var schemaVersion: Int
  public var id: String
  public var splitID: String?
  public var splitName: String?
  /// Also decides the file's `YYYY/MM` bucket.
  public var start: Date
  /// Stamped when every log has resolved.
  public var end: Date?
  /// Derived from the logs; see ``recomputeStatusFromLogs(at:)``.
  public var status: WorkoutStatus
  public var createdAt: Date
  public var updatedAt: Date
  public var logs: [WorkoutLogDocument]
  public var metrics: WorkoutMetrics?
  /// Log id → when it was deleted; pruned after ``deletedLogGrace``.
  public var deletedLogIDs: [String: Date]?
  public var restSeconds: Int?
  public var autoAdvance: Bool?
  public var targetHeartRate: Int?

  public init(
    schemaVersion: Int = WorkoutDocument.currentSchemaVersion,
    id: String,
    splitID: String? = nil,
    splitName: String? = nil,
    start: Date,
    end: Date? = nil,
    status: WorkoutStatus = .notStarted,
    createdAt: Date,
    updatedAt: Date,
    logs: [WorkoutLogDocument] = [],
    metrics: WorkoutMetrics? = nil,
    deletedLogIDs: [String: Date]? = nil,
    restSeconds: Int? = nil,
    autoAdvance: Bool? = nil,
    targetHeartRate: Int? = nil
  ) {
    self.schemaVersion = schemaVersion
    self.id = id
    self.splitID = splitID
    self.splitName = splitName
    self.start = start
    self.end = end
    self.status = status
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.logs = logs
    self.metrics = metrics
    self.deletedLogIDs = deletedLogIDs
    self.restSeconds = restSeconds
    self.autoAdvance = autoAdvance
    self.targetHeartRate = targetHeartRate
  }
}
