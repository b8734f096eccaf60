import Foundation
import JournalSample
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The checked-in `Journal/` and `Projections/` must be exactly what the
/// generator and the rebuild produce today.
@Suite struct SampleFreshnessTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let fix = "run Scripts/regenerate-sample.sh and commit Journal/ and Projections/"

  /// Every file under `root` except runtime files (locks, the rebuild's record of the saved
  /// state it read, the saved state): what `.gitignore` leaves out.
  static func files(under root: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return files }
    for case let relative as String in walker {
      if relative.hasSuffix(".lock") || relative == Rebuild.recordPath
        || relative.hasPrefix(SavedState.folder + "/")
      {
        continue
      }
      let url = root.appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      else { continue }
      files[relative] = try Data(contentsOf: url)
    }
    return files
  }

  /// The fold's version names the documents the sample rebuilds to: a change to them without
  /// a new version would let saved states of the old fold be trusted.
  @Test func theFoldVersionNamesTheSampleDocuments() throws {
    let documents = try Self.files(under: Self.repository.appendingPathComponent("Projections"))
      .filter { path, _ in ["Splits/", "Workouts/", "Stubs/"].contains { path.hasPrefix($0) } }
    #expect(documents.count > 10)
    let digest = FoldVersion.treeDigest(documents.mapValues { [UInt8]($0) })
    #expect(
      FoldVersion.sampleProjections[FoldVersion.current] == digest,
      """
      the sample's documents changed: if the fold or the rendering changed, bump \
      FoldVersion.current to \(FoldVersion.current + 1) and add \
      [\(FoldVersion.current + 1): "\(digest)"] to FoldVersion.sampleProjections
      """
    )
  }

  static func expectSame(
    _ actual: [String: Data],
    _ expected: [String: Data],
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let missing = Set(expected.keys).subtracting(actual.keys).sorted()
    let extra = Set(actual.keys).subtracting(expected.keys).sorted()
    let changed = expected.keys.filter { actual[$0] != nil && actual[$0] != expected[$0] }.sorted()
    #expect(
      missing.isEmpty,
      "\(what): would no longer have \(missing.prefix(5)); \(fix)",
      sourceLocation: sourceLocation
    )
    #expect(
      extra.isEmpty,
      "\(what): would gain \(extra.prefix(5)); \(fix)",
      sourceLocation: sourceLocation
    )
    if let first = changed.first, let old = expected[first], let new = actual[first] {
      Issue.record(
        "\(what): \(changed.count) files would change, first \(first) (\(firstDifference(old, new))); \(fix)",
        sourceLocation: sourceLocation
      )
    }
  }

  @Test func theSampleJournalIsWhatTheGeneratorWrites() throws {
    let fresh = try makeTemporaryDirectory("sample").appendingPathComponent("Journal")
    try SampleJournal.generate(into: fresh)
    Self.expectSame(
      try Self.files(under: fresh),
      try Self.files(under: Self.repository.appendingPathComponent("Journal")),
      "Journal/"
    )
  }

  @Test func theProjectionsAreTheRebuildOfTheSampleJournal() throws {
    let journal = try Journal(
      store: FileEventStore(url: Self.repository.appendingPathComponent("Journal")),
      newID: { "" }
    )
    #expect(journal.quarantined.isEmpty)
    #expect(journal.notices.isEmpty, "\(journal.notices)")
    let output = try makeTemporaryDirectory("projections").appendingPathComponent("Projections")
    let report = try Rebuild.run(journal: journal, output: output, full: true)
    #expect(report.conflicts.isEmpty)
    #expect(report.anomalyCount == 0)
    Self.expectSame(
      try Self.files(under: output),
      try Self.files(under: Self.repository.appendingPathComponent("Projections")),
      "Projections/"
    )
  }
}
