import Foundation

// Finding things by what a person types, by one rule for splits, exercises and workouts
// (docs/CommandLine.md): an exact name (ignoring case), else a unique prefix of a name (ignoring
// case), else a unique prefix of an id (ignoring case). A workout's name is its split's name and
// means the latest live workout of that split. A name that fits several things, or a prefix
// shared by several ids, is refused with the candidates.

extension JournalState {
  /// The live split named or identified by `reference`.
  public func split(_ reference: String) throws(CommandError) -> SplitState {
    let live = liveSplits
    let match = try Self.pick(
      reference,
      among: live,
      what: "split",
      id: \.document.id,
      names: { [$0.document.name] }
    )
    return match
  }

  /// The live workout identified by `reference`, or the open one when nil.
  public func workout(_ reference: String?) throws(CommandError) -> WorkoutState {
    // An exact id wins without sorting every workout, which every command
    // naming its workout would otherwise pay for.
    if let reference, let exact = workouts[reference.uppercased()], exact.deletedAt == nil {
      return exact
    }
    guard let reference else {
      let open = openWorkouts
      if open.count == 1, let only = open.first { return only }
      if open.isEmpty {
        throw CommandError(
          "no workout is in progress",
          hint: "start one with 'journal start SPLIT'"
        )
      }
      let names = open.map { "\($0.document.id) (\($0.document.splitName ?? "no split"))" }
      throw CommandError(
        "\(open.count) workouts are open: \(names.joined(separator: ", "))",
        hint: "name one with '--workout ID', or end the stale one with 'journal end --workout ID'"
      )
    }
    if let deleted = workouts.values.first(where: {
      $0.deletedAt != nil && $0.document.id.caseInsensitiveCompare(reference) == .orderedSame
    }) {
      throw CommandError(
        "workout '\(deleted.document.id)' is deleted",
        hint: "bring it back with 'journal undo'"
      )
    }
    let live = liveWorkouts
    let splitNames = Self.distinct(live.compactMap(\.document.splitName))
    if let name = try Self.pickName(reference, among: splitNames, what: "workout") {
      if let latest = live.last(where: { $0.document.splitName == name }) { return latest }
    }
    return try Self.pick(
      reference,
      among: live,
      what: "workout",
      id: \.document.id,
      names: { _ in [] }
    )
  }

  /// The spelling, as the journal has it, of the exercise `reference` names among every
  /// exercise the journal knows: the live splits' exercises and the live workouts' logs,
  /// display and library names alike.
  ///
  /// Reads that filter by exercise (`audit`, `records`, `chart`) resolve the name with it
  /// first, so `bench` means `Bench Press` there as in the workout commands.
  public func exerciseName(_ reference: String) throws(CommandError) -> String {
    try Self.exerciseName(reference, splits: liveSplits.map(\.document), lifted: liftedNames)
  }

  /// The display and library names of the live workouts' logs.
  var liftedNames: Set<String> {
    var lifted: Set<String> = []
    for workout in workouts.values where workout.deletedAt == nil {
      for log in workout.document.logs {
        lifted.insert(log.exerciseName)
        if let library = log.libraryName { lifted.insert(library) }
      }
    }
    return lifted
  }

  /// The exercise `reference` names among the exercises of `splits` (in their order) and
  /// the names of the exercises `lifted` in live workouts (sorted).
  static func exerciseName(
    _ reference: String,
    splits: [SplitDocument],
    lifted: Set<String>
  ) throws(CommandError) -> String {
    var names: [String] = []
    for split in splits {
      for exercise in split.exercises {
        names.append(exercise.name)
        if let library = exercise.libraryName { names.append(library) }
      }
    }
    names = Self.distinct(names + lifted.sorted())
    guard let name = try Self.pickName(reference, among: names, what: "exercise") else {
      throw CommandError("unknown exercise '\(reference)'", hint: Self.known(names))
    }
    return name
  }

  /// The spelling of the split name `reference` names among the live splits and the splits
  /// live workouts were started from (a deleted split's workouts keep its name).
  public func splitName(_ reference: String) throws(CommandError) -> String {
    try Self.splitName(reference, among: liveSplits.map(\.document.name) + workoutSplitNames)
  }

  /// The split names the live workouts were started from.
  var workoutSplitNames: [String] {
    workouts.values.compactMap { $0.deletedAt == nil ? $0.document.splitName : nil }
  }

  /// The split name `reference` names among `names`: the live splits' names, then those of
  /// the splits live workouts were started from.
  static func splitName(
    _ reference: String,
    among names: [String]
  ) throws(CommandError) -> String {
    let names = Self.distinct(names)
    guard let name = try Self.pickName(reference, among: names, what: "split") else {
      throw CommandError("unknown split '\(reference)'", hint: Self.known(names))
    }
    return name
  }

  /// The live split or workout `reference` names, by the one rule: a split by name, else a
  /// workout by its split's name (its latest), else a split or workout by id prefix.
  ///
  /// - Returns: the document's path in the tree, `Splits/<id>.json` or
  ///   `Workouts/YYYY/MM/<id>.json`.
  public func documentPath(_ reference: String) throws(CommandError) -> String {
    let splits = liveSplits
    if let name = try Self.pickName(reference, among: splits.map(\.document.name), what: "split"),
      let split = splits.first(where: { $0.document.name == name })
    {
      return DocumentPath.split(id: split.document.id)
    }
    let live = liveWorkouts
    let splitNames = Self.distinct(live.compactMap(\.document.splitName))
    if let name = try Self.pickName(reference, among: splitNames, what: "workout"),
      let latest = live.last(where: { $0.document.splitName == name })
    {
      return latest.path
    }
    let upper = reference.uppercased()
    let ids =
      upper.isEmpty
      ? []
      : splits.map(\.document.id).filter { $0.hasPrefix(upper) }
        + live.map(\.document.id).filter { $0.hasPrefix(upper) }
    if ids.count == 1, let split = splits.first(where: { $0.document.id == ids[0] }) {
      return DocumentPath.split(id: split.document.id)
    }
    if ids.count == 1, let workout = live.first(where: { $0.document.id == ids[0] }) {
      return workout.path
    }
    if ids.count > 1 {
      throw CommandError(
        "id prefix '\(reference)' is ambiguous: \(ids.count) match",
        hint: "candidates: \(ids.sorted().prefix(8).joined(separator: ", "))"
      )
    }
    throw CommandError(
      "no split or workout named '\(reference)'",
      hint: Self.known(splits.map(\.document.name))
    )
  }

