import Foundation

/// The timeline of one workout (or one of its logs): every event, effective
/// or reverted, with a summary for people and what the fold said about it.
///
/// Built by watching the one fold: the summary of an effective event reads
/// the state around it (which set a `set.completed` became); anomalies are
/// those the fold reported while folding the event.
package enum WorkoutHistory {
  /// One event of the timeline.
  package struct Entry: Sendable, Hashable {
    package enum Mark: String, Sendable, Hashable {
      /// Folded: it shapes the documents.
      case effective
      /// Cancelled by a revert in effect.
      case reverted
      /// A revert (undo, redo, rewind) of events of this workout.
      case revert
    }

    package var eventID: String
    /// When the action happened.
    package var at: Date
    /// When it was recorded.
    package var recordedAt: Date
    package var device: String
    package var type: String
    package var logID: String?
    package var summary: String
    package var mark: Mark
    /// The revert that cancelled it.
    package var revertedBy: String?
    /// What the fold reported about it (it then changed nothing).
    package var anomalies: [String]
  }

  /// The timeline of workout `workoutID` (a full id), or of its log `logID`
  /// (with the workout-wide events), in merge order.
  ///
  /// - Complexity: one fold of the history.
  package static func entries(
    workout workoutID: String,
    log logID: String? = nil,
    history: [FoldEvent],
    upTo point: Replayer.Point? = nil
  ) -> [Entry] {
    let events = Replayer.prefix(history, upTo: point)
    let stream = "workout:\(workoutID)"
    let cancelled = Replayer.cancelledEvents(in: events)
    var names: [String: String] = [:]
    // The imported sets, by the id of the event that recorded each.
    var sources: [String: (HistorySource, ImportedSet)] = [:]
    // Stored ids, as values: the fold asks about every event of the history.
    var included: Set<EventID> = []
    for e in events where e.stream == stream {
      switch e.event {
      case .workoutStarted(let started):
        for plan in started.logs { names[plan.logID] = plan.plan.name }
      case .logAdded(let plan): names[plan.logID] = plan.plan.name
      case .workoutImported(let imported):
        for set in imported.sets { sources[set.setEventID] = (imported.source, set) }
      default: break
      }
      if let logID, let own = e.event.logID, own != logID { continue }
      included.insert(e.eventID.stored)
    }
    var folded: [EventID: (summary: String, anomalies: [String])] = [:]
    _ = Replayer.fold(history, upTo: point) { e, before, after in
      guard included.contains(e.eventID.stored) else { return }
      let anomalies = after.anomalies.dropFirst(before.anomalies.count).map(\.message)
      let workout = after.workouts[workoutID]
      let text = summary(e, names: names, workout: workout) + origin(e, sources)
      folded[e.eventID] = (text, Array(anomalies))
    }
    var entries: [Entry] = []
    for e in events {
      var entry = Entry(
        eventID: e.id,
        at: e.at,
        recordedAt: e.recordedAt,
        device: e.device,
        type: e.event.typeName,
        logID: e.event.logID,
        summary: "",
        mark: .effective,
        anomalies: []
      )
      if included.contains(e.eventID.stored) {
        if let (text, anomalies) = folded[e.eventID] {
          entry.summary = text
          entry.anomalies = anomalies
        } else {
          entry.summary = summary(e, names: names, workout: nil) + origin(e, sources)
          entry.mark = .reverted
          entry.revertedBy = cancelled[e.storedID]
        }
      } else if case .eventsReverted(let revert) = e.event {
        let mine = revert.eventIDs.filter { included.contains(EventID($0)) }
        guard !mine.isEmpty else { continue }
        entry.summary =
          "\(revert.reason): cancels \(mine.count) event\(mine.count == 1 ? "" : "s") of this "
          + (logID == nil ? "workout" : "log")
        entry.mark = .revert
        entry.revertedBy = cancelled[e.storedID]
      } else {
        continue
      }
      entries.append(entry)
    }
    return entries
  }

  /// Where an imported set came from, after its summary: ` (from Strong, line 12, warm-up)`.
  static func origin(_ e: FoldEvent, _ sources: [String: (HistorySource, ImportedSet)]) -> String {
    guard !sources.isEmpty, case .setCompleted = e.event, let (source, set) = sources[e.id] else {
      return ""
    }
    let kind = set.kind == .normal ? "" : ", \(set.kind.displayName)"
    return " (from \(source.displayName), line \(set.line)\(kind))"
  }

  /// A sentence for people about `e`; `workout` is the state after it, when folded.
  static func summary(_ e: FoldEvent, names: [String: String], workout: WorkoutState?) -> String {
    let logID = e.event.logID
    let name = logID.map { names[$0] ?? $0 } ?? ""
    let log = logID.flatMap { workout?.log($0) }
    switch e.event {
    case .workoutStarted(let started):
      return "started \(started.splitName ?? "a workout") with \(started.logs.count) exercises"
    case .logAdded(let plan):
      return "added \(plan.plan.name): \(plan.plan.sets) × \(describe(plan.plan))"
    case .logRemoved: return "removed \(name)"
    case .planEdited:
      return "edited the plan of \(name)" + (log.map { ": \(describePlan($0))" } ?? "")
    case .logStarted: return "started \(name)"
    case .setCompleted(let set):
      let number = log?.setEntries?.count.description ?? "?"
      // Folded, the entry says what the set became (plan values filled in).
      let done = log?.setEntries?.last.map { describe(SetActuals(SetValues($0))) }
      guard let actuals = set.actuals else {
        return "\(name) set \(number) done (progress only: \(done ?? "values from the plan"))"
      }
      return "\(name) set \(number): \(done ?? describe(actuals))"
    case .setAdjusted(let adjustment):
      let index = workout?.provenance[adjustment.logID]?.firstIndex {
        $0.key == adjustment.setEventID
      }
      let entries = log?.setEntries ?? []
      let now = index.flatMap { entries.indices.contains($0) ? entries[$0] : nil }.map {
        " (now \(describe(SetActuals(SetValues($0)))))"
      }
      return "\(name) set \(index.map { "\($0 + 1)" } ?? "?") adjusted: "
        + describe(adjustment.actuals) + (now ?? "")
    case .setAdded: return "One More on \(name)" + (log.map { ": now \($0.sets) sets" } ?? "")
    case .logCompleted:
      return "completed \(name)" + (log.map { " with \($0.setEntries?.count ?? 0) sets" } ?? "")
    case .logSkipped: return "skipped \(name)"
    case .logReset: return "reset \(name): its sets cleared"
    case .workoutEnded: return "ended the workout, keeping progress"
    case .metricsRecorded(let m): return "recorded metrics (\(m.source.rawValue))"
    case .workoutDeleted: return "deleted the workout"
    case .workoutImported(let imported):
      return "imported from \(imported.source.displayName): \(imported.file) lines "
        + "\(imported.firstLine)–\(imported.lastLine), \(imported.sets.count) sets in "
        + imported.unit.rawValue + " (no time of its own for each set)"
    case .eventsReverted(let revert): return "\(revert.reason) of \(revert.eventIDs.count) events"
    default: return e.event.typeName
    }
  }

  static func describe(_ a: SetActuals) -> String {
    // "5 reps @ 100", "12 reps", "60 s".
    var parts: [String] = []
    if let reps = a.reps { parts.append("\(reps) reps") }
    if let weight = a.weight { parts.append("@ \(WeightUnit.number(weight))") }
    if let seconds = a.seconds { parts.append("\(seconds) s") }
    return parts.isEmpty ? "as planned" : parts.joined(separator: " ")
  }

  static func describe(_ plan: ExercisePlan) -> String {
    switch plan.loadType {
    case .weight: "\(plan.reps) @ \(WeightUnit.number(plan.weight))"
    case .none: "\(plan.reps) reps"
    case .duration: "\(plan.durationSeconds) s"
    }
  }

  static func describePlan(_ log: WorkoutLogDocument) -> String {
    switch log.loadType {
    case .weight: "\(log.sets) × \(log.reps) @ \(WeightUnit.number(log.weight))"
    case .none: "\(log.sets) × \(log.reps) reps"
    case .duration: "\(log.sets) × \(log.durationSeconds) s"
    }
  }
}
