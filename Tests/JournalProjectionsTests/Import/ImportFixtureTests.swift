import Foundation
import JournalTestSupport
import Testing

@testable import JournalProjections

/// Older documents import as their upgraded form.
///
/// Hand-written containers at every schema version (`Golden/Import/Container-vN`)
/// import as their upgraded form (`Golden/Import/Expected-vN`, the journal's
/// document tree afterwards). `JOURNAL_RECORD_GOLDEN=1` records the expected trees.
@Suite struct ImportFixtureTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Golden/Import", isDirectory: true)
  /// 2025-07-20T00:00:00Z: the fixtures' deletions are within their 30-day grace.
  static let now = Date(timeIntervalSince1970: 1_752_969_600)

  struct Fixture: Sendable, CustomTestStringConvertible {
    var version: Int
    var upgraded: [String]
    var skipped: [String] = []
    var testDescription: String { "Container-v\(version)" }
  }

  static let fixtures = [
    Fixture(
      version: 1,
      upgraded: [
        "Splits/01HZ0000000000000000S00001.json",
        "Workouts/2025/03/01HZ0000000000000000W00001.json",
      ]
    ),
    Fixture(
      version: 2,
      upgraded: [
        "Splits/01HZ0000000000000000S00002.json",
        "Workouts/2025/05/01HZ0000000000000000W00002.json",
      ]
    ),
    Fixture(version: 3, upgraded: ["Workouts/2025/06/01HZ0000000000000000W00003.json"]),
    Fixture(version: 4, upgraded: ["Workouts/2025/07/01HZ0000000000000000W00004.json"]),
    Fixture(
      version: 5,
      upgraded: ["Stubs/Splits/01HZ0000000000000000S00005.json"],
      skipped: ["Stubs/Splits/01HZ0000000000000000S00009.json"]
    ),
  ]

  @Test(arguments: fixtures)
  func olderVersionsImportAsTheirUpgradedForm(_ fixture: Fixture) throws {
    let container = Self.folder.appendingPathComponent("Container-v\(fixture.version)")
    let expectedFolder = Self.folder.appendingPathComponent("Expected-v\(fixture.version)")
    let harness = try JournalHarness(now: Self.now)
    let report = try ContainerImporter().importContainer(
      at: container,
      into: harness.journal,
      now: Self.now
    )
    #expect(report.inexact.isEmpty, "\(report.inexact)")
    #expect(report.conflicts.isEmpty)
    #expect(report.skipped.map(\.path) == fixture.skipped, "\(report.skipped)")
    #expect(report.upgraded.map(\.path).sorted() == fixture.upgraded.sorted())
    #expect(harness.state.anomalies.isEmpty, "\(harness.state.anomalies)")
    let tree = try harness.state.documentTree()

    let record = ProcessInfo.processInfo.environment["JOURNAL_RECORD_GOLDEN"] == "1"
    if record || !FileManager.default.fileExists(atPath: expectedFolder.path) {
      try? FileManager.default.removeItem(at: expectedFolder)
      try writeContainer(tree, to: expectedFolder)
      Issue.record(
        "recorded Golden/Import/Expected-v\(fixture.version); rerun without JOURNAL_RECORD_GOLDEN"
      )
      return
    }
    ImportRoundTripTests.expectSameTree(tree, try readTree(expectedFolder))

    let stored = harness.store.stored
    let again = try ContainerImporter().importContainer(
      at: container,
      into: harness.journal,
      now: Self.now
    )
    #expect(again.appendedEvents == 0)
    #expect(again.imported.isEmpty)
    #expect(harness.store.stored == stored)
  }

  @Test func theExpectedTreesImportUnchanged() throws {
    // The upgraded documents are current-version documents: importing them
    // gives them back byte for byte.
    for fixture in Self.fixtures {
      let expectedFolder = Self.folder.appendingPathComponent("Expected-v\(fixture.version)")
      let tree = try readTree(expectedFolder)
      let (harness, report) = try ImportRoundTripTests.importTree(tree, now: Self.now)
      #expect(report.isClean, "\(report.inexact + report.skipped)")
      #expect(report.upgraded.isEmpty)
      ImportRoundTripTests.expectSameTree(try harness.state.documentTree(), tree)
    }
  }

  @Test func legacyProgressBecomesCursorOnlySets() throws {
    let harness = try JournalHarness(now: Self.now)
    _ = try ContainerImporter().importContainer(
      at: Self.folder.appendingPathComponent("Container-v1"),
      into: harness.journal,
      now: Self.now
    )
    let workout = try #require(harness.state.workouts["01HZ0000000000000000W00001"])
    let bench = try #require(workout.provenance["01HZ0000000000000000G00001"])
    #expect(bench.map(\.kind) == [.cursorOnly, .cursorOnly, .cursorOnly])
    #expect(bench.allSatisfy { $0.device == "import" })
  }

  @Test func workoutsAreFiledUnderTheMonthTheyCameFrom() throws {
    let harness = try JournalHarness(now: Self.now)
    _ = try ContainerImporter().importContainer(
      at: Self.folder.appendingPathComponent("Container-v2"),
      into: harness.journal,
      now: Self.now
    )
    let workout = try #require(harness.state.workouts["01HZ0000000000000000W00002"])
    // Started 2025-04-30T23:30Z, filed under 2025/05: one hour east of UTC.
    #expect(workout.timeZone.secondsFromGMT() == 3600)
    #expect(workout.path == "Workouts/2025/05/01HZ0000000000000000W00002.json")
  }
}
