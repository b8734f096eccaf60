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
public struct TrainingSummary: Sendable, Hashable {
  /// One workout with at least one set in the audit.
  public struct Session: Sendable, Hashable {
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
  public struct Period: Sendable, Hashable {
    /// The day, or the Monday that starts the week.
    public var day: CivilDay
    public var workouts: Int
    public var sets: Int
    public var volume: Double
    /// Σ ``Session/duration`` of the sessions that have ended.
    public var duration: TimeInterval
  }

  /// Oldest first (by start, then id).
  public var sessions: [Session]
  /// Days with at least one session, oldest first; a session counts on the day it started.
  public var days: [Period]
  /// Weeks (Monday to Sunday) with at least one session, oldest first.
  public var weeks: [Period]

  /// How many sessions.
  public var workouts: Int { sessions.count }
  /// Σ sets of the sessions.
  public var sets: Int { sessions.reduce(0) { $0 + $1.sets } }
  /// Σ volume of the sessions.
  public var volume: Double { sessions.reduce(0) { $0 + $1.volume } }
  /// Σ durations of the sessions that have ended.
  public var duration: TimeInterval { sessions.reduce(0) { $0 + ($1.duration ?? 0) } }
  /// How many sessions have a duration.
  public var timedSessions: Int { sessions.count { $0.duration != nil } }
  /// ``duration`` over ``timedSessions``; nil without one.
  public var averageDuration: TimeInterval? {
    timedSessions > 0 ? duration / Double(timedSessions) : nil
  }
  /// Every known rest before a set, over all sessions.
  public var rests: [TimeInterval] { sessions.flatMap(\.rests) }
  /// The median of ``rests`` (the mean of the middle two for an even count); nil without one.
  public var medianRest: TimeInterval? { Self.median(rests) }

  /// The median of `values`; nil when there are none.
  public static func median(_ values: [TimeInterval]) -> TimeInterval? {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return nil }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
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
