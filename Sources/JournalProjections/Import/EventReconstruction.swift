import Foundation

/// One event an import appends, with the time of the action it stands for.
struct ImportedEvent: Sendable, Hashable {
  /// The event id, chosen up front: a filled set is named after the event
  /// that completed its log, and an adjustment refers to it by that name.
  var id: String
  var stream: String
  var event: JournalEvent
  var at: Date
}

/// Turns documents into the events that fold back into them.
///
/// The files do not keep their history, so the events are a reconstruction:
/// the fewest natural events whose fold reproduces every field, each at the
/// time the field it stamps says. The fold stamps dates from event times, so
/// every date field decides an event time; see `docs/Import.md`.
enum EventReconstruction {
  // MARK: - Splits

  /// The events of one split.
  ///
  /// `split.created` at `createdAt` (with its `order`), then each exercise as
  /// `exercise.added` with its id and order at `updatedAt`; a split without
  /// exercises whose `updatedAt` differs gets a `split.updated` that sets
  /// its name again, at `updatedAt`. A stub adds `split.deleted` at `deletedAt`.
  static func events(
    for split: SplitDocument,
    deletedAt: Date?,
    newID: () -> String
  ) -> [ImportedEvent] {
    let stream = "split:\(split.id)"
    let settings = SplitSettings(
      name: split.name,
      color: split.color,
      systemImage: split.systemImage,
      activityType: split.activityType,
      restSeconds: split.restSeconds,
      autoAdvance: split.autoAdvance,
      targetHeartRate: split.targetHeartRate
    )
    var events = [
      ImportedEvent(
        id: newID(),
        stream: stream,
        event: .splitCreated(SplitCreated(settings: settings, order: split.order)),
        at: split.createdAt
      )
    ]
    for exercise in split.exercises {
      let added = ExerciseAdded(
        exerciseID: exercise.id,
        plan: ExercisePlan(exercise),
        order: exercise.order
      )
      events.append(
        ImportedEvent(
          id: newID(),
          stream: stream,
          event: .exerciseAdded(added),
          at: split.updatedAt
        )
      )
    }
    if split.exercises.isEmpty, split.updatedAt != split.createdAt {
      var touch = SplitUpdated()
      touch.name = .set(split.name)
      events.append(
        ImportedEvent(id: newID(), stream: stream, event: .splitUpdated(touch), at: split.updatedAt)
      )
    }
    if let deletedAt {
      events.append(ImportedEvent(id: newID(), stream: stream, event: .splitDeleted, at: deletedAt))
    }
    return events
  }

  // MARK: - Workouts

  /// The name of the placeholder log a deleted log id stands for.
  static let deletedLogName = "(deleted before import)"

  /// The events of one workout.
  ///
  /// In this order:
  /// 1. `workout.started` at `start` with every log's plan snapshot (and a
  ///    placeholder for each id of `deletedLogIDs`, skipped at once);
  /// 2. each log's history: `log.started` at `startedAt`; a past completion
  ///    (`completedAt` on a log that is no longer completed) as
  ///    `log.completed` + `log.reset`; each set entry as `set.completed` at
  ///    its `completedAt` with its values as actuals (cursor-only for entries
  ///    synthesised from a legacy cursor); a completed log's tail of
  ///    plan-default entries at `completedAt` as the fill of `log.completed`;
  ///    a skipped log's `log.skipped`;
  /// 3. for a finished workout, the log resolved last (`end`) goes last;
  /// 4. finishers in any order, the one at `updatedAt` last: `metrics.recorded`
  ///    at `recordedAt`, each placeholder's `log.removed` at its deletion time,
  ///    and an empty `plan.edited` where a log's `updatedAt` is not yet right.
  /// 5. `workout.deleted` at `deletedAt` for a stub.
  ///
  /// When no event can stand at `updatedAt` and that time is past the 30-day
  /// grace at `now`, the last change was the removal of a log whose tombstone
  /// has been pruned: a placeholder log is removed then, and its tombstone is
  /// pruned alike.
  static func events(
    for workout: WorkoutDocument,
    timeZone: String,
    cursorEntries: [String: Int],
    deletedAt: Date?,
    now: Date,
    newID: @escaping () -> String
  ) -> [ImportedEvent] {
    var builder = WorkoutEventBuilder(workout: workout, cursorEntries: cursorEntries, newID: newID)
    let events = builder.build(timeZone: timeZone, deletedAt: deletedAt)
    let last = events.last { $0.event != .workoutDeleted }
    guard last?.at != workout.updatedAt,
      now.timeIntervalSince(workout.updatedAt) > WorkoutDocument.deletedLogGrace
    else { return events }
    var retry = WorkoutEventBuilder(workout: workout, cursorEntries: cursorEntries, newID: newID)
    return retry.build(
      timeZone: timeZone,
      deletedAt: deletedAt,
      prunedRemoval: (newID(), workout.updatedAt)
    )
  }
}

