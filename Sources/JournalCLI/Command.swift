import Foundation

/// One `journal` subcommand: its words, its help, its options and what it does.
public struct Command: Sendable {
  /// The words that name it, such as `["split", "add"]`.
  public var words: [String]
  /// A one-line summary for the command list.
  public var abstract: String
  /// The positional arguments, such as `SPLIT [EXERCISE]`.
  public var arguments: String
  /// Longer help: rules, examples.
  public var discussion: String
  public var options: [OptionSpec]
  /// Hidden commands exist for tests and tools, and are not listed.
  public var isHidden: Bool
  /// What completes each positional argument; nil reads it from ``arguments``
  /// (``ValueSource/positionals(of:)``).
  var positionalValues: [ValueSource]?
  public var run: @Sendable (Invocation) throws -> Int32

  public init(
    _ words: [String],
    abstract: String,
    arguments: String = "",
    discussion: String = "",
    options: [OptionSpec] = [],
    isHidden: Bool = false,
    run: @escaping @Sendable (Invocation) throws -> Int32
  ) {
    self.positionalValues = nil
    self.words = words
    self.abstract = abstract
    self.arguments = arguments
    self.discussion = discussion
    self.options = options
    self.isHidden = isHidden
    self.run = run
  }

  var name: String { words.joined(separator: " ") }

  /// What completes each positional argument, in order.
  var positionalSources: [ValueSource] {
    positionalValues ?? ValueSource.positionals(of: arguments)
  }

  /// This command, its positionals completed from `sources`.
  func completing(_ sources: [ValueSource]) -> Command {
    var copy = self
    copy.positionalValues = sources
    return copy
  }
}

/// Everything a running command can see: its arguments, the global options,
/// the environment and the console.
public struct Invocation: Sendable {
  public var command: Command
  public var arguments: CommandLineArguments
  public var environment: [String: String]
  public var console: Console
  /// The current directory, for resolving relative paths.
  public var currentDirectory: URL
  /// Whether the journals the command opens are kept until the process exits instead of
  /// freed when it returns (`ProcessLifetime`): set by the `journal` binary only.
  public var keepsJournalsUntilExit = false

  /// The journal folder: `--journal`, else `$WORKOUT_JOURNAL`, else `./Journal`.
  public var journalURL: URL {
    let path = arguments.value("journal") ?? environment["WORKOUT_JOURNAL"] ?? "Journal"
    return resolve(path)
  }

  /// Whether `--json` was given.
  public var wantsJSON: Bool { arguments.flag("json") }

  /// The wall clock a command reads once: `$WORKOUT_NOW` (an ISO-8601 time, for scripts,
  /// tests and benchmarks that replay a day of training), else the machine's clock.
  ///
  /// - Throws: ``UsageError`` when `$WORKOUT_NOW` is not a time.
  func now() throws -> Date {
    guard let text = environment["WORKOUT_NOW"] else { return Date() }
    guard let date = try? Date(text, strategy: .iso8601) else {
      throw UsageError("WORKOUT_NOW '\(text)' is not an ISO-8601 time such as 2026-03-01T18:00:00Z")
    }
    return date
  }

  /// `path` resolved against the current directory.
  public func resolve(_ path: String) -> URL {
    path.hasPrefix("/")
      ? URL(fileURLWithPath: path).standardizedFileURL
      : currentDirectory.appendingPathComponent(path).standardizedFileURL
  }

  /// A usage error for this command.
  public func usage(_ message: String) -> UsageError { UsageError(message) }

  /// The single positional argument named `what`, or a usage error.
  public func positional(_ index: Int, _ what: String) throws(UsageError) -> String {
    guard index < arguments.positionals.count else { throw UsageError("missing \(what)") }
    return arguments.positionals[index]
  }

  /// Fails with a usage error when more than `count` positionals were given.
  public func expectPositionals(atMost count: Int) throws(UsageError) {
    if arguments.positionals.count > count {
      throw UsageError("unexpected argument '\(arguments.positionals[count])'")
    }
  }
}

/// Options every command accepts.
enum GlobalOptions {
  static let all: [OptionSpec] = [
    OptionSpec(
      "journal",
      value: "DIR",
      help: "The journal folder (default $WORKOUT_JOURNAL, else ./Journal)"
    ),
    OptionSpec(
      "device",
      value: "NAME",
      help: "The device writing (default $WORKOUT_DEVICE, else 'cli')"
    ),
    OptionSpec(
      "adopt",
      help: "Write as --device even if another machine wrote as it"
    ),
    OptionSpec("at", value: "TIME", help: "When the action happened (ISO 8601); back-dates it"),
    OptionSpec(
      "unit",
      value: "kg|lb",
      help: "Label weights with a unit (default $WORKOUT_UNIT); stored values never change",
      choices: ["kg", "lb"]
    ),
    OptionSpec("json", help: "Print machine-readable JSON"),
    OptionSpec("help", short: "h", help: "Show help for the command"),
  ]
}
