import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

@Suite struct RebuildTests {
  let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

  /// A split and a workout with two sets done.
  func training() throws -> JournalHarness {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "upper body", timeZone: "Europe/Paris"))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5)))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 4)))
    return h
  }

  @Test func writesTheTreeTheStateRenders() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild")
    let report = try Rebuild.run(journal: h.journal, output: out)
    let expected = try expectedTree(h.journal)
    try expectTree(out, equals: expected)
    #expect(report.mode == .full)
    #expect(report.written == expected.keys.sorted())
    #expect(report.conflicts.isEmpty && report.removed.isEmpty && report.unchangedCount == 0)
    #expect(expected.keys.contains { $0.hasPrefix("Splits/") })
    #expect(expected.keys.contains { $0.hasPrefix("Workouts/2026/01/") })
  }

  @Test func filesAndFoldersArePrivate() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild")
    try Rebuild.run(journal: h.journal, output: out)
    let manager = FileManager.default
    for path in try documentFiles(in: out).keys + [Rebuild.manifestName + "/log"] {
      let mode =
        try manager.attributesOfItem(atPath: out.appendingPathComponent(path).path)[
          .posixPermissions
        ] as? Int
      #expect(mode == 0o600, "\(path)")
    }
    for folder in ["Splits", "Workouts", "Workouts/2026", "Workouts/2026/01", Rebuild.manifestName]
    {
      let mode =
        try manager.attributesOfItem(atPath: out.appendingPathComponent(folder).path)[
          .posixPermissions
        ] as? Int
      #expect(mode == 0o700, "\(folder)")
    }
  }

  @Test func fullReplaysAndAgrees() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild")
    try Rebuild.run(journal: h.journal, output: out)
    let report = try Rebuild.run(journal: h.journal, output: out, full: true)
    #expect(report.mode == .full)
    #expect(report.written.isEmpty)
    #expect(try report.unchangedCount == expectedTree(h.journal).count)
  }

  @Test func progressEndsAtItsTotal() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild")
    nonisolated(unsafe) var calls: [(Int, Int)] = []
    try Rebuild.run(journal: h.journal, output: out, progress: { calls.append(($0, $1)) })
    let last = try #require(calls.last)
    #expect(last.0 == last.1)
    #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.0 <= $1.0 })
  }
}

// MARK: - Ownership

extension RebuildTests {
  @Test func neverTouchesFilesItDoesNotOwn() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild")
    let foreign = ["Notes.txt", "Workouts/2026/01/mine.json", "Splits/extra.json"]
    for path in foreign {
      let url = out.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try Data("keep \(path)".utf8).write(to: url)
    }
    try Rebuild.run(journal: h.journal, output: out)
    try h.run(.deleteWorkout(workout: try h.workout().id))
    try Rebuild.run(journal: h.journal, output: out, full: true)
    for path in foreign {
      #expect(try Data(contentsOf: out.appendingPathComponent(path)) == Data("keep \(path)".utf8))
    }
  }

  @Test func adoptsAnIdenticalFileAndReportsADifferentOne() throws {
    let h = try training()
    let expected = try expectedTree(h.journal)
    let out = try makeTemporaryDirectory("rebuild")
    let split = try #require(expected.keys.first { $0.hasPrefix("Splits/") })
    let workout = try #require(expected.keys.first { $0.hasPrefix("Workouts/") })
    for (path, bytes) in [(split, expected[split]), (workout, Data("theirs".utf8))] {
      let url = out.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try bytes?.write(to: url)
    }
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.adopted == [split])
    #expect(report.conflicts.map(\.path) == [workout])
    #expect(report.hasConflicts)
    #expect(try Data(contentsOf: out.appendingPathComponent(workout)) == Data("theirs".utf8))
  }

  @Test func refusesSymbolicLinksInsideTheOutput() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild")
    let elsewhere = try makeTemporaryDirectory("elsewhere")
    try FileManager.default.createSymbolicLink(
      at: out.appendingPathComponent("Workouts"),
      withDestinationURL: elsewhere
    )
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.conflicts.count == 1)
    #expect(report.conflicts.allSatisfy { $0.path.hasPrefix("Workouts/") })
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
  }

  @Test func aPathFromAHostileIdIsNeverWritten() throws {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody()
    let created = try #require(h.store.stored.first)
    var hostile = created
    hostile.id = "01JZZZZZZZZZZZZZZZZZZZZZZZ"
    hostile.stream = "split:../../escaped"
    hostile.milliseconds += 1000
    h.store.deliver([hostile])
    try h.journal.reload()
    let parent = try makeTemporaryDirectory("rebuild")
    let out = parent.appendingPathComponent("out")
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.conflicts.map(\.path) == ["Splits/../../escaped.json"])
    #expect(
      !FileManager.default.fileExists(atPath: parent.appendingPathComponent("escaped.json").path)
    )
  }
}

