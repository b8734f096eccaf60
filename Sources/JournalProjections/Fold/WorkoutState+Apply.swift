import Foundation

// Log-level events inside one workout. Each returns an anomaly message, or nil
// when it applied; the caller stamps the workout and derives its status.

extension WorkoutState {
  mutating func apply(_ e: FoldEvent) -> String? {
    switch e.event {
    case .logAdded(let plan):
      guard logIndex(plan.logID) == nil else { return "log '\(plan.logID)' exists already" }
      var log = WorkoutLogDocument(plan: plan, date: document.start)
      log.updatedAt = e.at
      document.logs.append(log)
      document.logs.sort { ($0.order, $0.id) < ($1.order, $1.id) }
      document.deletedLogIDs?[plan.logID] = nil
      return nil
    case .logRemoved(let logID):
      guard let index = logIndex(logID) else {
        return "no log '\(logID)'"
      }
      document.logs.remove(at: index)
      provenance[logID] = nil
      document.deletedLogIDs = (document.deletedLogIDs ?? [:]).merging([logID: e.at]) { $1 }
      return nil
    case .workoutEnded:
      guard document.logs.contains(where: { !$0.status.isResolved }) else {
        return "every log is already resolved"
      }
      for index in document.logs.indices where !document.logs[index].status.isResolved {
        document.logs[index].transition(to: .skipped, at: e.at)
      }
      return nil
    case .metricsRecorded(let m):
      document.metrics = WorkoutMetrics(
        activeEnergyKcal: m.activeEnergyKcal,
        avgHeartRate: m.avgHeartRate,
        maxHeartRate: m.maxHeartRate,
        minHeartRate: m.minHeartRate,
        hrZoneSeconds: m.hrZoneSeconds,
        healthKitWorkoutUUID: m.healthKitWorkoutUUID,
        source: m.source,
        recordedAt: e.at
      )
      recordedVolume = m.totalVolume
      return nil
    default:
      guard let logID = e.event.logID else { return "not a workout event" }
      guard let index = logIndex(logID) else {
        return "no log '\(logID)'"
      }
      // Edited where they are, so a log's entries are not copied per event; an
      // edit reports its problem before it changes anything.
      return Self.apply(e, to: &document.logs[index], sources: &provenance[logID])
    }
  }

  /// Applies `e` to `log` and its entries' sources (nil when it has none; left nil when it
  /// ends with none).
  private static func apply(
    _ e: FoldEvent,
    to log: inout WorkoutLogDocument,
    sources slot: inout [EntryProvenance]?
  ) -> String? {
    // Moved out of the slot, so appending does not copy it.
    var sources = slot.take() ?? []
    defer { slot = sources.isEmpty ? nil : sources }
    switch e.event {
    case .logStarted:
      guard log.status == .notStarted else { return "log '\(log.id)' is \(log.status.rawValue)" }
      log.transition(to: .inProgress, at: e.at)
    case .planEdited(let edit):
      log.sets = edit.sets.applied(to: log.sets) ?? log.sets
      log.reps = edit.reps.applied(to: log.reps) ?? log.reps
      log.weight = edit.weight.applied(to: log.weight) ?? log.weight
      log.durationSeconds =
        edit.durationSeconds.applied(to: log.durationSeconds) ?? log.durationSeconds
      log.notes = edit.notes.applied(to: log.notes)
      log.machineSettings = edit.machineSettings.applied(to: log.machineSettings)
      log.sets = max(log.sets, log.setEntries?.count ?? 0)
      log.updatedAt = e.at
    case .setCompleted(let set):
      guard !log.status.isResolved else {
        return "set recorded on log '\(log.id)', which is \(log.status.rawValue)"
      }
      if log.status == .notStarted { log.transition(to: .inProgress, at: e.at) }
      var entry = log.planEntry(at: e.at)
      if let actuals = set.actuals { entry.apply(actuals) }
      if log.setEntries == nil {
        // Room for the planned sets at once: grown by doubling, a log of five sets was
        // allocated four times over (and its sources as often).
        var entries: [SetEntry] = []
        entries.reserveCapacity(log.sets)
        log.setEntries = entries
      }
      log.setEntries?.append(entry)
      if sources.isEmpty { sources.reserveCapacity(log.sets) }
      log.currentStateIndex = log.setEntries?.count ?? 0
      log.sets = max(log.sets, log.currentStateIndex)
      log.updatedAt = e.at
      sources.append(
        EntryProvenance(
          kind: set.actuals == nil ? .cursorOnly : .recorded,
          event: e.eventID,
          device: e.device,
          original: entry,
          startedAt: set.startedAt
        )
      )
    case .setAdjusted(let adjustment):
      guard
        let index = sources.firstIndex(where: { $0.key == adjustment.setEventID }),
        index < log.setEntries?.count ?? 0
      else { return "no recorded set '\(adjustment.setEventID)' in log '\(log.id)'" }
      log.setEntries?[index].apply(adjustment.actuals)
      sources[index].adjustments.append(e.id)
      log.updatedAt = e.at
    case .setAdded:
      guard log.status != .skipped else { return "log '\(log.id)' is skipped" }
      // One More on a completed log reopens it for the extra set.
      if log.status == .completed { log.transition(to: .inProgress, at: e.at) }
      log.sets += 1
      log.updatedAt = e.at
    case .logCompleted:
      guard log.status != .completed else { return "log '\(log.id)' is completed already" }
      let before = log.setEntries?.count ?? 0
      log.transition(to: .completed, at: e.at)
      for (offset, entry) in (log.setEntries ?? []).dropFirst(before).enumerated() {
        sources.append(
          EntryProvenance(
            kind: .filledFromPlan,
            event: e.eventID,
            filled: offset + 1,
            device: e.device,
            original: entry
          )
        )
      }
    case .logSkipped:
      guard log.status != .skipped else { return "log '\(log.id)' is skipped already" }
      log.transition(to: .skipped, at: e.at)
    case .logReset:
      guard log.status != .notStarted else { return "log '\(log.id)' is not started" }
      log.transition(to: .notStarted, at: e.at)
      sources = []
    default:
      return "not a log event"
    }
    return nil
  }
}

extension SetEntry {
  /// Overrides the fields `actuals` gives.
  mutating func apply(_ actuals: SetActuals) {
    if let reps = actuals.reps { self.reps = reps }
    if let weight = actuals.weight { self.weight = weight }
    if let seconds = actuals.seconds { self.seconds = seconds }
  }
}
