import Foundation

// The fold: one event at a time, in merge order, into the state. Total: an
// event that does not fit the state it meets is reported as an anomaly and
// changes nothing. Pure: dates come from the events, never from the clock.

extension JournalState {
  /// Folds one active (not reverted) event into the state.
  package mutating func apply(_ e: FoldEvent) {
    eventCount += 1
    if now.map({ e.recordedAt > $0 }) ?? true { now = e.recordedAt }
    switch e.event.foldTarget {
    case .splits: applyToSplits(e)
    case .workout: applyToWorkout(e)
    case .nothing: break  // Reverts act before the fold: the replayer leaves cancelled events out.
    }
  }

  /// Folds a split event (``JournalEvent/FoldTarget/splits``).
  private mutating func applyToSplits(_ e: FoldEvent) {
    switch e.event {
    case .splitCreated(let created): createSplit(e, created)
    case .splitUpdated(let update):
      editSplit(e) { split in
        split.name = update.name.applied(to: split.name) ?? split.name
        split.color = update.color.applied(to: split.color) ?? split.color
        split.systemImage = update.systemImage.applied(to: split.systemImage) ?? split.systemImage
        split.activityType = update.activityType.applied(to: split.activityType)
        split.restSeconds = update.restSeconds.applied(to: split.restSeconds)
        split.autoAdvance = update.autoAdvance.applied(to: split.autoAdvance)
        split.targetHeartRate = update.targetHeartRate.applied(to: split.targetHeartRate)
        return nil
      }
    case .splitsReordered(let reordered): reorderSplits(e, reordered)
    case .splitDeleted:
      guard let state = splits[e.streamID], state.deletedAt == nil else {
        return report(e, "no live split '\(e.streamID)' to delete; ignored")
      }
      splits[e.streamID]?.deletedAt = e.at
    case .exerciseAdded(let added): editSplit(e) { split in split.addExercise(added) }
    case .exerciseUpdated(let update): editSplit(e) { split in split.updateExercise(update) }
    case .exerciseRemoved(let removed):
      editSplit(e) { split in
        guard let index = split.exercises.firstIndex(where: { $0.id == removed.exerciseID }) else {
          return "no exercise '\(removed.exerciseID)' in the split"
        }
        split.exercises.remove(at: index)
        return nil
      }
    case .exerciseMoved(let moved): editSplit(e) { split in split.moveExercise(moved) }
    case .exerciseDuplicated(let duplicated):
      editSplit(e) { split in split.duplicateExercise(duplicated) }
    default:
      preconditionFailure("\(e.event.typeName) is not a split event")
    }
  }

  /// Folds a workout event (``JournalEvent/FoldTarget/workout``).
  private mutating func applyToWorkout(_ e: FoldEvent) {
    switch e.event {
    case .workoutStarted(let started): startWorkout(e, started)
    case .workoutDeleted:
      guard let state = workouts[e.streamID], state.deletedAt == nil else {
        return report(e, "no live workout '\(e.streamID)' to delete; ignored")
      }
      workouts[e.streamID]?.deletedAt = e.at
    default:
      editWorkout(e)
    }
  }

  mutating func report(_ e: FoldEvent, _ message: String) {
    anomalies.append(Anomaly(eventID: e.id, stream: e.stream, message: message))
  }

  // MARK: - Splits

  private mutating func createSplit(_ e: FoldEvent, _ created: SplitCreated) {
    let id = e.streamID
    if let existing = splits[id], existing.deletedAt == nil {
      return report(e, "split '\(id)' exists already; ignored")
    }
    let nextOrder =
      (splits.values.filter { $0.deletedAt == nil }.map(\.document.order).max() ?? -1) + 1
    let s = created.settings
    let document = SplitDocument(
      id: id,
      name: s.name,
      color: s.color,
      systemImage: s.systemImage,
      order: created.order ?? nextOrder,
      createdAt: e.at,
      updatedAt: e.at,
      activityType: s.activityType,
      restSeconds: s.restSeconds,
      autoAdvance: s.autoAdvance,
      targetHeartRate: s.targetHeartRate
    )
    splits[id] = SplitState(document: document, isStarter: created.isStarter)
  }

