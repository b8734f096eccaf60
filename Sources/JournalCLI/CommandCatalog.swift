/// The catalogue of commands, in the order `journal --help` lists them.
enum CommandCatalog {
  static let all: [Command] =
    [JournalCommands.initialize]
    + SplitCommands.all
    + ExerciseCommands.all
    + WorkoutCommands.all
    + HistoryCommands.all
    + ReadCommands.all
    + AuditCommands.all
    + ExportCommands.all
    + ProjectionCommands.all
    + [JournalCommands.verify, JournalCommands.upgradeCheck, JournalCommands.sample]
    + [JournalCommands.appendLoop]
}
