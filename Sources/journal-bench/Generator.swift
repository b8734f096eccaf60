import Foundation
import JournalCore
import JournalProjections

// The generator draws from `SplitMix64`: the same seed gives the same journal.
extension SplitMix64 {
  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}

/// The generator's clock, read by both devices' writers: it only moves forward.
final class GeneratorClock: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Int64

  init(milliseconds: Int64) { value = milliseconds }

  var milliseconds: Int64 { lock.withLock { value } }

  func advance(seconds: Int) { lock.withLock { value += Int64(seconds) * 1000 } }
}

/// What a generated journal holds.
struct GeneratedJournal {
  var url: URL
  var events: Int
  var workouts: Int
  var splits: Int
  var reverts: Int
  var bytes: Int
  var seconds: Double
}

/// Writes a realistic training journal straight through ``DeviceWriter`` (no validation, no
/// flush): four splits with their exercises, then one workout a day or so, decades of them.
///
/// A workout is started from a split on the phone; its sets are completed with actuals on
/// the phone or, for about a third of the workouts, on the watch. Along the way: weight
/// corrections (`set.adjusted`), One More (`set.added`), skipped exercises, plan edits,
/// metrics, the occasional deleted workout, split edits every few weeks, and undo/redo
/// (`events.reverted` of a set, then of the revert). `churn` multiplies the undo/redo pairs
/// while keeping every workout the same: the journal of the memory scenario (B8).
struct Generator {
  static let devices = ["phone", "watch"]
  /// Average events per workout, to size the number of workouts for a target event count.
  static let eventsPerWorkout = 32

  var seed: UInt64 = 0x5EED
  /// Undo/redo pairs per completed set, on average (0.05 by default; ×10 for churn).
  var undoRate = 0.05

  /// Generates about `events` events (the exact count is reported) at `url`.
  func generate(at url: URL, events target: Int) throws -> GeneratedJournal {
    try generate(at: url, workouts: max(1, target / Self.eventsPerWorkout))
  }

  /// Generates `workouts` workouts at `url`.
  func generate(at url: URL, workouts: Int) throws -> GeneratedJournal {
    let start = ContinuousClock.now
    var run = try GeneratorRun(url: url, seed: seed, undoRate: undoRate)
    defer { run.close() }
    try run.createSplits()
    for index in 0..<workouts {
      if index > 0, index % 40 == 0 { try run.editSplit() }
      try run.workout()
    }
    let bytes = try Self.size(of: url)
    return GeneratedJournal(
      url: url,
      events: run.count,
      workouts: workouts,
      splits: run.splits.count,
      reverts: run.reverts,
      bytes: bytes,
      seconds: seconds(since: start)
    )
  }

  static func size(of url: URL) throws -> Int {
    var total = 0
    let devices = url.appendingPathComponent(EventLog.devicesFolderName)
    for device in try FileManager.default.contentsOfDirectory(atPath: devices.path) {
      let folder = devices.appendingPathComponent(device)
      for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where file.hasSuffix(".jsonl") {
        let attributes = try FileManager.default.attributesOfItem(
          atPath: folder.appendingPathComponent(file).path
        )
        total += (attributes[.size] as? NSNumber)?.intValue ?? 0
      }
    }
    return total
  }
}

/// The state of one generation: the writers, the clock, the program the lifter follows.
private struct GeneratorRun {
  struct Exercise {
    var id: String
    var plan: ExercisePlan
  }

  struct Split {
    var id: String
    var name: String
    var exercises: [Exercise]
  }

  let clock: GeneratorClock
  let writers: [DeviceWriter]
  /// The lifter's choices: the same in a churned journal, so its workouts are the same.
  var random: SplitMix64
  /// Time between events and undo decisions, apart from the lifter's choices.
  var ticks: SplitMix64
  var undos: SplitMix64
  var ids: ULIDGenerator
  var splits: [Split] = []
  var count = 0
  var reverts = 0
  let undoRate: Double
  /// Events waiting to be appended, per device: appended per action, in bulk for speed.
  var pending: [[NewEvent]] = [[], []]

