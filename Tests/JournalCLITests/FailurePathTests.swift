import Foundation
import JournalTestSupport
import Testing

@testable import JournalCLI

/// A command line that fails, for one command.
///
/// `{file}` stands for a regular file and `{missing}` for a path that does not exist.
struct FailingInput: Sendable, CustomTestStringConvertible {
  var arguments: [String]
  var testDescription: String { arguments.joined(separator: " ") }
  init(_ arguments: String...) { self.arguments = arguments }
}

let failingInputs: [FailingInput] = [
  FailingInput("init", "--journal", "{file}/Journal"),
  FailingInput("split", "add", "Upper Body", "--activity", "42"),
  FailingInput("split", "starter", "extra"),
  FailingInput("split", "edit", "Nope", "--rest", "60"),
  FailingInput("split", "remove", "Nope"),
  FailingInput("split", "move", "Upper Body", "7"),
  FailingInput("split", "list", "extra"),
  FailingInput("exercise", "add", "Upper Body", "Curl", "--sets", "0"),
  FailingInput("exercise", "edit", "Upper Body", "Nope", "--sets", "2"),
  FailingInput("exercise", "remove", "Upper Body", "Nope"),
  FailingInput("exercise", "move", "Upper Body", "bench", "9"),
  FailingInput("exercise", "duplicate", "Nope", "bench"),
  FailingInput("catalog", "--load", "heavy"),
  FailingInput("start", "Nope"),
  FailingInput("done", "Nope"),
  FailingInput("run", "--rest", "-5"),
  FailingInput("adjust", "bench", "--set", "9", "--reps", "4"),
  FailingInput("more", "Nope"),
  FailingInput("skip", "Nope"),
  FailingInput("reset", "Nope"),
  FailingInput("finish", "Nope"),
  FailingInput("end", "--workout", "ZZZZZZ"),
  FailingInput("delete", "ZZZZZZ"),
  FailingInput("plan", "bench", "--sets", "-1"),
  FailingInput("metrics", "--max-hr", "900"),
  FailingInput("undo", "--workout", "ZZZZZZ"),
  FailingInput("redo"),
  FailingInput("rewind", "--to", "nonsense"),
  FailingInput("status", "ZZZZZZ"),
  FailingInput("today", "--time-zone", "Mars/Base"),
  FailingInput("audit", "--format", "xml"),
  FailingInput("history", "ZZZZZZ"),
  FailingInput("blame", "Nope"),
  FailingInput("diff", "--from", "nonsense"),
  FailingInput("records", "--exercise", "Nope"),
  FailingInput("chart", "Nope"),
  FailingInput("report", "--out", "{missing}/report.html"),
  FailingInput("export", "--format", "xml"),
  FailingInput("rebuild", "--as-of", "nonsense", "--out", "{missing}"),
  FailingInput("import", "{missing}"),
  FailingInput("verify", "--journal", "{missing}"),
  FailingInput("upgrade"),
  FailingInput("sample", "{file}"),
  FailingInput("help", "nope"),
  FailingInput("completion", "tcsh"),
  FailingInput("_append-loop", "--count", "many"),
  FailingInput("__complete", "nope"),
]

/// Every command, given inputs that fail, says why on standard error, and changes nothing.
@Suite struct FailurePathTests {
  @Test(arguments: failingInputs)
  func aFailurePrintsAMessageAndChangesNothing(_ input: FailingInput) throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("start", "Upper Body")
    cli.ok("done")
    let scratch = try makeTemporaryDirectory("failing")
    let file = scratch.appendingPathComponent("file")
    try Data("not a folder\n".utf8).write(to: file)
    let arguments = input.arguments.map {
      $0.replacingOccurrences(of: "{file}", with: file.path)
        .replacingOccurrences(of: "{missing}", with: scratch.appendingPathComponent("missing").path)
    }
    let before = try cli.snapshot()
    let result = cli.run(arguments)
    #expect(result.status != 0, "\(arguments) succeeded: \(result.out)")
    #expect(!result.err.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(arguments)")
    #expect(result.err.contains("error: "), "\(arguments): \(result.err)")
    #expect(try cli.snapshot() == before, "\(arguments) changed the journal")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["file"])
  }

  /// The table above has a case for every command of the catalog, hidden ones included.
  @Test func everyCommandHasAFailingInput() {
    for command in CommandCatalog.all {
      let covered = failingInputs.contains {
        JournalCLI.match($0.arguments)?.0.words == command.words
      }
      #expect(covered, "no failing input for '\(command.name)'")
    }
  }
}
