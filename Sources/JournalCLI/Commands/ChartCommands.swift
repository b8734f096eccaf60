import Foundation
import JournalProjections

/// `records` and `chart`: personal records and progression, from the audit.
enum ChartCommands {
  static let all: [Command] = [records, chart]

  static let records = Command(
    ["records"],
    abstract: "Personal records per exercise, from recorded actuals only",
    discussion: """
      Only sets recorded live or adjusted count: sets filled in from the plan,
      legacy cursor-only sets and reverted sets do not. Exercises are grouped by
      library name. e1RM is Epley's: weight × (1 + reps / 30); a single is its
      weight. A tie keeps the earlier date.
      """,
    options: [
      OptionSpec(
        "exercise",
        value: "NAME",
        help: "Only this exercise (display or library name, or a unique prefix)"
      ),
      AuditCommands.asOf,
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    let exercise = invocation.string("exercise")
    let all = try answered(invocation) { session in
      try session.journal.records(
        exercise: exercise,
        upTo: try AuditCommands.point(invocation, session)
      )
    }
    if invocation.wantsJSON {
      invocation.printJSON(all.map(json))
      return ExitStatus.success
    }
    invocation.console.print(AuditOutput.records(all))
    return ExitStatus.success
  }

  /// What `read` answers from the saved state's read models, else from the whole history.
  static func answered<T>(
    _ invocation: Invocation,
    _ read: (JournalSession) throws -> T
  ) throws
    -> T
  {
    do {
      return try read(JournalSession(invocation, scope: StateScope(splits: false)))
    } catch is ScopeTooNarrow {
      return try read(JournalSession(invocation, scope: .all))
    }
  }

  static func json(_ r: ExerciseRecords) -> [String: Any] {
    var dates = ZonedDates()
    func set(_ s: ExerciseRecords.RecordSet?) -> Any {
      guard let s else { return NSNull() }
      return [
        "value": s.value, "reps": s.reps, "weight": s.weight,
        "date": dates.iso(s.date, in: s.timeZone),
        "workout": s.workoutID, "event": s.eventID,
      ] as [String: Any]
    }
    var object: [String: Any] = [
      "exercise": r.exercise, "sets": r.sets, "heaviest": set(r.heaviest),
      "bestE1RM": set(r.bestEstimatedOneRepMax), "bestSetVolume": set(r.bestSetVolume),
      "e1RMFormula": "epley",
    ]
    DisplayUnit.label(&object)
    object["bestSession"] =
      r.bestSession.map { s -> Any in
        [
          "volume": s.volume, "sets": s.sets, "date": dates.iso(s.date, in: s.timeZone),
          "workout": s.workoutID,
        ] as [String: Any]
      } ?? NSNull()
    object["repsAtWeight"] = r.repsAtWeight.map { e -> [String: Any] in
      [
        "weight": e.weight, "reps": e.reps, "date": dates.iso(e.date, in: e.timeZone),
        "workout": e.workoutID,
      ]
    }
    return object
  }

  static let chart = Command(
    ["chart"],
    abstract: "Progression of an exercise: top-set weight or e1RM, workout by workout",
    arguments: "EXERCISE",
    discussion: """
      EXERCISE is a display or library name, or a unique prefix of one. One point per
      workout where the exercise is finished (completed, or the
      workout is over), from its effective sets, as the app's chart: sets
      filled in from the plan count, and such points are drawn hollow in the
      SVG. --svg writes a standalone SVG file (owner-readable only), replacing
      it; the terminal chart shows the newest workouts that fit, scaled to them.
      """,
    options: [
      OptionSpec("metric", value: "METRIC", help: "weight (top set, default) or e1rm (Epley)"),
      OptionSpec("svg", value: "FILE", help: "Write the chart as SVG to FILE"),
      AuditCommands.asOf,
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 1)
    let typed = try invocation.positional(0, "EXERCISE")
    let metric = invocation.string("metric") ?? "weight"
    guard metric == "weight" || metric == "e1rm" else {
      throw UsageError("unknown metric '\(metric)': use weight or e1rm")
    }
    // The terminal shows no more bars than it has columns: only those points are read.
    let drawn = invocation.string("svg") == nil && !invocation.wantsJSON
    let progression = try answered(invocation) { session in
      try session.journal.progression(
        of: typed,
        upTo: try AuditCommands.point(invocation, session),
        newest: drawn ? invocation.console.width : nil
      )
    }
    let values = progression.points.map {
      metric == "weight" ? $0.topSetWeight : $0.bestEstimatedOneRepMax
    }
    var dates = ZonedDates()
    func days() -> [String] { progression.points.map { dates.day($0.date, in: $0.timeZone) } }
    let title =
      "\(progression.exercise): " + (metric == "weight" ? "top-set weight" : "best e1RM (Epley)")
    if let file = invocation.string("svg") {
      let url = invocation.resolve(file)
      let svg = ChartSVG.render(
        title: title,
        values: values,
        dates: days(),
        solid: progression.points.map(\.isAllActual)
      )
      try OwnerOnlyFile.write(svg, to: url, example: "bench.svg")
      if !invocation.wantsJSON { invocation.console.print("wrote \(file)") }
    }
    if invocation.wantsJSON {
      var object: [String: Any] = [
        "exercise": progression.exercise, "metric": metric,
        "points": progression.points.map { p -> [String: Any] in
          [
            "date": dates.iso(p.date, in: p.timeZone), "workout": p.workoutID,
            "topSetWeight": p.topSetWeight,
            "bestE1RM": p.bestEstimatedOneRepMax, "allActual": p.isAllActual,
          ]
        },
      ]
      DisplayUnit.label(&object)
      invocation.printJSON(object)
      return ExitStatus.success
    }
    if drawn {
      invocation.console.print(
        ChartText.render(
          title: title,
          values: values,
          dates: days(),
          width: invocation.console.width
        )
      )
    }
    return ExitStatus.success
  }
  .completing([.exercises])
}