/// Builds the events of one workout; see ``EventReconstruction``.
struct WorkoutEventBuilder {
  let workout: WorkoutDocument
  let cursorEntries: [String: Int]
  let stream: String
  let newID: () -> String
  var events: [ImportedEvent] = []
  /// Per log id, the time of the last event that stamped its `updatedAt`.
  var lastStamp: [String: Date] = [:]

  init(workout: WorkoutDocument, cursorEntries: [String: Int], newID: @escaping () -> String) {
    self.workout = workout
    self.newID = newID
    self.cursorEntries = cursorEntries
    self.stream = "workout:\(workout.id)"
  }

  /// Appends an event and returns its id.
  @discardableResult
  mutating func emit(_ event: JournalEvent, at: Date) -> String {
    let id = newID()
    events.append(ImportedEvent(id: id, stream: stream, event: event, at: at))
    if let logID = event.logID { lastStamp[logID] = at }
    return id
  }

  mutating func build(
    timeZone: String,
    deletedAt: Date?,
    prunedRemoval: (id: String, at: Date)? = nil
  ) -> [ImportedEvent] {
    var removals = workout.deletedLogIDs ?? [:]
    if let prunedRemoval { removals[prunedRemoval.id] = prunedRemoval.at }
    let deleted = removals.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
    let nextOrder = (workout.logs.map(\.order).max() ?? -1) + 1
    var plans = workout.logs.map { log in
      LogPlan(logID: log.id, order: log.order, plan: snapshot(log), notes: log.notes)
    }
    for (offset, entry) in deleted.enumerated() {
      let placeholder = ExercisePlan(
        name: EventReconstruction.deletedLogName,
        sets: 1,
        reps: 0,
        weight: 0,
        loadType: .none
      )
      plans.append(LogPlan(logID: entry.key, order: nextOrder + offset, plan: placeholder))
    }
    let started = WorkoutStarted(
      splitID: workout.splitID,
      splitName: workout.splitName,
      timeZone: timeZone,
      restSeconds: workout.restSeconds,
      autoAdvance: workout.autoAdvance,
      targetHeartRate: workout.targetHeartRate,
      logs: plans
    )
    emit(.workoutStarted(started), at: workout.start)
    // Resolved placeholders can be removed at any point without reopening the workout.
    for entry in deleted { emit(.logSkipped(logID: entry.key), at: entry.value) }

    let last = workout.status.isResolved ? lastResolved() : nil
    for log in workout.logs where log.id != last?.id {
      history(of: log, resolvingAt: nil)
    }
    if let last { history(of: last, resolvingAt: workout.end ?? last.completedAt ?? workout.start) }

    var finishers: [ImportedEvent] = []
    if let metrics = workout.metrics {
      let recorded = MetricsRecorded(
        activeEnergyKcal: metrics.activeEnergyKcal,
        avgHeartRate: metrics.avgHeartRate,
        maxHeartRate: metrics.maxHeartRate,
        minHeartRate: metrics.minHeartRate,
        hrZoneSeconds: metrics.hrZoneSeconds,
        healthKitWorkoutUUID: metrics.healthKitWorkoutUUID,
        source: metrics.source,
        // Kept only when it is not what the fold computes, so later
        // corrections still update a computed volume.
        totalVolume: metrics.totalVolume == workout.totalVolume ? nil : metrics.totalVolume
      )
      finishers.append(
        ImportedEvent(
          id: newID(),
          stream: stream,
          event: .metricsRecorded(recorded),
          at: metrics.recordedAt
        )
      )
    }
    for entry in deleted {
      finishers.append(
        ImportedEvent(
          id: newID(),
          stream: stream,
          event: .logRemoved(logID: entry.key),
          at: entry.value
        )
      )
    }
    for log in workout.logs {
      guard let updatedAt = log.updatedAt, lastStamp[log.id] != updatedAt else { continue }
      finishers.append(touch(log.id, at: updatedAt))
    }
    finishers = finishers.enumerated().sorted {
      ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
    }
    .map(\.element)
    // The workout's updatedAt is the time of the last event: put a finisher
    // at that time last, or touch a log last updated then.
    if events.count + finishers.count > 1, (finishers.last ?? events.last)?.at != workout.updatedAt
    {
      if let index = finishers.lastIndex(where: { $0.at == workout.updatedAt }) {
        finishers.append(finishers.remove(at: index))
      } else if let log = workout.logs.last(where: { $0.updatedAt == workout.updatedAt }) {
        finishers.append(touch(log.id, at: workout.updatedAt))
      }
    }
    events += finishers
    if let deletedAt { emit(.workoutDeleted, at: deletedAt) }
    return events
  }

