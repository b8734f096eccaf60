import Foundation
import JournalTestSupport
import Testing

@testable import JournalCLI

/// `history` without a workout, `blame` by name and field, `init` of a nested folder, `--unit`.
@Suite struct DefaultsTests {
  @Test func historyWithoutAWorkoutShowsTheLatest() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    let none = cli.run("history")
    #expect(none.status == 1)
    #expect(none.err.contains("no workout yet"))
    cli.ok("start", "Upper Body")
    cli.ok("done", "--reps", "4")
    cli.ok("end")
    cli.ok("start", "Upper Body")
    cli.ok("done", "push")
    let latest = try #require(try cli.workout()["id"] as? String)
    let out = cli.ok("history", "--json")
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]]
    )
    #expect(out == cli.ok("history", latest, "--json"))
    #expect(entries.first?["type"] as? String == "workout.started")
    #expect(entries.last?["type"] as? String == "set.completed")
  }

  @Test func blameTakesASplitOrWorkoutByNameAndAFieldPath() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("start", "Upper Body")
    cli.ok("done", "bench", "--reps", "4")
    cli.ok("done", "bench")
    cli.ok("adjust", "bench", "--set", "2", "--weight", "62.5")
    let dotted = cli.ok("blame", "upper", "logs.bench.setEntries.2.weight", "--json")
    let pointer = cli.ok(
      "blame",
      try #require(try cli.workout()["id"] as? String),
      "--field",
      "/logs/0/setEntries/1/weight",
      "--json"
    )
    #expect(dotted == pointer)
    let lines = try #require(
      try JSONSerialization.jsonObject(with: Data(dotted.utf8)) as? [[String: Any]]
    )
    #expect(lines.count == 1)
    #expect(lines.first?["type"] as? String == "set.adjusted")
    #expect(lines.first?["value"] as? String == "62.5")
    // A split's name without a workout field means the split.
    #expect(cli.ok("blame", "upper", "restSeconds", "--json").contains("\"split.created\""))
    let wrong = cli.run("blame", "upper", "logs.squat")
    #expect(wrong.status == 1)
    #expect(wrong.err.contains("nothing in '/logs' is named 'squat'"))
    let far = cli.run("blame", "upper", "logs.9")
    #expect(far.status == 1)
    #expect(far.err.contains("out of range"))
  }

  @Test func initCreatesMissingParentsPrivateToTheOwner() throws {
    let base = try makeTemporaryDirectory("init")
    let journal = base.appendingPathComponent("a/b/Journal")
    let cli = try CLIHarness()
    cli.environment["WORKOUT_JOURNAL"] = journal.path
    cli.ok("init")
    for folder in [base.appendingPathComponent("a"), base.appendingPathComponent("a/b"), journal] {
      let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(folder.path)")
    }
    cli.ok("split", "add", "Legs")
  }

  @Test func initUnderAFileFailsAndCreatesNothing() throws {
    let base = try makeTemporaryDirectory("init")
    let file = base.appendingPathComponent("file")
    try Data("x".utf8).write(to: file)
    let cli = try CLIHarness()
    cli.environment["WORKOUT_JOURNAL"] = file.appendingPathComponent("a/Journal").path
    let result = cli.run("init")
    #expect(result.status == 1)
    #expect(!result.err.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: base.path) == ["file"])
  }

  @Test func unitLabelsWeightsAndNeverChangesThem() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("start", "Upper Body")
    cli.ok("done", "bench", "--weight", "62.5")
    cli.ok("end")
    // The first read of records brings the saved state's exercise index up to date (a cache,
    // docs/OnDiskFormat.md); from then on a read changes no file.
    cli.ok("records")
    let before = try cli.snapshot()
    #expect(cli.ok("status", "--unit", "kg").contains("5 × 62.5 kg"))
    #expect(!cli.ok("status").contains(" kg"))
    #expect(cli.ok("records", "--unit", "lb").contains("62.5 lb × 5"))
    #expect(cli.ok("audit", "--unit", "lb").contains("62.5 lb"))
    #expect(cli.ok("chart", "bench", "--unit", "kg").contains("62.5 kg"))
    cli.environment["WORKOUT_UNIT"] = "lb"
    #expect(cli.ok("status").contains("5 × 62.5 lb"))
    #expect(cli.ok("status", "--unit", "kg").contains("5 × 62.5 kg"))
    let chart = try #require(
      try JSONSerialization.jsonObject(with: Data(cli.ok("chart", "bench", "--json").utf8))
        as? [String: Any]
    )
    #expect(chart["unit"] as? String == "lb")
    let points = try #require(chart["points"] as? [[String: Any]])
    #expect(points.first?["topSetWeight"] as? Double == 62.5)
    let audit = try #require(
      try JSONSerialization.jsonObject(with: Data(cli.ok("audit", "--json").utf8))
        as? [String: Any]
    )
    #expect(audit["unit"] as? String == "lb")
    let records = try #require(
      try JSONSerialization.jsonObject(with: Data(cli.ok("records", "--json").utf8))
        as? [[String: Any]]
    )
    #expect(records.first?["unit"] as? String == "lb")
    cli.environment["WORKOUT_UNIT"] = nil
    let plain = try #require(
      try JSONSerialization.jsonObject(with: Data(cli.ok("chart", "bench", "--json").utf8))
        as? [String: Any]
    )
    #expect(plain["unit"] == nil)
    #expect(try cli.snapshot() == before)
  }

  @Test func anUnknownUnitIsAUsageError() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    let option = cli.run("status", "--unit", "stone")
    #expect(option.status == 64)
    #expect(option.err.contains("unknown unit 'stone'"))
    cli.environment["WORKOUT_UNIT"] = "stone"
    let variable = cli.run("split", "list")
    #expect(variable.status == 64)
    #expect(variable.err.contains("WORKOUT_UNIT"))
  }
}
