import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

// MARK: - Checkpoint: a cache, never a source of truth

extension RebuildTests {
  /// After every few random steps, an incremental rebuild leaves exactly the
  /// tree the state renders; at the end a full rebuild elsewhere agrees.
  @Test(arguments: 0..<6 as Range<UInt64>)
  func incrementalEqualsFull(seed: UInt64) throws {
    var session = try RandomSession(seed: seed)
    let out = try makeTemporaryDirectory("rebuild-incremental")
    var modes: [RebuildReport.Mode] = []
    for round in 0..<25 {
      for _ in 0..<4 { session.step() }
      let report = try Rebuild.run(journal: session.journal, output: out)
      modes.append(report.mode)
      // Random sessions only append, so a revert of an older event is the
      // only reason to fold from the start.
      if let reason = report.checkpointIgnoredBecause {
        #expect(reason == "a new revert names an event before the checkpoint", "seed \(seed)")
      }
      #expect(report.conflicts.isEmpty, "seed \(seed) round \(round): \(report.conflicts)")
      try expectTree(out, equals: try expectedTree(session.journal), "seed \(seed) round \(round)")
    }
    #expect(modes.dropFirst().contains(.incremental), "seed \(seed): \(modes)")
    let full = try makeTemporaryDirectory("rebuild-full")
    try Rebuild.run(journal: session.journal, output: full, full: true)
    #expect(try documentFiles(in: out) == documentFiles(in: full), "seed \(seed)")
  }

  @Test func streamStatesRoundTripExactly() throws {
    var session = try RandomSession(seed: 42)
    for _ in 0..<150 { session.step() }
    let state = session.journal.state()
    #expect(!state.workouts.isEmpty)
    for split in state.splits.values {
      let bytes = try Checkpoint.encodeState(split)
      #expect(try Checkpoint.decodeState(SplitState.self, from: bytes) == split)
    }
    for workout in state.workouts.values {
      let bytes = try Checkpoint.encodeState(workout)
      #expect(try Checkpoint.decodeState(WorkoutState.self, from: bytes) == workout)
    }
  }

  struct Damage: Sendable, CustomTestStringConvertible {
    let name: String
    let expected: String
    let apply: @Sendable (URL) throws -> Void
    var testDescription: String { name }
  }

