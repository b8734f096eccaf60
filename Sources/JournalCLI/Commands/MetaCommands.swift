import Foundation
import JournalCore
import JournalProjections

/// `help`, `completion` and the hidden `__complete`: the command line about itself.
enum MetaCommands {
  static let help = Command(
    ["help"],
    abstract: "Show help for a command or a group, or print the man page",
    arguments: "[COMMAND...]",
    discussion: "'journal help --man' prints the man page (docs/journal.1 is its output).",
    options: [OptionSpec("man", help: "Print the man page in roff (man -l docs/journal.1)")]
  ) { invocation in
    let words = invocation.arguments.positionals
    if invocation.arguments.flag("man") {
      guard words.isEmpty else { throw UsageError("'--man' takes no command") }
      invocation.console.write(ManPage.render(CommandCatalog.all))
      return ExitStatus.success
    }
    if words.isEmpty {
      invocation.console.print(Help.overview(CommandCatalog.all))
      return ExitStatus.success
    }
    if let command = CommandCatalog.command(named: words), !command.isHidden {
      invocation.console.print(Help.page(for: command))
      return ExitStatus.success
    }
    if words.count == 1, let group = CommandCatalog.groups.first(where: { $0.name == words[0] }) {
      invocation.console.print(Help.group(group))
      return ExitStatus.success
    }
    let names = CommandCatalog.all.filter { !$0.isHidden }.map(\.name) + CommandCatalog.firstWords
    let typed = words.joined(separator: " ")
    throw UsageError(
      "unknown command '\(typed)'",
      hint: Suggestions.hint(for: typed, among: names)
    )
  }

  static let completion = Command(
    ["completion"],
    abstract: "Print the shell completion script for bash, zsh or fish",
    arguments: "SHELL",
    discussion: """
      bash: source <(journal completion bash), or save it in
      ~/.local/share/bash-completion/completions/journal. zsh: save it as _journal in a
      folder of $fpath. fish: save it as ~/.config/fish/completions/journal.fish. The
      scripts complete commands, options, split and exercise names and workout ids.
      """
  ) { invocation in
    try invocation.expectPositionals(atMost: 1)
    let shell = try invocation.positional(0, "shell (bash, zsh or fish)")
    guard let script = Completion.script(for: shell, commands: CommandCatalog.all) else {
      throw UsageError(
        "unknown shell '\(shell)': use bash, zsh or fish",
        hint: Suggestions.hint(for: shell, among: Completion.shells)
      )
    }
    invocation.console.write(script)
    return ExitStatus.success
  }
  .completing([.choices(Completion.shells)])

  /// The kinds `__complete` lists.
  static let kinds = [
    "splits", "split-exercises", "workout-exercises", "exercises", "workouts", "documents",
    "library", "commands",
  ]

  static let complete = Command(
    ["__complete"],
    abstract: "List completion values that start with PREFIX, one a line (completion scripts)",
    arguments: "KIND [SPLIT] PREFIX",
    discussion: """
      Reads the journal (through its saved state when it has one) and never writes to it. KIND is splits, split-exercises (of SPLIT),
      workout-exercises (of the workout in progress), exercises, workouts, documents,
      library or commands. Values are matched by prefix, ignoring case.
      """,
    isHidden: true
  ) { invocation in
    var words = invocation.arguments.positionals
    guard let kind = words.first else { throw UsageError("missing kind") }
    guard kinds.contains(kind) else {
      throw UsageError(
        "unknown kind '\(kind)'",
        hint: Suggestions.hint(for: kind, among: kinds)
      )
    }
    words = words.dropFirst().map(shellUnquoted)
    let prefix = words.count > (kind == "split-exercises" ? 1 : 0) ? words.removeLast() : ""
    let values: [String]
    switch kind {
    case "library": values = ExerciseLibrary.exercises.map(\.name)
    case "commands": values = CommandCatalog.firstWords
    default:
      values = try journalValues(kind, split: words.first, prefix: prefix, invocation)
    }
    let lower = prefix.lowercased()
    var seen = Set<String>()
    for value in values where value.lowercased().hasPrefix(lower) && seen.insert(value).inserted {
      invocation.console.print(value)
    }
    return ExitStatus.success
  }

  /// A word as bash hands it to a completion function, quotes and backslashes still in it
  /// (`Upper\ Body`, `"Upper Body`), as the word means it.
  static func shellUnquoted(_ word: String) -> String {
    var result = ""
    var quote: Character?
    var escaped = false
    for character in word {
      if escaped {
        result.append(character)
        escaped = false
      } else if character == "\\" && quote != "'" {
        escaped = true
      } else if let open = quote, character == open {
        quote = nil
      } else if quote == nil, character == "'" || character == "\"" {
        quote = character
      } else {
        result.append(character)
      }
    }
    return result
  }

  /// The values of `kind` read from the journal, which is only read: no writer is opened.
  ///
  /// A journal with a saved state is read through it, loading only the streams `kind` needs:
  /// the splits, the open and latest workouts, and the workouts whose id starts with the typed
  /// prefix (all of them only for an empty prefix of `workouts`, which lists the open and
  /// latest ones). Nothing is ever written: a saved state that is missing or behind the files
  /// (other devices appended since) is not brought up to date, and the journal is read whole.
  static func journalValues(
    _ kind: String,
    split: String?,
    prefix: String,
    _ invocation: Invocation
  ) throws -> [String] {
    let url = try JournalSession.journalURL(invocation)
    let store = try FileEventStore(url: url)
    var scope = StateScope(openWorkouts: true, latestWorkout: true)
    if kind == "workouts" || kind == "documents", !prefix.isEmpty { scope.workouts = [prefix] }
    let journal = try Journal.open(store: store, scope: scope, newID: { "" }, readOnly: true)
    let state = journal.state()
    switch kind {
    case "splits":
      return state.liveSplits.map(\.document.name)
    case "split-exercises":
      guard let split else { throw UsageError("missing split") }
      return try state.split(split).document.exercises.map(\.name)
    case "workout-exercises":
      guard let workout = try? state.workout(nil) else { return [] }
      return workout.document.logs.map(\.exerciseName)
    case "exercises":
      var names = state.liveSplits.flatMap { $0.document.exercises.map(\.name) }
      for workout in state.liveWorkouts.reversed() {
        names += workout.document.logs.map(\.exerciseName)
      }
      return names
    case "workouts":
      return state.liveWorkouts.reversed().map(\.document.id)
    default:
      return state.liveSplits.map(\.document.name)
        + state.liveWorkouts.reversed().map(\.document.id)
    }
  }
}