  /// Applies `edit` to a live split; the edit returns an anomaly message or nil.
  private mutating func editSplit(
    _ e: FoldEvent,
    _ edit: (inout SplitDocument) -> String?
  ) {
    let id = e.streamID
    // Edited where it lies in the dictionary (one look-up, its arrays not copied).
    if let problem = Self.editSplit(&splits[id], id: id, e, edit) { report(e, problem) }
  }

  /// Applies `edit` to the split in `slot`; returns the anomaly message, or nil.
  private static func editSplit(
    _ slot: inout SplitState?,
    id: String,
    _ e: FoldEvent,
    _ edit: (inout SplitDocument) -> String?
  ) -> String? {
    // Moved out while edited, so its exercises are not copied.
    guard var state = slot.take() else { return "no split '\(id)'; ignored" }
    defer { slot = state }
    guard state.deletedAt == nil else { return "split '\(id)' is deleted; ignored" }
    // An edit reports its problem before changing anything.
    if let problem = edit(&state.document) { return "\(problem); ignored" }
    state.document.updatedAt = e.at
    return nil
  }

  private mutating func reorderSplits(_ e: FoldEvent, _ reordered: SplitsReordered) {
    var position = 0
    for id in reordered.splitIDs {
      guard var state = splits[id], state.deletedAt == nil else {
        report(e, "no live split '\(id)' to reorder; skipped")
        continue
      }
      if state.document.order != position {
        state.document.order = position
        state.document.updatedAt = e.at
        splits[id] = state
      }
      position += 1
    }
  }

  // MARK: - Workouts

  private mutating func startWorkout(_ e: FoldEvent, _ started: WorkoutStarted) {
    let id = e.streamID
    if workouts[id] != nil { return report(e, "workout '\(id)' exists already; ignored") }
    guard let zone = TimeZone(identifier: started.timeZone) else {
      return report(e, "unknown time zone '\(started.timeZone)'; workout ignored")
    }
    let logs = started.logs.map { WorkoutLogDocument(plan: $0, date: e.at) }
    let document = WorkoutDocument(
      id: id,
      splitID: started.splitID,
      splitName: started.splitName,
      start: e.at,
      createdAt: e.at,
      updatedAt: e.at,
      logs: logs,
      restSeconds: started.restSeconds,
      autoAdvance: started.autoAdvance,
      targetHeartRate: started.targetHeartRate
    )
    workouts[id] = WorkoutState(document: document, timeZone: zone)
  }

  /// Applies a log-level event to a live workout, then stamps it and derives its status.
  private mutating func editWorkout(_ e: FoldEvent) {
    let id = e.streamID
    guard let index = workouts.index(forKey: id) else {
      report(e, "no workout '\(id)'; ignored")
      return
    }
    // Edited where it lies in the dictionary's storage: nothing copied or moved.
    if let problem = Self.editWorkout(&workouts.values[index], id: id, e) { report(e, problem) }
  }

  /// Applies `e` to `state`, then stamps it and derives its status; returns the anomaly
  /// message, or nil.
  private static func editWorkout(
    _ state: inout WorkoutState,
    id: String,
    _ e: FoldEvent
  )
    -> String?
  {
    guard state.deletedAt == nil else { return "workout '\(id)' is deleted; ignored" }
    // An edit reports its problem before changing anything.
    if let problem = state.apply(e) { return "\(problem); ignored" }
    state.document.updatedAt = e.at
    state.document.recomputeStatusFromLogs(at: e.at)
    return nil
  }
}

extension WorkoutLogDocument {
  init(plan: LogPlan, date: Date) {
    self.init(
      id: plan.logID,
      exerciseName: plan.plan.name,
      order: plan.order,
      sets: plan.plan.sets,
      reps: plan.plan.reps,
      weight: plan.plan.weight,
      loadType: plan.plan.loadType,
      durationSeconds: plan.plan.durationSeconds,
      notes: plan.notes,
      date: date,
      machineSettings: plan.plan.machineSettings,
      libraryName: plan.plan.libraryName
    )
  }
}
