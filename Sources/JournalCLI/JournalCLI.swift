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
    guard let (command, rest) = match(arguments) else {
      if arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"]
        || arguments == ["help"]
      {
        console.print(Help.overview(commands))
        return arguments.isEmpty ? ExitStatus.usage : ExitStatus.success
      }
      if arguments.first == "help", let (command, _) = match(Array(arguments.dropFirst())) {
        console.print(Help.page(for: command))
        return ExitStatus.success
      }
      let shown = arguments.prefix(while: { !$0.hasPrefix("-") }).joined(separator: " ")
      console.error("error: unknown command '\(shown.isEmpty ? arguments[0] : shown)'")
      console.error("See 'journal --help'.")
      return ExitStatus.usage
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
      return try command.run(invocation)
    } catch let error as UsageError {
      console.error("error: \(error.message)")
      console.error("See 'journal \(command.name) --help'.")
      return ExitStatus.usage
    } catch {
      Diagnostics.report(error, to: console)
      return ExitStatus.failure
    }
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