extension RebuildTests {
  @Test func twoRebuildsNeverWriteTheSameFolderAtOnce() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild")
    let holder = DocumentTreeWriter(root: out)
    let lock = try holder.lock(".journal-rebuild.lock")
    #expect {
      try Rebuild.run(journal: h.journal, output: out)
    } throws: { ($0 as? RebuildError)?.kind == .busy }
    holder.unlock(lock)
    try Rebuild.run(journal: h.journal, output: out)
    try expectTree(out, equals: try expectedTree(h.journal))
  }
}

// MARK: - Quarantine

extension RebuildTests {
  @Test func documentsOfAQuarantinedStreamAreLeftExactlyAsTheyAre() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild")
    try Rebuild.run(journal: h.journal, output: out)
    let workout = h.journal.state().liveWorkouts[0]
    let url = out.appendingPathComponent(workout.path)
    try Data("as the newer app left it".utf8).write(to: url)

    let unreadable = StoredEvent(
      id: "01JZZZZZZZZZZZZZZZZZZZZZZZ",
      device: "newer-phone",
      sequence: 1,
      milliseconds: h.now.milliseconds,
      counter: 0,
      stream: "workout:\(workout.document.id)",
      type: "set.completed",
      version: 99,
      payload: .object([:]),
      location: "memory/newer-phone:1"
    )
    h.store.deliver([unreadable])
    try h.journal.reload()
    #expect(h.journal.quarantined["workout:\(workout.document.id)"] != nil)

    for full in [false, true] {
      let report = try Rebuild.run(journal: h.journal, output: out, full: full)
      #expect(report.keptQuarantined == [workout.path])
      #expect(report.removed.isEmpty && report.conflicts.isEmpty)
      #expect(try Data(contentsOf: url) == Data("as the newer app left it".utf8))
    }
  }
}

// MARK: - As of

extension RebuildTests {
  @Test func asOfAnEventOrATimeWritesThatMomentsTree() throws {
    let h = try training()
    let middle = try #require(h.journal.history.dropLast().last)
    try h.run(.deleteWorkout(workout: try h.workout().id))
    let points: [Replayer.Point] = [
      .event(middle.id), .time(middle.recordedAt + 30), .time(t0 + 86_400 * 40),
    ]
    for point in points {
      let out = try makeTemporaryDirectory("rebuild")
      try Rebuild.run(journal: h.journal, output: out, asOf: point)
      try expectTree(out, equals: try expectedTree(h.journal, asOf: point), "\(point)")
      // The same folder brought to now, then back to the point.
      try Rebuild.run(journal: h.journal, output: out)
      try expectTree(out, equals: try expectedTree(h.journal), "\(point) then now")
      try Rebuild.run(journal: h.journal, output: out, asOf: point)
      try expectTree(out, equals: try expectedTree(h.journal, asOf: point), "\(point) again")
    }
  }
}
