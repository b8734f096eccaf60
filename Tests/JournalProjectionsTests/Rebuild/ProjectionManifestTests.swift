import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The ownership manifest: shards, the log, and what survives damage.
@Suite struct ProjectionManifestTests {
  let a = String(repeating: "a", count: 64)
  let b = String(repeating: "b", count: 64)

  func open(_ out: URL, threshold: Int? = nil) throws -> ProjectionManifest {
    let manifest = try ProjectionManifest.open(DocumentTreeWriter(root: out))
    if let threshold { manifest.compactionThreshold = threshold }
    return manifest
  }

  @Test func commitsAreReadBackWithAndWithoutCompaction() throws {
    for threshold in [0, 1 << 20] {
      let out = try makeTemporaryDirectory("manifest")
      var manifest = try open(out, threshold: threshold)
      try manifest.set("Splits/s.json", a)
      try manifest.set("Workouts/2026/01/w.json", a)
      try manifest.commit()
      manifest = try open(out, threshold: threshold)
      try manifest.set("Workouts/2026/01/w.json", b)
      try manifest.set("Splits/s.json", nil)
      try manifest.commit()
      let identity = manifest.identity
      manifest = try open(out)
      #expect(manifest.identity == identity)
      #expect(try manifest.owned("Workouts/2026/01/w.json") == b)
      #expect(try manifest.owned("Splits/s.json") == nil)
      #expect(try manifest.pathsByStream() == ["workout:w": ["Workouts/2026/01/w.json"]])
      let shards = out.appendingPathComponent(ProjectionManifest.shardsFolder)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: shards.path)) ?? []
      #expect(names == (threshold == 0 ? ["Workouts+2026+01"] : []), "threshold \(threshold)")
    }
  }

  /// A block cut short (a crash while appending) is ignored, and the next
  /// append replaces it.
  @Test func aTornTailIsIgnoredAndCut() throws {
    let out = try makeTemporaryDirectory("manifest")
    var manifest = try open(out)
    try manifest.set("Splits/s.json", a)
    try manifest.commit()
    let identity = manifest.identity
    try manifest.announce([(path: "Workouts/2026/01/w.json", digest: b)])
    let interrupted = try open(out)
    #expect(interrupted.isInterrupted)
    #expect(interrupted.pending == ["Workouts/2026/01/w.json": b])
    #expect(interrupted.identity != identity)
    let log = out.appendingPathComponent(ProjectionManifest.logPath)
    let bytes = try Data(contentsOf: log)
    for cut in [1, 10, 40] {
      try Data(bytes.dropLast(cut)).write(to: log)
      manifest = try open(out)
      #expect(!manifest.isInterrupted, "cut \(cut)")
      #expect(manifest.identity == identity, "cut \(cut)")
      #expect(manifest.pending.isEmpty)
    }
    try manifest.set("Workouts/2026/01/w.json", b)
    try manifest.commit()
    manifest = try open(out)
    #expect(try manifest.owned("Workouts/2026/01/w.json") == b)
    #expect(try manifest.owned("Splits/s.json") == a)
  }

  /// A damaged shard loses its folder's entries, with a notice: nothing of
  /// that folder is removed, and the shard is written again.
  @Test func aDamagedShardIsReportedAndRewritten() throws {
    let h = try JournalHarness(now: Date(timeIntervalSince1970: 1_767_225_600))
    try h.makeUpperBody()
    let out = try makeTemporaryDirectory("manifest")
    var manifest = try open(out, threshold: 0)
    try manifest.set("Splits/gone.json", a)
    try manifest.commit()
    try FileManager.default.createDirectory(
      at: out.appendingPathComponent("Splits"),
      withIntermediateDirectories: true
    )
    try Data("Splits/gone".utf8).write(to: out.appendingPathComponent("Splits/gone.json"))
    let shard = out.appendingPathComponent(ProjectionManifest.shardsFolder + "/Splits")
    try Data("damaged".utf8).write(to: shard)
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.notices.contains { $0.contains("unreadable manifest shard") })
    #expect(report.removed.isEmpty)
    #expect(
      FileManager.default.fileExists(atPath: out.appendingPathComponent("Splits/gone.json").path)
    )
    manifest = try open(out)
    #expect(try manifest.owned("Splits/gone.json") == nil)
    #expect(try Rebuild.run(journal: h.journal, output: out).notices.isEmpty)
  }

  /// A folder written by a build of manifest format 1 keeps its ownership.
  @Test func aFormatOneManifestIsReadAndReplaced() throws {
    let h = try JournalHarness(now: Date(timeIntervalSince1970: 1_767_225_600))
    try h.makeUpperBody()
    let out = try makeTemporaryDirectory("manifest")
    try Rebuild.run(journal: h.journal, output: out)
    let documents = try documentFiles(in: out)
    let path = try #require(documents.keys.first)
    var owned = ""
    for (name, bytes) in documents.sorted(by: { $0.key < $1.key }) {
      owned +=
        (owned.isEmpty ? "" : ",") + "\n    \"\(name)\" : \"\(SHA256Digest.hex(Array(bytes)))\""
    }
    let legacy = "{\n  \"format\" : 1,\n  \"owned\" : {\(owned)\n  }\n}\n"
    try FileManager.default.removeItem(at: out.appendingPathComponent(Rebuild.manifestName))
    try Data(legacy.utf8).write(to: out.appendingPathComponent(ProjectionManifest.legacyFileName))
    try Data("edited".utf8).write(to: out.appendingPathComponent(path))
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.conflicts.map(\.reason) == ["changed since the last rebuild; left alone"])
    #expect(report.adopted.isEmpty)
    let manager = FileManager.default
    #expect(
      !manager.fileExists(atPath: out.appendingPathComponent(".journal-projection.json").path)
    )
    try Data(documents[path] ?? Data()).write(to: out.appendingPathComponent(path))
    let next = try Rebuild.run(journal: h.journal, output: out)
    #expect(next.conflicts.isEmpty && next.adopted.isEmpty && next.written.isEmpty)
  }

  /// A folder written by a build of manifest format 2 (SHA-256 throughout) keeps its
  /// ownership; its log and shards are written again in format 3, and an entry keeps its
  /// SHA-256 until the rebuild finds its document with the wanted bytes or writes it.
  @Test func aFormatTwoManifestIsReadAndRewritten() throws {
    let h = try JournalHarness(now: Date(timeIntervalSince1970: 1_767_225_600))
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "upper body", timeZone: "Europe/Paris"))
    let out = try makeTemporaryDirectory("manifest")
    try Rebuild.run(journal: h.journal, output: out)
    let documents = try documentFiles(in: out)
    let paths = documents.keys.sorted()
    #expect(paths.count >= 2)
    let (edited, untouched) = (paths[0], paths[1])
    // The log as format 2 wrote it: a commit block chained with SHA-256.
    let header = "workout-journal-manifest"
    let base = SHA256Digest.hex(Array(header.utf8))
    var block = "commit\n"
    for path in paths { block += "\(SHA256Digest.hex(Array(documents[path] ?? Data()))) \(path)\n" }
    let chain = SHA256Digest.hex(Array("\(base)\n\(block)".utf8))
    // Then an interrupted rebuild's pending block: the file it names with those bytes is
    // the rebuild's own, and is written again.
    let interrupted = Array("written by an interrupted rebuild".utf8)
    let pending = "pending\n\(SHA256Digest.hex(interrupted)) \(untouched)\n"
    let last = SHA256Digest.hex(Array("\(chain)\n\(pending)".utf8))
    try FileManager.default.removeItem(at: out.appendingPathComponent(Rebuild.manifestName))
    try FileManager.default.createDirectory(
      at: out.appendingPathComponent(ProjectionManifest.shardsFolder),
      withIntermediateDirectories: true
    )
    let log = out.appendingPathComponent(ProjectionManifest.logPath)
    let text = "\(header) 2 \(base)\n\(block)end \(chain)\n\(pending)end \(last)\n"
    try Data(text.utf8).write(to: log)
    let opened = try open(out)
    #expect(opened.identity == last)
    #expect(opened.isInterrupted && opened.pending == [untouched: SHA256Digest.hex(interrupted)])
    try Data("edited".utf8).write(to: out.appendingPathComponent(edited))
    try Data(interrupted).write(to: out.appendingPathComponent(untouched))

    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.conflicts.map(\.path) == [edited])
    #expect(report.conflicts.map(\.reason) == ["changed since the last rebuild; left alone"])
    #expect(report.written == [untouched])
    #expect(report.adopted.isEmpty && report.notices.isEmpty)
    let rewritten = String(decoding: try Data(contentsOf: log), as: UTF8.self)
    #expect(rewritten.hasPrefix("\(header) 3 "), "\(rewritten)")
    let shards = out.appendingPathComponent(ProjectionManifest.shardsFolder)
    for name in try FileManager.default.contentsOfDirectory(atPath: shards.path) {
      let shard = try Data(contentsOf: shards.appendingPathComponent(name))
      #expect(shard.starts(with: Data("workout-journal-manifest-shard 3\n".utf8)), "\(name)")
    }
    // The edited document's entry is still the SHA-256 format 2 wrote; a document the
    // run found with its bytes is recorded with XXH64.
    let manifest = try open(out)
    let original = Array(documents[edited] ?? Data())
    #expect(try manifest.owned(edited) == SHA256Digest.hex(original))
    #expect(try manifest.owns(edited, bytes: original))
    #expect(try !manifest.owns(edited, bytes: Array("edited".utf8)))
    #expect(try manifest.owned(untouched) == XXH64.hex(Array(documents[untouched] ?? Data())))

    // Restoring the edited file resolves the conflict.
    try Data(original).write(to: out.appendingPathComponent(edited))
    let next = try Rebuild.run(journal: h.journal, output: out, full: true)
    #expect(next.conflicts.isEmpty && next.adopted.isEmpty && next.written.isEmpty)
    #expect(try open(out).owned(edited) == XXH64.hex(original))
  }

  /// An entry's digest says how it was made: 16 lowercase hex digits are XXH64, 64 are
  /// SHA-256; anything else is no digest.
  @Test func entriesAreCheckedTheWayTheyWereMade() {
    let bytes = Array("{\"id\":1}\n".utf8)
    #expect(ProjectionManifest.digest(bytes) == XXH64.hex(bytes))
    #expect(ProjectionManifest.matches(bytes, XXH64.hex(bytes)))
    #expect(ProjectionManifest.matches(bytes, SHA256Digest.hex(bytes)))
    #expect(!ProjectionManifest.matches(bytes, XXH64.hex(bytes + [0x0A])))
    #expect(!ProjectionManifest.matches(bytes, SHA256Digest.hex(bytes + [0x0A])))
    #expect(!ProjectionManifest.matches(bytes, XXH64.hex(bytes).uppercased()))
    #expect(!ProjectionManifest.matches(bytes, String(SHA256Digest.hex(bytes).prefix(32))))
    #expect(!ProjectionManifest.matches(bytes, ""))
    #expect(ProjectionManifest.Hashing(digest: String(repeating: "0", count: 16)) == .xxh64)
    #expect(ProjectionManifest.Hashing(digest: String(repeating: "f", count: 64)) == .sha256)
    #expect(ProjectionManifest.Hashing(digest: String(repeating: "g", count: 16)) == nil)
  }

  /// A `rendering` block an earlier build left (its one line named a history position)
  /// says the rebuild was interrupted, without naming bytes; a second line ends the log.
  @Test func aFormerRenderingBlockMarksAnInterruption() throws {
    let out = try makeTemporaryDirectory("manifest")
    let manifest = try open(out)
    try manifest.set("Splits/s.json", a)
    try manifest.commit()
    let log = out.appendingPathComponent(ProjectionManifest.logPath)
    let base = try Data(contentsOf: log)
    func block(_ lines: String) -> Data {
      let body = Array(("rendering\n" + lines).utf8)
      let chain = XXH64.hex(Array((manifest.identity + "\n").utf8) + body)
      return Data(body + Array("end \(chain)\n".utf8))
    }
    try (base + block("3-0123456789abcdef-fedcba9876543210 -\n")).write(to: log)
    let interrupted = try open(out)
    #expect(interrupted.isInterrupted && interrupted.pending.isEmpty)
    try (base + block("one\ntwo\n")).write(to: log)
    #expect(try !open(out).isInterrupted)
  }
}
