import Foundation

// Finding things by what a person types: ids by unique prefix (case-insensitive),
// splits and exercises by name or unique name prefix (case-insensitive). A name that fits several
// things, or a prefix shared by several ids, is refused with the candidates.

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
    return try Self.pick(
      reference,
      among: liveWorkouts,
      what: "workout",
      id: \.document.id,
      names: { _ in [] }
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
      names: { [$0.name] }
    )
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
