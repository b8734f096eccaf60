import JournalCore

/// The plan of one exercise, as carried by split and workout events.
public struct ExercisePlan: Sendable, Hashable {
  public var name: String
  public var sets: Int
  public var reps: Int
  public var weight: Double
  public var loadType: LoadType
  public var durationSeconds: Int
  public var machineSettings: [MachineSetting]?
  public var libraryName: String?

  public init(
    name: String,
    sets: Int,
    reps: Int,
    weight: Double,
    loadType: LoadType,
    durationSeconds: Int = 0,
    machineSettings: [MachineSetting]? = nil,
    libraryName: String? = nil
  ) {
    self.name = name
    self.sets = sets
    self.reps = reps
    self.weight = weight
    self.loadType = loadType
    self.durationSeconds = durationSeconds
    self.machineSettings = machineSettings
    self.libraryName = libraryName
  }

  init(_ reader: PayloadReader) throws(PayloadError) {
    name = try reader.string("name")
    sets = try reader.int("sets")
    reps = try reader.int("reps")
    weight = try reader.weight("weight")
    loadType = try reader.loadType("loadType")
    durationSeconds = try reader.optionalInt("durationSeconds") ?? 0
    machineSettings = try reader.optionalMachineSettings("machineSettings")
    libraryName = try reader.optionalString("libraryName")
  }

  func write(to writer: inout PayloadWriter) {
    writer.set("name", name)
    writer.set("sets", sets)
    writer.set("reps", reps)
    writer.set("weight", weight)
    writer.set("loadType", loadType.rawValue)
    writer.set("durationSeconds", durationSeconds)
    writer.set("machineSettings", machineSettings)
    writer.set("libraryName", libraryName)
  }
}

/// The routine-level settings of a split.
public struct SplitSettings: Sendable, Hashable {
  public var name: String
  public var color: String
  public var systemImage: String
  public var activityType: Int?
  public var restSeconds: Int?
  public var autoAdvance: Bool?
  public var targetHeartRate: Int?

  public init(
    name: String,
    color: String = "blue",
    systemImage: String = "dumbbell",
    activityType: Int? = nil,
    restSeconds: Int? = nil,
    autoAdvance: Bool? = nil,
    targetHeartRate: Int? = nil
  ) {
    self.name = name
    self.color = color
    self.systemImage = systemImage
    self.activityType = activityType
    self.restSeconds = restSeconds
    self.autoAdvance = autoAdvance
    self.targetHeartRate = targetHeartRate
  }
}

/// `split.created`: a new routine (stream `split:<id>`).
package struct SplitCreated: Sendable, Hashable {
  package var settings: SplitSettings
  /// Sort position in the splits list; nil places it last.
  package var order: Int?
  /// A starter split from the catalogue: its stub is never pruned.
  package var isStarter: Bool

  package init(settings: SplitSettings, order: Int? = nil, isStarter: Bool = false) {
    self.settings = settings
    self.order = order
    self.isStarter = isStarter
  }
}

/// `split.updated`: some routine settings changed.
public struct SplitUpdated: Sendable, Hashable {
  public var name: Change<String> = .unchanged
  public var color: Change<String> = .unchanged
  public var systemImage: Change<String> = .unchanged
  public var activityType: Change<Int> = .unchanged
  public var restSeconds: Change<Int> = .unchanged
  public var autoAdvance: Change<Bool> = .unchanged
  public var targetHeartRate: Change<Int> = .unchanged

  public init() {}
}

/// `splits.reordered`: the new order of the splits list (stream `splits`).
package struct SplitsReordered: Sendable, Hashable {
  package var splitIDs: [String]
  package init(splitIDs: [String]) { self.splitIDs = splitIDs }
}

/// `exercise.added`: an exercise joins a split.
package struct ExerciseAdded: Sendable, Hashable {
  package var exerciseID: String
  package var plan: ExercisePlan
  /// Its sort position; nil places it last.
  package var order: Int?

  package init(exerciseID: String, plan: ExercisePlan, order: Int? = nil) {
    self.exerciseID = exerciseID
    self.plan = plan
    self.order = order
  }
}

/// `exercise.updated`: some plan fields of an exercise changed.
public struct ExerciseUpdated: Sendable, Hashable {
  public var exerciseID: String
  public var name: Change<String> = .unchanged
  public var sets: Change<Int> = .unchanged
  public var reps: Change<Int> = .unchanged
  public var weight: Change<Double> = .unchanged
  public var loadType: Change<LoadType> = .unchanged
  public var durationSeconds: Change<Int> = .unchanged
  public var machineSettings: Change<[MachineSetting]> = .unchanged
  public var libraryName: Change<String> = .unchanged

  public init(exerciseID: String) { self.exerciseID = exerciseID }
}

/// `exercise.removed`.
package struct ExerciseRemoved: Sendable, Hashable {
  package var exerciseID: String
  package init(exerciseID: String) { self.exerciseID = exerciseID }
}

/// `exercise.moved`: an exercise moves to a 0-based position in the list.
package struct ExerciseMoved: Sendable, Hashable {
  package var exerciseID: String
  package var position: Int
  package init(exerciseID: String, position: Int) {
    self.exerciseID = exerciseID
    self.position = position
  }
}

/// `exercise.duplicated`: a copy placed right after the original.
package struct ExerciseDuplicated: Sendable, Hashable {
  package var exerciseID: String
  package var copyID: String
  package init(exerciseID: String, copyID: String) {
    self.exerciseID = exerciseID
    self.copyID = copyID
  }
}
