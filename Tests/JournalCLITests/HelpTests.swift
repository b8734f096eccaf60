import Foundation
import JournalTestSupport
import Testing

@testable import JournalCLI

@Suite struct HelpTests {
  static let commands = CommandCatalog.all.filter { !$0.isHidden }.map(\.words)

  @Test func overview() throws {
    let cli = try CLIHarness()
    let result = cli.run("--help")
    #expect(result.status == 0)
    expectGolden(Data(result.out.utf8), named: "help.txt")
  }

  @Test(arguments: commands)
  func everyCommandHasHelp(_ words: [String]) throws {
    let cli = try CLIHarness()
    let result = cli.run(words + ["--help"])
    #expect(result.status == 0)
    #expect(result.out.hasPrefix("OVERVIEW: "))
    expectGolden(Data(result.out.utf8), named: "help-\(words.joined(separator: "-")).txt")
  }

  @Test func noArgumentsIsAUsageErrorThatShowsHelp() throws {
    let cli = try CLIHarness()
    let result = cli.run([])
    #expect(result.status == 64)
    #expect(result.out.contains("USAGE: journal <command>"))
  }
}