  /// The log whose resolution finishes the workout: a completed log
  /// completed at `end`, else a skipped log, else the last log.
  func lastResolved() -> WorkoutLogDocument? {
    let logs = workout.logs
    if let log = logs.last(where: { $0.status == .completed && $0.completedAt == workout.end }) {
      return log
    }
    return logs.last(where: { $0.status == .skipped }) ?? logs.last
  }

  /// The plan snapshot of a log.
  ///
  /// A completed log snapshots as many sets as
  /// it has entries and the plan values its fill used, so completing fills
  /// exactly its filled entries; `plan.edited` restores the plan afterwards.
  func snapshot(_ log: WorkoutLogDocument) -> ExercisePlan {
    var plan = ExercisePlan(
      name: log.exerciseName,
      sets: log.sets,
      reps: log.reps,
      weight: log.weight,
      loadType: log.loadType,
      durationSeconds: log.durationSeconds,
      machineSettings: log.machineSettings,
      libraryName: log.libraryName
    )
    if log.status == .completed {
      let fill = fillPlan(of: log, at: completionTime(of: log))
      plan.sets = log.setEntries?.count ?? 0
      plan.reps = fill.plan.reps
      plan.weight = fill.plan.weight
      plan.durationSeconds = fill.plan.durationSeconds
    }
    return plan
  }

  /// When a completed log was completed; the fold always stamps it, so the
  /// fallbacks only serve documents it cannot reproduce (reported).
  func completionTime(of log: WorkoutLogDocument) -> Date {
    log.completedAt ?? log.updatedAt ?? log.startedAt ?? workout.start
  }

  func touch(_ logID: String, at: Date) -> ImportedEvent {
    ImportedEvent(id: newID(), stream: stream, event: .planEdited(PlanEdited(logID: logID)), at: at)
  }

  /// Emits the events that bring one log from its snapshot to its state.
  ///
  /// - Parameters:
  ///   - log: the log as the document has it.
  ///   - end: for the log that finishes the workout, when the workout
  ///     ended: the log is skipped then, and a completed log is completed
  ///     afterwards (a resolved log changing status leaves `end` be).
  mutating func history(of log: WorkoutLogDocument, resolvingAt end: Date?) {
    let id = log.id
    let entries = log.setEntries ?? []
    let stamp = log.updatedAt ?? log.completedAt ?? log.startedAt ?? workout.start
    switch log.status {
    case .notStarted:
      guard log.startedAt != nil || log.completedAt != nil else { return }
      if let started = log.startedAt { emit(.logStarted(logID: id), at: started) }
      if let completed = log.completedAt { emit(.logCompleted(logID: id), at: completed) }
      emit(.logReset(logID: id), at: stamp)
      return
    case .inProgress, .skipped:
      if let completed = log.completedAt {
        // A past completion the log has since left: complete, then reset.
        if let started = log.startedAt { emit(.logStarted(logID: id), at: started) }
        emit(.logCompleted(logID: id), at: completed)
        emit(.logReset(logID: id), at: completed)
      }
      if let started = log.startedAt { emit(.logStarted(logID: id), at: started) }
      recordSets(of: log, count: entries.count)
      if log.status == .skipped { emit(.logSkipped(logID: id), at: end ?? stamp) }
    case .completed:
      if let started = log.startedAt { emit(.logStarted(logID: id), at: started) }
      let completedAt = completionTime(of: log)
      let fill = fillPlan(of: log, at: completedAt)
      recordSets(of: log, count: entries.count - fill.count)
      if let end, end != completedAt { emit(.logSkipped(logID: id), at: end) }
      let completion = emit(.logCompleted(logID: id), at: completedAt)
      // Filled sets corrected later: adjust them by the name the fill gave them.
      for (offset, entry) in entries.suffix(fill.count).enumerated() where entry != fill.entry {
        let actuals = SetActuals(reps: entry.reps, weight: entry.weight, seconds: entry.seconds)
        let adjusted = SetAdjusted(
          logID: id,
          setEventID: "\(completion)/\(offset + 1)",
          actuals: actuals
        )
        emit(.setAdjusted(adjusted), at: stamp)
      }
      var edit = PlanEdited(logID: id)
      if log.sets != entries.count { edit.sets = .set(log.sets) }
      if log.reps != fill.plan.reps { edit.reps = .set(log.reps) }
      if log.weight != fill.plan.weight { edit.weight = .set(log.weight) }
      if log.durationSeconds != fill.plan.durationSeconds {
        edit.durationSeconds = .set(log.durationSeconds)
      }
      if edit != PlanEdited(logID: id) { emit(.planEdited(edit), at: stamp) }
    }
  }