  init(url: URL, seed: UInt64, undoRate: Double) throws {
    // 1980-01-07: a million events is about 45 years of daily training.
    let clock = GeneratorClock(milliseconds: 316_051_200_000)
    self.clock = clock
    var root = SplitMix64(seed: seed)
    let log = try EventLog.create(at: url)
    var writers: [DeviceWriter] = []
    for device in Generator.devices {
      let options = DeviceWriter.Options(
        durability: .none,
        wallClock: { clock.milliseconds },
        random: SplitMix64(seed: root.next())
      )
      writers.append(try log.openWriter(device: device, options: options))
    }
    self.writers = writers
    self.ids = ULIDGenerator(random: SplitMix64(seed: root.next()))
    self.random = SplitMix64(seed: root.next())
    self.ticks = SplitMix64(seed: root.next())
    self.undos = SplitMix64(seed: root.next())
    self.undoRate = undoRate
  }

  func close() { for writer in writers { writer.close() } }

  mutating func newID() -> ULID { ids.next(milliseconds: clock.milliseconds) }

  /// Appends one event for `device` (0 phone, 1 watch) and returns its id.
  ///
  /// Every event moves the clock forward, so the merge order is the order told here.
  @discardableResult
  mutating func emit(_ event: JournalEvent, stream: String, device: Int = 0) throws -> String {
    clock.advance(seconds: ticks.int(1...4))
    let id = newID()
    // The writer reads the clock when it appends: append now, one action at a time.
    let payload = PayloadMetadata.adding(at: nil, action: nil, to: event.payload)
    let record = NewEvent(
      stream: stream,
      type: event.typeName,
      version: JournalEvent.currentVersions[event.typeName] ?? 1,
      payload: payload,
      id: id
    )
    try writers[device].append([record])
    count += 1
    return id.description
  }

  // MARK: - Splits

  static let program: [(String, [(String, Int, Int, Double, LoadType)])] = [
    (
      "Push",
      [
        ("Bench Press", 5, 5, 80, .weight), ("Overhead Press", 4, 8, 45, .weight),
        ("Incline Dumbbell Press", 3, 10, 26, .weight), ("Dips", 3, 12, 0, .none),
        ("Triceps Pushdown", 3, 12, 30, .weight),
      ]
    ),
    (
      "Pull",
      [
        ("Deadlift", 3, 5, 140, .weight), ("Pull-up", 4, 8, 0, .none),
        ("Barbell Row", 4, 8, 70, .weight), ("Face Pull", 3, 15, 20, .weight),
        ("Biceps Curl", 3, 12, 14, .weight),
      ]
    ),
    (
      "Legs",
      [
        ("Squat", 5, 5, 110, .weight), ("Romanian Deadlift", 3, 8, 90, .weight),
        ("Leg Press", 3, 12, 180, .weight), ("Calf Raise", 4, 15, 60, .weight),
        ("Plank", 3, 1, 0, .duration),
      ]
    ),
    (
      "Full Body",
      [
        ("Front Squat", 4, 6, 80, .weight), ("Push-up", 3, 15, 0, .none),
        ("Kettlebell Swing", 3, 20, 24, .weight), ("Chin-up", 3, 8, 0, .none),
        ("Farmer's Carry", 3, 1, 40, .duration), ("Hanging Leg Raise", 3, 10, 0, .none),
      ]
    ),
  ]

  mutating func createSplits() throws {
    let colors = ["red", "blue", "green", "orange"]
    for (index, (name, exercises)) in Self.program.enumerated() {
      let splitID = newID().description
      let stream = "split:\(splitID)"
      let settings = SplitSettings(
        name: name,
        color: colors[index % colors.count],
        systemImage: "dumbbell",
        activityType: 20,
        restSeconds: 120,
        autoAdvance: true
      )
      try emit(.splitCreated(SplitCreated(settings: settings, order: index)), stream: stream)
      var split = Split(id: splitID, name: name, exercises: [])
      for (order, (exercise, sets, reps, weight, load)) in exercises.enumerated() {
        let plan = ExercisePlan(
          name: exercise,
          sets: sets,
          reps: reps,
          weight: weight,
          loadType: load,
          durationSeconds: load == .duration ? 60 : 0,
          machineSettings: exercise == "Leg Press"
            ? [MachineSetting(name: "Seat", value: "4")] : nil,
          libraryName: exercise
        )
        let exerciseID = newID().description
        try emit(
          .exerciseAdded(ExerciseAdded(exerciseID: exerciseID, plan: plan, order: order)),
          stream: stream
        )
        split.exercises.append(Exercise(id: exerciseID, plan: plan))
      }
      splits.append(split)
    }
  }

