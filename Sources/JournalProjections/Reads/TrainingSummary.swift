import Foundation

/// Training over a range, by session, day and week: the overview a report or a calendar
/// shows.
///
/// Everything is grouped from an ``Audit`` (its counted rows, so reverted sets never count,
/// and sets filled in from the plan do, as in the audit's totals) and the workouts of the
/// state the audit was made from; durations and rests are each workout's
/// ``WorkoutTiming``. Days are read in each workout's own time zone (``CivilDay``), so the
/// summary never depends on the machine.
///
/// ```swift
/// let state = journal.state()
/// let audit = Audit(state: state, history: journal.history)
/// let summary = TrainingSummary(audit: audit, state: state)
/// print(summary.workouts, summary.volume, summary.weeks.count)
/// ```
public struct TrainingSummary: Codable, Sendable, Hashable {
  /// One workout with at least one set in the audit.
  public struct Session: Codable, Sendable, Hashable {
    public var workoutID: String
    public var splitName: String?
    /// When it started; ``timeZone`` reads it.
    public var start: Date
    public var timeZone: String
    public var sets: Int
    /// Σ reps × weight of its weighted sets in the audit.
    public var volume: Double
    /// Its durations and rests.
    public var timing: WorkoutTiming
    /// Its duration (``WorkoutTiming/duration``), when it has ended.
    public var duration: TimeInterval? { timing.duration }
    /// The known rests before its sets, in the order its exercises and sets are listed.
    public var rests: [TimeInterval] {
      timing.exercises.flatMap { $0.sets.compactMap(\.restBefore) }
    }
  }

  /// The sessions, sets and volume of one day or one week.
  public struct Period: Codable, Sendable, Hashable {
    /// The day, or the Monday that starts the week.
    public var day: CivilDay
    public var workouts: Int
    public var sets: Int
    public var volume: Double
    /// Σ ``Session/duration`` of the sessions that have ended.
    public var duration: TimeInterval

    mutating func add(_ other: Period) {
      workouts += other.workouts
      sets += other.sets
      volume += other.volume
      duration += other.duration
    }
  }

  /// The sessions, oldest first (by start, then id).
  ///
  /// After ``merge(_:keepingNewest:)`` with a limit, the newest that many; the totals below
  /// count every session.
  public var sessions: [Session] = []
  /// Days with at least one session, oldest first; a session counts on the day it started.
  public var days: [Period] = []
  /// Weeks (Monday to Sunday) with at least one session, oldest first.
  public var weeks: [Period] = []

  /// How many sessions.
  public private(set) var workouts = 0
  /// Σ sets of the sessions.
  public private(set) var sets = 0
  /// Σ volume of the sessions.
  public private(set) var volume: Double = 0
  /// Σ durations of the sessions that have ended.
  public private(set) var duration: TimeInterval = 0
  /// How many sessions have a duration.
  public private(set) var timedSessions = 0
  /// How many sets of the sessions have a known rest before them.
  public var restCount: Int { rests.values.reduce(0, +) }
  /// Every known rest before a set, over all sessions, with how many sets had it: a tally,
  /// so that a summary of years of training stays as small as the rests are varied.
  private var rests: [TimeInterval: Int] = [:]
  /// ``duration`` over ``timedSessions``; nil without one.
  public var averageDuration: TimeInterval? {
    timedSessions > 0 ? duration / Double(timedSessions) : nil
  }
  /// The median of the known rests (the mean of the middle two for an even count); nil
  /// without one.
  public var medianRest: TimeInterval? { Self.median(of: rests) }

  /// No session.
  public init() {}

  /// The median of `values`; nil when there are none.
  public static func median(_ values: [TimeInterval]) -> TimeInterval? {
    median(of: values.reduce(into: [:]) { $0[$1, default: 0] += 1 })
  }