  /// The log of `workout` named by `reference` (exercise name or log id), or
  /// when nil the next one: the log in progress, else the first not started.
  public func log(
    _ reference: String?,
    in workout: WorkoutState
  ) throws(CommandError)
    -> WorkoutLogDocument
  {
    let logs = workout.document.logs
    guard let reference else {
      if let current = logs.first(where: { $0.status == .inProgress }) { return current }
      if let next = logs.first(where: { $0.status == .notStarted }) { return next }
      throw CommandError(
        "every exercise of this workout is done or skipped",
        hint: "end it with 'journal end', or name an exercise"
      )
    }
    return try Self.pick(
      reference,
      among: logs,
      what: "exercise",
      id: \.id,
      names: { [$0.exerciseName] + ($0.libraryName.map { [$0] } ?? []) }
    )
  }

  /// The exercise of `split` named or identified by `reference`.
  public func exercise(
    _ reference: String,
    in split: SplitState
  ) throws(CommandError)
    -> ExerciseDocument
  {
    try Self.pick(
      reference,
      among: split.document.exercises,
      what: "exercise",
      id: \.id,
      names: { [$0.name] + ($0.libraryName.map { [$0] } ?? []) }
    )
  }

  /// The one name among `names` that `reference` names (exact, ignoring case, else a unique
  /// prefix), or nil when none fits.
  ///
  /// - Throws: ``CommandError`` listing the candidates when several fit.
  package static func pickName(
    _ reference: String,
    among names: [String],
    what: String
  ) throws(CommandError) -> String? {
    let exact = names.filter { $0.caseInsensitiveCompare(reference) == .orderedSame }
    if exact.count == 1 { return exact[0] }
    if exact.count > 1 {
      throw CommandError(
        "\(what) name '\(reference)' is ambiguous: \(exact.map { "'\($0)'" }.joined(separator: ", "))",
        hint: "name it exactly as the journal spells it"
      )
    }
    let lower = reference.lowercased()
    let prefixed = lower.isEmpty ? [] : names.filter { $0.lowercased().hasPrefix(lower) }
    if prefixed.count == 1 { return prefixed[0] }
    if prefixed.count > 1 {
      let matching = prefixed.sorted().map { "'\($0)'" }
      throw CommandError(
        "\(what) '\(reference)' is ambiguous: it starts \(matching.joined(separator: ", "))",
        hint: "type more of the name"
      )
    }
    return nil
  }

  /// `names` without repeats, in first-seen order.
  static func distinct(_ names: [String]) -> [String] {
    var seen = Set<String>()
    return names.filter { seen.insert($0).inserted }
  }

  /// `known: 'A', 'B'`, or nil for no names.
  static func known(_ names: [String]) -> String? {
    names.isEmpty ? nil : "known: \(names.prefix(8).map { "'\($0)'" }.joined(separator: ", "))"
  }

  /// One element by exact name (case-insensitive), else by unique name
  /// prefix, else by unique id prefix.
  static func pick<T>(
    _ reference: String,
    among candidates: [T],
    what: String,
    id: KeyPath<T, String>,
    names: (T) -> [String]
  ) throws(CommandError) -> T {
    let byName = candidates.filter { candidate in
      names(candidate).contains { $0.caseInsensitiveCompare(reference) == .orderedSame }
    }
    if byName.count == 1, let only = byName.first { return only }
    if byName.count > 1 {
      let ids = byName.map { String($0[keyPath: id].prefix(10)) }
      throw CommandError(
        "\(what) name '\(reference)' is ambiguous: \(byName.count) match",
        hint: "use an id prefix instead: \(ids.joined(separator: ", "))"
      )
    }
    let byNamePrefix = candidates.filter { candidate in
      names(candidate).contains { $0.lowercased().hasPrefix(reference.lowercased()) }
    }
    if byNamePrefix.count == 1, let only = byNamePrefix.first { return only }
    if byNamePrefix.count > 1 {
      let matching = byNamePrefix.compactMap { names($0).first }.map { "'\($0)'" }
      throw CommandError(
        "\(what) '\(reference)' is ambiguous: it starts \(matching.joined(separator: ", "))",
        hint: "type more of the name"
      )
    }
    let upper = reference.uppercased()
    let byID = upper.isEmpty ? [] : candidates.filter { $0[keyPath: id].hasPrefix(upper) }
    if byID.count == 1, let only = byID.first { return only }
    if byID.count > 1 {
      throw CommandError(
        "\(what) id prefix '\(reference)' is ambiguous: \(byID.count) match",
        hint: "type more characters of the id"
      )
    }
    var hint: String?
    let known = candidates.flatMap(names)
    if !known.isEmpty {
      hint = "known: \(known.prefix(8).map { "'\($0)'" }.joined(separator: ", "))"
    }
    throw CommandError("unknown \(what) '\(reference)'", hint: hint)
  }
}
