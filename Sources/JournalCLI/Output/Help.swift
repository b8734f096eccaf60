import Foundation

/// Renders help pages from the command declarations.
enum Help {
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
    lines += ["", "See 'journal <command> --help' for the options of one command."]
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
