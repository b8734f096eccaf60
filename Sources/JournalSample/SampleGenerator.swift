import Foundation
import JournalCore
import JournalProjections

/// Makes the sample's ids: ULIDs stamped with the story's clock, from a
/// seeded generator.
final class SampleIDs {
  private var generator: ULIDGenerator
  private let clock: SampleClock

  init(clock: SampleClock, random: SampleRandom) {
    self.generator = ULIDGenerator(random: random)
    self.clock = clock
  }

  func make() -> String { generator.next(milliseconds: clock.milliseconds).description }
}

/// Tells the story: walks the schedule, writes the legacy weeks straight to
/// the device logs and the rest through ``Journal``.
final class SampleGenerator {
  static let phone = "phone"
  static let watch = "watch"

  let seed: UInt64
  let clock: SampleClock
  let store: SampleEventStore
  let ids: SampleIDs
  let journal: Journal
  /// The story's choices; `schedule` and `lifter` draw from their own
  /// streams so that a change in one part does not reshuffle the others.
  var random: SampleRandom
  var lifter: SampleRandom
  let sessions: [SampleSession]

  /// The lifter's program, as the generator believes the splits stand.
  var exercises: [SampleExercise] = SampleProgram.initialExercises()
  var splitIDs: [String] = []
  /// Split edits not made yet, by the day they are due.
  var edits: [SampleEdit] = SampleEdit.allCases
  /// When the action being told happens (Unix ms).
  ///
  /// The clock follows it, except when a workout is logged afterwards
  /// (`backDating`).
  var actionTime: Int64 = 0
  var backDating = false
  /// Whether the journal has read the legacy weeks.
  var readLegacy = false

  init(url: URL, seed: UInt64) throws {
    self.seed = seed
    var root = SampleRandom(seed: seed)
    let clock = SampleClock(milliseconds: SampleCalendar.firstDay * 1000)
    self.clock = clock
    let options = DeviceWriter.Options(
      segmentSizeLimit: SampleJournal.segmentSizeLimit,
      durability: .none,
      lockTimeout: 5,
      wallClock: { clock.milliseconds },
      random: root.fork()
    )
    self.store = try SampleEventStore(log: try EventLog.create(at: url), options: options)
    let ids = SampleIDs(clock: clock, random: root.fork())
    self.ids = ids
    self.journal = try Journal(store: store, newID: ids.make)
    var scheduling = root.fork()
    self.sessions = SampleSession.schedule(random: &scheduling)
    self.random = root.fork()
    self.lifter = root.fork()
  }

  func close() { store.close() }

  func run() throws {
    for session in sessions {
      let start =
        SampleCalendar.milliseconds(day: session.day, minute: session.minute, zone: session.zone)
        + Int64(random.int(0...59_999))
      actionTime = max(actionTime, start - 20 * 60_000)
      clock.move(to: actionTime)
      if session.era == .current, !readLegacy {
        // The app updated: from now on the journal reads the old weeks
        // through the upcasters, and commands go through validation.
        try journal.reload()
        readLegacy = true
      }
      store.writesSetStarts = session.day >= SampleEra.flowDay
      try makeDueEdits(before: session)
      actionTime = max(actionTime, start)
      clock.move(to: actionTime)
      switch session.era {
      case .firstVersion, .secondVersion: try legacySession(session)
      case .current: try currentSession(session)
      }
    }
  }

  // MARK: - Time

  /// Lets `seconds` (and a few random milliseconds) pass in the story.
  func wait(_ seconds: Int) {
    actionTime += Int64(seconds) * 1000 + Int64(random.int(0...999))
    if !backDating { clock.move(to: actionTime) }
  }

  func wait(_ seconds: ClosedRange<Int>) { wait(random.int(seconds)) }

  // MARK: - Writing

  /// Validates and appends a command at the story's time.
  @discardableResult
  func act(_ command: JournalCommand, on device: String) throws -> [FoldEvent] {
    if backDating {
      clock.advance(seconds: random.int(3...12))
      return try journal.execute(
        command,
        device: device,
        at: Date(milliseconds: actionTime),
        now: clock.date
      )
    }
    clock.move(to: actionTime)
    return try journal.execute(command, device: device, now: clock.date)
  }

  /// Appends one event as an older app version wrote it, bypassing the
  /// journal (which writes current versions only).
  func appendLegacy(
    _ type: String,
    version: Int,
    stream: String,
    on device: String,
    _ payload: [String: JSONValue]
  ) throws {
    clock.move(to: actionTime)
    let event = EventToAppend(
      id: ids.make(),
      stream: stream,
      type: type,
      version: version,
      payload: .object(payload)
    )
    _ = try store.append([event], device: device, notBefore: store.lastTime)
  }

  // MARK: - The program

  func exerciseIndex(_ key: String) -> Int? { exercises.firstIndex { $0.key == key } }

  /// The exercise a workout log was planned from.
  func exerciseIndex(for log: WorkoutLogDocument, split: Int) -> Int? {
    exercises.firstIndex { ($0.split == split || $0.split < 0) && $0.name == log.exerciseName }
  }

  // MARK: - Summary

  func summary() -> SampleSummary {
    let records = store.appended
    var byDevice: [String: Int] = [:]
    var legacy: [String: Int] = [:]
    for record in records {
      byDevice[record.device, default: 0] += 1
      if record.version < (JournalEvent.currentVersions[record.type] ?? 1) {
        legacy["\(record.type) v\(record.version)", default: 0] += 1
      }
    }
    let state = journal.state()
    let live = state.liveWorkouts
    return SampleSummary(
      seed: seed,
      eventCount: records.count,
      eventsByDevice: byDevice,
      legacyEvents: legacy,
      splitCount: state.liveSplits.count,
      workoutCount: live.count,
      deletedWorkoutCount: state.workouts.values.filter { $0.deletedAt != nil }.count,
      setCount: live.reduce(0) { total, workout in
        total + workout.document.logs.reduce(0) { $0 + ($1.setEntries?.count ?? 0) }
      },
      firstEvent: Date(milliseconds: records.first?.milliseconds ?? 0),
      lastEvent: Date(milliseconds: records.last?.milliseconds ?? 0)
    )
  }
}
