import Foundation

/// Checks a command against the folded state and turns it into events.
///
/// Nothing here reads a clock: `at` is when the action happens (now, or the
/// back-dated `--at`), `now` is the caller's clock for the "not in the future"
/// check, and `newID` makes ids for new splits, exercises, workouts and logs.
struct CommandValidator {
  var state: JournalState
  var at: Date
  var now: Date
  var newID: () -> String

  init(state: JournalState, at: Date, now: Date, newID: @escaping () -> String) {
    self.state = state
    self.at = at
    self.now = now
    self.newID = newID
  }

  /// The events `command` appends, or why it is refused.
  ///
  /// - Throws: ``CommandError`` when the command does not fit the state.
  mutating func events(for command: JournalCommand) throws(CommandError) -> [PendingEvent] {
    guard at.timeIntervalSince(now) <= Limits.futureSlack else {
      throw CommandError("time \(ISO8601DateFormatter().string(from: at)) is in the future")
    }
    switch command {
    case .createSplit(let settings, let exercises, let isStarter):
      try check(settings)
      for plan in exercises { try check(plan) }
      let stream = "split:\(newID())"
      var events = [
        PendingEvent(
          stream: stream,
          event: .splitCreated(SplitCreated(settings: settings, isStarter: isStarter))
        )
      ]
      for plan in exercises {
        events.append(
          PendingEvent(
            stream: stream,
            event: .exerciseAdded(ExerciseAdded(exerciseID: newID(), plan: plan))
          )
        )
      }
      return events
    case .addStarterSplits:
      var events: [PendingEvent] = []
      for starter in state.missingStarterSplits {
        events += try self.events(
          for: .createSplit(starter.settings, exercises: starter.exercises, isStarter: true)
        )
      }
      return events
    case .updateSplit(let reference, let update):
      let split = try state.split(reference)
      var merged = split.document
      merged.name = update.name.applied(to: merged.name) ?? merged.name
      merged.color = update.color.applied(to: merged.color) ?? merged.color
      merged.systemImage = update.systemImage.applied(to: merged.systemImage) ?? merged.systemImage
      try check(
        SplitSettings(
          name: merged.name,
          color: merged.color,
          systemImage: merged.systemImage,
          activityType: update.activityType.applied(to: merged.activityType),
          restSeconds: update.restSeconds.applied(to: merged.restSeconds),
          autoAdvance: nil,
          targetHeartRate: update.targetHeartRate.applied(to: merged.targetHeartRate)
        ),
        renaming: split.document.id
      )
      guard update != SplitUpdated() else { throw CommandError("nothing to change") }
      return [PendingEvent(stream: "split:\(split.document.id)", event: .splitUpdated(update))]
    case .moveSplit(let reference, let position):
      let split = try state.split(reference)
      var ids = state.liveSplits.map(\.document.id)
      guard position >= 1, position <= ids.count else {
        throw CommandError("position \(position) is outside 1…\(ids.count)")
      }
      ids.removeAll { $0 == split.document.id }
      ids.insert(split.document.id, at: position - 1)
      return [
        PendingEvent(stream: "splits", event: .splitsReordered(SplitsReordered(splitIDs: ids)))
      ]
    case .deleteSplit(let reference):
      let split = try state.split(reference)
      return [PendingEvent(stream: "split:\(split.document.id)", event: .splitDeleted)]
    case .addExercise(let reference, let plan, let position):
      let split = try state.split(reference)
      try check(plan)
      let id = newID()
      let stream = "split:\(split.document.id)"
      var events = [
        PendingEvent(
          stream: stream,
          event: .exerciseAdded(ExerciseAdded(exerciseID: id, plan: plan))
        )
      ]
      if let position {
        try checkPosition(position, count: split.document.exercises.count + 1)
        events.append(
          PendingEvent(
            stream: stream,
            event: .exerciseMoved(ExerciseMoved(exerciseID: id, position: position - 1))
          )
        )
      }
      return events
    case .updateExercise(let splitReference, let reference, var update):
      let split = try state.split(splitReference)
      let exercise = try state.exercise(reference, in: split)
      update.exerciseID = exercise.id
      try check(exercise.applying(update))
      guard update != ExerciseUpdated(exerciseID: exercise.id) else {
        throw CommandError("nothing to change")
      }
      return [PendingEvent(stream: "split:\(split.document.id)", event: .exerciseUpdated(update))]
    case .removeExercise(let splitReference, let reference):
      let split = try state.split(splitReference)
      let exercise = try state.exercise(reference, in: split)
      return [
        PendingEvent(
          stream: "split:\(split.document.id)",
          event: .exerciseRemoved(ExerciseRemoved(exerciseID: exercise.id))
        )
      ]
    case .moveExercise(let splitReference, let reference, let position):
      let split = try state.split(splitReference)
      let exercise = try state.exercise(reference, in: split)
      try checkPosition(position, count: split.document.exercises.count)
      return [
        PendingEvent(
          stream: "split:\(split.document.id)",
          event: .exerciseMoved(ExerciseMoved(exerciseID: exercise.id, position: position - 1))
        )
      ]
    case .duplicateExercise(let splitReference, let reference):
      let split = try state.split(splitReference)
      let exercise = try state.exercise(reference, in: split)
      return [
        PendingEvent(
          stream: "split:\(split.document.id)",
          event: .exerciseDuplicated(ExerciseDuplicated(exerciseID: exercise.id, copyID: newID()))
        )
      ]
    case .startWorkout(let reference, let timeZone):
      let split = try state.split(reference)
      guard TimeZone(identifier: timeZone) != nil else {
        throw CommandError(
          "unknown time zone '\(timeZone)'",
          hint: "use an IANA name such as 'Europe/Paris'"
        )
      }
      guard !split.document.exercises.isEmpty else {
        throw CommandError(
          "split '\(split.document.name)' has no exercises",
          hint: "add one with 'journal exercise add \(split.document.name) NAME'"
        )
      }
      let logs = split.document.exercises.map { exercise in
        LogPlan(logID: newID(), order: exercise.order, plan: ExercisePlan(exercise))
      }
      let started = WorkoutStarted(
        splitID: split.document.id,
        splitName: split.document.name,
        timeZone: timeZone,
        restSeconds: split.document.restSeconds,
        autoAdvance: split.document.autoAdvance,
        targetHeartRate: split.document.targetHeartRate,
        logs: logs
      )
      return [PendingEvent(stream: "workout:\(newID())", event: .workoutStarted(started))]
    default:
      return try workoutEvents(for: command)
    }
  }