  /// How a completed log's entries divide into recorded sets and the fill of
  /// `log.completed`, and the plan values the fill used.
  struct Fill {
    var count: Int
    /// The plan-default entry the fill wrote.
    var entry: SetEntry
    var plan: (reps: Int, weight: Double, durationSeconds: Int)
  }

  /// Decides the fill of a completed log.
  ///
  /// A log never started was only
  /// filled: all its entries come from the fill, those that differ from the
  /// fill were adjusted later. Otherwise the fill is the longest tail of
  /// entries equal to the plan's default at `completedAt`, or, when the plan
  /// changed after completing, to the last entry when at least two trailing
  /// entries agree on it; a lone differing last set is a recorded one.
  func fillPlan(of log: WorkoutLogDocument, at completedAt: Date) -> Fill {
    let entries = log.setEntries ?? []
    let current = (log.reps, log.weight, log.durationSeconds)
    let planned = log.planEntry(at: completedAt)
    func plan(for entry: SetEntry) -> (Int, Double, Int)? {
      var copy = log
      copy.reps = entry.reps ?? 0
      copy.weight = entry.weight ?? 0
      copy.durationSeconds = entry.seconds ?? 0
      guard copy.planEntry(at: completedAt) == entry else { return nil }
      return (copy.reps, copy.weight, copy.durationSeconds)
    }
    if log.startedAt == nil {
      let template =
        entries.contains(planned) ? planned : entries.first { plan(for: $0) != nil } ?? planned
      return Fill(count: entries.count, entry: template, plan: plan(for: template) ?? current)
    }
    let recorded = cursorEntries[log.id] ?? 0
    func tail(_ entry: SetEntry) -> Int {
      var count = 0
      while count < entries.count - recorded, entries[entries.count - 1 - count] == entry {
        count += 1
      }
      return count
    }
    let plannedTail = tail(planned)
    if plannedTail > 0 || entries.isEmpty {
      return Fill(count: plannedTail, entry: planned, plan: current)
    }
    if let last = entries.last, let lastPlan = plan(for: last), tail(last) >= 2 {
      return Fill(count: tail(last), entry: last, plan: lastPlan)
    }
    return Fill(count: 0, entry: planned, plan: current)
  }

  /// `set.completed` for the first `count` entries: cursor-only for entries
  /// synthesised from a legacy cursor, else with the entry's values.
  mutating func recordSets(of log: WorkoutLogDocument, count: Int) {
    let entries = log.setEntries ?? []
    let cursorOnly = cursorEntries[log.id] ?? 0
    for index in 0..<max(count, 0) {
      let entry = entries[index]
      let actuals =
        index < cursorOnly
        ? nil : SetActuals(reps: entry.reps, weight: entry.weight, seconds: entry.seconds)
      emit(.setCompleted(SetCompleted(logID: log.id, actuals: actuals)), at: entry.completedAt)
    }
  }
}
