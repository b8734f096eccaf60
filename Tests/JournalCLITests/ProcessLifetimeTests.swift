import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalCLI

/// The binary keeps the journal a command opened until it exits, rather than freeing it;
/// runs in a process that goes on (these tests) keep nothing.
@Suite(.serialized) struct ProcessLifetimeTests {
  @Test func onlyTheBinarysRunsKeepTheirJournals() throws {
    let h = try CLIHarness()
    h.makeUpperBody()
    let before = ProcessLifetime.count
    h.ok("split", "list")
    #expect(ProcessLifetime.count == before, "an in-process run keeps nothing")

    let out = Buffer()
    let console = Console(
      isTerminal: false,
      environment: h.environment,
      out: { out.append($0) },
      err: { _ in }
    )
    let arguments = ["exercise", "add", "Upper Body", "Row", "--sets", "3", "--reps", "8"]
    let status = JournalCLI.run(
      arguments: arguments,
      environment: h.environment,
      console: console,
      keepingJournalsUntilExit: true
    )
    #expect(status == ExitStatus.success)
    #expect(ProcessLifetime.count == before + 1, "the binary's run keeps its journal")
    // The command did its work as usual: the next run sees the new exercise.
    #expect(h.ok("split", "list").contains("Row"))
  }
}
