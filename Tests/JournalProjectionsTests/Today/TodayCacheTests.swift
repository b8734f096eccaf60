import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

/// A journal folder on disk with a clock the test moves, opened afresh for
/// every question, as the command line does.
final class DiskJournal: @unchecked Sendable {
  let url: URL
  private(set) var milliseconds: Int64
  private var ids: ULIDGenerator

  init(sampleSeed: UInt64) throws {
    url = try makeTemporaryDirectory("today-cache").appendingPathComponent("Journal")
    try SampleJournal.generate(into: url, seed: sampleSeed)
    ids = ULIDGenerator(random: SplitMix64(seed: sampleSeed))
    milliseconds = 0
    milliseconds = (try open().state().now?.milliseconds ?? 0) + 3_600_000
  }

  var now: Date { Date(milliseconds: milliseconds) }

  func advance(hours: Double) { milliseconds += Int64(hours * 3_600_000) }

  func open() throws -> Journal {
    var options = DeviceWriter.Options()
    options.durability = .none
    let clock = milliseconds
    options.wallClock = { clock }
    return try Journal(store: FileEventStore(url: url, options: options)) { [self] in
      ids.next(milliseconds: milliseconds).description
    }
  }

  /// What `journal today` answers: from the cache when it can, else from the
  /// whole journal, writing the cache for next time.
  func today(at moment: Date, in zone: TimeZone) throws -> (TodaySnapshot, cached: Bool) {
    if let cached = TodayCache.snapshot(journalAt: url, at: moment, timeZone: zone) {
      return (cached, true)
    }
    let journal = try open()
    TodayCache.save(journal, journalAt: url)
    return (TodayProjection.snapshot(of: journal.state(), at: moment, timeZone: zone), false)
  }

  /// The answer from the whole journal, touching nothing.
  func expected(at moment: Date, in zone: TimeZone) throws -> TodaySnapshot {
    TodayProjection.snapshot(of: try open().state(), at: moment, timeZone: zone)
  }

  var cacheFolder: URL { url.appendingPathComponent(TodayCache.folder) }
}

@Suite struct TodayCacheTests {
  static let zones = ["UTC", "Pacific/Kiritimati", "America/Adak", "Europe/Paris"].compactMap {
    TimeZone(identifier: $0)
  }

  /// One random step a lifter might take after the cache was written; returns
  /// the journal it was taken on.
  static func step(_ disk: DiskJournal, _ rng: inout SplitMix64) throws -> Journal {
    let journal = try disk.open()
    let state = journal.state()
    let open = state.liveWorkouts.last { !$0.document.status.isResolved }
    let device = rng.next() % 3 == 0 ? "watch" : "phone"
    do {
      switch rng.next() % 10 {
      case 0, 1:
        let splits = state.liveSplits
        guard !splits.isEmpty, open == nil else { break }
        let split = splits[Int(rng.next() % UInt64(splits.count))]
        try journal.execute(
          .startWorkout(split: split.document.id, timeZone: "Europe/Paris"),
          device: device,
          now: disk.now
        )
      case 2, 3, 4:
        guard let open else { break }
        let log = open.document.logs[Int(rng.next() % UInt64(max(1, open.document.logs.count)))]
        try journal.execute(
          .completeSet(
            workout: open.document.id,
            exercise: log.exerciseName,
            SetActuals(reps: Int(rng.next() % 10) + 1, weight: Double(rng.next() % 100))
          ),
          device: device,
          now: disk.now
        )
      case 5:
        guard let open else { break }
        try journal.execute(.endWorkout(workout: open.document.id), device: device, now: disk.now)
      case 6:
        try journal.undo(device: device, now: disk.now)
      case 7:
        try journal.redo(device: device, now: disk.now)
      case 8:
        // An old workout edited: the cache left it out, so it must step aside.
        let old = state.liveWorkouts.dropLast(5).last
        guard let old, let log = old.document.logs.first else { break }
        try journal.execute(
          .adjustSet(
            workout: old.document.id,
            exercise: log.exerciseName,
            set: 1,
            SetActuals(reps: 3)
          ),
          device: device,
          now: disk.now
        )
      default:
        disk.advance(hours: Double(rng.next() % 40))
      }
    } catch is CommandError {
      // A refused command appends nothing; the next step goes on.
    }
    disk.advance(hours: 0.1)
    return journal
  }

  @Test(arguments: [UInt64(1), 2])
  func theCacheAnswersExactlyAsTheWholeJournalDoes(seed: UInt64) throws {
    let disk = try DiskJournal(sampleSeed: seed)
    var rng = SplitMix64(seed: seed &* 7919)
    var hits: [Double: Int] = [:]
    let steps = 8
    for _ in 0..<steps {
      let whole = try Self.step(disk, &rng).state()
      for offset: Double in [0, -30, 50, -24 * 12] {
        let zone = Self.zones[Int(rng.next() % UInt64(Self.zones.count))]
        let moment = disk.now + offset * 3600
        let expected = TodayProjection.snapshot(of: whole, at: moment, timeZone: zone)
        let (answer, cached) = try disk.today(at: moment, in: zone)
        #expect(answer == expected, "seed \(seed), \(moment), \(zone.identifier)")
        if cached { hits[offset, default: 0] += 1 }
      }
    }
    // Questions about the present are mostly answered from the cache (not
    // after an undo of older events or an edit of an old workout); a day
    // twelve days back never is.
    #expect(hits[0, default: 0] * 2 > steps, "\(hits)")
    #expect(hits[-24 * 12] == nil, "\(hits)")
  }

