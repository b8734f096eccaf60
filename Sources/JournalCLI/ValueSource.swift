import Foundation

/// Where the values of an argument or option come from, for shell completion.
///
/// Read from the command catalog: a positional's placeholder or an option's name and
/// placeholder decides it (``positionals(of:)``, ``option(_:)``), so the completion scripts are
/// never written by hand. The journal's own values are listed by the hidden, read-only
/// `journal __complete KIND`.
enum ValueSource: Sendable, Equatable {
  /// Free text: nothing to offer.
  case none
  /// The live splits' names.
  case splits
  /// The exercises of the split named by the positional before it.
  case splitExercises
  /// The exercises of the workout in progress.
  case workoutExercises
  /// Every exercise name the journal knows (splits and workouts, display and library names).
  case exercises
  /// Live workouts' ids.
  case workouts
  /// Splits' names and workouts' ids (`blame`).
  case documents
  /// The bundled exercise catalog's names.
  case library
  /// The words a command line starts with: single-word commands and groups (`help`).
  case commands
  /// Paths.
  case files
  /// Folders.
  case directories
  /// A fixed list.
  case choices([String])

  /// The `journal __complete` kind that lists the values, for those the journal supplies.
  var completeKind: String? {
    switch self {
    case .splits: "splits"
    case .splitExercises: "split-exercises"
    case .workoutExercises: "workout-exercises"
    case .exercises: "exercises"
    case .workouts: "workouts"
    case .documents: "documents"
    case .library: "library"
    case .commands: "commands"
    case .none, .files, .directories, .choices: nil
    }
  }

  /// The sources of the positionals a usage such as `SPLIT [EXERCISE]` names.
  static func positionals(of usage: String) -> [ValueSource] {
    var sources: [ValueSource] = []
    var previous = ""
    for token in usage.split(separator: " ") {
      let word = token.trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
      switch word {
      case "SPLIT": sources.append(.splits)
      case "EXERCISE": sources.append(previous == "SPLIT" ? .splitExercises : .workoutExercises)
      case "WORKOUT": sources.append(.workouts)
      case "DIR": sources.append(.directories)
      case "FILE": sources.append(.files)
      case "COMMAND": sources.append(.commands)
      default: sources.append(.none)
      }
      previous = word
    }
    return sources
  }

  /// The source of an option's value.
  static func option(_ option: OptionSpec) -> ValueSource {
    guard let placeholder = option.value else { return .none }
    if !option.choices.isEmpty { return .choices(option.choices) }
    switch (option.name, placeholder) {
    case ("workout", _): return .workouts
    case ("exercise", _): return .exercises
    case ("split", _): return .splits
    case ("library", _): return .library
    case ("log", _): return .workoutExercises
    case (_, "DIR"): return .directories
    case (_, "FILE"): return .files
    default: return .none
    }
  }
}