  static let damages: [Damage] = [
    Damage(name: "flipped byte", expected: "corrupt") { out in
      let url = out.appendingPathComponent(".journal-checkpoint/head")
      var bytes = [UInt8](try Data(contentsOf: url))
      bytes[40] ^= 0x01
      try Data(bytes).write(to: url)
    },
    Damage(name: "truncated", expected: "truncated") { out in
      let url = out.appendingPathComponent(".journal-checkpoint/head")
      try Data(try Data(contentsOf: url).prefix(30)).write(to: url)
    },
    Damage(name: "cut at the checksum", expected: "truncated") { out in
      let url = out.appendingPathComponent(".journal-checkpoint/head")
      try Data(try Data(contentsOf: url).dropLast(5)).write(to: url)
    },
    Damage(name: "stream file edited", expected: "stream file") { out in
      let folder = out.appendingPathComponent(".journal-checkpoint/streams")
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        try Data("{}".utf8).write(to: folder.appendingPathComponent(name))
      }
    },
    Damage(name: "another manifest", expected: "manifest") { out in
      // A later commit the checkpoint did not see.
      let url = out.appendingPathComponent(Rebuild.manifestName + "/log")
      let manifest = try ProjectionManifest.open(DocumentTreeWriter(root: out))
      try manifest.set("Splits/gone.json", String(repeating: "0", count: 64))
      try manifest.commit()
      #expect(FileManager.default.fileExists(atPath: url.path))
    },
    Damage(name: "index bucket edited", expected: "index") { out in
      let folder = out.appendingPathComponent(".journal-checkpoint/index")
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where !name.hasPrefix("page-") {
        try Data("workout:x 00 -\n".utf8).write(to: folder.appendingPathComponent(name))
      }
    },
    Damage(name: "index page edited", expected: "index") { out in
      let folder = out.appendingPathComponent(".journal-checkpoint/index")
      let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.hasPrefix("page-") }
      #expect(!pages.isEmpty)
      for name in pages {
        try Data("00 \(String(repeating: "0", count: 64))\n".utf8)
          .write(to: folder.appendingPathComponent(name))
      }
    },
  ]

  @Test(arguments: damages)
  func aDamagedCheckpointIsDetectedAndIgnored(_ damage: Damage) throws {
    var session = try RandomSession(seed: 7)
    for _ in 0..<60 { session.step() }
    let out = try makeTemporaryDirectory("rebuild-damaged")
    try Rebuild.run(journal: session.journal, output: out)
    for _ in 0..<20 { session.step() }
    try session.harness.makeUpperBody(name: "After")
    try damage.apply(out)
    let report = try Rebuild.run(journal: session.journal, output: out)
    #expect(report.mode == .full)
    let reason = try #require(report.checkpointIgnoredBecause)
    #expect(reason.contains(damage.expected), "\(reason)")
    try expectTree(out, equals: try expectedTree(session.journal))
    // The rebuild saved a good checkpoint again.
    #expect(try Rebuild.run(journal: session.journal, output: out).mode == .incremental)
  }

  @Test func aForeignCheckpointIsIgnored() throws {
    var first = try RandomSession(seed: 1)
    var second = try RandomSession(seed: 2)
    for _ in 0..<60 {
      first.step()
      second.step()
    }
    let out = try makeTemporaryDirectory("rebuild-foreign")
    let other = try makeTemporaryDirectory("rebuild-foreign-other")
    try Rebuild.run(journal: first.journal, output: out)
    try Rebuild.run(journal: second.journal, output: other)
    // The other journal's checkpoint, next to this folder's own manifest.
    let head = ".journal-checkpoint/head"
    try FileManager.default.removeItem(at: out.appendingPathComponent(head))
    try FileManager.default.copyItem(
      at: other.appendingPathComponent(head),
      to: out.appendingPathComponent(head)
    )
    let report = try Rebuild.run(journal: first.journal, output: out)
    #expect(report.mode == .full)
    #expect(report.checkpointIgnoredBecause != nil)
    try expectTree(out, equals: try expectedTree(first.journal))
  }

  @Test func anEventMergedBeforeTheCheckpointFallsBackToAFullFold() throws {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody()
    let out = try makeTemporaryDirectory("rebuild-merge")
    h.now += 3600
    try h.makeUpperBody(name: "Legs")
    try Rebuild.run(journal: h.journal, output: out)
    // A device syncs a split it created earlier than the last event folded.
    try deliverLateSplit(to: h)
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.mode == .full)
    #expect(report.checkpointIgnoredBecause == "the history before the checkpoint changed")
    try expectTree(out, equals: try expectedTree(h.journal))
  }

  @Test func undoingAnEventBeforeTheCheckpointFallsBackToAFullFold() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild-undo")
    try Rebuild.run(journal: h.journal, output: out)
    try h.journal.undo(device: "phone", now: h.now)
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.mode == .full)
    #expect(report.checkpointIgnoredBecause == "a new revert names an event before the checkpoint")
    try expectTree(out, equals: try expectedTree(h.journal))
  }
}

extension RebuildTests {
  /// An earlier event replaced by another at the same place: same length,
  /// same last event; only the digest of the ids sees it.
  @Test func anEarlierEventReplacedFallsBackToAFullFold() throws {
    let h = try training()
    let out = try makeTemporaryDirectory("rebuild-replaced")
    try Rebuild.run(journal: h.journal, output: out)
    var events = h.store.stored
    events[1].id = "01JREPLACED000000000000000"
    let journal = try Journal(store: InMemoryEventStore(events: events), newID: { "01JNEW" })
    let report = try Rebuild.run(journal: journal, output: out)
    #expect(report.mode == .full)
    #expect(report.checkpointIgnoredBecause == "the history before the checkpoint changed")
    try expectTree(out, equals: try expectedTree(journal))
  }
}
