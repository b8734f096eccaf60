import Foundation

// Workout commands: resolve the workout and the log, check the log's status
// and the values against its load type, then emit the events.

extension CommandValidator {
  mutating func workoutEvents(for command: JournalCommand) throws(CommandError) -> [PendingEvent] {
    switch command {
    case .startLog(let w, let x):
      let (workout, log) = try target(w, x)
      guard log.status == .notStarted else { throw statusError(log, "cannot be started") }
      return [event(workout, .logStarted(logID: log.id))]
    case .completeSet(let w, let x, let actuals, let keepOpen, let startedAt):
      let (workout, log) = try target(w, x)
      switch log.status {
      case .completed:
        throw CommandError(
          "'\(log.exerciseName)' is completed",
          hint: "'journal more' adds a set; 'journal reset' starts it over"
        )
      case .skipped:
        throw CommandError(
          "'\(log.exerciseName)' was skipped",
          hint: "'journal reset' starts it over"
        )
      case .notStarted, .inProgress:
        break
      }
      let done = log.setEntries?.count ?? 0
      guard done < log.sets else {
        throw CommandError(
          "all \(log.sets) sets of '\(log.exerciseName)' are done",
          hint: "'journal more' adds one; 'journal finish' completes the exercise"
        )
      }
      try check(actuals, for: log)
      if let startedAt { try check(start: startedAt, in: workout) }
      let set = SetCompleted(logID: log.id, actuals: actuals, startedAt: startedAt)
      var events = [event(workout, .setCompleted(set))]
      if done + 1 == log.sets, !keepOpen {
        events.append(event(workout, .logCompleted(logID: log.id)))
      }
      return events
    case .adjustSet(let w, let x, let number, let actuals):
      let (workout, log) = try target(w, x, latestIfNoneOpen: true)
      let sets = workout.provenance[log.id] ?? []
      guard !sets.isEmpty else {
        throw CommandError("'\(log.exerciseName)' has no recorded set to adjust")
      }
      let index = (number ?? sets.count) - 1
      guard sets.indices.contains(index) else {
        throw CommandError("'\(log.exerciseName)' has no set \(index + 1): it has \(sets.count)")
      }
      guard !actuals.isEmpty else {
        throw CommandError("nothing to adjust", hint: "pass --reps, --weight or --seconds")
      }
      try check(actuals, for: log)
      return [
        event(
          workout,
          .setAdjusted(SetAdjusted(logID: log.id, setEventID: sets[index].key, actuals: actuals))
        )
      ]
    case .addSet(let w, let x):
      let (workout, log) = try target(w, x, latestIfNoneOpen: true)
      guard log.status != .skipped else {
        throw CommandError(
          "'\(log.exerciseName)' was skipped",
          hint: "'journal reset' starts it over"
        )
      }
      guard log.sets < Limits.sets.upperBound else {
        throw CommandError("'\(log.exerciseName)' has \(log.sets) sets already")
      }
      return [event(workout, .setAdded(logID: log.id))]
    case .completeLog(let w, let x):
      let (workout, log) = try target(w, x)
      guard log.status != .completed else { throw statusError(log, "is completed already") }
      return [event(workout, .logCompleted(logID: log.id))]
    case .skipLog(let w, let x):
      let (workout, log) = try target(w, x)
      guard !log.status.isResolved else { throw statusError(log, "cannot be skipped") }
      return [event(workout, .logSkipped(logID: log.id))]
    case .resetLog(let w, let x):
      let (workout, log) = try target(w, x, latestIfNoneOpen: true, next: false)
      guard log.status != .notStarted else {
        throw CommandError("'\(log.exerciseName)' is not started: nothing to reset")
      }
      return [event(workout, .logReset(logID: log.id))]
    case .editPlan(let w, let x, var edit):
      let (workout, log) = try target(w, x, latestIfNoneOpen: true)
      edit.logID = log.id
      guard edit != PlanEdited(logID: log.id) else { throw CommandError("nothing to change") }
      if case .set(let sets?) = edit.sets {
        guard Limits.sets.contains(sets) else {
          throw CommandError("\(sets) sets is outside \(Limits.sets)")
        }
        let done = log.setEntries?.count ?? 0
        guard sets >= done else {
          throw CommandError(
            "'\(log.exerciseName)' has \(done) sets done; the plan cannot drop below"
          )
        }
      }
      if case .set(let reps?) = edit.reps { try checkReps(reps) }
      if case .set(let weight?) = edit.weight { try checkWeight(weight) }
      if case .set(let seconds?) = edit.durationSeconds { try checkSeconds(seconds) }
      if case .set(let notes?) = edit.notes, notes.count > 10_000 {
        throw CommandError("notes are longer than 10000 characters")
      }
      return [event(workout, .planEdited(edit))]
    case .addLog(let w, let plan, let notes):
      let workout = try openWorkout(w, latestIfNoneOpen: true)
      try check(plan)
      let order = (workout.document.logs.map(\.order).max() ?? -1) + 1
      return [
        event(workout, .logAdded(LogPlan(logID: newID(), order: order, plan: plan, notes: notes)))
      ]
    case .removeLog(let w, let x):
      let (workout, log) = try target(w, x, latestIfNoneOpen: true)
      return [event(workout, .logRemoved(logID: log.id))]
    case .endWorkout(let w):
      let workout = try openWorkout(w)
      guard workout.document.logs.contains(where: { !$0.status.isResolved }) else {
        throw CommandError("every exercise of this workout is already done or skipped")
      }
      return [event(workout, .workoutEnded)]
    case .recordMetrics(let w, let metrics):
      let workout = try openWorkout(w, latestIfNoneOpen: true)
      try check(metrics)
      return [event(workout, .metricsRecorded(metrics))]
    case .deleteWorkout(let reference):
      let workout = try state.workout(reference)
      return [PendingEvent(stream: "workout:\(workout.document.id)", event: .workoutDeleted)]
    default:
      throw CommandError("not a workout command")
    }
  }

