/// The catalogue of commands, in the order `journal --help` lists them.
///
/// Help, the man page and the shell completion scripts are all generated from it.
enum CommandCatalog {
  static let all: [Command] =
    [JournalCommands.initialize]
    + SplitCommands.all
    + ExerciseCommands.all
    + [LibraryCommands.catalog]
    + WorkoutCommands.all
    + RunCommands.all
    + HistoryCommands.all
    + ReadCommands.all
    + AuditCommands.all
    + ReportCommands.all
    + ExportCommands.all
    + ProjectionCommands.all
    + [JournalCommands.verify, JournalCommands.upgradeCheck, JournalCommands.sample]
    + [MetaCommands.help, MetaCommands.completion]
    + [JournalCommands.appendLoop, MetaCommands.complete]

  /// A word that names a group of commands (`split`, `exercise`) and what the group is for.
  struct Group: Sendable {
    var name: String
    var abstract: String
  }

  /// The groups: every first word shared by commands of more than one word.
  static let groups: [Group] = [
    Group(name: "split", abstract: "Create, change and list splits (routines)"),
    Group(name: "exercise", abstract: "Add and change the exercises of a split"),
  ]

  /// The visible commands of `group`, in catalogue order.
  static func commands(in group: String) -> [Command] {
    all.filter { !$0.isHidden && $0.words.count > 1 && $0.words[0] == group }
  }

  /// The words a person can type first: single-word commands and group names.
  static var firstWords: [String] {
    var words: [String] = []
    for command in all where !command.isHidden && !words.contains(command.words[0]) {
      words.append(command.words[0])
    }
    return words
  }

  /// The visible command `words` names exactly, if any.
  static func command(named words: [String]) -> Command? {
    all.first { $0.words == words }
  }
}