  @Test func aFreshCacheAnswersWithoutReadingHistoryAndNewEventsAreFoldedOnTop() throws {
    let disk = try DiskJournal(sampleSeed: 4)
    let utc = TimeZone.gmt
    #expect(try disk.today(at: disk.now, in: utc).cached == false)
    #expect(try disk.today(at: disk.now, in: utc).cached == true)
    let journal = try disk.open()
    let split = try #require(journal.state().liveSplits.first)
    if let open = journal.state().liveWorkouts.last(where: { !$0.document.status.isResolved }) {
      try journal.execute(.endWorkout(workout: open.document.id), device: "phone", now: disk.now)
    }
    try journal.execute(
      .startWorkout(split: split.document.id, timeZone: "UTC"),
      device: "phone",
      now: disk.now
    )
    let (answer, cached) = try disk.today(at: disk.now, in: utc)
    #expect(cached)
    #expect(answer == (try disk.expected(at: disk.now, in: utc)))
    #expect(answer.inProgress?.splitName == split.document.name)
  }

  @Test func undoingAnEventFromBeforeTheCacheReadsTheWholeJournal() throws {
    let disk = try DiskJournal(sampleSeed: 5)
    _ = try disk.today(at: disk.now, in: .gmt)
    let journal = try disk.open()
    try journal.undo(device: "phone", now: disk.now)
    #expect(TodayCache.snapshot(journalAt: disk.url, at: disk.now, timeZone: .gmt) == nil)
    let (answer, cached) = try disk.today(at: disk.now, in: .gmt)
    #expect(!cached)
    #expect(answer == (try disk.expected(at: disk.now, in: .gmt)))
    #expect(try disk.today(at: disk.now, in: .gmt).cached)
  }

  /// A cache written after undoing the day's only workout answers.
  ///
  /// After two rest days a workout is started and undone: the last event is the revert, and
  /// the workout last trained is far outside the cache's window. A cache written then (as
  /// `journal undo` writes it) must still answer, so it keeps the newest live workout.
  @Test func aCacheWrittenAfterUndoingTheDaysOnlyWorkoutAnswers() throws {
    let disk = try DiskJournal(sampleSeed: 7)
    disk.advance(hours: 60)
    let journal = try disk.open()
    if let open = journal.state().liveWorkouts.last(where: { !$0.document.status.isResolved }) {
      try journal.execute(.endWorkout(workout: open.document.id), device: "phone", now: disk.now)
    }
    disk.advance(hours: 1)
    let split = try #require(journal.state().liveSplits.first)
    let later = try disk.open()
    try later.execute(
      .startWorkout(split: split.document.id, timeZone: "UTC"),
      device: "phone",
      now: disk.now
    )
    try later.undo(device: "phone", now: disk.now)
    TodayCache.save(later, journalAt: disk.url)
    let cached = TodayCache.snapshot(journalAt: disk.url, at: disk.now, timeZone: .gmt)
    #expect(cached != nil)
    #expect(cached == (try disk.expected(at: disk.now, in: .gmt)))
  }

  @Test func aChangedLogOrACorruptCacheIsNotTrusted() throws {
    let disk = try DiskJournal(sampleSeed: 6)
    _ = try disk.today(at: disk.now, in: .gmt)
    #expect(try disk.today(at: disk.now, in: .gmt).cached)

    // The cache's own bytes damaged.
    let state = disk.cacheFolder.appendingPathComponent("state")
    var bytes = try Data(contentsOf: state)
    bytes[bytes.count / 2] ^= 0x20
    try bytes.write(to: state)
    #expect(TodayCache.snapshot(journalAt: disk.url, at: disk.now, timeZone: .gmt) == nil)
    _ = try disk.today(at: disk.now, in: .gmt)
    #expect(try disk.today(at: disk.now, in: .gmt).cached)

    // The last record folded replaced by another: history changed under the cache.
    let phone = disk.url.appendingPathComponent("devices/phone")
    let segment = try #require(
      try FileManager.default.contentsOfDirectory(atPath: phone.path).filter {
        $0.hasSuffix(".jsonl")
      }
      .max()
    )
    let file = phone.appendingPathComponent(segment)
    var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    lines.removeLast()
    try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    #expect(TodayCache.snapshot(journalAt: disk.url, at: disk.now, timeZone: .gmt) == nil)
  }

  @Test func theCacheIsPrivate() throws {
    let disk = try DiskJournal(sampleSeed: 7)
    _ = try disk.today(at: disk.now, in: .gmt)
    for (path, mode) in [(disk.cacheFolder.path, 0o700), (disk.cacheFolder.path + "/state", 0o600)]
    {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == mode, "\(path)")
    }
  }
}
