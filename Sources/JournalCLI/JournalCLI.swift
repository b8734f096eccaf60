import Foundation

/// The `journal` command line, callable in-process.
public enum JournalCLI {
  /// Every command, in the order `journal --help` lists them.
  static var commands: [Command] { CommandCatalog.all }

  /// Runs `journal` with `arguments` (without the program name).
  ///
  /// - Parameters:
  ///   - arguments: the words after the program name.
  ///   - environment: the variables the command reads (`WORKOUT_JOURNAL`, `NO_COLOR`, …).
  ///   - console: where output and errors go.
  ///   - currentDirectory: what relative paths are resolved against.
  ///   - keepingJournalsUntilExit: keep the journals the command opens until the process
  ///     exits (`ProcessLifetime`), for a process that exits right after: freeing a
  ///     replayed journal takes a tenth of a second at 100k events. Runs in a process that
  ///     goes on (tests) leave it false.
  /// - Returns: the exit status: 0 success, 1 failure, 64 usage error.
  public static func run(
    arguments: [String],
    environment: [String: String],
    console: Console,
    currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
    keepingJournalsUntilExit: Bool = false
  ) -> Int32 {
    if arguments.isEmpty {
      console.print(Help.overview(commands))
      return ExitStatus.usage
    }
    if arguments == ["--help"] || arguments == ["-h"] {
      console.print(Help.overview(commands))
      return ExitStatus.success
    }
    if arguments == ["--version"] || arguments == ["-V"] {
      console.print(Help.version())
      return ExitStatus.success
    }
    guard let (command, rest) = match(arguments) else {
      return unmatched(arguments, console: console)
    }
    do {
      let parsed = try CommandLineArguments(rest, options: command.options + GlobalOptions.all)
      if parsed.flag("help") {
        console.print(Help.page(for: command))
        return ExitStatus.success
      }
      var invocation = Invocation(
        command: command,
        arguments: parsed,
        environment: environment,
        console: console,
        currentDirectory: currentDirectory
      )
      invocation.keepsJournalsUntilExit = keepingJournalsUntilExit
      let unit = try DisplayUnit.parse(option: parsed.value("unit"), environment: environment)
      return try DisplayUnit.$current.withValue(unit) { try command.run(invocation) }
    } catch let error as UsageError {
      console.error("error: \(error.message)")
      if let hint = error.hint { console.error("hint: \(hint)") }
      console.error("See 'journal \(command.name) --help'.")
      return ExitStatus.usage
    } catch {
      Diagnostics.report(error, to: console)
      return ExitStatus.failure
    }
  }

  /// Words that name no command: a group's help (asked for, or a bare group), else an
  /// unknown command with the nearest names.
  static func unmatched(_ arguments: [String], console: Console) -> Int32 {
    let words = arguments.prefix(while: { !$0.hasPrefix("-") })
    let asksHelp = arguments.contains("--help") || arguments.contains("-h")
    if let group = CommandCatalog.groups.first(where: { $0.name == arguments[0] }) {
      let rest = Array(words.dropFirst())
      if rest.isEmpty {
        if asksHelp {
          console.print(Help.group(group))
          return ExitStatus.success
        }
        console.print(Help.group(group))
        console.error("error: '\(group.name)' needs a subcommand: see the list above")
        return ExitStatus.usage
      }
      let names = CommandCatalog.commands(in: group.name).map { $0.words[1] }
      console.error("error: unknown command '\(group.name) \(rest[0])'")
      if let hint = Suggestions.hint(for: rest[0], among: names) {
        console.error("hint: \(hint)")
      }
      console.error("See 'journal \(group.name) --help'.")
      return ExitStatus.usage
    }
    let typed = words.first ?? arguments[0]
    console.error("error: unknown command '\(typed)'")
    if let hint = Suggestions.hint(for: typed, among: CommandCatalog.firstWords) {
      console.error("hint: \(hint)")
    }
    console.error("See 'journal --help'.")
    return ExitStatus.usage
  }

  /// The command whose words start `arguments` (longest match) and the rest.
  static func match(_ arguments: [String]) -> (Command, [String])? {
    var best: (Command, [String])?
    for command in commands where arguments.starts(with: command.words) {
      if best == nil || command.words.count > (best?.0.words.count ?? 0) {
        best = (command, Array(arguments.dropFirst(command.words.count)))
      }
    }
    return best
  }
}
