import Foundation
import JournalTestSupport
import Testing

/// The command line's conventions as a shell sees them, through the built `journal`.
@Suite struct CommandLineBinaryTests {
  @Test func conventionsEndToEnd() throws {
    let base = try makeTemporaryDirectory("binary-cli")
    let journal = base.appendingPathComponent("nested/folders/Journal")
    let binary = BinaryTests()
    let version = try binary.run(["--version"], journal: journal)
    #expect(version.status == 0)
    #expect(version.out.hasPrefix("journal "))
    let group = try binary.run(["exercise"], journal: journal)
    #expect(group.status == 64)
    #expect(group.out.contains("SUBCOMMANDS:"))
    #expect(!group.err.isEmpty)
    let typo = try binary.run(["strat"], journal: journal)
    #expect(typo.status == 64)
    #expect(typo.err.contains("did you mean 'start'?"))
    let created = try binary.run(["init", "--starter"], journal: journal)
    #expect(created.status == 0, "\(created.err)")
    #expect(created.out.contains("added starter splits: Upper Body, Core, Lower Body"))
    let start = try binary.run(["start", "low", "--time-zone", "Europe/Berlin"], journal: journal)
    #expect(start.status == 0, "\(start.err)")
    let done = try binary.run(
      ["done", "leg p", "--weight", "80", "--unit", "kg"],
      journal: journal
    )
    #expect(done.status == 0, "\(done.err)")
    #expect(done.out.contains("10 × 80 kg"), "\(done.out)")
    let values = try binary.run(["__complete", "workout-exercises", "--", "leg"], journal: journal)
    #expect(values.out == "Leg Press\nLeg Extension\n")
    let script = try binary.run(["completion", "bash"], journal: journal)
    #expect(script.status == 0)
    #expect(script.out.contains("complete -F _journal journal"))
  }
}