  // MARK: - Resolving

  /// The workout: the named one, else the open one, else (for corrections after the fact) the most
  /// recent one.
  ///
  /// Refuses times before its start.
  func openWorkout(
    _ reference: String?,
    latestIfNoneOpen: Bool = false
  ) throws(CommandError)
    -> WorkoutState
  {
    var workout: WorkoutState
    do {
      workout = try state.workout(reference)
    } catch {
      guard reference == nil, latestIfNoneOpen, state.openWorkouts.isEmpty,
        let latest = state.latestLiveWorkout
      else { throw error }
      workout = latest
    }
    guard at >= workout.document.start else {
      let format = ISO8601DateFormatter()
      throw CommandError(
        "time \(format.string(from: at)) is before the workout started (\(format.string(from: workout.document.start)))"
      )
    }
    return workout
  }

  func target(
    _ workoutReference: String?,
    _ exerciseReference: String?,
    latestIfNoneOpen: Bool = false,
    next: Bool = true
  ) throws(CommandError) -> (WorkoutState, WorkoutLogDocument) {
    let workout = try openWorkout(workoutReference, latestIfNoneOpen: latestIfNoneOpen)
    if exerciseReference == nil, !next || latestIfNoneOpen {
      // Corrections default to the exercise touched last.
      if let last = workout.document.logs.filter({ $0.updatedAt != nil })
        .max(by: { ($0.updatedAt ?? .distantPast) < ($1.updatedAt ?? .distantPast) })
      {
        return (workout, last)
      }
    }
    return (workout, try state.log(exerciseReference, in: workout))
  }

  func event(_ workout: WorkoutState, _ event: JournalEvent) -> PendingEvent {
    PendingEvent(stream: "workout:\(workout.document.id)", event: event)
  }

  func statusError(_ log: WorkoutLogDocument, _ what: String) -> CommandError {
    CommandError("'\(log.exerciseName)' \(what): it is \(log.status.describedForPeople)")
  }

  // MARK: - Values

  /// Checks actuals against the log's load type and the limits.
  func check(_ actuals: SetActuals, for log: WorkoutLogDocument) throws(CommandError) {
    let name = log.exerciseName
    switch log.loadType {
    case .weight:
      if actuals.seconds != nil {
        throw CommandError("'\(name)' is a weight exercise: it takes no seconds")
      }
    case .none:
      if actuals.seconds != nil {
        throw CommandError("'\(name)' is a bodyweight exercise: it takes no seconds")
      }
      if actuals.weight != nil {
        throw CommandError("'\(name)' is a bodyweight exercise: it takes no weight")
      }
    case .duration:
      if actuals.reps != nil {
        throw CommandError("'\(name)' is a timed exercise: it takes no reps")
      }
      if actuals.weight != nil {
        throw CommandError("'\(name)' is a timed exercise: it takes no weight")
      }
    }
    if let reps = actuals.reps { try checkReps(reps) }
    if let weight = actuals.weight { try checkWeight(weight) }
    if let seconds = actuals.seconds { try checkSeconds(seconds) }
  }

  /// A set's start: not after the set is done (the action's time), not before its workout began.
  func check(start: Date, in workout: WorkoutState) throws(CommandError) {
    let format = ISO8601DateFormatter()
    guard start <= at else {
      throw CommandError(
        "a set cannot start (\(format.string(from: start))) after it is done (\(format.string(from: at)))"
      )
    }
    guard start >= workout.document.start else {
      throw CommandError(
        "a set cannot start (\(format.string(from: start))) before its workout (\(format.string(from: workout.document.start)))"
      )
    }
  }

  func check(_ metrics: MetricsRecorded) throws(CommandError) {
    let rates = [metrics.avgHeartRate, metrics.maxHeartRate, metrics.minHeartRate].compactMap { $0 }
    for rate in rates
    where
      !(rate.isFinite
      && Double(Limits.heartRate.lowerBound)...Double(Limits.heartRate.upperBound) ~= rate)
    {
      throw CommandError("heart rate \(rate) is outside \(Limits.heartRate)")
    }
    if let kcal = metrics.activeEnergyKcal, !(kcal.isFinite && (0...20_000).contains(kcal)) {
      throw CommandError("active energy \(kcal) kcal is outside 0…20000")
    }
    if let zones = metrics.hrZoneSeconds {
      guard zones.count == 5, zones.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 86_400 }) else {
        throw CommandError("heart-rate zones need 5 values of 0…86400 seconds")
      }
    }
    if let volume = metrics.totalVolume, !(volume.isFinite && volume >= 0) {
      throw CommandError("total volume \(volume) is not a non-negative number")
    }
  }
}

extension WorkoutStatus {
  /// The status in words.
  public var describedForPeople: String {
    switch self {
    case .notStarted: "not started"
    case .inProgress: "in progress"
    case .completed: "completed"
    case .skipped: "skipped"
    }
  }
}
