import Foundation
import JournalProjections

/// The journal as the run flow sees it: every action is a library command, validated and
/// appended durably before it returns, or a refusal that appends nothing.
protocol RunJournal {
  /// Validates and appends `command` as done at `now`.
  ///
  /// - Returns: the workout after it.
  /// - Throws: ``CommandError`` when refused (nothing appended); store errors.
  func execute(_ command: JournalCommand, at now: Date) throws -> WorkoutState

  /// Undoes this device's last action in the workout (the journal's undo).
  ///
  /// - Returns: the workout after it.
  func undo(at now: Date) throws -> WorkoutState
}

/// A key the flow understands.
enum RunKey: Hashable, Sendable {
  case enter
  case up
  case down
  case character(Character)
}

/// The run flow of `journal run` as a state machine: pages, timers and keys in, library
/// commands out.
///
/// It never reads the clock and never touches the terminal: the caller passes the time with
/// every key and tick, and draws ``RunScreen`` from it. Every action goes through
/// ``RunJournal``; the page moves on only when the journal has accepted it, and a refusal
/// stays on the page with its message. The rules are in docs/RunFlow.md.
struct RunFlow {
  /// Where the flow is.
  enum Page: Hashable {
    /// The exercises, with status and progress; Enter takes the one under the cursor.
    case list
    /// The lead-in before an exercise's first set, until the time given.
    case ready(until: Date)
    /// A set in progress since the time given: the time the set is recorded as started.
    case work(since: Date)
    /// Rest until the time given, then the next set of the exercise, or the next exercise.
    case rest(until: Date, then: AfterRest)
    /// After the last planned set: One More or Done; Done by itself at the time given.
    case finish(doneAt: Date?)
    /// Every exercise resolved, or the workout ended.
    case complete
    /// Left with `q`: the loop ends; the workout stays as it is.
    case left
  }

  /// What follows a rest.
  enum AfterRest: Hashable {
    case nextSet
    case nextExercise
  }

  /// The timings the flow runs with.
  struct Settings: Hashable {
    /// Seconds of rest between sets when the workout has none of its own.
    var rest: Int
    /// Seconds of the Ready? lead-in; 0 goes straight to work.
    var leadIn = 3
    /// Seconds before Done completes the exercise by itself; 0 turns it off.
    var finishCountdown = 10
    /// Seconds a rest is extended by (`x`).
    var restExtension = 30
  }

  private(set) var workout: WorkoutState
  let settings: Settings
  private(set) var page: Page = .list
  /// The log the flow is on.
  private(set) var current: String?
  /// The row under the cursor on the list.
  private(set) var cursor = 0
  /// The values the next set will be recorded with, from the plan, changed by `+ - [ ]`.
  private(set) var draft = SetEntry(completedAt: .distantPast)
  /// On a rest page, a correction of the last set being made; nil when none.
  private(set) var correction: SetEntry?
  /// What the last action said, or why it was refused.
  private(set) var message: String?
  /// Whether the last message is a refusal.
  private(set) var messageIsError = false
  /// Bells due (the end of a timed set, the last seconds of a rest): the screen rings them.
  private(set) var bells = 0
  /// The last whole second of a rest or timed set a bell was rung for.
  private var rungAt: Date?
  /// Where each of the flow's own actions was taken from, the latest last: undo goes back.
  private var returnPoints: [ReturnPoint] = []

  /// The page an action was taken from, and what the action changed.
  private struct ReturnPoint {
    var page: Page
    var current: String?
    var cursor: Int
    var draft: SetEntry
    /// The exercises whose logs the action changed: an undo that changes others took back
    /// something else (an action of another session of the device).
    var changed: Set<String>
  }

  /// A flow on `workout`, on its list, the cursor on the next open exercise.
  init(workout: WorkoutState, settings: Settings) {
    self.workout = workout
    self.settings = settings
    cursor = nextOpenIndex() ?? 0
    if allResolved { page = .complete }
  }

  // MARK: - Reading

  var logs: [WorkoutLogDocument] { workout.document.logs }

  /// The log the flow is on.
  var currentLog: WorkoutLogDocument? { current.flatMap { workout.log($0) } }

  /// The rest between sets: the workout's snapshot of its split's, else the settings'.
  var restSeconds: Int { workout.document.restSeconds ?? settings.rest }

  /// Whether the flow mode snapshot is on: after an exercise, rest, then the next by itself.
  var flowMode: Bool { workout.document.autoAdvance ?? false }

  var allResolved: Bool { !logs.isEmpty && logs.allSatisfy { $0.status.isResolved } }

