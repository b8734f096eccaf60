import Foundation
import JournalProjections

extension ReportPage {
  // MARK: - Exercises

  mutating func exercises() {
    out += section("exercises")
    if content.exercises.isEmpty { out += "<p>No exercises in this range.</p>\n" }
    for (index, exercise) in content.exercises.enumerated() {
      let name = exercise.progression.exercise
      out += "<article class=\"exercise\" id=\"exercise-\(index + 1)\">\n<h3>\(h(name))</h3>\n"
      progressionFigure(exercise)
      recordsTable(exercise.records, name: name)
      out += "</article>\n"
    }
    out += "</section>\n"
  }

  mutating func progressionFigure(_ exercise: ReportReads.Exercise) {
    let progression = exercise.progression
    let name = progression.exercise
    guard !progression.points.isEmpty else {
      out += "<p class=\"note\">No weighted sets finished: no progression to chart.</p>\n"
      return
    }
    let records = exercise.records
    var points: [ReportSVG.Point] = []
    for (i, p) in progression.points.enumerated() {
      // A record belongs to the point of its workout, or (per week) to the week it falls in.
      let next = i + 1 < progression.points.count ? progression.points[i + 1].date : nil
      func holds(_ record: ExerciseRecords.RecordSet?) -> Bool {
        guard let record else { return false }
        if record.workoutID == p.workoutID { return true }
        guard exercise.isWeekly else { return false }
        let week = CivilDay(record.date, timeZone: record.timeZone).weekStart
        return week == CivilDay(p.date, timeZone: p.timeZone).weekStart
          && (next.map { record.date < $0 } ?? true)
      }
      var held: [String] = []
      if holds(records?.heaviest) { held.append("heaviest") }
      if holds(records?.bestEstimatedOneRepMax) { held.append("e1RM") }
      points.append(
        ReportSVG.Point(
          label: (exercise.isWeekly ? "week of " : "")
            + (exercise.isWeekly
              ? CivilDay(p.date, timeZone: p.timeZone).weekStart.description
              : dates.day(p.date, in: p.timeZone)),
          topSet: p.topSetWeight,
          e1rm: p.bestEstimatedOneRepMax,
          isAllActual: p.isAllActual,
          records: held
        )
      )
    }
    let per = exercise.isWeekly ? "week" : "workout"
    let title = "\(name): top-set weight and best e1RM (Epley) per \(per)"
    out += "<figure class=\"progression\">\n<figcaption>\(h(title))</figcaption>\n"
    out += ReportSVG.progression(title: title, points: points)
    out += "<p class=\"legend\"><span class=\"key top\"></span>top set "
    out += "<span class=\"key e1rm\"></span>e1RM "
    out += "<span class=\"key hollow\"></span>sets with the plan's values, not recorded "
    out += "<b class=\"prkey\">PR</b> personal record</p>\n"
    table(
      caption: "\(name) per \(per)",
      headers: [exercise.isWeekly ? "Week of" : "Day", "Top set", "e1RM", "Recorded", "Record"],
      numeric: [1, 2],
      rows: points.map {
        [
          h($0.label.replacingOccurrences(of: "week of ", with: "")),
          h(DisplayUnit.weight($0.topSet)),
          h(DisplayUnit.weight(ChartText.rounded($0.e1rm))),
          $0.isAllActual ? "actual" : "plan's values",
          h($0.records.joined(separator: ", ")),
        ]
      }
    )
    out += "</figure>\n"
  }

  mutating func recordsTable(_ records: ExerciseRecords?, name: String) {
    guard let r = records else {
      out += "<p class=\"note\">No recorded sets: records count actuals only.</p>\n"
      return
    }
    var rows: [[String]] = []
    func set(_ label: String, _ s: ExerciseRecords.RecordSet?, value: (Double) -> String) {
      guard let s else { return }
      rows.append([
        h(label), h(value(s.value)), h("\(s.reps) × \(DisplayUnit.weight(s.weight))"),
        h(dates.day(s.date, in: s.timeZone)),
      ])
    }
    set("Heaviest", r.heaviest, value: DisplayUnit.weight)
    set("Best e1RM (Epley)", r.bestEstimatedOneRepMax) { DisplayUnit.weight(ChartText.rounded($0)) }
    set("Best set volume", r.bestSetVolume, value: DisplayUnit.weight)
    if let s = r.bestSession {
      rows.append([
        "Best session", h(DisplayUnit.weight(s.volume)), "\(s.sets) sets",
        h(dates.day(s.date, in: s.timeZone)),
      ])
    }
    for e in r.repsAtWeight {
      rows.append([
        e.weight > 0 ? "Most reps at \(h(DisplayUnit.weight(e.weight)))" : "Most reps, bodyweight",
        "\(e.reps) reps",
        e.weight > 0 ? h("\(e.reps) × \(DisplayUnit.weight(e.weight))") : "\(e.reps) reps",
        h(dates.day(e.date, in: e.timeZone)),
      ])
    }
    plainTable(
      caption: "\(name): personal records from \(r.sets) recorded sets",
      headers: ["Record", "Value", "Set", "Date"],
      numeric: [1],
      rows: rows
    )
  }

