import Foundation
import JournalTestSupport
import Testing

@testable import JournalCLI

/// `docs/journal.1` is `journal help --man`, and `man -l` renders it.
@Suite struct ManPageTests {
  static let page = SampleFreshnessTests.repository.appendingPathComponent("docs/journal.1")

  @Test func theCheckedInManPageIsCurrent() throws {
    let cli = try CLIHarness()
    let result = cli.run("help", "--man")
    #expect(result.status == 0)
    let expected = try Data(contentsOf: Self.page)
    #expect(
      Data(result.out.utf8) == expected,
      "docs/journal.1 is stale: \(firstDifference(expected, Data(result.out.utf8))); run Scripts/update-golden.sh"
    )
  }

  @Test func everyVisibleCommandHasASection() throws {
    let page = ManPage.render(CommandCatalog.all)
    for command in CommandCatalog.all {
      let heading = ".SS \"\(ManPage.escape(ManPage.usage(command)))\""
      #expect(page.contains(heading) != command.isHidden, "\(command.name)")
    }
  }

  @Test(.enabled(if: Shells.canRun("man")))
  func manRendersIt() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["man", "-l", Self.page.path]
    process.environment = [
      "PATH": "/usr/local/bin:/usr/bin:/bin", "MANPAGER": "cat", "PAGER": "cat",
      "MANWIDTH": "80", "LANG": "C.UTF-8",
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(errors)")
    #expect(errors.isEmpty, "\(errors)")
    #expect(text.contains("journal split add NAME [options]"))
    #expect(text.contains("EXIT STATUS"))
  }
}
