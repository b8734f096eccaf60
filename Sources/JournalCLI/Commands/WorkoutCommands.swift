import Foundation
import JournalProjections

/// `start`, `done`, `adjust`, `more`, `skip`, `reset`, `finish`, `end`,
/// `delete`, `plan`, `metrics`: the run of a workout.
enum WorkoutCommands {
  static let all: [Command] = [
    start, done, adjust, more, skip, reset, finish, end, delete, plan, metrics,
  ]

  static let start = Command(
    ["start"],
    abstract: "Start a workout from a split",
    arguments: "SPLIT",
    discussion: """
      Snapshots the split's exercises, rest, flow mode and heart-rate target,
      and the device's time zone (which decides the document's month folder).
      """,
    options: [
      OptionSpec(
        "time-zone",
        value: "TZ",
        help: "IANA time zone of the device (default: this machine's)"
      )
    ]
  ) { invocation in
    let session = try JournalSession(invocation, scope: .splits)
    try invocation.expectPositionals(atMost: 1)
    let split = try invocation.positional(0, "split name")
    let zone = invocation.string("time-zone") ?? TimeZone.current.identifier
    let events = try session.execute(
      .startWorkout(split: split, timeZone: zone),
      console: invocation.console
    )
    let state = session.state()
    guard let id = events.first?.streamID, let workout = state.workouts[id] else {
      throw WorkoutOutput.notReadBack(events)
    }
    return WorkoutOutput.report(
      events,
      workout: workout,
      in: invocation,
      headline: "started '\(workout.document.splitName ?? split)' (workout \(id))"
    )
  }

  static let done = Command(
    ["done"],
    abstract: "Record the next set of an exercise",
    arguments: "[EXERCISE]",
    discussion: """
      Without actuals the set is recorded as planned. The last planned set also
      completes the exercise, unless --keep-open (to add One More).
      EXERCISE defaults to the exercise in progress, else the next one.
      --started records when work on the set began (as 'journal run' does), so
      that status and audit show its work time and the rest before it.
      """,
    options: [
      CommonOptions.reps, CommonOptions.weight, CommonOptions.seconds, CommonOptions.workout,
      OptionSpec("keep-open", help: "Keep the exercise open after its last planned set"),
      OptionSpec("started", value: "TIME", help: "When work on the set began (default: unknown)"),
    ]
  ) { invocation in
    let now = try invocation.now()
    let started = try invocation.string("started").map { try TimeParser.parse($0, now: now) }
    return try logCommand(invocation) { w, x in
      .completeSet(
        workout: w,
        exercise: x,
        try invocation.actuals(),
        keepOpen: invocation.arguments.flag("keep-open"),
        startedAt: started
      )
    } headline: { log, _ in
      let n = log.setEntries?.count ?? 0
      return
        "set \(n) of '\(log.exerciseName)': \(WorkoutOutput.describe(log.setEntries?.last, of: log)) (plan \(WorkoutOutput.plan(log)))"
        + (log.status == .completed ? " · exercise completed" : "")
    }
  }

  static let adjust = Command(
    ["adjust"],
    abstract: "Correct a recorded set",
    arguments: "[EXERCISE]",
    discussion:
      "Corrects the last set (or --set N) of the exercise touched last (or EXERCISE). The original stays in history.",
    options: [
      OptionSpec("set", short: "n", value: "N", help: "Which set, from 1 (default: the last)"),
      CommonOptions.reps, CommonOptions.weight, CommonOptions.seconds, CommonOptions.workout,
    ]
  ) { invocation in
    try logCommand(invocation) { w, x in
      .adjustSet(workout: w, exercise: x, set: try invocation.int("set"), try invocation.actuals())
    } headline: { log, _ in
      "adjusted '\(log.exerciseName)': \(WorkoutOutput.entries(log))"
    }
  }

