import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalCLI

@Suite struct ReadsCommandTests {
  func worked() throws -> CLIHarness {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("start", "upper")
    cli.ok("done", "--reps", "5", "--weight", "60")
    cli.ok("done", "--reps", "4", "--weight", "62.5")
    cli.ok("adjust", "--reps", "5")
    cli.ok("finish", "bench")
    return cli
  }

  @Test func auditInEachFormat() throws {
    let cli = try worked()
    cli.environment["COLUMNS"] = "200"
    let table = cli.read("audit")
    #expect(table.status == 0, "\(table.err)")
    #expect(table.out.contains("adjusted from 4 × 62.5"))
    #expect(table.out.contains("filled from plan"))
    let csv = cli.read("audit", "--format", "csv", "--exercise", "bench press")
    #expect(csv.out.hasPrefix("date,workout_id,split,exercise"))
    #expect(csv.out.components(separatedBy: "\r\n").count == 5)
    let json = cli.read("audit", "--json", "--since", "2000-01-01", "--until", "2999-12-31")
    let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
    #expect((object?["rows"] as? [Any])?.count == 3)
    #expect(cli.read("audit", "--until", "2000-01-01").out.contains("no sets match"))
    let bad = cli.read("audit", "--format", "xml")
    #expect(bad.status == ExitStatus.usage)
    #expect(bad.err.contains("unknown format 'xml'"))
  }

  @Test func historyBlameDiffAndRecordsAnswerInJSON() throws {
    let cli = try worked()
    let workout = try cli.workout()
    let id = try #require(workout["id"] as? String)
    let history = cli.read("history", String(id.prefix(8)), "--log", "bench press", "--json")
    #expect(history.status == 0, "\(history.err)")
    let events = try JSONSerialization.jsonObject(with: Data(history.out.utf8)) as? [[String: Any]]
    #expect(
      events?.map { $0["type"] as? String } == [
        "workout.started", "set.completed", "set.completed", "set.adjusted", "log.completed",
      ]
    )
    // A second workout: its path from the start command, its status from its start.
    let path =
      try #require(
        try JSONSerialization.jsonObject(with: Data(cli.ok("start", "upper", "--json").utf8))
          as? [String: Any]
      )["path"] as? String
    let blame = cli.read("blame", try #require(path), "--field", "/status", "--json")
    #expect(blame.status == 0, "\(blame.err)")
    #expect(blame.out.contains("workout.started"))
    #expect(cli.read("blame", "Splits/nope.json").status == ExitStatus.failure)
    #expect(cli.read("blame", try #require(path), "--field", "status").status == ExitStatus.usage)
    let diff = cli.read("diff", "--json")
    #expect(diff.status == 0, "\(diff.err)")
    #expect(diff.out.contains("\"kind\" : \"added\""))
    let records = cli.read("records", "--json")
    let parsed = try JSONSerialization.jsonObject(with: Data(records.out.utf8)) as? [[String: Any]]
    #expect((parsed?.first?["heaviest"] as? [String: Any])?["weight"] as? Double == 62.5)
    #expect(cli.read("records").out.contains("best e1RM (Epley)"))
    cli.ok("delete", id)
    let deleted = cli.read("history", id)
    #expect(deleted.status == 0, "\(deleted.err)")
    #expect(deleted.out.contains("deleted the workout"))
  }

  @Test func chartInTheTerminalAndAsSVG() throws {
    let cli = try worked()
    let text = cli.read("chart", "bench press")
    #expect(text.status == 0, "\(text.err)")
    #expect(text.out.contains("Bench Press: top-set weight"))
    let folder = cli.journal.deletingLastPathComponent()
    let svg = cli.read("chart", "Bench Press", "--metric", "e1rm", "--svg", "bench.svg")
    #expect(svg.status == 0, "\(svg.err)")
    let bytes = try Data(contentsOf: folder.appendingPathComponent("bench.svg"))
    #expect(String(decoding: bytes, as: UTF8.self).contains("best e1RM (Epley)"))
    let directory = cli.read("chart", "Bench Press", "--svg", ".")
    #expect(directory.status == ExitStatus.failure)
    #expect(directory.err.contains("is a directory"))
    #expect(cli.read("chart", "Squat").status == ExitStatus.failure)
    #expect(cli.read("chart", "Bench Press", "--metric", "volume").status == ExitStatus.usage)
  }

  /// The help pages `HelpTests` will compare once the catalogue lists these
  /// commands: the same bytes, in the same golden files.
  @Test(arguments: AuditCommands.all.map(\.words))
  func everyReadCommandHasHelp(_ words: [String]) throws {
    let cli = try CLIHarness()
    let result = cli.read(words + ["--help"])
    #expect(result.status == 0)
    #expect(result.out.hasPrefix("OVERVIEW: "))
    let target = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
    expectGolden(
      Data(result.out.utf8),
      named: "help-\(words.joined(separator: "-")).txt",
      filePath: target.appendingPathComponent("HelpTests.swift").path
    )
  }
}
