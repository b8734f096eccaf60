import Foundation
import JournalProjections
import JournalTestSupport
import Testing

/// Documents shared by the document tests: every optional present, every
/// optional absent, and the strings and numbers that exercise the encoder.
enum DocumentFixtures {
  /// 2023-11-14T22:13:20.750Z: the fraction is dropped when encoded.
  static let created = Date(timeIntervalSince1970: 1_700_000_000.75)
  /// 2023-11-14T22:43:21.999Z.
  static let updated = Date(timeIntervalSince1970: 1_700_001_801.999)
  /// 1969-12-31T23:59:58.5Z: before 1970, the fraction still rounds down.
  static let beforeEpoch = Date(timeIntervalSince1970: -1.5)

  /// A split with no exercises and none of the optionals.
  static let minimalSplit = SplitDocument(
    id: "01HF0000000000000000000001",
    name: "Empty",
    color: "blue",
    systemImage: "figure.strengthtraining.traditional",
    order: 0,
    createdAt: created,
    updatedAt: created
  )

  /// A split with every optional present, a fractional weight, a `/` in a name
  /// and non-ASCII text.
  static let fullSplit = SplitDocument(
    id: "01HF0000000000000000000002",
    name: "Push / Pull — Développé 💪 卧推",
    color: "orange",
    systemImage: "dumbbell.fill",
    order: 3,
    createdAt: created,
    updatedAt: updated,
    exercises: [
      ExerciseDocument(
        id: "01HF00000000000000000000E1",
        name: "Bench Press",
        order: 0,
        sets: 3,
        reps: 10,
        weight: 42.5,
        loadType: .weight,
        durationSeconds: 0,
        machineSettings: [
          MachineSetting(name: "Seat Height", value: "4"),
          MachineSetting(name: "Back Rest Incline", value: "45°"),
        ],
        libraryName: "Barbell Bench Press"
      ),
      ExerciseDocument(
        id: "01HF00000000000000000000E2",
        name: "Plank",
        order: 1,
        sets: 2,
        reps: 0,
        weight: 0,
        loadType: .duration,
        durationSeconds: 60,
        machineSettings: []
      ),
      ExerciseDocument(
        id: "01HF00000000000000000000E3",
        name: "Push-up",
        order: 2,
        sets: 3,
        reps: 15,
        weight: 45,
        loadType: .none,
        durationSeconds: 0
      ),
    ],
    activityType: WorkoutActivityType.functionalStrength.rawValue,
    restSeconds: 90,
    autoAdvance: true,
    targetHeartRate: 150
  )

  /// A workout with no logs and none of the optionals.
  static let minimalWorkout = WorkoutDocument(
    id: "01HF0000000000000000000003",
    start: created,
    createdAt: created,
    updatedAt: created
  )

  /// A log with every optional present and recorded, adjusted entries.
  static let fullLog = WorkoutLogDocument(
    id: "01HF00000000000000000000L1",
    exerciseName: "Bench Press",
    order: 0,
    sets: 3,
    reps: 10,
    weight: 42.5,
    loadType: .weight,
    durationSeconds: 0,
    currentStateIndex: 3,
    status: .completed,
    notes: "Felt \"heavy\"\nback\\shoulder / tab\there — ça va 😅",
    date: created,
    machineSettings: [MachineSetting(name: "Seat", value: "3rd hole")],
    startedAt: created,
    completedAt: updated,
    setEntries: [
      SetEntry(reps: 10, weight: 42.5, completedAt: created),
      SetEntry(reps: 8, weight: 45, completedAt: updated),
      SetEntry(reps: 6, weight: 47.25, seconds: 30, completedAt: updated),
    ],
    updatedAt: updated,
    libraryName: "Barbell Bench Press"
  )

  /// A log with none of the optionals: a legacy, not started log.
  static let minimalLog = WorkoutLogDocument(
    id: "01HF00000000000000000000L2",
    exerciseName: "Plank",
    order: 1,
    sets: 2,
    reps: 0,
    weight: 0,
    loadType: .duration,
    durationSeconds: 60,
    date: beforeEpoch
  )

  /// A workout with every optional present (deleted-log keys in an order that
  /// byte order and a human sort disagree on), plus one log of each kind.
  static let fullWorkout = WorkoutDocument(
    id: "01HF0000000000000000000004",
    splitID: "01HF0000000000000000000002",
    splitName: "Push / Pull — Développé 💪 卧推",
    start: created,
    end: updated,
    status: .inProgress,
    createdAt: created,
    updatedAt: updated,
    logs: [fullLog, minimalLog],
    metrics: WorkoutMetrics(
      activeEnergyKcal: 312.25,
      avgHeartRate: 128,
      maxHeartRate: 171.5,
      minHeartRate: 64,
      totalVolume: 1_328.5,
      hrZoneSeconds: [0, 120.5, 600, 300, 0.25],
      healthKitWorkoutUUID: "6F9619FF-8B86-D011-B42D-00C04FC964FF",
      source: .watch,
      recordedAt: updated
    ),
    deletedLogIDs: [
      "b": created, "a": updated, "B": created, "_x": beforeEpoch, "é": created, "10": created,
      "9": created,
    ],
    restSeconds: 120,
    autoAdvance: false,
    targetHeartRate: 140
  )

  /// A workout whose metrics carry only the required fields and an empty zone list.
  static let sparseMetricsWorkout = WorkoutDocument(
    id: "01HF0000000000000000000005",
    start: beforeEpoch,
    status: .notStarted,
    createdAt: beforeEpoch,
    updatedAt: beforeEpoch,
    logs: [minimalLog],
    metrics: WorkoutMetrics(hrZoneSeconds: [], source: .phoneEstimate, recordedAt: beforeEpoch),
    deletedLogIDs: [:]
  )
}

/// Foundation's `JSONEncoder` configured as the app's coder, independent of
/// ``DocumentCoder`` so tests can compare against it.
func foundationEncode<T: Encodable>(_ value: T) throws -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  encoder.dateEncodingStrategy = .iso8601
  return try encoder.encode(value)
}

/// Compares `data` with `Tests/JournalProjectionsTests/Golden/<name>`.
func expectDocumentGolden(
  _ data: Data,
  named name: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let targetRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
  expectGolden(
    data,
    named: name,
    filePath: targetRoot.appendingPathComponent("Target.swift").path,
    sourceLocation: sourceLocation
  )
}
