import Foundation
import JournalTestSupport
import Testing

@testable import JournalCLI

/// Groups, `--version`, `help` and the suggestions for a mistyped word.
@Suite struct GroupsAndSuggestionsTests {
  @Test(arguments: CommandCatalog.groups.map(\.name))
  func aGroupListsItsSubcommandsForHelp(_ group: String) throws {
    let cli = try CLIHarness()
    for arguments in [[group, "--help"], [group, "-h"], ["help", group]] {
      let result = cli.run(arguments)
      #expect(result.status == 0, "\(arguments)")
      #expect(result.err.isEmpty)
      for command in CommandCatalog.commands(in: group) {
        #expect(result.out.contains("  \(command.words[1])"), "\(arguments): \(command.name)")
      }
    }
    expectGolden(Data(cli.run(group, "--help").out.utf8), named: "help-\(group).txt")
  }

  @Test(arguments: CommandCatalog.groups.map(\.name))
  func aBareGroupIsAUsageErrorThatListsItsSubcommands(_ group: String) throws {
    let cli = try CLIHarness()
    let result = cli.run(group)
    #expect(result.status == 64)
    #expect(result.out.contains("SUBCOMMANDS:"))
    #expect(result.err.contains("needs a subcommand"))
  }

  /// Every first word shared by commands of several words is a group, and only those.
  @Test func theGroupsAreTheSharedFirstWords() {
    let shared = Set(CommandCatalog.all.filter { $0.words.count > 1 }.map { $0.words[0] })
    #expect(Set(CommandCatalog.groups.map(\.name)) == shared)
  }

  @Test func versionNamesTheToolAndTheFormatsItReads() throws {
    let cli = try CLIHarness()
    let result = cli.run("--version")
    #expect(result.status == 0)
    #expect(result.out.hasPrefix("journal \(Help.toolVersion)\n"))
    #expect(result.out.contains("journal format 1"))
    #expect(result.out.contains("set.completed v3"))
    #expect(result.out.contains("SplitDocument 3, WorkoutDocument 5"))
  }

  @Test func aMistypedCommandGetsTheNearest() throws {
    let cli = try CLIHarness()
    let result = cli.run("strat")
    #expect(result.status == 64)
    #expect(result.err.contains("error: unknown command 'strat'"))
    #expect(result.err.contains("hint: did you mean 'start'?"))
    let sub = cli.run("split", "ad", "Legs")
    #expect(sub.status == 64)
    #expect(sub.err.contains("unknown command 'split ad'"))
    #expect(sub.err.contains("did you mean 'add'?"))
    let far = cli.run("xyzzyplugh")
    #expect(far.status == 64)
    #expect(!far.err.contains("did you mean"))
  }

  @Test func aMistypedOptionGetsTheNearest() throws {
    let cli = try CLIHarness()
    let result = cli.run("done", "--rps", "5")
    #expect(result.status == 64)
    #expect(result.err.contains("error: unknown option '--rps'"))
    #expect(result.err.contains("hint: did you mean '--reps'?"))
    #expect(result.err.contains("See 'journal done --help'."))
  }

  @Test func helpNamesACommandOrAGroup() throws {
    let cli = try CLIHarness()
    #expect(cli.run("help", "split", "add").out == cli.run("split", "add", "--help").out)
    #expect(cli.run("help").status == 0)
    let unknown = cli.run("help", "strat")
    #expect(unknown.status == 64)
    #expect(unknown.err.contains("did you mean 'start'?"))
  }

  @Test func editDistance() {
    #expect(Suggestions.distance(Array("strat"), Array("start")) == 1)
    #expect(Suggestions.distance(Array("rps"), Array("reps")) == 1)
    #expect(Suggestions.distance(Array(""), Array("abc")) == 3)
    #expect(Suggestions.distance(Array("kitten"), Array("sitting")) == 3)
    #expect(Suggestions.nearest(to: "stat", among: ["start", "status", "today"]).count == 2)
    #expect(Suggestions.nearest(to: "exp", among: ["export", "end"]) == ["export"])
  }
}