  // MARK: - Recent workouts

  mutating func recent() {
    out += section("recent")
    let recent = content.reads.recent.reversed()
    if recent.isEmpty { out += "<p>No workouts in this range.</p>\n" }
    for shown in recent {
      let session = shown.session
      let rowsByLog = Dictionary(grouping: shown.rows) { $0.logID }
      let d = shown.workout.document
      out += "<article class=\"workout\" id=\"recent-\(h(d.id))\">\n"
      out +=
        "<h3>\(h(d.splitName ?? "Workout")) · \(h(dates.minute(d.start, in: session.timeZone)))</h3>\n"
      out +=
        "<p class=\"meta\">\(h(d.status.describedForPeople)) · \(session.sets) sets · volume "
        + h(DisplayUnit.weight(session.volume))
        + (session.duration.map { " · " + h(Self.duration($0)) } ?? "") + "</p>\n"
      var rows: [[String]] = []
      for log in d.logs {
        let sets = rowsByLog[log.id] ?? []
        let done = sets.filter { $0.provenance != .reverted }.map { row -> String in
          let deviation = SetText.deviation(row.deviation)
          let text = h(SetText.values(row.actual, row.loadType))
          var classes = ["set"]
          if !deviation.isEmpty { classes.append("dev") }
          if !row.provenance.isActual { classes.append("planfill") }
          let note = deviation.isEmpty ? "" : " <small>(\(h(deviation)))</small>"
          return "<span class=\"\(classes.joined(separator: " "))\">\(text)\(note)</span>"
        }
        let timing = session.timing.exercises.first { $0.logID == log.id }
        rows.append([
          h(log.exerciseName), "<span class=\"set\">\(h(WorkoutOutput.plan(log)))</span>",
          done.isEmpty ? "—" : done.joined(separator: " · "), Self.time(of: timing),
          h(log.status.describedForPeople),
        ])
      }
      plainTable(
        caption: "Plan against what was done",
        headers: ["Exercise", "Plan", "Done", "Time and rests", "Status"],
        rows: rows
      )
      out += "</article>\n"
    }
    out += "<p class=\"legend\"><span class=\"dev\">deviation from the plan</span> "
    out += "<span class=\"planfill\">values of the plan, not recorded</span></p>\n"
    out += "</section>\n"
  }

  // MARK: - The story behind the numbers

  mutating func story() {
    out += section("story")
    let counts = content.reads.revisionCounts
    let total = counts.values.reduce(0, +)
    out +=
      "<p>What changed the record after the fact: corrections, undos, redos, resets, rewinds and "
      + "sets filled in from the plan. No other tracker keeps this.</p>\n"
    stats(
      Revisions.Entry.Kind.allCases.map { kind in (Self.kindName(kind), "\(counts[kind] ?? 0)") }
    )
    guard total > 0 else {
      out += "<p>Nothing was changed in this range.</p>\n</section>\n"
      return
    }
    let shown = content.revisions.reversed()
    if shown.count < total {
      out += "<p class=\"note\">The newest \(shown.count) of \(total) are listed.</p>\n"
    }
    let sessions = Set(content.summary.sessions.suffix(Self.sessionLimit).map(\.workoutID))
    plainTable(
      caption: "Changes, newest first",
      headers: ["When", "Device", "What", "Change", "Workout"],
      rows: shown.map { e in
        let workout = e.workoutID.map { id -> String in
          let name =
            content.reads.labels[id].map {
              h("\($0.splitName ?? "Workout") \(CivilDay($0.start, timeZone: $0.timeZone))")
            } ?? h(String(id.prefix(10)) + "…")
          return sessions.contains(id) ? "<a href=\"#session-\(h(id))\">\(name)</a>" : name
        }
        return [
          h(dates.minute(e.at, in: e.timeZone)), h(e.device), h(Self.kindName(e.kind, one: true)),
          h(e.summary)
            + (e.revertedBy.map {
              " <small>(itself reverted by \(h(String($0.prefix(10))))…)</small>"
            } ?? ""),
          workout ?? "splits",
        ]
      }
    )
    out += "</section>\n"
  }

