import Foundation
import JournalProjections

/// How write commands report what they did.
enum WorkoutOutput {
  /// Prints `headline` (or JSON with the ids created) and returns success.
  static func report(
    _ events: [FoldEvent],
    workout: WorkoutState?,
    split: SplitState? = nil,
    in invocation: Invocation,
    headline: String
  ) -> Int32 {
    if invocation.wantsJSON {
      var object: [String: Any] = ["events": events.map(\.id)]
      if let workout {
        object["workout"] = workout.document.id
        object["status"] = workout.document.status.rawValue
        object["path"] = workout.path
        if let logID = events.first?.event.logID { object["log"] = logID }
      }
      if let split { object["split"] = split.document.id }
      var created: [String] = []
      for e in events {
        switch e.event {
        case .exerciseAdded(let added): created.append(added.exerciseID)
        case .exerciseDuplicated(let duplicated): created.append(duplicated.copyID)
        case .logAdded(let plan): created.append(plan.logID)
        default: break
        }
      }
      if !created.isEmpty { object["created"] = created }
      invocation.printJSON(object)
    } else {
      invocation.console.print(headline)
    }
    return ExitStatus.success
  }

  /// The error for a command whose events were appended but whose workout or exercise cannot
  /// be found in the state that follows: the journal has them, so the message says so.
  static func notReadBack(_ events: [FoldEvent]) -> CommandError {
    CommandError(
      "\(events.count) events were appended, but the workout they belong to cannot be read back",
      hint: "run 'journal verify' and 'journal status'"
    )
  }

  /// `5 × 100` / `12 reps` / `45 s` for one entry of `log`.
  static func describe(_ entry: SetEntry?, of log: WorkoutLogDocument) -> String {
    guard let entry else { return "-" }
    switch log.loadType {
    case .weight: return "\(entry.reps ?? 0) × \(DisplayUnit.weight(entry.weight ?? 0))"
    case .none: return "\(entry.reps ?? 0) reps"
    case .duration: return "\(entry.seconds ?? 0) s"
    }
  }

  /// The plan of `log`: `3×5 @ 100`, `2×15`, `2×60 s`.
  static func plan(_ log: WorkoutLogDocument) -> String {
    plan(
      sets: log.sets,
      reps: log.reps,
      weight: log.weight,
      seconds: log.durationSeconds,
      loadType: log.loadType
    )
  }

  /// A plan in words, the same for exercises and logs.
  static func plan(sets: Int, reps: Int, weight: Double, seconds: Int, loadType: LoadType) -> String
  {
    switch loadType {
    case .weight: "\(sets)×\(reps) @ \(DisplayUnit.weight(weight))"
    case .none: "\(sets)×\(reps)"
    case .duration: "\(sets)×\(seconds) s"
    }
  }

  /// Every entry of `log`: `5 × 100 · 5 × 100 · 4 × 100`.
  static func entries(_ log: WorkoutLogDocument) -> String {
    let entries = log.setEntries ?? []
    return entries.isEmpty
      ? "no sets" : entries.map { describe($0, of: log) }.joined(separator: " · ")
  }
}
