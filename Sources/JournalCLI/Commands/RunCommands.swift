import Foundation
import JournalProjections

/// `run`: the app's run flow in the terminal.
enum RunCommands {
  static let all: [Command] = [run]

  /// The rest when neither the workout, `--rest` nor `$WORKOUT_REST` gives one.
  static let defaultRest = 90

  static let run = Command(
    ["run"],
    abstract: "Run a workout full-screen: Ready?, work, rest, One More, Finish",
    arguments: "[SPLIT|WORKOUT]",
    discussion: """
      With no argument, resumes the workout in progress; with a split, starts one;
      with a workout (id prefix), resumes it. Every action is the command it
      stands for ('done --keep-open --started', 'more', 'finish', 'skip', 'reset',
      'adjust', 'undo -w', 'end'), appended durably before the screen moves on.
      Keys: Enter confirm, m One More, d Done, s skip, r reset, u undo, q leave
      (the workout stays in progress), e end; +/- reps (or seconds), [/] weight,
      x a longer rest, a save a correction of the last set, j/k or arrows move.
      The rest is the workout's, else --rest, else $WORKOUT_REST, else 90 s.
      Needs a terminal on standard input and output (exit 64 without one).
      See docs/RunFlow.md.
      """,
    options: [
      OptionSpec(
        "rest",
        value: "S",
        help: "Rest seconds when the workout has none (default $WORKOUT_REST, else 90)"
      ),
      OptionSpec(
        "finish-countdown",
        value: "S",
        help: "Seconds before Done completes an exercise by itself; 0 turns it off (default 10)"
      ),
      OptionSpec("lead-in", value: "S", help: "Seconds of the Ready? lead-in (default 3)"),
      OptionSpec(
        "time-zone",
        value: "TZ",
        help: "IANA time zone of a workout it starts (default: this machine's)"
      ),
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 1)
    // Refused before anything is read or appended: the flow needs keys and a screen.
    guard Terminal.isInteractive else {
      throw UsageError(
        "'journal run' needs a terminal on standard input and output",
        hint: "the same actions as commands: 'journal done', 'journal more', 'journal finish'…"
      )
    }
    let settings = try settings(invocation)
    let reference = invocation.arguments.positionals.first
    let session = try JournalSession.naming(
      workout: reference,
      invocation,
      scope: .workout(reference)
    )
    let workoutID = try workoutToRun(reference, session: session, invocation: invocation)
    let runner = JournalRunner(
      journal: session.journal,
      device: session.device,
      workoutID: workoutID,
      stampsActionTimes: invocation.environment["WORKOUT_NOW"] != nil
    )
    let workout = try runner.workout()
    var flow = RunFlow(workout: workout, settings: settings)
    // The command's clock moves on from the time it read once, by the time that passes; for
    // a workout it has just started, from that start, which the records' clock stamps a
    // little later: a set started at once is not refused as starting before its workout.
    let origin = max(session.now, workout.document.start)
    let began = ContinuousClock.now
    let now = { origin + (ContinuousClock.now - began).timeInterval }
    let terminal = try Terminal()
    defer { terminal.restore() }
    let color = invocation.console.usesColor
    try RunLoop.run(&flow, journal: runner, clock: now) { flow, time in
      let size = terminal.size
      let lines = RunScreen.lines(
        flow,
        at: time,
        width: size.width,
        height: size.height,
        color: color
      )
      terminal.draw(lines, bells: flow.takeBells())
    } nextKey: { timeout in
      terminal.nextKey(timeout: timeout)
    }
    terminal.restore()
    let d = flow.workout.document
    invocation.console.print(
      "left '\(d.splitName ?? "workout")' (workout \(d.id)): \(d.status.describedForPeople)"
    )
    return ExitStatus.success
  }

  /// The flow's settings from the options and the environment.
  static func settings(_ invocation: Invocation) throws -> RunFlow.Settings {
    func seconds(_ name: String, _ text: String?) throws -> Int? {
      guard let text else { return nil }
      guard let value = Int(text), (0...3600).contains(value) else {
        throw UsageError("\(name) '\(text)' is not a number of seconds from 0 to 3600")
      }
      return value
    }
    let rest =
      try seconds("--rest", invocation.string("rest"))
      ?? seconds("WORKOUT_REST", invocation.environment["WORKOUT_REST"]) ?? defaultRest
    var settings = RunFlow.Settings(rest: rest)
    if let lead = try seconds("--lead-in", invocation.string("lead-in")) { settings.leadIn = lead }
    if let countdown = try seconds("--finish-countdown", invocation.string("finish-countdown")) {
      settings.finishCountdown = countdown
    }
    return settings
  }

  /// The workout to run: one started from the split named, the one named, or the one in
  /// progress.
  static func workoutToRun(
    _ reference: String?,
    session: JournalSession,
    invocation: Invocation
  ) throws -> String {
    let state = session.state()
    guard let reference else {
      guard let open = state.openWorkouts.max(by: { $0.document.start < $1.document.start }) else {
        throw CommandError(
          "no workout in progress",
          hint: "'journal run SPLIT' starts one"
        )
      }
      return open.document.id
    }
    if state.liveSplits.contains(where: { $0.document.id == reference })
      || (try? state.splitName(reference)) != nil, state.workouts[reference.uppercased()] == nil
    {
      let zone = invocation.string("time-zone") ?? TimeZone.current.identifier
      let events = try session.execute(
        .startWorkout(split: reference, timeZone: zone),
        console: invocation.console
      )
      guard let id = events.first?.streamID else { throw WorkoutOutput.notReadBack(events) }
      return id
    }
    return try state.workout(reference).document.id
  }
}

/// The loop of `journal run`: draw, wait for a key or the next second, act, until the flow
/// is left.
enum RunLoop {
  /// Runs `flow` until it is left or standard input closes.
  ///
  /// - Parameters:
  ///   - flow: the flow, left where the loop ends.
  ///   - journal: where its actions go.
  ///   - clock: the time now; tests pass a virtual clock.
  ///   - draw: draws the flow at a time (and takes its bells).
  ///   - nextKey: waits up to the seconds given for a key (tests pass a script).
  /// - Throws: errors of the store; a refused action is not thrown (the flow shows it).
  static func run(
    _ flow: inout RunFlow,
    journal: some RunJournal,
    clock: () -> Date,
    draw: (inout RunFlow, Date) -> Void,
    nextKey: (TimeInterval) -> TerminalEvent?
  ) throws {
    while flow.page != .left {
      draw(&flow, clock())
      // Wake at the next tenth of a second: timers show whole seconds and end on time.
      switch nextKey(0.1) {
      case .key(let key): try flow.handle(key, at: clock(), journal: journal)
      case .closed: return
      case .resized, nil: flow.tick(at: clock(), journal: journal)
      }
    }
  }
}

extension Duration {
  /// The duration in seconds.
  var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
