import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

// MARK: - Incremental rebuilds from the saved state

extension RebuildTests {
  /// Random multi-device histories (late arrivals, undo and redo, deletions, a quarantined
  /// stream), delivered to the files in random parts with a rebuild from the saved state
  /// after each: every time the folder holds exactly what a full rebuild writes.
  @Test(arguments: 0..<6 as Range<UInt64>)
  func incrementalFromTheSavedStateEqualsAFullRebuild(seed: UInt64) throws {
    var session = try RandomSession(seed: seed)
    for _ in 0..<120 { session.step() }
    var random = SplitMix64(seed: seed ^ 0x39)
    var deliveries = LateDeliveries(try session.harness.store.readHistory().events)
    let mirror = try FileMirror()
    let out = try makeTemporaryDirectory("rebuild-state")
    var modes: [RebuildReport.Mode] = []
    var quarantined: String?
    var round = 0
    while !deliveries.isEmpty {
      round += 1
      let delivered = deliveries.next(using: &random)
      try mirror.append(delivered)
      // Once, an event this build cannot read quarantines a workout already rebuilt.
      if quarantined == nil, round > 3, Int.random(in: 0..<4, using: &random) == 0,
        let workout = try documentFiles(in: out).keys.sorted().first(where: {
          $0.hasPrefix("Workouts/")
        }).flatMap(RelativePath.stream(of:))
      {
        quarantined = workout
        try mirror.append([unreadableEvent(in: workout, at: delivered.last?.milliseconds ?? 0)])
      }
      // Now and then a full replay writes the same folder: the next rebuild starts without
      // a record.
      let report =
        Int.random(in: 0..<8, using: &random) == 0
        ? try Rebuild.run(journal: mirror.journal(), output: out, full: true)
        : try mirror.rebuild(into: out)
      modes.append(report.mode)
      #expect(report.conflicts.isEmpty, "seed \(seed) round \(round): \(report.conflicts)")
      // The state reads the whole history again when a revert takes the latest event out of
      // effect: every stream is then folded from it.
      #expect(
        [nil, RebuildRun.stateReadAgain].contains(report.foldedEveryStreamBecause),
        "seed \(seed) round \(round)"
      )
      try expectDocuments(
        out,
        equal: try mirror.expectedTree(),
        except: quarantined,
        "seed \(seed) round \(round)"
      )
    }
    #expect(modes.filter { $0 == .incremental }.count > modes.count / 2, "seed \(seed): \(modes)")
    // The whole tree, against a full rebuild into an empty folder.
    let full = try makeTemporaryDirectory("rebuild-state-full")
    try Rebuild.run(journal: mirror.journal(), output: full, full: true)
    #expect(
      try documentFiles(in: out).filter { RelativePath.stream(of: $0.key) != quarantined }
        == documentFiles(in: full),
      "seed \(seed)"
    )
  }

  /// An event of `stream` at a version no build knows: it quarantines the stream.
  func unreadableEvent(in stream: String, at milliseconds: Int64) -> StoredEvent {
    StoredEvent(
      id: "01JZZZZZZZZZZZZZZZZZZZZZZZ",
      device: "newer-phone",
      sequence: 1,
      milliseconds: milliseconds,
      counter: 0,
      stream: stream,
      type: "set.completed",
      version: 99,
      payload: .object([:]),
      location: "memory/newer-phone:1"
    )
  }

  /// Expects the documents of `out`, those of the quarantined stream `except` left out, to
  /// be `expected`.
  func expectDocuments(
    _ out: URL,
    equal expected: [String: Data],
    except quarantined: String?,
    _ comment: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let actual = try documentFiles(in: out).filter {
      RelativePath.stream(of: $0.key) != quarantined
    }
    #expect(
      actual.keys.sorted() == expected.keys.sorted(),
      "\(comment)",
      sourceLocation: sourceLocation
    )
    for (path, bytes) in expected where actual[path] != nil && actual[path] != bytes {
      Issue.record("\(comment) \(path) differs", sourceLocation: sourceLocation)
    }
  }

  /// A journal in files rebuilt once into a folder, then given more events.
  func rebuiltThenMoved() throws -> (FileMirror, JournalHarness, URL) {
    var session = try RandomSession(seed: 7)
    for _ in 0..<60 { session.step() }
    let mirror = try FileMirror()
    let out = try makeTemporaryDirectory("rebuild-damaged")
    try mirror.rebuild(session.harness, into: out)
    // A second rebuild, so that the record's position is past the change list's start.
    try session.harness.makeUpperBody(name: "Between")
    #expect(try mirror.rebuild(session.harness, into: out).mode == .incremental)
    for _ in 0..<20 { session.step() }
    try session.harness.makeUpperBody(name: "After")
    try mirror.sync(session.harness)
    return (mirror, session.harness, out)
  }

  struct Damage: Sendable, CustomTestStringConvertible {
    let name: String
    /// Part of the reason the rebuild gives; nil when it gives none (nothing to start from).
    let expected: String?
    let apply: @Sendable (_ journal: URL, _ out: URL) throws -> Void
    var testDescription: String { name }
  }

  static func changeList(_ journal: URL) -> URL {
    journal.appendingPathComponent(SavedState.folder).appendingPathComponent(ChangeList.path)
  }

  static func flip(_ url: URL, at offset: (Int) -> Int) throws {
    var bytes = [UInt8](try Data(contentsOf: url))
    let index = offset(bytes.count)
    bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
    try Data(bytes).write(to: url)
  }

  static let damages: [Damage] = [
    Damage(name: "record flipped", expected: "record") { _, out in
      try flip(out.appendingPathComponent(RebuildRecord.path)) { $0 / 2 }
    },
    Damage(name: "record cut short", expected: "record") { _, out in
      let url = out.appendingPathComponent(RebuildRecord.path)
      try Data(try Data(contentsOf: url).dropLast(5)).write(to: url)
    },
    Damage(name: "record removed", expected: nil) { _, out in
      try FileManager.default.removeItem(at: out.appendingPathComponent(RebuildRecord.path))
    },
    Damage(name: "change list flipped after the record", expected: "change list") { journal, _ in
      // The state has not read the new events yet: the rebuild appends them after this.
      try flip(changeList(journal)) { $0 - 3 }
    },
    Damage(name: "change list's epoch changed", expected: "change list") { journal, _ in
      try flip(changeList(journal)) { _ in 30 }
    },
    Damage(name: "change list cut and written again", expected: "change list") { journal, _ in
      let url = changeList(journal)
      let bytes = try Data(contentsOf: url)
      let header = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? 0
      try Data(bytes.prefix(header + 1) + ChangeList.line("workout:01JOTHER")).write(to: url)
    },
    Damage(name: "change list removed", expected: "change list") { journal, _ in
      try FileManager.default.removeItem(at: changeList(journal))
    },
    Damage(name: "a stream file of the state damaged", expected: nil) { journal, _ in
      let folder = journal.appendingPathComponent(SavedState.folder + "/streams")
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where name.hasPrefix("workout-") {
        try flip(folder.appendingPathComponent(name)) { $0 / 2 }
      }
    },
  ]

  /// A damaged record or change list makes the rebuild fold every stream of the state, and
  /// the folder is still exactly what a full rebuild writes; the next rebuild is
  /// incremental again.
  @Test(arguments: damages)
  func aDamagedRecordOrChangeListFoldsEveryStream(_ damage: Damage) throws {
    let (mirror, harness, out) = try rebuiltThenMoved()
    try damage.apply(mirror.url, out)
    let report = try mirror.rebuild(into: out)
    #expect(report.mode == .full)
    if let expected = damage.expected {
      let reason = try #require(report.foldedEveryStreamBecause)
      #expect(reason.contains(expected), "\(reason)")
    }
    #expect(report.conflicts.isEmpty, "\(report.conflicts)")
    try expectTree(out, equals: try mirror.expectedTree())
    try harness.makeUpperBody(name: "Later")
    let next = try mirror.rebuild(harness, into: out)
    #expect(next.mode == .incremental, "\(next.foldedEveryStreamBecause ?? "")")
    #expect(next.written.count == 1)
    try expectTree(out, equals: try mirror.expectedTree())
  }

  /// A state saved without a change list (by an earlier build) gets one from the rebuild,
  /// with nothing appended since: the next rebuild is incremental.
  @Test func aStateWithoutAChangeListIsGivenOne() throws {
    let h = try training()
    let mirror = try FileMirror()
    let out = try makeTemporaryDirectory("rebuild")
    try mirror.rebuild(h, into: out)
    try FileManager.default.removeItem(at: Self.changeList(mirror.url))
    let report = try mirror.rebuild(into: out)
    #expect(report.mode == .full && report.written.isEmpty)
    #expect(FileManager.default.fileExists(atPath: Self.changeList(mirror.url).path))
    #expect(try mirror.rebuild(into: out).mode == .incremental)
  }

  /// Two folders rebuilt from one journal at different times: each reads the change list
  /// from where it stopped.
  @Test func twoOutputFoldersRebuiltFromOneJournalStayCorrect() throws {
    var session = try RandomSession(seed: 21)
    let mirror = try FileMirror()
    let folders = [
      try makeTemporaryDirectory("rebuild-first"), try makeTemporaryDirectory("rebuild-second"),
    ]
    var random = SplitMix64(seed: 21)
    for round in 0..<12 {
      for _ in 0..<10 { session.step() }
      try mirror.sync(session.harness)
      for out in folders where Bool.random(using: &random) || round == 11 {
        let report = try mirror.rebuild(into: out)
        #expect(report.conflicts.isEmpty)
        try expectTree(
          out,
          equals: try mirror.expectedTree(),
          "round \(round) \(out.lastPathComponent)"
        )
      }
    }
  }

  @Test func aSecondRunFoldsNothingAndWritesNothing() throws {
    let h = try training()
    let mirror = try FileMirror()
    let out = try makeTemporaryDirectory("rebuild")
    let first = try mirror.rebuild(h, into: out)
    #expect(first.mode == .full && first.foldedEveryStreamBecause == nil)
    let report = try mirror.rebuild(into: out)
    #expect(report.mode == .incremental)
    #expect(report.eventsFolded == 0)
    #expect(report.written.isEmpty && report.unchangedCount == 0)
  }

  @Test func oneNewEventRefoldsOnlyItsWorkout() throws {
    let h = try training()
    let mirror = try FileMirror()
    let out = try makeTemporaryDirectory("rebuild")
    try mirror.rebuild(h, into: out)
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 3)))
    let report = try mirror.rebuild(h, into: out)
    #expect(report.mode == .incremental)
    // The workout's stream: every event it holds, the new one among them.
    let workout = h.journal.state().liveWorkouts[0]
    #expect(
      report.eventsFolded
        == h.journal.history.filter { $0.stream == "workout:\(workout.document.id)" }.count
    )
    #expect(report.written == [workout.path])
    try expectTree(out, equals: try mirror.expectedTree())
  }

  @Test func aDeletedWorkoutBecomesAStubThenGoesAfterTheGrace() throws {
    let h = try training()
    let mirror = try FileMirror()
    let out = try makeTemporaryDirectory("rebuild")
    try mirror.rebuild(h, into: out)
    let workout = try h.workout()
    let live = h.journal.state().liveWorkouts[0].path
    try h.run(.deleteWorkout(workout: workout.id))
    var report = try mirror.rebuild(h, into: out)
    #expect(report.mode == .incremental)
    #expect(report.removed == [live])
    #expect(report.written == ["Stubs/" + live])
    try expectTree(out, equals: try mirror.expectedTree())

    // 31 days later, one event elsewhere moves `now` past the stub's grace.
    h.now += 31 * 86_400
    try h.makeUpperBody(name: "Legs")
    report = try mirror.rebuild(h, into: out)
    #expect(report.mode == .incremental)
    #expect(report.removed == ["Stubs/" + live])
    try expectTree(out, equals: try mirror.expectedTree())
  }

  @Test func aRemovedLogTombstoneExpiresOnAnIncrementalRun() throws {
    let h = try training()
    try h.run(.removeLog(workout: nil, exercise: "Plank"))
    let mirror = try FileMirror()
    let out = try makeTemporaryDirectory("rebuild")
    try mirror.rebuild(h, into: out)
    h.now += 30 * 86_400 + 3600
    try h.makeUpperBody(name: "Legs")
    let report = try mirror.rebuild(h, into: out)
    #expect(report.mode == .incremental)
    #expect(report.written.contains(h.journal.state().liveWorkouts[0].path))
    try expectTree(out, equals: try mirror.expectedTree())
  }

  /// A conflict leaves no record: the next rebuild checks every document and reports it
  /// again.
  @Test func aConflictIsReportedUntilResolved() throws {
    let h = try training()
    let mirror = try FileMirror()
    let out = try makeTemporaryDirectory("rebuild")
    try mirror.rebuild(h, into: out)
    let path = h.journal.state().liveWorkouts[0].path
    let url = out.appendingPathComponent(path)
    try Data("edited".utf8).write(to: url)
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 3)))
    var report = try mirror.rebuild(h, into: out)
    #expect(report.conflicts.map(\.path) == [path])
    #expect(try Data(contentsOf: url) == Data("edited".utf8))

    // Reported again by the next rebuild, even with nothing new for that workout.
    try h.makeUpperBody(name: "Legs")
    report = try mirror.rebuild(h, into: out)
    #expect(report.conflicts.map(\.path) == [path])
    #expect(report.mode == .full)

    try FileManager.default.removeItem(at: url)
    report = try mirror.rebuild(into: out)
    #expect(report.conflicts.isEmpty)
    try expectTree(out, equals: try mirror.expectedTree())
    #expect(try mirror.rebuild(into: out).mode == .incremental)
  }

  /// Interrupted after its first write, a rebuild from the state leaves files the next
  /// recognises as its own, even after more events came.
  @Test func anInterruptedRebuildFromTheStateIsCompletedByTheNext() throws {
    let (mirror, harness, out) = try rebuiltThenMoved()
    var options = RebuildOptions()
    options._failAfterWrites = 1
    #expect(throws: RebuildError.self) { try mirror.rebuild(into: out, options: options) }
    #expect(try ProjectionManifest.open(DocumentTreeWriter(root: out)).isInterrupted)
    try harness.makeUpperBody(name: "Meanwhile")
    let report = try mirror.rebuild(harness, into: out)
    #expect(report.foldedEveryStreamBecause == "the last rebuild was interrupted")
    #expect(report.conflicts.isEmpty, "\(report.conflicts)")
    #expect(report.cleanedTemporaryFiles == 1)
    try expectTree(out, equals: try mirror.expectedTree())
  }

  /// The checkpoint folder of earlier builds is removed; nothing else outside the
  /// documents is touched.
  @Test func theFormerCheckpointFolderIsRemoved() throws {
    let h = try training()
    let mirror = try FileMirror()
    let out = try makeTemporaryDirectory("rebuild")
    let former = out.appendingPathComponent(".journal-checkpoint/streams")
    try FileManager.default.createDirectory(at: former, withIntermediateDirectories: true)
    try Data("head".utf8).write(to: out.appendingPathComponent(".journal-checkpoint/head"))
    try Data("keep".utf8).write(to: out.appendingPathComponent(".other"))
    try mirror.rebuild(h, into: out)
    #expect(
      !FileManager.default.fileExists(
        atPath: out.appendingPathComponent(".journal-checkpoint").path
      )
    )
    #expect(try Data(contentsOf: out.appendingPathComponent(".other")) == Data("keep".utf8))
  }

  /// The record reads back as written, and a record damaged anywhere is refused.
  @Test func aRecordReadsBackAndADamagedOneIsRefused() throws {
    var record = RebuildRecord(
      changes: ChangeList.Position(
        epoch: "0123456789abcdef",
        offset: 4096,
        check: "fedcba9876543210"
      ),
      now: 1_767_225_600_000
    )
    record.expiring = ["workout:01JA": 1_769_817_600_000, "split:01JB": 1_769_817_600_001]
    record.anomalies = ["workout:01JA": 2, RebuildRecord.splitsKey: 1]
    let bytes = record.encoded()
    #expect(RebuildRecord(bytes) == record)
    for index in bytes.indices {
      var damaged = bytes
      damaged[index] ^= 0x04
      #expect(RebuildRecord(damaged) == nil, "byte \(index)")
    }
    #expect(RebuildRecord(Array(bytes.dropLast(3))) == nil)
  }
}