  /// The next open exercise at or after `index` (wrapping), else nil.
  func nextOpenIndex(from index: Int = 0) -> Int? {
    guard !logs.isEmpty else { return nil }
    for step in 0..<logs.count {
      let i = (index + step) % logs.count
      if !logs[i].status.isResolved { return i }
    }
    return nil
  }

  /// The seconds left until `deadline`, rounded up.
  static func remaining(_ deadline: Date, at now: Date) -> Int {
    max(0, Int(deadline.timeIntervalSince(now).rounded(.up)))
  }

  /// Takes the bells due, for the screen to ring.
  mutating func takeBells() -> Int {
    defer { bells = 0 }
    return bells
  }

  // MARK: - Keys

  /// Acts on `key` pressed at `now`.
  ///
  /// - Throws: errors of the store (a refusal is not thrown: it becomes the message).
  mutating func handle(_ key: RunKey, at now: Date, journal: some RunJournal) throws {
    tick(at: now, journal: journal)
    if case .left = page { return }
    switch key {
    case .up: moveCursor(-1)
    case .down: moveCursor(1)
    case .enter: try confirm(at: now, journal: journal)
    case .character(let c):
      switch c {
      case "k": moveCursor(-1)
      case "j": moveCursor(1)
      case "q": page = .left
      case "e":
        try act(.endWorkout(workout: workout.document.id), at: now, journal) { $0.page = .complete }
      case "u": try undo(at: now, journal: journal)
      case "s": try skip(at: now, journal: journal)
      case "r": try reset(at: now, journal: journal)
      case "m": try oneMore(at: now, journal: journal)
      case "d": try done(at: now, journal: journal)
      case "x": extendRest()
      case "a": try applyCorrection(at: now, journal: journal)
      case "+", "=": change(reps: 1, seconds: 5)
      case "-", "_": change(reps: -1, seconds: -5)
      case "]": change(weight: 1)
      case "[": change(weight: -1)
      default: break
      }
    }
  }

  /// Moves the timers on to `now`: the lead-in ends, a rest ends, Done completes by itself.
  mutating func tick(at now: Date, journal: some RunJournal) {
    switch page {
    case .ready(let until) where now >= until:
      page = .work(since: until)
    case .work(let since):
      guard let log = currentLog, log.loadType == .duration else { return }
      let end = since + TimeInterval(draft.seconds ?? log.durationSeconds)
      if now >= end, rungAt != end {
        rungAt = end
        bells += 1
      }
    case .rest(let until, let then):
      if now >= until {
        afterRest(then, at: until)
        return
      }
      // A bell each second of the last three.
      let left = Self.remaining(until, at: now)
      let mark = until - TimeInterval(left)
      if left <= 3, rungAt != mark {
        rungAt = mark
        bells += 1
      }
    case .finish(let doneAt?) where now >= doneAt:
      // Done by itself: the same command as `d`; a refusal stays on the page, without a timer.
      do {
        try complete(at: doneAt, journal: journal)
      } catch {
        page = .finish(doneAt: nil)
      }
    default:
      break
    }
  }

  // MARK: - Actions

  private mutating func confirm(at now: Date, journal: some RunJournal) throws {
    switch page {
    case .list:
      guard logs.indices.contains(cursor) else { return }
      let log = logs[cursor]
      guard !log.status.isResolved else {
        say(
          "'\(log.exerciseName)' is \(log.status.describedForPeople): r starts it over",
          error: true
        )
        return
      }
      begin(log, at: now)
    case .ready:
      page = .work(since: now)
    case .work(let since):
      guard let log = currentLog else { return }
      let command = JournalCommand.completeSet(
        workout: workout.document.id,
        exercise: log.id,
        actuals(of: log),
        keepOpen: true,
        startedAt: since
      )
      try act(command, at: now, journal) { flow in
        guard let log = flow.currentLog else { return }
        let done = log.setEntries?.count ?? 0
        flow.say("set \(done) of '\(log.exerciseName)' recorded")
        if done >= log.sets {
          flow.page = flow.finishPage(at: now)
        } else {
          flow.page = .rest(until: now + TimeInterval(flow.restSeconds), then: .nextSet)
        }
      }
    case .rest(let until, let then):
      if correction != nil {
        try applyCorrection(at: now, journal: journal)
      } else {
        afterRest(then, at: min(now, until))
      }
    case .finish:
      try complete(at: now, journal: journal)
    case .complete:
      page = .left
    case .left:
      break
    }
  }

  /// Done: the exercise is completed (sets not done are filled in from the plan).
  private mutating func done(at now: Date, journal: some RunJournal) throws {
    switch page {
    case .work, .rest, .finish, .ready: try complete(at: now, journal: journal)
    case .list:
      guard logs.indices.contains(cursor) else { return }
      current = logs[cursor].id
      try complete(at: now, journal: journal)
    case .complete, .left: break
    }
  }

