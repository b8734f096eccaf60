/// The catalogue of commands. Add a command by adding it here.
enum CommandCatalog {
  static let all: [Command] = []
}
