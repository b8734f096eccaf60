import Foundation
import JournalProjections

/// `split add|edit|remove|move|list`: the routines.
enum SplitCommands {
  static let all: [Command] = [add, starter, edit, remove, move, list]

  static let starter = Command(
    ["split", "starter"],
    abstract: "Add the app's starter splits (Upper Body, Core, Lower Body) from the catalog",
    discussion: """
      Each is made from the exercise catalog ('journal catalog') and marked as starter: its
      stub is never pruned. One that exists is not added twice, and one that was deleted is
      never added again (the app's seed-resurrection veto): undo the deletion to bring it
      back. With nothing to add it says so and changes nothing.
      """
  ) { invocation in
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: 0)
    let added = try addStarters(session, invocation)
    if invocation.wantsJSON {
      invocation.printJSON(["added": added])
      return ExitStatus.success
    }
    invocation.console.print(
      added.isEmpty
        ? "no starter split to add" : "added starter splits: \(added.joined(separator: ", "))"
    )
    return ExitStatus.success
  }

  /// Adds the missing starter splits as one action and tells why any was left out.
  ///
  /// - Returns: the names of the splits added.
  static func addStarters(_ session: JournalSession, _ invocation: Invocation) throws -> [String] {
    let state = session.state()
    let missing = state.missingStarterSplits.map(\.settings.name)
    for name in state.vetoedStarterSplits {
      invocation.console.error(
        "note: starter split '\(name)' was deleted and is not added again"
      )
    }
    guard !missing.isEmpty else { return [] }
    try session.execute(.addStarterSplits, console: invocation.console)
    return missing
  }

  static let settingOptions: [OptionSpec] = [
    OptionSpec("color", value: "NAME", help: "Theme colour name"),
    OptionSpec("symbol", value: "NAME", help: "SF Symbol name"),
    OptionSpec("activity", value: "N", help: "Activity type 0…8 (0 traditional strength)"),
    OptionSpec("rest", value: "S", help: "Rest between sets, in seconds"),
    OptionSpec("auto-advance", help: "Flow mode: rest, then move to the next exercise"),
    OptionSpec("target-hr", value: "BPM", help: "Target heart rate"),
  ]

  static let add = Command(
    ["split", "add"],
    abstract: "Create a split",
    arguments: "NAME",
    options: settingOptions + [
      OptionSpec("starter", help: "Mark as a starter split (its stub is kept forever)")
    ]
  ) { invocation in
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: 1)
    let settings = SplitSettings(
      name: try invocation.positional(0, "split name"),
      color: invocation.string("color") ?? "blue",
      systemImage: invocation.string("symbol") ?? "dumbbell",
      activityType: try invocation.int("activity"),
      restSeconds: try invocation.int("rest"),
      autoAdvance: invocation.arguments.flag("auto-advance") ? true : nil,
      targetHeartRate: try invocation.int("target-hr")
    )
    let events = try session.execute(
      .createSplit(settings, isStarter: invocation.arguments.flag("starter")),
      console: invocation.console
    )
    let split = session.state().splits[events.first?.streamID ?? ""]
    return WorkoutOutput.report(
      events,
      workout: nil,
      split: split,
      in: invocation,
      headline: "created split '\(settings.name)' (\(split?.document.id ?? "?"))"
    )
  }

  static let edit = Command(
    ["split", "edit"],
    abstract: "Change a split's settings",
    arguments: "SPLIT",
    options: [OptionSpec("name", value: "NAME", help: "New name")] + settingOptions + [
      OptionSpec("no-auto-advance", help: "Turn flow mode off"),
      OptionSpec("no-rest", help: "Use the app's default rest"),
      OptionSpec("no-target-hr", help: "Remove the heart-rate target"),
      OptionSpec("no-activity", help: "Back to traditional strength"),
    ]
  ) { invocation in
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: 1)
    var update = SplitUpdated()
    update.name = try invocation.change("name") { (n: String) throws(UsageError) in
      invocation.string(n)
    }
    update.color = try invocation.change("color") { (n: String) throws(UsageError) in
      invocation.string(n)
    }
    update.systemImage = try invocation.change("symbol") { (n: String) throws(UsageError) in
      invocation.string(n)
    }
    update.activityType = try invocation.change("activity", invocation.int)
    update.restSeconds = try invocation.change("rest", invocation.int)
    update.targetHeartRate = try invocation.change("target-hr", invocation.int)
    if invocation.arguments.flag("auto-advance") { update.autoAdvance = .set(true) }
    if invocation.arguments.flag("no-auto-advance") { update.autoAdvance = .set(nil) }
    let events = try session.execute(
      .updateSplit(split: try invocation.positional(0, "split"), update),
      console: invocation.console
    )
    let split = session.state().splits[events.first?.streamID ?? ""]
    return WorkoutOutput.report(
      events,
      workout: nil,
      split: split,
      in: invocation,
      headline: "updated split '\(split?.document.name ?? "?")'"
    )
  }

  static let remove = Command(
    ["split", "remove"],
    abstract: "Delete a split (a stub remains)",
    arguments: "SPLIT"
  ) {
    invocation in
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: 1)
    let events = try session.execute(
      .deleteSplit(split: try invocation.positional(0, "split")),
      console: invocation.console
    )
    let split = session.state().splits[events.first?.streamID ?? ""]
    return WorkoutOutput.report(
      events,
      workout: nil,
      split: split,
      in: invocation,
      headline: "deleted split '\(split?.document.name ?? "?")'"
    )
  }

  static let move = Command(
    ["split", "move"],
    abstract: "Move a split to a position in the list (from 1)",
    arguments: "SPLIT POSITION"
  ) { invocation in
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: 2)
    guard let position = Int(try invocation.positional(1, "position")) else {
      throw UsageError("position must be a whole number")
    }
    let events = try session.execute(
      .moveSplit(split: try invocation.positional(0, "split"), position: position),
      console: invocation.console
    )
    let names = session.state().liveSplits.map(\.document.name)
    return WorkoutOutput.report(
      events,
      workout: nil,
      in: invocation,
      headline: "splits: \(names.joined(separator: ", "))"
    )
  }

  static let list = Command(["split", "list"], abstract: "List the splits and their exercises") {
    invocation in
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: 0)
    let splits = session.state().liveSplits
    if invocation.wantsJSON {
      let data = (try? DocumentCoder.encode(splits.map(\.document))) ?? Data()
      invocation.console.print(String(decoding: data, as: UTF8.self))
      return ExitStatus.success
    }
    if splits.isEmpty {
      invocation.console.print("no splits yet; create one with 'journal split add NAME'")
    }
    for split in splits {
      let c = invocation.console
      c.print(c.styled(split.document.name, .bold) + c.styled("  \(split.document.id)", .dim))
      for exercise in split.document.exercises {
        var line = "  \(exercise.name)"
        if let library = exercise.libraryName { line += c.styled(" (\(library))", .dim) }
        line += "  " + ExerciseCommands.describe(exercise)
        c.print(line)
      }
    }
    return ExitStatus.success
  }
}
