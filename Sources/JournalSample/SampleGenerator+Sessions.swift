import Foundation
import JournalCore
import JournalProjections

/// One session being told.
struct SampleRun {
  let session: SampleSession
  let workoutID: String
  /// The device that records the sets.
  let recorder: String
  let restSeconds: Int?
  /// Whether each set's start is recorded (``SampleEra/flowDay``).
  var recordsStarts: Bool { session.day >= SampleEra.flowDay && recorder == SampleGenerator.phone }
  /// Per exercise trained, whether every planned set met the plan.
  var hits: [(exercise: Int, allHit: Bool)] = []
  /// Sets the watch miscounted, which the phone corrects afterwards: log id,
  /// set number (1-based), what was really done.
  var corrections: [(logID: String, set: Int, actuals: SetActuals)] = []
}

// The sessions since the app recorded per-set actuals, told through the
// journal's commands.

extension SampleGenerator {
  func currentSession(_ session: SampleSession) throws {
    let phone = Self.phone
    let watch = Self.watch
    let scene = session.scene
    var recorder = random.chance(45) ? watch : phone
    switch scene {
    case .watchCorrected, .undoRedo, .crossMidnight, .resetWrongExercise: recorder = watch
    case .undoTypo, .undoEnd, .backDated, .mistakenStart, .removedLog: recorder = phone
    default: break
    }
    let starter = recorder == watch && random.chance(60) ? watch : phone
    if scene == .backDated {
      // The phone was flat: logged from memory the next morning.
      backDating = true
      clock.move(
        to: SampleCalendar.milliseconds(
          day: session.day + 1,
          minute: 7 * 60 + 40,
          zone: session.zone
        )
      )
    }
    defer { backDating = false }
    if scene == .mistakenStart { try startMistakenly(session) }
    let started = try act(
      .startWorkout(split: splitIDs[session.split], timeZone: session.zone.identifier),
      on: starter
    )
    guard let workoutID = started.first?.streamID else { return }
    wait(120...300)
    if scene == .removedLog { try swapDeadlifts(workoutID) }
    let document = try workout(workoutID)
    var logs = document.logs
    if scene == .resetWrongExercise, logs.count > 2 { logs.swapAt(1, 2) }
    var run = SampleRun(
      session: session,
      workoutID: workoutID,
      recorder: recorder,
      restSeconds: document.restSeconds
    )
    let endAfter = scene == .endEarly || (scene == nil && random.chance(4)) ? 3 : nil
    for (position, log) in logs.enumerated() {
      if position == endAfter {
        // Out of time: what is not done is skipped, what is done stays.
        try act(.endWorkout(workout: workoutID), on: recorder)
        break
      }
      if scene == .undoEnd, position == logs.count - 1 {
        try act(.endWorkout(workout: workoutID), on: phone)
        wait(10...30)
        try undo(on: phone, workout: workoutID)
        wait(30...60)
      }
      if scene == .resetWrongExercise, position == 1 {
        try recordOnWrongLog(logs[2], in: run)
      }
      try perform(log, position: position, count: logs.count, in: &run)
    }
    try finish(&run, startedOn: starter)
  }

  // MARK: - One exercise

