import Foundation
import JournalCore
import JournalProjections

/// Renders help pages, the version and the man page from the command declarations.
enum Help {
  /// The version of the `journal` tool.
  static let toolVersion = "0.1.0"

  /// `journal --version`: the tool's version, and the formats it reads and writes.
  static func version() -> String {
    let events = JournalEvent.currentVersions.sorted { $0.key < $1.key }
      .map { "  \($0.key) v\($0.value)" }
    return
      ([
        "journal \(toolVersion)",
        "journal format \(EventLog.formatVersion)",
        "documents: SplitDocument \(SplitDocument.currentSchemaVersion), "
          + "WorkoutDocument \(WorkoutDocument.currentSchemaVersion)",
        "event versions read (and written):",
      ] + events).joined(separator: "\n")
  }

  /// `journal split --help`: what a group is for and its subcommands.
  static func group(_ group: CommandCatalog.Group) -> String {
    let members = CommandCatalog.commands(in: group.name)
    var lines = [
      "OVERVIEW: \(group.abstract)",
      "",
      "USAGE: journal \(group.name) <subcommand> [options]",
      "",
      "SUBCOMMANDS:",
    ]
    let width = (members.map { $0.words[1].count }.max() ?? 0) + 2
    for command in members {
      lines.append(
        "  " + command.words[1].padding(toLength: width, withPad: " ", startingAt: 0)
          + command.abstract
      )
    }
    lines += ["", "See 'journal \(group.name) <subcommand> --help' for the options of one."]
    return lines.joined(separator: "\n")
  }

  /// `journal --help`: what the tool is and every visible command.
  static func overview(_ commands: [Command]) -> String {
    var lines = [
      "journal: an event-sourced workout journal",
      "",
      "USAGE: journal <command> [options]",
      "",
      "COMMANDS:",
    ]
    let visible = commands.filter { !$0.isHidden }
    let width = (visible.map(\.name.count).max() ?? 0) + 2
    for command in visible {
      lines.append(
        "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.abstract
      )
    }
    lines += [
      "",
      "GLOBAL OPTIONS:",
    ]
    lines += optionLines(GlobalOptions.all)
    lines += [
      "",
      "See 'journal <command> --help' for the options of one command, 'journal --version' for",
      "the formats this build reads, 'journal help --man' for the manual.",
    ]
    return lines.joined(separator: "\n")
  }

  /// `journal <command> --help`.
  static func page(for command: Command) -> String {
    var usage = "USAGE: journal \(command.name)"
    if !command.arguments.isEmpty { usage += " \(command.arguments)" }
    if !command.options.isEmpty { usage += " [options]" }
    var lines = ["OVERVIEW: \(command.abstract)", "", usage]
    if !command.discussion.isEmpty { lines += ["", command.discussion] }
    if !command.options.isEmpty {
      lines += ["", "OPTIONS:"]
      lines += optionLines(command.options)
    }
    lines += ["", "GLOBAL OPTIONS:"]
    lines += optionLines(GlobalOptions.all)
    return lines.joined(separator: "\n")
  }

  private static func optionLines(_ options: [OptionSpec]) -> [String] {
    let labels = options.map { option in
      var label = option.short.map { "-\($0), " } ?? ""
      label += "--\(option.name)"
      if let value = option.value { label += " \(value)" }
      return label
    }
    let width = (labels.map(\.count).max() ?? 0) + 2
    return zip(labels, options).map { label, option in
      "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help
    }
  }
}
