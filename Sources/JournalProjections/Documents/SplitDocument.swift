import Foundation

/// A free-form machine comfort setting, such as "Seat Height" = "4".
public struct MachineSetting: Codable, Sendable, Hashable {
  public var name: String
  public var value: String

  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}

/// One exercise of a split, embedded in ``SplitDocument``.
public struct ExerciseDocument: Codable, Sendable, Hashable {
  public var id: String
  /// The display name; figure and cue lookups use `libraryName ?? name`.
  public var name: String
  public var order: Int
  public var sets: Int
  public var reps: Int
  /// Unit-less; ``WeightUnit`` only relabels it.
  public var weight: Double
  public var loadType: LoadType
  /// Seconds of a timed set; 0 when the exercise is not timed.
  public var durationSeconds: Int
  /// nil: not a machine exercise; empty: a machine exercise with nothing recorded.
  public var machineSettings: [MachineSetting]?
  /// The library exercise `name` was customised from; nil when `name` is it.
  public var libraryName: String?

  public init(
    id: String,
    name: String,
    order: Int,
    sets: Int,
    reps: Int,
    weight: Double,
    loadType: LoadType,
    durationSeconds: Int,
    machineSettings: [MachineSetting]? = nil,
    libraryName: String? = nil
  ) {
    self.id = id
    self.name = name
    self.order = order
    self.sets = sets
    self.reps = reps
    self.weight = weight
    self.loadType = loadType
    self.durationSeconds = durationSeconds
    self.machineSettings = machineSettings
    self.libraryName = libraryName
  }

  /// The name that keys the exercise library: `libraryName ?? name`.
  public var effectiveLibraryName: String { libraryName ?? name }
}

/// A routine and its exercises: `Splits/<id>.json`, schema version 3.
public struct SplitDocument: Codable, Sendable, Hashable {
  /// The schema version this build writes.
  public static let currentSchemaVersion = 3

  public var schemaVersion: Int
  public var id: String
  public var name: String
  /// A theme colour name.
  public var color: String
  /// An SF Symbol name.
  public var systemImage: String
  public var order: Int
  public var createdAt: Date
  public var updatedAt: Date
  public var exercises: [ExerciseDocument]
  /// Raw ``WorkoutActivityType``; nil means traditional strength.
  public var activityType: Int?
  public var restSeconds: Int?
  public var autoAdvance: Bool?
  public var targetHeartRate: Int?

  public init(
    schemaVersion: Int = SplitDocument.currentSchemaVersion,
    id: String,
    name: String,
    color: String,
    systemImage: String,
    order: Int,
    createdAt: Date,
    updatedAt: Date,
    exercises: [ExerciseDocument] = [],
    activityType: Int? = nil,
    restSeconds: Int? = nil,
    autoAdvance: Bool? = nil,
    targetHeartRate: Int? = nil
  ) {
    self.schemaVersion = schemaVersion
    self.id = id
    self.name = name
    self.color = color
    self.systemImage = systemImage
    self.order = order
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.exercises = exercises
    self.activityType = activityType
    self.restSeconds = restSeconds
    self.autoAdvance = autoAdvance
    self.targetHeartRate = targetHeartRate
  }

  /// The activity type, nil read as traditional strength; unknown raw values read as nil.
  public var workoutActivityType: WorkoutActivityType? {
    guard let activityType else { return .traditionalStrength }
    return WorkoutActivityType(rawValue: activityType)
  }
}