  private mutating func complete(at now: Date, journal: some RunJournal) throws {
    guard let log = currentLog else { return }
    try act(.completeLog(workout: workout.document.id, exercise: log.id), at: now, journal) {
      $0.say("'\(log.exerciseName)' completed")
      $0.afterExercise(at: now)
    }
  }

  private mutating func oneMore(at now: Date, journal: some RunJournal) throws {
    let target: WorkoutLogDocument?
    if case .list = page {
      target = logs.indices.contains(cursor) ? logs[cursor] : nil
    } else {
      target = currentLog
    }
    guard let log = target, page != .complete else { return }
    try act(.addSet(workout: workout.document.id, exercise: log.id), at: now, journal) { flow in
      let sets = flow.workout.log(log.id)?.sets ?? 0
      flow.say("One More: '\(log.exerciseName)' has \(sets) sets")
      if case .finish = flow.page {
        flow.page = .rest(until: now + TimeInterval(flow.restSeconds), then: .nextSet)
      }
    }
  }

  private mutating func skip(at now: Date, journal: some RunJournal) throws {
    guard let log = targetLog, page != .complete else { return }
    try act(.skipLog(workout: workout.document.id, exercise: log.id), at: now, journal) {
      $0.say("skipped '\(log.exerciseName)'")
      if case .list = $0.page {
        $0.cursor = $0.nextOpenIndex(from: $0.cursor) ?? $0.cursor
        if $0.allResolved { $0.page = .complete }
      } else {
        $0.afterExercise(at: now)
      }
    }
  }

  private mutating func reset(at now: Date, journal: some RunJournal) throws {
    guard let log = targetLog, page != .complete else { return }
    try act(.resetLog(workout: workout.document.id, exercise: log.id), at: now, journal) {
      $0.say("reset '\(log.exerciseName)': undo brings its sets back")
      if case .list = $0.page { return }
      $0.begin($0.workout.log(log.id) ?? log, at: now)
    }
  }

  /// Undoes this device's last action in the workout, and goes back to its page.
  ///
  /// The page is the one the action was taken from: a set undone is on its work page again,
  /// with its start. An action the flow did not take here (one of an earlier session, or
  /// typed) leaves the flow on the list, on the exercise the undo changed.
  private mutating func undo(at now: Date, journal: some RunJournal) throws {
    guard page != .left else { return }
    let before = workout
    do {
      workout = try journal.undo(at: now)
    } catch let error as CommandError {
      say(error.message, error: true)
      return
    }
    say("undone")
    correction = nil
    let changed = Self.changedLogs(from: before, to: workout)
    if let point = returnPoints.popLast(), point.changed == changed {
      current = point.current
      cursor = point.cursor
      draft = point.draft
      switch point.page {
      // The timers of a lead-in and of Finish start again: they would otherwise end at once.
      case .ready:
        page = .ready(until: now + TimeInterval(settings.leadIn))
      case .finish:
        page = finishPage(at: now)
      default:
        page = point.page
      }
      return
    }
    returnPoints.removeAll()
    page = allResolved ? .complete : .list
    let exercise = changed.count == 1 ? changed.first : current
    if let exercise, let index = logs.firstIndex(where: { $0.id == exercise }) { cursor = index }
  }

