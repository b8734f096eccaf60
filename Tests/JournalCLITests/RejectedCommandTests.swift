import Foundation
import Testing

/// A command line that must fail, with its exit status and words of its error.
struct CLIRejectCase: Sendable, CustomTestStringConvertible {
  var arguments: [String]
  var status: Int32
  var message: String
  var testDescription: String { arguments.joined(separator: " ") }

  init(_ arguments: [String], _ status: Int32, _ message: String) {
    self.arguments = arguments
    self.status = status
    self.message = message
  }
}

let cliRejectCases: [CLIRejectCase] = [
  CLIRejectCase(["frobnicate"], 64, "unknown command 'frobnicate'"),
  CLIRejectCase(["done", "--bogus"], 64, "unknown option '--bogus'"),
  CLIRejectCase(["done", "--reps"], 64, "needs a value"),
  CLIRejectCase(["done", "--reps", "five"], 64, "needs a whole number"),
  CLIRejectCase(["done", "--weight", "heavy"], 64, "needs a number"),
  CLIRejectCase(["done", "--at", "yesterday-ish"], 64, "cannot read time"),
  CLIRejectCase(["start"], 64, "missing split name"),
  CLIRejectCase(["start", "Upper Body", "extra"], 64, "unexpected argument 'extra'"),
  CLIRejectCase(["done", "--device", "../etc"], 64, "invalid device name"),
  CLIRejectCase(["done", "--reps", "-3"], 1, "-3 reps is outside"),
  CLIRejectCase(["done", "--weight", "nan"], 1, "not a number"),
  CLIRejectCase(["done", "--weight", "inf"], 1, "not a number"),
  CLIRejectCase(["done", "Plank", "--reps", "3"], 1, "takes no reps"),
  CLIRejectCase(["done", "Bench Press", "--seconds", "30"], 1, "takes no seconds"),
  CLIRejectCase(["done", "Deadlift"], 1, "unknown exercise 'Deadlift'"),
  CLIRejectCase(["adjust", "bench", "--set", "9", "--reps", "4"], 1, "has no set 9"),
  CLIRejectCase(["start", "Legs"], 1, "unknown split 'Legs'"),
  CLIRejectCase(["start", "Upper Body", "--time-zone", "Mars/Base"], 1, "unknown time zone"),
  CLIRejectCase(["delete", "ZZZZZZ"], 1, "unknown workout"),
  CLIRejectCase(["split", "move", "Upper Body", "7"], 1, "position 7 is outside"),
  CLIRejectCase(["exercise", "add", "Upper Body", "Curl", "--sets", "0"], 1, "0 sets is outside"),
  CLIRejectCase(["metrics", "--max-hr", "900"], 1, "heart rate 900"),
  CLIRejectCase(["done", "--at", "2000-01-01T00:00:00Z"], 1, "before the workout started"),
  CLIRejectCase(["rewind"], 64, "missing '--to"),
  CLIRejectCase(["redo"], 1, "nothing to redo"),
]

@Suite struct RejectedCommandTests {
  @Test(arguments: cliRejectCases)
  func aRejectedCommandLeavesEveryFileByteIdentical(_ c: CLIRejectCase) throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("start", "Upper Body")
    cli.ok("done")
    let before = try cli.snapshot()
    let result = cli.run(c.arguments)
    #expect(result.status == c.status, "stderr: \(result.err)")
    #expect(result.err.contains(c.message), "stderr: \(result.err)")
    #expect(result.out.isEmpty)
    #expect(try cli.snapshot() == before, "a rejected command changed a file")
  }

  @Test func aMissingJournalSaysHowToCreateOne() throws {
    let cli = try CLIHarness()
    let result = cli.run("status")
    #expect(result.status == 1)
    #expect(result.err.contains("no journal at"))
    #expect(result.err.contains("journal init"))
  }
}
