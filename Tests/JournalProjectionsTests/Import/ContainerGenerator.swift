import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

/// Generates realistic containers: random but seeded command sequences run
/// through a ``JournalHarness``, whose document tree is the container.
struct ContainerGenerator {
  var random: SplitMix64
  let harness: JournalHarness
  var splitNames: [String] = []
  var workoutIDs: [String] = []

  static let zones = ["Europe/Paris", "America/New_York", "UTC", "Asia/Tokyo", "Asia/Kolkata"]
  static let exerciseNames = [
    "Bench Press", "Squat", "Deadlift", "Row", "Push-up", "Plank", "Curl",
  ]

  /// - Parameters:
  ///   - seed: the seed of the random choices.
  ///   - idPrefix: the first characters of every id, so containers
  ///     generated with different prefixes can be merged.
  /// - Throws: when the harness cannot be made.
  init(seed: UInt64, idPrefix: String = "01J") throws {
    random = SplitMix64(seed: seed)
    // Start late in a month, so month folders and time zones disagree now and then.
    let start = Date(timeIntervalSince1970: 1_767_225_600 - 5 * 86_400)
    harness = try JournalHarness(now: start, ids: SequentialIDs(prefix: idPrefix))
  }

  mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
  mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
  mutating func number(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(random.next() % UInt64(range.count))
  }

  mutating func plan() -> ExercisePlan {
    let name = pick(Self.exerciseNames)
    switch number(0...2) {
    case 0:
      return ExercisePlan(
        name: name,
        sets: number(1...5),
        reps: number(3...12),
        weight: Double(number(0...80)) * 2.5,
        loadType: .weight,
        machineSettings: chance(20)
          ? [MachineSetting(name: "Seat", value: "\(number(1...9))")] : nil,
        libraryName: chance(15) ? "Library \(name)" : nil
      )
    case 1:
      return ExercisePlan(
        name: name,
        sets: number(1...4),
        reps: number(5...20),
        weight: 0,
        loadType: .none
      )
    default:
      return ExercisePlan(
        name: name,
        sets: number(1...3),
        reps: 0,
        weight: 0,
        loadType: .duration,
        durationSeconds: number(2...12) * 10
      )
    }
  }

  /// Runs a command; refusals are part of realistic use and are ignored.
  mutating func run(_ command: JournalCommand, device: String = "phone") {
    _ = try? harness.run(command, device: device, advance: TimeInterval(number(20...400)))
  }

  /// Runs `workouts` sessions up to `maxGapHours` apart, editing splits
  /// between them, and returns the document tree.
  mutating func generate(workouts: Int, maxGapHours: Int = 40) throws -> [String: Data] {
    for index in 0..<number(2...4) {
      let name = "Split \(index)"
      var exercises: [ExercisePlan] = []
      for _ in 0..<number(1...4) { exercises.append(plan()) }
      run(
        .createSplit(
          SplitSettings(
            name: name,
            color: pick(["blue", "red"]),
            systemImage: "dumbbell",
            activityType: chance(30) ? number(0...8) : nil,
            restSeconds: chance(50) ? number(30...180) : nil,
            autoAdvance: chance(30) ? true : nil
          ),
          exercises: exercises
        )
      )
      splitNames.append(name)
    }
    for _ in 0..<workouts {
      harness.now += TimeInterval(number(1...maxGapHours) * 3600)
      editSplits()
      runWorkout()
    }
    return try harness.state.documentTree()
  }