  /// The ids of the logs that differ between two states of the workout.
  private static func changedLogs(from before: WorkoutState, to after: WorkoutState) -> Set<String>
  {
    let old = Dictionary(before.document.logs.map { ($0.id, $0) }) { first, _ in first }
    let new = Dictionary(after.document.logs.map { ($0.id, $0) }) { first, _ in first }
    return Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }
  }

  private mutating func applyCorrection(at now: Date, journal: some RunJournal) throws {
    guard case .rest = page, let correction, let log = currentLog,
      let last = log.setEntries?.last
    else { return }
    let actuals = SetActuals(
      reps: correction.reps != last.reps ? correction.reps : nil,
      weight: correction.weight != last.weight ? correction.weight : nil,
      seconds: correction.seconds != last.seconds ? correction.seconds : nil
    )
    let command = JournalCommand.adjustSet(
      workout: workout.document.id,
      exercise: log.id,
      set: nil,
      actuals
    )
    try act(command, at: now, journal) {
      $0.correction = nil
      $0.say("set \(log.setEntries?.count ?? 0) corrected")
    }
  }

  private mutating func extendRest() {
    guard case .rest(let until, let then) = page else { return }
    page = .rest(until: until + TimeInterval(settings.restExtension), then: then)
    rungAt = nil
  }

  // MARK: - Editing

  /// `+`/`-` change the reps (or a timed set's seconds), `]`/`[` the weight by its step: of
  /// the next set on the work page, of the last set on a rest page (a correction, saved
  /// with `a` or Enter).
  private mutating func change(reps: Int = 0, seconds: Int = 0, weight: Int = 0) {
    guard let log = currentLog else { return }
    var entry: SetEntry
    switch page {
    case .work, .ready: entry = draft
    case .rest: entry = correction ?? log.setEntries?.last ?? draft
    default: return
    }
    switch log.loadType {
    case .duration:
      if seconds != 0 { entry.seconds = max(0, (entry.seconds ?? 0) + seconds) }
    case .weight, .none:
      if reps != 0 { entry.reps = max(0, (entry.reps ?? 0) + reps) }
    }
    if weight != 0, log.loadType == .weight {
      entry.weight = max(0, (entry.weight ?? 0) + Double(weight) * Self.weightStep)
    }
    if case .rest = page { correction = entry } else { draft = entry }
  }

  /// The step `]` and `[` change a weight by.
  static let weightStep = 2.5

  /// The actuals of the next set: only what differs from the plan, as `journal done` takes it.
  private func actuals(of log: WorkoutLogDocument) -> SetActuals {
    let plan = log.planEntry(at: draft.completedAt)
    return SetActuals(
      reps: draft.reps != plan.reps ? draft.reps : nil,
      weight: draft.weight != plan.weight ? draft.weight : nil,
      seconds: draft.seconds != plan.seconds ? draft.seconds : nil
    )
  }

  // MARK: - Moving on

  /// The log a skip or reset acts on: the one under the cursor on the list, else the current.
  private var targetLog: WorkoutLogDocument? {
    if case .list = page { return logs.indices.contains(cursor) ? logs[cursor] : nil }
    return currentLog
  }

  private mutating func moveCursor(_ step: Int) {
    guard case .list = page, !logs.isEmpty else { return }
    cursor = (cursor + step + logs.count) % logs.count
  }

  /// Starts work on `log` where it stands: the lead-in before its next set, with a fresh
  /// draft from its plan; or Finish when every planned set is done (an exercise taken up
  /// again after its last set, as a workout resumed after a crash on its Finish page).
  private mutating func begin(_ log: WorkoutLogDocument, at now: Date) {
    current = log.id
    cursor = logs.firstIndex { $0.id == log.id } ?? cursor
    draft = log.planEntry(at: .distantPast)
    correction = nil
    if (log.setEntries?.count ?? 0) >= log.sets {
      page = finishPage(at: now)
      return
    }
    page =
      settings.leadIn > 0 ? .ready(until: now + TimeInterval(settings.leadIn)) : .work(since: now)
  }

  /// The Finish page reached at `now`, Done coming by itself after the countdown.
  private func finishPage(at now: Date) -> Page {
    let countdown = settings.finishCountdown
    return .finish(doneAt: countdown > 0 ? now + TimeInterval(countdown) : nil)
  }

  private mutating func afterRest(_ then: AfterRest, at time: Date) {
    correction = nil
    switch then {
    case .nextSet:
      if let log = currentLog { draft = log.planEntry(at: .distantPast) }
      page = .work(since: time)
    case .nextExercise:
      guard let log = currentLog else {
        page = .list
        return
      }
      begin(log, at: time)
    }
  }

  /// After an exercise is resolved: the workout is complete, or in flow mode a rest before
  /// the next open exercise, else the list.
  private mutating func afterExercise(at now: Date) {
    correction = nil
    if allResolved {
      page = .complete
      return
    }
    let from = logs.firstIndex { $0.id == current }.map { $0 + 1 } ?? 0
    let next = nextOpenIndex(from: from) ?? 0
    cursor = next
    if flowMode {
      current = logs[next].id
      page = .rest(until: now + TimeInterval(restSeconds), then: .nextExercise)
    } else {
      page = .list
    }
  }

  /// Runs `command`; on success takes the workout it left and applies `then`; on a refusal
  /// shows why and stays.
  private mutating func act(
    _ command: JournalCommand,
    at now: Date,
    _ journal: some RunJournal,
    then: (inout RunFlow) -> Void
  ) throws {
    let before = workout
    do {
      workout = try journal.execute(command, at: now)
    } catch let error as CommandError {
      say(error.message + (error.hint.map { " (\($0))" } ?? ""), error: true)
      return
    }
    returnPoints.append(
      ReturnPoint(
        page: page,
        current: current,
        cursor: cursor,
        draft: draft,
        changed: Self.changedLogs(from: before, to: workout)
      )
    )
    then(&self)
  }

  private mutating func say(_ text: String, error: Bool = false) {
    message = text
    messageIsError = error
  }
}