  private func perform(
    _ log: WorkoutLogDocument,
    position: Int,
    count: Int,
    in run: inout SampleRun
  ) throws {
    guard let index = exerciseIndex(for: log, split: run.session.split) else {
      throw JournalError(.invalidValue, "sample: no exercise for log '\(log.exerciseName)'")
    }
    let exercise = exercises[index]
    let scene = run.session.scene
    let workoutID = run.workoutID
    let isAccessory = position >= count - 2
    if scene == nil, isAccessory, random.chance(5) {
      // The machine was taken, or the time was short.
      try act(.skipLog(workout: workoutID, exercise: log.id), on: run.recorder)
      wait(20...60)
      return
    }
    var halfKilos = Int((log.weight * 2).rounded())
    if scene == .hotelGym, exercise.machineSettings != nil {
      var edit = PlanEdited(logID: log.id)
      edit.machineSettings = .set([
        MachineSetting(name: "Seat height", value: "6"),
        MachineSetting(name: "Thigh pad", value: "2"),
      ])
      edit.notes = .set("Hotel gym: a different machine")
      try act(.editPlan(workout: workoutID, exercise: log.id, edit), on: Self.phone)
      wait(20...40)
    } else if scene == nil, log.loadType == .weight, halfKilos > exercise.step * 4,
      random.chance(4)
    {
      halfKilos -= exercise.step
      var edit = PlanEdited(logID: log.id)
      edit.weight = .set(Double(halfKilos) / 2)
      edit.notes = .set("Heavy in the warm-up: one step lighter")
      try act(.editPlan(workout: workoutID, exercise: log.id, edit), on: Self.phone)
      wait(15...40)
    }
    let skipAfter =
      (scene == .skipPartial && position == 2) || (scene == nil && random.chance(2)) ? 1 : nil
    var sets = log.sets
    var done = 0
    var allHit = true
    while done < sets {
      let attempt = exercise.attempt(
        set: done,
        reps: log.reps,
        halfKilos: halfKilos,
        seconds: log.durationSeconds,
        isLast: done == sets - 1,
        random: &lifter
      )
      let start = run.recordsStarts ? Date(milliseconds: actionTime) : nil
      wait(log.loadType == .duration ? attempt.seconds + 5 : random.int(20...50))
      if done < log.sets { allHit = allHit && attempt.hit }
      let actuals = attempt.actuals(for: log.loadType)
      var recorded = actuals
      if run.recorder == Self.watch, log.loadType != .duration,
        (scene == .watchCorrected && run.corrections.isEmpty) || random.chance(6)
      {
        // A miscount on the watch, usually corrected on the phone later.
        recorded.reps = attempt.reps + (attempt.reps > 1 && random.chance(50) ? -1 : 1)
        if scene == .watchCorrected || random.chance(85) {
          run.corrections.append((log.id, done + 1, actuals))
        }
      }
      if scene == .undoTypo, position == 0, done == 1 {
        var typo = recorded
        typo.weight = Double(halfKilos * 10) / 2
        try act(
          .completeSet(workout: workoutID, exercise: log.id, typo, startedAt: start),
          on: run.recorder
        )
        wait(5...15)
        try undo(on: run.recorder)
        wait(5...15)
      }
      try act(
        .completeSet(workout: workoutID, exercise: log.id, recorded, startedAt: start),
        on: run.recorder
      )
      if scene == .undoRedo, position == 0, done == 0 {
        wait(3...8)
        try undo(on: run.recorder)
        wait(3...8)
        try redo(on: run.recorder)
      }
      done += 1
      if done == skipAfter, done < sets {
        wait(30...90)
        try act(.skipLog(workout: workoutID, exercise: log.id), on: run.recorder)
        wait(60...120)
        return
      }
      let oneMore =
        (scene == .oneMore && position == 0)
        || (scene == nil && exercise.isMainLift && allHit && random.chance(12))
      if done == sets, sets == log.sets, log.loadType != .duration, oneMore {
        wait(rest(run.restSeconds))
        try act(.addSet(workout: workoutID, exercise: log.id), on: run.recorder)
        sets += 1
        continue
      }
      if done < sets { wait(rest(run.restSeconds)) }
    }
    run.hits.append((index, allHit))
    wait(60...150)
  }

  // MARK: - After the last exercise