  /// Progression: every few weeks one exercise of one split gets heavier (or a rep more).
  mutating func editSplit() throws {
    let s = random.int(0...(splits.count - 1))
    let e = random.int(0...(splits[s].exercises.count - 1))
    var exercise = splits[s].exercises[e]
    var update = ExerciseUpdated(exerciseID: exercise.id)
    if exercise.plan.loadType == .weight {
      exercise.plan.weight += 2.5
      update.weight = .set(exercise.plan.weight)
    } else {
      exercise.plan.reps += 1
      update.reps = .set(exercise.plan.reps)
    }
    splits[s].exercises[e] = exercise
    try emit(.exerciseUpdated(update), stream: "split:\(splits[s].id)")
  }

  // MARK: - Workouts

  mutating func workout() throws {
    // The next session: 20 to 28 hours later.
    clock.advance(seconds: random.int(72_000...100_800))
    let split = splits[random.int(0...(splits.count - 1))]
    let workoutID = newID().description
    let stream = "workout:\(workoutID)"
    let setDevice = random.chance(0.3) ? 1 : 0
    var logs: [LogPlan] = []
    for (order, exercise) in split.exercises.enumerated() {
      logs.append(LogPlan(logID: newID().description, order: order, plan: exercise.plan))
    }
    try emit(
      .workoutStarted(
        WorkoutStarted(
          splitID: split.id,
          splitName: split.name,
          timeZone: "Europe/Berlin",
          restSeconds: 120,
          autoAdvance: true,
          logs: logs
        )
      ),
      stream: stream
    )
    for log in logs {
      if random.chance(0.05) {
        try emit(.logSkipped(logID: log.logID), stream: stream)
        continue
      }
      try emit(.logStarted(logID: log.logID), stream: stream, device: setDevice)
      if random.chance(0.04) {
        var edit = PlanEdited(logID: log.logID)
        edit.weight = .set(log.plan.weight + 2.5)
        try emit(.planEdited(edit), stream: stream)
      }
      var sets = log.plan.sets
      if random.chance(0.08) {
        try emit(.setAdded(logID: log.logID), stream: stream, device: setDevice)
        sets += 1
      }
      for _ in 0..<sets {
        try completeSet(log, stream: stream, device: setDevice)
      }
      try emit(.logCompleted(logID: log.logID), stream: stream, device: setDevice)
    }
    if random.chance(0.6) {
      let metrics = MetricsRecorded(
        activeEnergyKcal: Double(random.int(180...520)),
        avgHeartRate: Double(random.int(95...135)),
        maxHeartRate: Double(random.int(150...182)),
        minHeartRate: Double(random.int(60...80)),
        hrZoneSeconds: (0..<5).map { _ in Double(random.int(60...900)) },
        healthKitWorkoutUUID: UUID(uuidString: "00000000-0000-4000-8000-000000000000")?
          .uuidString,
        source: setDevice == 1 ? .watch : .phoneEstimate
      )
      try emit(.metricsRecorded(metrics), stream: stream, device: setDevice)
    }
    if random.chance(0.005) {
      try emit(.workoutDeleted, stream: stream)
    }
  }

  /// One set with its actuals; sometimes corrected, sometimes undone and redone.
  mutating func completeSet(_ log: LogPlan, stream: String, device: Int) throws {
    clock.advance(seconds: random.int(60...180))
    let actuals: SetActuals
    switch log.plan.loadType {
    case .weight:
      actuals = SetActuals(
        reps: max(1, log.plan.reps + random.int(-2...1)),
        weight: log.plan.weight
      )
    case .none: actuals = SetActuals(reps: max(1, log.plan.reps + random.int(-3...2)))
    case .duration: actuals = SetActuals(seconds: log.plan.durationSeconds + random.int(-10...15))
    }
    let set = SetCompleted(logID: log.logID, actuals: actuals)
    let setID = try emit(.setCompleted(set), stream: stream, device: device)
    if random.chance(0.04), log.plan.loadType == .weight {
      let fixed = SetActuals(weight: log.plan.weight - 2.5)
      let adjusted = SetAdjusted(logID: log.logID, setEventID: setID, actuals: fixed)
      try emit(.setAdjusted(adjusted), stream: stream, device: device)
    }
    // Undo the set, then redo it: the same workout, more history.
    var pairs = Int(undoRate)
    if undos.chance(undoRate - undoRate.rounded(.down)) { pairs += 1 }
    for _ in 0..<pairs {
      let undo = try emit(
        .eventsReverted(EventsReverted(eventIDs: [setID], reason: "undo")),
        stream: "history",
        device: device
      )
      try emit(
        .eventsReverted(EventsReverted(eventIDs: [undo], reason: "redo")),
        stream: "history",
        device: device
      )
      reverts += 2
    }
  }
}
