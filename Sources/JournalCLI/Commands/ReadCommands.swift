import Foundation
import JournalProjections

/// `status` and `today`: reading the present.
enum ReadCommands {
  static let all: [Command] = [status, today]

  static let status = Command(
    ["status"],
    abstract: "Show a workout: each exercise, its plan and what was done",
    arguments: "[WORKOUT]",
    options: [OptionSpec("as-of", value: "EVENT|TIME", help: "Show it as it was then")]
  ) { invocation in
    let session = try JournalSession.naming(
      workout: invocation.arguments.positionals.first,
      invocation,
      scope: .workout(invocation.arguments.positionals.first)
    )
    try invocation.expectPositionals(atMost: 1)
    let point = try invocation.string("as-of").map {
      try Points.parse($0, in: session.journal, now: session.now)
    }
    let state = session.journal.state(upTo: point)
    let reference = invocation.arguments.positionals.first
    let workout: WorkoutState
    do {
      workout = try state.workout(reference)
    } catch {
      guard reference == nil, let latest = state.latestLiveWorkout else { throw error }
      workout = latest
    }
    let timing = WorkoutTiming(of: workout)
    if invocation.wantsJSON {
      let document = workout.renderedDocument(now: state.now ?? session.now)
      let data = try DocumentCoder.encodeWithFoundation(
        StatusJSON(document: document, timing: timing)
      )
      invocation.console.print(String(decoding: data, as: UTF8.self))
      return ExitStatus.success
    }
    let c = invocation.console
    let d = workout.document
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = workout.timeZone
    format.dateFormat = "EEE d MMM yyyy HH:mm"
    c.print(
      c.styled(d.splitName ?? "Workout", .bold) + "  " + format.string(from: d.start) + "  "
        + c.styled(d.status.describedForPeople, color(d.status)) + c.styled("  \(d.id)", .dim)
    )
    let width = max(12, d.logs.map(\.exerciseName.count).max() ?? 0)
    for (log, exercise) in zip(d.logs, timing.exercises) {
      let name = log.exerciseName.padding(toLength: width, withPad: " ", startingAt: 0)
      let done = "\(log.setEntries?.count ?? 0)/\(log.sets)"
      let status = c.styled(
        log.status.describedForPeople.padding(toLength: 11, withPad: " ", startingAt: 0),
        color(log.status)
      )
      c.print(
        "  \(name)  \(status)  \(done.padding(toLength: 5, withPad: " ", startingAt: 0))  plan \(WorkoutOutput.plan(log))  ·  \(WorkoutOutput.entries(log))"
      )
      if let line = timingLine(exercise) {
        c.print(c.styled(String(repeating: " ", count: width + 4) + line, .dim))
      }
    }
    c.print(
      "  volume \(DisplayUnit.weight(d.totalVolume))"
        + (d.end.map { "  ended " + format.string(from: $0) } ?? "")
    )
    c.print(
      "  duration "
        + (timing.duration == nil ? "? (in progress)" : TimingText.clock(timing.duration))
        + "  density \(TimingText.density(timing.density))"
    )
    return ExitStatus.success
  }

  /// `work 0:40 0:38 · rest - 1:30 · 4:12 · 30/min`, or a note that no set start is known;
  /// nil for an exercise with no performed set.
  static func timingLine(_ exercise: WorkoutTiming.ExerciseTiming) -> String? {
    let performed = exercise.sets.filter { !$0.isFilledFromPlan }
    guard !performed.isEmpty else { return nil }
    guard performed.contains(where: { $0.startedAt != nil }) else {
      return "set starts not recorded: work and rest unknown"
    }
    return "work " + performed.map { TimingText.work($0) }.joined(separator: " ")
      + "  ·  rest " + performed.map { TimingText.rest($0) }.joined(separator: " ")
      + "  ·  \(TimingText.clock(exercise.duration))"
      + "  ·  \(TimingText.density(exercise.density))"
  }

  /// `status --json`: the app's document with one member more, `timing`, which the app's
  /// decoder ignores.
  struct StatusJSON: Encodable {
    let document: WorkoutDocument
    let timing: WorkoutTiming

    enum Key: String, CodingKey { case timing }

    func encode(to encoder: any Encoder) throws {
      try document.encode(to: encoder)
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(timing, forKey: .timing)
    }
  }

  static let today = Command(
    ["today"],
    abstract: "What was lifted today, the workout in progress, and the split that comes next",
    options: [
      OptionSpec("as-of", value: "TIME", help: "The day containing this time (default: now)"),
      OptionSpec(
        "time-zone",
        value: "TZ",
        help: "The zone the day is read in (default: this machine's)"
      ),
    ]
  ) { invocation in
    // The saved state names the workouts of the day; only those are read. `--as-of` names
    // the day here, not a point of history.
    _ = try JournalSession.journalURL(invocation)
    _ = try JournalSession.device(invocation)
    try invocation.expectPositionals(atMost: 0)
    let now = try invocation.now()
    let moment = try invocation.string("as-of").map { try TimeParser.parse($0, now: now) } ?? now
    let zoneName = invocation.string("time-zone")
    guard let zone = zoneName.map({ TimeZone(identifier: $0) }) ?? TimeZone.current else {
      throw UsageError("unknown time zone '\(zoneName ?? "")'")
    }
    let session = try JournalSession(
      invocation,
      scope: TodayProjection.scope(at: moment, timeZone: zone),
      asOfNamesAPoint: false
    )
    let snapshot = try session.journal.today(at: moment, timeZone: zone)
    if invocation.wantsJSON {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      encoder.dateEncodingStrategy = .iso8601
      invocation.console.print(String(decoding: try encoder.encode(snapshot), as: UTF8.self))
      return ExitStatus.success
    }
    let c = invocation.console
    c.print(c.styled(snapshot.day, .bold) + " (\(snapshot.timeZone))")
    c.print(
      "  sets \(snapshot.setsDone) · volume \(DisplayUnit.weight(snapshot.volume)) · workouts \(snapshot.workouts.count)"
    )
    for workout in snapshot.workouts {
      c.print(
        "  - \(workout.splitName ?? "workout") \(workout.status.describedForPeople): \(workout.setsDone) sets"
      )
    }
    if let open = snapshot.inProgress {
      c.print("  in progress: \(open.splitName ?? "workout") (\(open.id))")
    }
    if let next = snapshot.nextSplit { c.print("  next: \(next.name)") }
    if let last = snapshot.lastTrained, last != snapshot.day {
      c.print(c.styled("  last trained \(last)", .dim))
    }
    return ExitStatus.success
  }

  static func color(_ status: WorkoutStatus) -> Console.Style {
    switch status {
    case .notStarted: .dim
    case .inProgress: .yellow
    case .completed: .green
    case .skipped: .magenta
    }
  }
}