  mutating func editSplits() {
    guard chance(30), !splitNames.isEmpty else { return }
    let split = pick(splitNames)
    switch number(0...6) {
    case 0: run(.addExercise(split: split, plan(), position: chance(50) ? 1 : nil))
    case 1: run(.duplicateExercise(split: split, exercise: pick(Self.exerciseNames)))
    case 2: run(.moveExercise(split: split, exercise: pick(Self.exerciseNames), position: 1))
    case 3: run(.removeExercise(split: split, exercise: pick(Self.exerciseNames)))
    case 4:
      var update = ExerciseUpdated(exerciseID: "")
      update.weight = .set(Double(number(10...60)) * 2.5)
      run(.updateExercise(split: split, exercise: pick(Self.exerciseNames), update))
    case 5:
      var update = SplitUpdated()
      update.restSeconds = .set(number(30...120))
      run(.updateSplit(split: split, update))
    default:
      if chance(20), splitNames.count > 1 {
        run(.deleteSplit(split: split))
        splitNames.removeAll { $0 == split }
      } else {
        run(.moveSplit(split: split, position: 1))
      }
    }
  }

  mutating func runWorkout() {
    guard !splitNames.isEmpty else { return }
    let before = harness.state.workouts.count
    run(.startWorkout(split: pick(splitNames), timeZone: pick(Self.zones)))
    guard harness.state.workouts.count > before,
      let id = harness.state.liveWorkouts.last(where: { !$0.document.status.isResolved })?.document
        .id
    else { return }
    workoutIDs.append(id)
    let device = chance(30) ? "watch" : "phone"
    for _ in 0..<number(2...14) {
      let exercise: String? = chance(60) ? nil : pick(Self.exerciseNames)
      switch number(0...19) {
      case 0...6:
        run(
          .completeSet(workout: id, exercise: exercise, actuals(), keepOpen: chance(20)),
          device: device
        )
      case 7:
        run(.adjustSet(workout: id, exercise: exercise, set: nil, SetActuals(reps: number(1...10))))
      case 8: run(.addSet(workout: id, exercise: exercise))
      case 9, 10: run(.completeLog(workout: id, exercise: exercise))
      case 11: run(.skipLog(workout: id, exercise: exercise))
      case 12: run(.resetLog(workout: id, exercise: exercise))
      case 13:
        var edit = PlanEdited(logID: "")
        edit.notes = .set("felt \(pick(["good", "heavy", "easy"]))")
        edit.reps = chance(50) ? .set(number(3...10)) : .unchanged
        run(.editPlan(workout: id, exercise: exercise, edit))
      case 14: run(.addLog(workout: id, plan(), notes: chance(30) ? "extra" : nil))
      case 15: run(.removeLog(workout: id, exercise: pick(Self.exerciseNames)))
      case 16: run(.startLog(workout: id, exercise: exercise))
      default: break
      }
    }
    if chance(70) { run(.endWorkout(workout: id)) }
    if chance(60) {
      run(
        .recordMetrics(
          workout: id,
          MetricsRecorded(
            activeEnergyKcal: Double(number(100...600)),
            avgHeartRate: chance(50) ? Double(number(90...150)) : nil,
            hrZoneSeconds: chance(30) ? [60, 120, 300, 200, 30] : nil,
            source: chance(50) ? .watch : .phoneEstimate,
            totalVolume: chance(10) ? 1234.5 : nil
          )
        )
      )
    }
    if chance(8) { run(.deleteWorkout(workout: id)) }
  }

  mutating func actuals() -> SetActuals {
    guard chance(60) else { return SetActuals() }
    return SetActuals(
      reps: chance(50) ? number(1...12) : nil,
      weight: chance(30) ? Double(number(8...40)) * 2.5 : nil
    )
  }
}

/// Writes a document tree as a container folder.
func writeContainer(_ tree: [String: Data], to root: URL) throws {
  for (path, data) in tree {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try data.write(to: url)
  }
}

/// Reads every file of a folder as a tree of relative paths.
func readTree(_ root: URL) throws -> [String: Data] {
  var tree: [String: Data] = [:]
  let base = root.standardizedFileURL.path
  guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
  else {
    return tree
  }
  for case let url as URL in walker where !url.hasDirectoryPath {
    let path = url.standardizedFileURL.path
    guard path.hasPrefix(base + "/") else { continue }
    let relative = String(path.dropFirst(base.count + 1))
    if relative.hasPrefix(".") || relative.contains("/.") { continue }
    tree[relative] = try Data(contentsOf: url)
  }
  return tree
}