  /// `Corrections`, or `Correction` for `one`.
  static func kindName(_ kind: Revisions.Entry.Kind, one: Bool = false) -> String {
    let name =
      switch kind {
      case .correction: "Correction"
      case .undo: "Undo"
      case .redo: "Redo"
      case .rewind: "Rewind"
      case .reset: "Reset"
      case .filledFromPlan: "Filled from plan"
      }
    return one || kind == .filledFromPlan ? name : name + "s"
  }

  // MARK: - Time

  mutating func time() {
    out += section("time")
    let summary = content.summary
    stats([
      ("Time trained", Self.duration(summary.duration)),
      ("Sessions timed", "\(summary.timedSessions) of \(summary.workouts)"),
      ("Average session", summary.averageDuration.map(Self.duration) ?? "—"),
      ("Median rest", summary.medianRest.map(Self.clock) ?? "—"),
      ("Sets with a known rest", "\(summary.restCount) of \(summary.sets)"),
    ])
    out +=
      "<p class=\"note\">A session lasts from its start to its end as the workout records them "
      + "(one still in progress has no duration yet). A rest runs from the set done before to "
      + "the start of the next; a set's start is known when it was recorded (by "
      + "<code>journal run</code> or <code>done --started</code>), never guessed, and sets "
      + "filled in from the plan have none. Density is volume per minute of the session.</p>\n"
    if !summary.weeks.isEmpty {
      out += "<figure id=\"weekly-time\">\n<figcaption>Time trained per week</figcaption>\n"
      out += ReportSVG.bars(
        title: "Time trained per week",
        values: summary.weeks.map { $0.duration / 60 },
        labels: summary.weeks.map { "week of \($0.day)" },
        format: { Self.duration($0 * 60) }
      )
      table(
        caption: "Time trained per week",
        headers: ["Week of", "Workouts", "Time"],
        numeric: [1, 2],
        rows: summary.weeks.map {
          [h($0.day.description), "\($0.workouts)", h(Self.duration($0.duration))]
        }
      )
      out += "</figure>\n"
    }
    let sessions = summary.sessions.suffix(Self.sessionLimit).reversed()
    if sessions.count < summary.workouts {
      out +=
        "<p class=\"note\">The newest \(sessions.count) of \(summary.workouts) sessions are "
        + "listed; the weeks above hold them all.</p>\n"
    }
    plainTable(
      caption: "Sessions, newest first",
      headers: ["Start", "Workout", "Duration", "Sets", "Volume", "Density", "Median rest"],
      numeric: [2, 3, 4, 5, 6],
      rows: sessions.map {
        [
          h(dates.minute($0.start, in: $0.timeZone)), h($0.splitName ?? "Workout"),
          h($0.duration.map(Self.duration) ?? "—"), "\($0.sets)", h(DisplayUnit.weight($0.volume)),
          h($0.timing.density.map { DisplayUnit.weight(ChartText.rounded($0)) + "/min" } ?? "—"),
          h(TrainingSummary.median($0.rests).map(Self.clock) ?? "—"),
        ]
      },
      rowIDs: sessions.map { "session-\(h($0.workoutID))" }
    )
    out += "</section>\n"
  }

  /// `12 min · rests 1:30 2:05`: an exercise's duration and the known rests before its sets;
  /// `—` when nothing is known.
  static func time(of timing: WorkoutTiming.ExerciseTiming?) -> String {
    guard let timing else { return "—" }
    var parts: [String] = []
    if let duration = timing.duration {
      parts.append(duration < 60 ? clock(duration) : Self.duration(duration))
    }
    let rests = timing.sets.compactMap(\.restBefore).map(clock)
    if !rests.isEmpty { parts.append("rests " + rests.joined(separator: " ")) }
    return parts.isEmpty
      ? "—"
      : "<span class=\"set\">" + parts.joined(separator: "</span> · <span class=\"set\">")
        + "</span>"
  }
}
