import Foundation
import JournalTestSupport
import Testing

/// Read commands on the checked-in sample journal, as goldens: what a lifter
/// would see on five months of training.
@Suite struct SampleReadsTests {
  static let journal = SampleFreshnessTests.repository.appendingPathComponent("Journal")

  func run(_ arguments: String...) throws -> String {
    let cli = try CLIHarness()
    cli.environment["WORKOUT_JOURNAL"] = Self.journal.path
    cli.environment["COLUMNS"] = "120"
    let result = cli.run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.err)")
    #expect(result.err.isEmpty, "\(result.err)")
    return result.out
  }

  @Test func auditOfBenchPress() throws {
    expectGolden(
      Data(try run("audit", "--exercise", "Bench Press").utf8),
      named: "sample-audit-bench.txt"
    )
  }

  @Test func records() throws {
    expectGolden(Data(try run("records").utf8), named: "sample-records.txt")
  }

  @Test func exportAsStrongCSV() throws {
    let csv = try run("export")
    #expect(
      csv.hasPrefix(
        "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\r\n"
      )
    )
    expectGolden(Data(csv.utf8), named: "sample-export.csv")
  }

  @Test func exportAsNDJSONLeavesRevertedEventsOut() throws {
    let lines = try run("export", "--format", "ndjson").split(separator: "\n")
    #expect(!lines.isEmpty)
    for line in lines {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      )
      #expect(object["type"] as? String != nil)
    }
    let all = try run("export", "--format", "ndjson", "--as-of", "2026-06-08")
    #expect(all.split(separator: "\n").count < lines.count)
  }

  @Test func everyStoredEventReadsThroughTheUpgradeSteps() throws {
    expectGolden(Data(try run("upgrade", "--check").utf8), named: "sample-upgrade-check.txt")
  }
}
