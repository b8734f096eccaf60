import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// Importing current-version documents and folding them gives the same bytes
/// back, and importing again appends nothing.
@Suite struct ImportRoundTripTests {
  /// Imports `tree` into a fresh journal whose clock is `now`.
  static func importTree(
    _ tree: [String: Data],
    now: Date,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (JournalHarness, ImportReport) {
    let folder = try makeTemporaryDirectory("import")
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeContainer(tree, to: folder)
    let harness = try JournalHarness(now: now, ids: SequentialIDs(prefix: "01K"))
    let report = try ContainerImporter().importContainer(
      at: folder,
      into: harness.journal,
      now: harness.now
    )
    return (harness, report)
  }

  static func expectSameTree(
    _ actual: [String: Data],
    _ expected: [String: Data],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(actual.keys.sorted() == expected.keys.sorted(), sourceLocation: sourceLocation)
    for (path, bytes) in expected.sorted(by: { $0.key < $1.key }) {
      guard let mine = actual[path] else { continue }
      if mine != bytes {
        Issue.record(
          "\(path) differs: \(firstDifference(bytes, mine))",
          sourceLocation: sourceLocation
        )
      }
    }
  }

  @Test(arguments: 0..<32 as Range<UInt64>)
  func randomContainerRoundTrips(seed: UInt64) throws {
    var generator = try ContainerGenerator(seed: seed)
    // Every fourth history spans over a month: deletions pass their 30-day grace.
    let tree = try generator.generate(workouts: 12, maxGapHours: seed % 4 == 0 ? 150 : 40)
    let now = try #require(generator.harness.state.now)
    let (harness, report) = try Self.importTree(tree, now: now)
    #expect(report.skipped.isEmpty, "\(report.skipped)")
    #expect(report.inexact.isEmpty, "\(report.inexact)")
    #expect(report.conflicts.isEmpty, "\(report.conflicts)")
    #expect(report.imported.count == tree.count)
    #expect(harness.state.anomalies.isEmpty, "\(harness.state.anomalies)")
    Self.expectSameTree(try harness.state.documentTree(), tree)
  }

  @Test func hundredsOfDocumentsRoundTripAndReimportAppendsNothing() throws {
    // Ten histories side by side (a long one folds slowly at every command).
    var tree: [String: Data] = [:]
    var now = Date(timeIntervalSince1970: 0)
    for (index, prefix) in ["01A", "01B", "01C", "01D", "01E", "01F", "01G", "01H", "01M", "01N"]
      .enumerated()
    {
      var generator = try ContainerGenerator(seed: 2026 + UInt64(index), idPrefix: prefix)
      tree.merge(try generator.generate(workouts: 25)) { first, _ in first }
      now = max(now, try #require(generator.harness.state.now))
    }
    #expect(tree.count > 200)
    let folder = try makeTemporaryDirectory("import")
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeContainer(tree, to: folder)
    let harness = try JournalHarness(now: now, ids: SequentialIDs(prefix: "01K"))
    let first = try ContainerImporter().importContainer(at: folder, into: harness.journal, now: now)
    #expect(first.isClean, "\(first.skipped + first.inexact + first.conflicts)")
    #expect(first.appendedEvents > 0)
    #expect(harness.store.appendCount == 1)
    Self.expectSameTree(try harness.state.documentTree(), tree)

    let stored = harness.store.stored
    let again = try ContainerImporter().importContainer(at: folder, into: harness.journal, now: now)
    #expect(again.appendedEvents == 0)
    #expect(again.imported.isEmpty)
    #expect(again.unchanged.count == tree.count)
    #expect(harness.store.stored == stored)
  }

  @Test func dryRunReportsWithoutAppending() throws {
    var generator = try ContainerGenerator(seed: 7)
    let tree = try generator.generate(workouts: 5)
    let folder = try makeTemporaryDirectory("import")
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeContainer(tree, to: folder)
    let harness = try JournalHarness(ids: SequentialIDs(prefix: "01K"))
    let report = try ContainerImporter(dryRun: true).importContainer(
      at: folder,
      into: harness.journal
    )
    #expect(report.isDryRun)
    #expect(report.imported.count == tree.count)
    #expect(report.appendedEvents == 0)
    #expect(harness.store.stored.isEmpty)
  }
}

extension ImportRoundTripTests {
  @Test func anImportIntoAJournalOnDiskReadsBackTheSame() throws {
    var generator = try ContainerGenerator(seed: 11)
    let tree = try generator.generate(workouts: 8)
    let now = try #require(generator.harness.state.now)
    let container = try makeTemporaryDirectory("import")
    let folder = try makeTemporaryDirectory("journal")
    defer {
      try? FileManager.default.removeItem(at: container)
      try? FileManager.default.removeItem(at: folder)
    }
    try writeContainer(tree, to: container)
    _ = try EventLog.create(at: folder)
    let options = DeviceWriter.Options(wallClock: { now.milliseconds })
    let ids = SequentialIDs(prefix: "01K")
    let journal = try Journal(
      store: try FileEventStore(url: folder, options: options),
      newID: ids.make
    )
    let report = try ContainerImporter().importContainer(at: container, into: journal, now: now)
    #expect(report.isClean)

    // Read back from the files, as a rebuild would.
    let reopened = try Journal(store: try FileEventStore(url: folder), newID: ids.make)
    #expect(reopened.quarantined.isEmpty)
    Self.expectSameTree(try reopened.state().documentTree(), tree)
  }
}