  /// The median of the values `tally` counts (the mean of the middle two for an even
  /// count); nil when it counts none.
  static func median(of tally: [TimeInterval: Int]) -> TimeInterval? {
    let count = tally.values.reduce(0, +)
    guard count > 0 else { return nil }
    // The values at positions count/2 and (count-1)/2 from 0, in ascending order.
    var lower: TimeInterval?
    var seen = 0
    for (value, times) in tally.sorted(by: { $0.key < $1.key }) {
      seen += times
      if lower == nil, seen > (count - 1) / 2 { lower = value }
      if seen > count / 2 { return ((lower ?? value) + value) / 2 }
    }
    return lower
  }

  /// The summary of `audit`, made from `state`.
  ///
  /// A session's sets and volume are the audit's ``Audit/workoutTotals``; its start, time
  /// zone and timing are its workout's in `state`.
  ///
  /// - Complexity: O(n) in the audit's rows and the state's workouts.
  public init(audit: Audit, state: JournalState) {
    var sessions: [Session] = []
    for totals in audit.workoutTotals {
      guard let workout = state.workouts[totals.key], workout.deletedAt == nil else { continue }
      sessions.append(
        Session(
          workoutID: totals.key,
          splitName: workout.document.splitName,
          start: workout.document.start,
          timeZone: workout.timeZone.identifier,
          sets: totals.sets,
          volume: totals.volume,
          timing: WorkoutTiming(of: workout)
        )
      )
    }
    sessions.sort { ($0.start, $0.workoutID) < ($1.start, $1.workoutID) }
    self.sessions = sessions
    days = Self.periods(sessions) { CivilDay($0.start, timeZone: $0.timeZone) }
    weeks = Self.periods(sessions) { CivilDay($0.start, timeZone: $0.timeZone).weekStart }
    for session in sessions {
      workouts += 1
      sets += session.sets
      volume += session.volume
      if let ended = session.duration {
        duration += ended
        timedSessions += 1
      }
      for rest in session.rests { rests[rest, default: 0] += 1 }
    }
  }

  /// Adds the sessions of `other`, a summary of other workouts over the same range, keeping
  /// only the newest `limit` sessions in ``sessions`` (all when nil); days, weeks and totals
  /// count them all.
  ///
  /// Summaries of workouts taken one at a time, merged, equal the summary of them all taken
  /// together, apart from the sessions left out.
  public mutating func merge(_ other: TrainingSummary, keepingNewest limit: Int? = nil) {
    list(other.sessions, keepingNewest: limit)
    Self.merge(other.days, into: &days)
    Self.merge(other.weeks, into: &weeks)
    workouts += other.workouts
    sets += other.sets
    volume += other.volume
    duration += other.duration
    timedSessions += other.timedSessions
    rests.merge(other.rests, uniquingKeysWith: +)
  }

  /// Adds `more` to ``sessions``, keeping the newest `limit` (all when nil); the totals,
  /// days and weeks are left as they are.
  mutating func list(_ more: [Session], keepingNewest limit: Int?) {
    sessions += more
    sessions.sort { ($0.start, $0.workoutID) < ($1.start, $1.workoutID) }
    if let limit, sessions.count > limit { sessions.removeFirst(sessions.count - limit) }
  }

  /// Adds the periods of `b` to those of `merged`, each oldest first, by day.
  ///
  /// - Complexity: O(1) a period of `b` that falls at or near the end of `merged`, as each
  ///   workout's does when workouts are merged in the order they started.
  static func merge(_ b: [Period], into merged: inout [Period]) {
    for period in b {
      var index = merged.endIndex
      while index > 0, period.day < merged[index - 1].day { index -= 1 }
      if index > 0, merged[index - 1].day == period.day {
        merged[index - 1].add(period)
      } else {
        merged.insert(period, at: index)
      }
    }
  }

  /// The sessions grouped by `day`, oldest first.
  static func periods(_ sessions: [Session], by day: (Session) -> CivilDay) -> [Period] {
    var periods: [CivilDay: Period] = [:]
    for session in sessions {
      let key = day(session)
      var period =
        periods[key] ?? Period(day: key, workouts: 0, sets: 0, volume: 0, duration: 0)
      period.workouts += 1
      period.sets += session.sets
      period.volume += session.volume
      period.duration += session.duration ?? 0
      periods[key] = period
    }
    return periods.values.sorted { $0.day < $1.day }
  }
}