  static let more = Command(
    ["more"],
    abstract: "One More: add a set to an exercise",
    arguments: "[EXERCISE]",
    options: [CommonOptions.workout]
  ) { invocation in
    try logCommand(invocation) { w, x in
      .addSet(workout: w, exercise: x)
    } headline: { log, _ in
      "'\(log.exerciseName)' now has \(log.sets) sets"
    }
  }

  static let skip = Command(
    ["skip"],
    abstract: "Skip an exercise (recorded sets are kept)",
    arguments: "[EXERCISE]",
    options: [CommonOptions.workout]
  ) { invocation in
    try logCommand(invocation) { w, x in
      .skipLog(workout: w, exercise: x)
    } headline: { log, _ in
      "skipped '\(log.exerciseName)' (\(log.setEntries?.count ?? 0) sets kept)"
    }
  }

  static let reset = Command(
    ["reset"],
    abstract: "Start an exercise over (its sets are cleared; history keeps them)",
    arguments: "[EXERCISE]",
    options: [CommonOptions.workout]
  ) { invocation in
    try logCommand(invocation) { w, x in
      .resetLog(workout: w, exercise: x)
    } headline: { log, _ in
      "reset '\(log.exerciseName)'; undo brings its sets back"
    }
  }

  static let finish = Command(
    ["finish"],
    abstract: "Complete an exercise; missing sets are filled in from the plan",
    arguments: "[EXERCISE]",
    options: [CommonOptions.workout]
  ) { invocation in
    try logCommand(invocation) { w, x in
      .completeLog(workout: w, exercise: x)
    } headline: { log, _ in
      "completed '\(log.exerciseName)': \(WorkoutOutput.entries(log))"
    }
  }

  static let end = Command(
    ["end"],
    abstract: "End the workout, keeping progress (open exercises become skipped)",
    options: [CommonOptions.workout]
  ) { invocation in
    let session = try JournalSession.naming(
      workout: invocation.string("workout"),
      invocation,
      scope: .workout(invocation.string("workout"))
    )
    try invocation.expectPositionals(atMost: 0)
    let events = try session.execute(
      .endWorkout(workout: invocation.string("workout")),
      console: invocation.console
    )
    guard let workout = session.state().workouts[events.first?.streamID ?? ""] else {
      throw WorkoutOutput.notReadBack(events)
    }
    let volume = DisplayUnit.weight(workout.document.totalVolume)
    return WorkoutOutput.report(
      events,
      workout: workout,
      in: invocation,
      headline:
        "ended workout \(workout.document.id): \(workout.document.status.describedForPeople), volume \(volume)"
    )
  }

  static let delete = Command(
    ["delete"],
    abstract: "Delete a workout (a stub remains; undo brings it back)",
    arguments: "WORKOUT"
  ) { invocation in
    let session = try JournalSession.naming(
      workout: invocation.arguments.positionals.first,
      invocation,
      scope: StateScope(workouts: Array(invocation.arguments.positionals.prefix(1)))
    )
    try invocation.expectPositionals(atMost: 1)
    let reference = try invocation.positional(0, "workout id")
    let events = try session.execute(
      .deleteWorkout(workout: reference),
      console: invocation.console
    )
    guard let workout = session.state().workouts[events.first?.streamID ?? ""] else {
      throw WorkoutOutput.notReadBack(events)
    }
    return WorkoutOutput.report(
      events,
      workout: workout,
      in: invocation,
      headline: "deleted workout \(workout.document.id)"
    )
  }

  static let plan = Command(
    ["plan"],
    abstract: "Edit the plan of an exercise in a workout",
    arguments: "[EXERCISE]",
    options: [
      OptionSpec("sets", value: "N", help: "Planned sets"),
      OptionSpec("reps", value: "N", help: "Planned reps"),
      OptionSpec("weight", value: "W", help: "Planned weight"),
      OptionSpec("seconds", value: "S", help: "Planned seconds"),
      OptionSpec("notes", value: "TEXT", help: "Notes"),
      OptionSpec("no-notes", help: "Remove the notes"),
      CommonOptions.workout,
    ]
  ) { invocation in
    try logCommand(invocation) { w, x in
      var edit = PlanEdited(logID: "")
      edit.sets = try invocation.change("sets", invocation.int)
      edit.reps = try invocation.change("reps", invocation.int)
      edit.weight = try invocation.change("weight", invocation.double)
      edit.durationSeconds = try invocation.change("seconds", invocation.int)
      edit.notes = try invocation.change("notes") { (name: String) throws(UsageError) in
        invocation.string(name)
      }
      return .editPlan(workout: w, exercise: x, edit)
    } headline: { log, _ in
      "plan of '\(log.exerciseName)': \(WorkoutOutput.plan(log))"
    }
  }