  // MARK: - Checks

  func check(_ settings: SplitSettings, renaming id: String? = nil) throws(CommandError) {
    try checkName(settings.name, what: "split name")
    try checkName(settings.color, what: "colour")
    try checkName(settings.systemImage, what: "symbol name")
    if state.liveSplits.contains(where: {
      $0.document.id != id && $0.document.name.caseInsensitiveCompare(settings.name) == .orderedSame
    }) {
      throw CommandError("a split named '\(settings.name)' exists already")
    }
    if let activity = settings.activityType, WorkoutActivityType(rawValue: activity) == nil {
      throw CommandError("unknown activity type \(activity)", hint: "use 0…8")
    }
    if let rest = settings.restSeconds, !Limits.restSeconds.contains(rest) {
      throw CommandError("rest of \(rest) s is outside \(Limits.restSeconds)")
    }
    if let bpm = settings.targetHeartRate, !Limits.heartRate.contains(bpm) {
      throw CommandError("target heart rate \(bpm) is outside \(Limits.heartRate)")
    }
  }

  func check(_ plan: ExercisePlan) throws(CommandError) {
    try checkName(plan.name, what: "exercise name")
    if let library = plan.libraryName { try checkName(library, what: "library name") }
    guard Limits.sets.contains(plan.sets) else {
      throw CommandError("\(plan.sets) sets is outside \(Limits.sets)")
    }
    try checkReps(plan.reps)
    try checkWeight(plan.weight)
    try checkSeconds(plan.durationSeconds)
    if plan.loadType == .duration, plan.durationSeconds == 0 {
      throw CommandError("a timed exercise needs its duration", hint: "pass --seconds N")
    }
    for setting in plan.machineSettings ?? [] {
      try checkName(setting.name, what: "machine setting name")
    }
  }

  func checkName(_ name: String, what: String) throws(CommandError) {
    let trimmed = name.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw CommandError("\(what) is empty") }
    guard Limits.nameLength.contains(name.count) else {
      throw CommandError("\(what) is longer than \(Limits.nameLength.upperBound) characters")
    }
    guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw CommandError(
        "\(what) '\(name.debugDescription.dropFirst().dropLast())' contains control characters"
      )
    }
  }

  func checkReps(_ reps: Int) throws(CommandError) {
    guard Limits.reps.contains(reps) else {
      throw CommandError("\(reps) reps is outside \(Limits.reps)")
    }
  }

  func checkWeight(_ weight: Double) throws(CommandError) {
    guard weight.isFinite else { throw CommandError("weight \(weight) is not a number") }
    guard Limits.weight.contains(weight) else {
      throw CommandError(
        "weight \(WeightUnit.number(weight)) is outside 0…\(Int(Limits.weight.upperBound))"
      )
    }
  }

  func checkSeconds(_ seconds: Int) throws(CommandError) {
    guard Limits.seconds.contains(seconds) else {
      throw CommandError("\(seconds) seconds is outside \(Limits.seconds)")
    }
  }

  func checkPosition(_ position: Int, count: Int) throws(CommandError) {
    guard position >= 1, position <= count else {
      throw CommandError("position \(position) is outside 1…\(count)")
    }
  }
}

extension ExercisePlan {
  init(_ exercise: ExerciseDocument) {
    self.init(
      name: exercise.name,
      sets: exercise.sets,
      reps: exercise.reps,
      weight: exercise.weight,
      loadType: exercise.loadType,
      durationSeconds: exercise.durationSeconds,
      machineSettings: exercise.machineSettings,
      libraryName: exercise.libraryName
    )
  }
}

extension ExerciseDocument {
  func applying(_ update: ExerciseUpdated) -> ExercisePlan {
    var copy = self
    copy.apply(update)
    return ExercisePlan(copy)
  }
}