  /// Metrics, the phone's corrections of the watch, and the plan's progress.
  private func finish(_ run: inout SampleRun, startedOn starter: String) throws {
    let workoutID = run.workoutID
    wait(60...180)
    if run.recorder == Self.watch || starter == Self.watch {
      try act(
        .recordMetrics(workout: workoutID, watchMetrics(since: run.session)),
        on: Self.watch
      )
    } else if random.chance(50) {
      let start = SampleCalendar.milliseconds(
        day: run.session.day,
        minute: run.session.minute,
        zone: run.session.zone
      )
      let minutes = max(10, Int((actionTime - start) / 60_000))
      let estimate = MetricsRecorded(
        activeEnergyKcal: Double(minutes * random.int(40...60)) / 10,
        source: .phoneEstimate
      )
      try act(.recordMetrics(workout: workoutID, estimate), on: Self.phone)
    }
    if !run.corrections.isEmpty {
      wait((20 * 60)...(90 * 60))
      for correction in run.corrections {
        try act(
          .adjustSet(
            workout: workoutID,
            exercise: correction.logID,
            set: correction.set,
            correction.actuals
          ),
          on: Self.phone
        )
        wait(10...40)
      }
    }
    wait(60...300)
    for (index, allHit) in run.hits where exercises[index].split >= 0 {
      exercises[index].adapt(random: &lifter)
      guard exercises[index].progress(allHit: allHit, legacy: false, random: &lifter) else {
        continue
      }
      let exercise = exercises[index]
      var update = ExerciseUpdated(exerciseID: exercise.exerciseID)
      switch exercise.loadType {
      case .weight: update.weight = .set(exercise.weight)
      case .none: update.reps = .set(exercise.reps)
      case .duration: update.durationSeconds = .set(exercise.seconds)
      }
      try act(
        .updateExercise(
          split: splitIDs[exercise.split],
          exercise: exercise.exerciseID,
          update
        ),
        on: Self.phone
      )
      wait(5...20)
    }
  }

  // MARK: - Scenes

  /// Starts the split after the right one, records a set, notices, deletes it.
  private func startMistakenly(_ session: SampleSession) throws {
    let wrong = (session.split + 1) % SampleProgram.splits.count
    let events = try act(
      .startWorkout(split: splitIDs[wrong], timeZone: session.zone.identifier),
      on: Self.phone
    )
    guard let id = events.first?.streamID, let first = try workout(id).logs.first else { return }
    wait(90...180)
    try act(.completeSet(workout: id, exercise: first.id, SetActuals()), on: Self.phone)
    wait(30...90)
    try act(.deleteWorkout(workout: id), on: Self.phone)
    wait(30...60)
  }

  /// Lower back: deadlifts out of this workout, back extensions in.
  private func swapDeadlifts(_ workoutID: String) throws {
    guard let deadlift = try workout(workoutID).logs.first(where: { $0.exerciseName == "Deadlift" })
    else { return }
    try act(.removeLog(workout: workoutID, exercise: deadlift.id), on: Self.phone)
    wait(20...60)
    if exerciseIndex(SampleProgram.backExtension.key) == nil {
      exercises.append(SampleProgram.backExtension)
    }
    try act(
      .addLog(
        workout: workoutID,
        SampleProgram.backExtension.plan,
        notes: "Instead of deadlifts: lower back tight"
      ),
      on: Self.phone
    )
    wait(30...90)
  }

  /// The watch, on auto-advance, records two sets on the next exercise while
  /// the lifter does another one; the log is reset.
  private func recordOnWrongLog(_ log: WorkoutLogDocument, in run: SampleRun) throws {
    for set in 0..<2 {
      wait(20...50)
      try act(
        .completeSet(
          workout: run.workoutID,
          exercise: log.id,
          SetActuals(reps: log.reps, weight: log.loadType == .weight ? log.weight : nil)
        ),
        on: run.recorder
      )
      if set == 0 { wait(rest(run.restSeconds)) }
    }
    wait(10...30)
    try act(.resetLog(workout: run.workoutID, exercise: log.id), on: run.recorder)
    wait(10...30)
  }

  // MARK: - Helpers

  func workout(_ id: String) throws -> WorkoutDocument {
    guard let state = journal.state().workouts[id] else {
      throw JournalError(.invalidValue, "sample: no workout '\(id)'")
    }
    return state.document
  }

  private func undo(on device: String, workout: String? = nil) throws {
    clock.move(to: actionTime)
    try journal.undo(device: device, workout: workout, now: clock.date)
  }

  private func redo(on device: String) throws {
    clock.move(to: actionTime)
    try journal.redo(device: device, now: clock.date)
  }
}