  static let metrics = Command(
    ["metrics"],
    abstract: "Record the health metrics of a workout",
    options: [
      OptionSpec("kcal", value: "N", help: "Active energy"),
      OptionSpec("avg-hr", value: "BPM", help: "Average heart rate"),
      OptionSpec("max-hr", value: "BPM", help: "Maximum heart rate"),
      OptionSpec("min-hr", value: "BPM", help: "Minimum heart rate"),
      OptionSpec("zones", value: "S,S,S,S,S", help: "Seconds in each of 5 heart-rate zones"),
      OptionSpec(
        "source",
        value: "SOURCE",
        help: "'watch' or 'phoneEstimate' (default phoneEstimate)"
      ),
      OptionSpec("healthkit", value: "UUID", help: "The HealthKit workout's UUID"),
      CommonOptions.workout,
    ]
  ) { invocation in
    let session = try JournalSession.naming(
      workout: invocation.string("workout"),
      invocation,
      scope: .workout(invocation.string("workout"))
    )
    try invocation.expectPositionals(atMost: 0)
    let sourceText = invocation.string("source") ?? MetricSource.phoneEstimate.rawValue
    guard let source = MetricSource(rawValue: sourceText) else {
      throw UsageError("unknown source '\(sourceText)': use 'watch' or 'phoneEstimate'")
    }
    var zones: [Double]?
    if let text = invocation.string("zones") {
      let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
      guard parts.allSatisfy({ $0 != nil }) else {
        throw UsageError("'--zones' needs five numbers separated by commas")
      }
      zones = parts.compactMap { $0 }
    }
    let metrics = MetricsRecorded(
      activeEnergyKcal: try invocation.double("kcal"),
      avgHeartRate: try invocation.double("avg-hr"),
      maxHeartRate: try invocation.double("max-hr"),
      minHeartRate: try invocation.double("min-hr"),
      hrZoneSeconds: zones,
      healthKitWorkoutUUID: invocation.string("healthkit"),
      source: source
    )
    let events = try session.execute(
      .recordMetrics(workout: invocation.string("workout"), metrics),
      console: invocation.console
    )
    guard let workout = session.state().workouts[events.first?.streamID ?? ""] else {
      throw WorkoutOutput.notReadBack(events)
    }
    return WorkoutOutput.report(
      events,
      workout: workout,
      in: invocation,
      headline: "recorded metrics of workout \(workout.document.id)"
    )
  }

  /// Runs a command about one log (EXERCISE positional, --workout) and reports it.
  static func logCommand(
    _ invocation: Invocation,
    _ make: (String?, String?) throws -> JournalCommand,
    headline: (WorkoutLogDocument, WorkoutState) -> String
  ) throws -> Int32 {
    let session = try JournalSession.naming(
      workout: invocation.string("workout"),
      invocation,
      scope: .workout(invocation.string("workout"))
    )
    try invocation.expectPositionals(atMost: 1)
    let exercise = invocation.arguments.positionals.first
    let command = try make(invocation.string("workout"), exercise)
    let events = try session.execute(command, console: invocation.console)
    let state = session.state()
    guard let first = events.first, let workout = state.workouts[first.streamID],
      let log = workout.log(first.event.logID ?? "")
    else { throw WorkoutOutput.notReadBack(events) }
    return WorkoutOutput.report(
      events,
      workout: workout,
      in: invocation,
      headline: headline(log, workout)
    )
  }
}
