import Foundation
import JournalProjections

/// `exercise add|edit|remove|move|duplicate`: the exercises of a split.
enum ExerciseCommands {
  static let all: [Command] = [add, edit, remove, move, duplicate]

  static let planOptions: [OptionSpec] = [
    OptionSpec("sets", value: "N", help: "Planned sets"),
    OptionSpec("reps", value: "N", help: "Planned reps"),
    OptionSpec("weight", value: "W", help: "Planned weight (makes it a weight exercise)"),
    OptionSpec("seconds", value: "S", help: "Seconds per set (makes it a timed exercise)"),
    OptionSpec(
      "load",
      value: "TYPE",
      help: "'weight', 'bodyweight' or 'duration' (default: from the values)"
    ),
    OptionSpec(
      "library",
      value: "NAME",
      help: "The catalog exercise this one customises (unique prefix; see 'journal catalog')"
    ),
    OptionSpec("machine", value: "NAME=VALUE", help: "A machine setting (repeatable)"),
    OptionSpec("machine-based", help: "A machine exercise with no settings recorded yet"),
  ]

  static let add = Command(
    ["exercise", "add"],
    abstract: "Add an exercise to a split",
    arguments: "SPLIT NAME",
    discussion: """
      Example: journal exercise add 'Upper Body' 'Bench Press' --sets 3 --reps 5 --weight 60.
      An exercise of the catalog ('journal catalog'), by its name or by --library, takes its
      load type, machine flag and plan from there unless options say otherwise. --library
      names the catalog exercise by a unique prefix; a name outside the catalog is kept, with
      a note. The display name is NAME; the library name is stored only when it differs.
      """,
    options: planOptions + [
      OptionSpec("position", value: "N", help: "Where in the list, from 1 (default: last)")
    ]
  ) { invocation in
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: 2)
    let name = try invocation.positional(1, "exercise name")
    let weight = try invocation.double("weight")
    let seconds = try invocation.int("seconds")
    // The catalog entry this exercise is (its name) or customises (--library): its load type,
    // machine flag and plan are the defaults.
    var entry: LibraryExercise?
    var libraryName: String?
    if let library = invocation.string("library") {
      entry = try ExerciseLibrary.exercise(matching: library)
      libraryName = try ExerciseCommands.libraryName(library, invocation)
    } else {
      entry = ExerciseLibrary.exercise(named: name)
      // Typed in another case: the app looks the catalog up by `libraryName ?? name`.
      libraryName = entry?.name
    }
    if libraryName == name { libraryName = nil }
    let load =
      try loadType(invocation, weight: weight, seconds: seconds) ?? entry?.loadType ?? .none
    let machine =
      try invocation.machineSettings() ?? (entry?.isMachineBased == true ? [] : nil)
    let plan = ExercisePlan(
      name: name,
      sets: try invocation.int("sets") ?? entry?.sets ?? 3,
      reps: try invocation.int("reps") ?? entry?.reps ?? (load == .duration ? 0 : 10),
      weight: weight ?? 0,
      loadType: load,
      durationSeconds: seconds ?? (load == .duration ? entry?.durationSeconds ?? 0 : 0),
      machineSettings: machine,
      libraryName: libraryName
    )
    let events = try session.execute(
      .addExercise(
        split: try invocation.positional(0, "split"),
        plan,
        position: try invocation.int("position")
      ),
      console: invocation.console
    )
    let split = session.state().splits[events.first?.streamID ?? ""]
    return WorkoutOutput.report(
      events,
      workout: nil,
      split: split,
      in: invocation,
      headline: "added '\(plan.name)' to '\(split?.document.name ?? "?")'"
    )
  }

  static let edit = Command(
    ["exercise", "edit"],
    abstract: "Change an exercise's plan",
    arguments: "SPLIT EXERCISE",
    options: [OptionSpec("name", value: "NAME", help: "New display name")] + planOptions + [
      OptionSpec("no-library", help: "The name is the library name"),
      OptionSpec("no-machine", help: "Not a machine exercise"),
    ]
  ) { invocation in
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: 2)
    var update = ExerciseUpdated(exerciseID: "")
    update.name = try invocation.change("name") { (n: String) throws(UsageError) in
      invocation.string(n)
    }
    update.sets = try invocation.change("sets", invocation.int)
    update.reps = try invocation.change("reps", invocation.int)
    update.weight = try invocation.change("weight", invocation.double)
    update.durationSeconds = try invocation.change("seconds", invocation.int)
    update.libraryName = try invocation.change("library") { (n: String) throws(UsageError) in
      invocation.string(n)
    }
    if case .set(let library?) = update.libraryName {
      update.libraryName = .set(try ExerciseCommands.libraryName(library, invocation))
    }
    if let load = try loadType(invocation, weight: nil, seconds: nil) {
      update.loadType = .set(load)
    }
    if invocation.arguments.flag("no-machine") {
      update.machineSettings = .set(nil)
    } else if let settings = try invocation.machineSettings() {
      update.machineSettings = .set(settings)
    }
    let events = try session.execute(
      .updateExercise(
        split: try invocation.positional(0, "split"),
        exercise: try invocation.positional(1, "exercise"),
        update
      ),
      console: invocation.console
    )
    let split = session.state().splits[events.first?.streamID ?? ""]
    return WorkoutOutput.report(
      events,
      workout: nil,
      split: split,
      in: invocation,
      headline: "updated an exercise of '\(split?.document.name ?? "?")'"
    )
  }

  static let remove = Command(
    ["exercise", "remove"],
    abstract: "Remove an exercise from a split",
    arguments: "SPLIT EXERCISE"
  ) { invocation in
    try simple(invocation) { s, x in
      .removeExercise(split: s, exercise: x)
    } headline: {
      "removed '\($0)'"
    }
  }

  static let move = Command(
    ["exercise", "move"],
    abstract: "Move an exercise to a position (from 1)",
    arguments: "SPLIT EXERCISE POSITION"
  ) { invocation in
    guard let position = Int(try invocation.positional(2, "position")) else {
      throw UsageError("position must be a whole number")
    }
    return try simple(invocation, positionals: 3) { s, x in
      .moveExercise(split: s, exercise: x, position: position)
    } headline: {
      "moved '\($0)' to position \(position)"
    }
  }

  static let duplicate = Command(
    ["exercise", "duplicate"],
    abstract: "Duplicate an exercise in place (the copy follows it)",
    arguments: "SPLIT EXERCISE"
  ) { invocation in
    try simple(invocation) { s, x in
      .duplicateExercise(split: s, exercise: x)
    } headline: {
      "duplicated '\($0)'"
    }
  }

  static func simple(
    _ invocation: Invocation,
    positionals: Int = 2,
    _ make: (String, String) -> JournalCommand,
    headline: (String) -> String
  ) throws -> Int32 {
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: positionals)
    let splitReference = try invocation.positional(0, "split")
    let exerciseReference = try invocation.positional(1, "exercise")
    let before = session.state()
    let name =
      (try? before.exercise(exerciseReference, in: before.split(splitReference)))?.name
      ?? exerciseReference
    let events = try session.execute(
      make(splitReference, exerciseReference),
      console: invocation.console
    )
    let split = session.state().splits[events.first?.streamID ?? ""]
    return WorkoutOutput.report(
      events,
      workout: nil,
      split: split,
      in: invocation,
      headline: headline(name)
    )
  }

  /// The catalog's spelling of the library exercise `typed` names (the naming rule), or
  /// `typed` itself, with a note, when the catalog has no such exercise.
  static func libraryName(_ typed: String, _ invocation: Invocation) throws -> String {
    if let entry = try ExerciseLibrary.exercise(matching: typed) { return entry.name }
    invocation.console.error(
      "note: '\(typed)' is not in the exercise catalog ('journal catalog'); kept as typed"
    )
    return typed
  }

  static func loadType(
    _ invocation: Invocation,
    weight: Double?,
    seconds: Int?
  ) throws(UsageError) -> LoadType? {
    switch invocation.string("load") {
    case "weight": return .weight
    case "bodyweight", "none": return LoadType.none
    case "duration", "timed": return .duration
    case nil: return weight != nil ? .weight : seconds != nil ? .duration : nil
    case let other?:
      throw UsageError("unknown load '\(other)': use 'weight', 'bodyweight' or 'duration'")
    }
  }

  /// `3×5 @ 100`, `2×15`, `2×60 s`.
  static func describe(_ exercise: ExerciseDocument) -> String {
    WorkoutOutput.plan(
      sets: exercise.sets,
      reps: exercise.reps,
      weight: exercise.weight,
      seconds: exercise.durationSeconds,
      loadType: exercise.loadType
    )
  }
}
