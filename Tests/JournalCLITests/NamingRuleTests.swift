import Foundation
import JournalTestSupport
import Testing

@testable import JournalCLI

/// One rule for naming a split, an exercise or a workout, through every command that takes one.
@Suite struct NamingRuleTests {
  /// Upper Body (Bench Press, Push-up, Plank) and Upper Back (Barbell Row), one finished
  /// workout of Upper Body and one open.
  func journal() throws -> CLIHarness {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("split", "add", "Upper Back")
    cli.ok(
      "exercise",
      "add",
      "upper back",
      "Barbell Row",
      "--sets",
      "2",
      "--reps",
      "8",
      "--weight",
      "50"
    )
    cli.ok("start", "upper bo")
    cli.ok("done", "bench")
    cli.ok("end")
    cli.ok("start", "Upper Body")
    cli.ok("done", "bench", "--reps", "4")
    return cli
  }

  /// A name by a unique prefix, ignoring case, in each command that takes one.
  @Test func aUniquePrefixNamesTheThingEverywhere() throws {
    let cli = try journal()
    cli.ok("split", "edit", "upper bo", "--rest", "120")
    cli.ok("exercise", "edit", "UPPER BO", "pus", "--reps", "12")
    cli.ok("exercise", "duplicate", "upper bo", "plank")
    cli.ok("exercise", "move", "upper ba", "barb", "1")
    cli.ok("done", "PUSH")
    cli.ok("adjust", "push", "--reps", "14")
    cli.ok("more", "pus")
    cli.ok("plan", "plan", "--notes", "hold")
    cli.ok("skip", "pla")
    cli.ok("reset", "pla")
    cli.ok("finish", "pla")
    #expect(cli.ok("chart", "bench").contains("Bench Press"))
    #expect(cli.ok("records", "--exercise", "BENCH").contains("Bench Press"))
    #expect(cli.ok("audit", "--exercise", "bench", "--split", "upper bo").contains("Bench Press"))
    #expect(cli.ok("history", "--log", "bench").contains("set"))
    #expect(cli.ok("status", "upper bo").contains("Upper Body"))
    #expect(cli.ok("blame", "upper ba", "name").contains("\"Upper Back\""))
    cli.ok("metrics", "--workout", "UPPER BO", "--kcal", "300")
    cli.ok("undo", "--workout", "upper bo")
    #expect(cli.ok("history", "upper bo").contains("started Upper Body"))
    cli.ok("end", "--workout", "upper bo")
    cli.ok("delete", "upper bo")
    #expect(cli.run("status", "upper bo").status == 0)  // the earlier workout is now the latest
    cli.ok("exercise", "remove", "upper ba", "barb")
    cli.ok("split", "move", "upper ba", "1")
    cli.ok("split", "remove", "upper ba")
  }

  /// An ambiguous name is refused with the candidates, and changes nothing.
  @Test func anAmbiguousNameListsTheCandidates() throws {
    let cli = try journal()
    let before = try cli.snapshot()
    for arguments in [
      ["start", "upper"], ["split", "edit", "up", "--rest", "60"],
      ["exercise", "add", "u", "Curl"], ["blame", "upper"], ["audit", "--split", "upper"],
    ] {
      let result = cli.run(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.err.contains("'Upper Back'"), "\(arguments): \(result.err)")
      #expect(result.err.contains("'Upper Body'"), "\(arguments): \(result.err)")
    }
    #expect(try cli.snapshot() == before)
    cli.ok("exercise", "add", "upper bo", "Bent-over Row")
    let snapshot = try cli.snapshot()
    for arguments in [
      ["chart", "b"], ["records", "--exercise", "b"], ["audit", "--exercise", "b"],
      ["exercise", "edit", "upper bo", "b", "--sets", "4"],
    ] {
      let result = cli.run(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.err.contains("'Bench Press'"), "\(arguments): \(result.err)")
      #expect(result.err.contains("'Bent-over Row'"), "\(arguments): \(result.err)")
    }
    #expect(try cli.snapshot() == snapshot)
  }

  /// A workout is named by an id prefix, or by its split's name: that split's latest.
  @Test func aWorkoutByItsSplitsNameIsItsLatest() throws {
    let cli = try journal()
    let open = try cli.workout()
    let id = try #require(open["id"] as? String)
    let status = cli.ok("status", "upper bo", "--json")
    #expect(status.contains(id))
    #expect(cli.ok("status", String(id.prefix(20))).contains(id))
  }

  @Test func anUnknownNameSaysWhatIsKnown() throws {
    let cli = try journal()
    let result = cli.run("chart", "squat")
    #expect(result.status == 1)
    #expect(result.err.contains("unknown exercise 'squat'"))
    #expect(result.err.contains("'Bench Press'"))
  }
}
