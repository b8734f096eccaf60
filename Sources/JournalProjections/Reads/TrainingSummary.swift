import Foundation

/// Training over a range, by session, day and week: the overview a report or a calendar
/// shows.
///
/// Everything is grouped from an ``Audit`` (its counted rows, so reverted sets never count,
/// and sets filled in from the plan do, as in the audit's totals) and the workouts of the
/// state the audit was made from. Days are read in each workout's own time zone
/// (``CivilDay``), so the summary never depends on the machine.
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
    /// When it ended, if it has (a workout still in progress has not).
    public var end: Date?
    public var timeZone: String
    public var sets: Int
    /// Σ reps × weight of its weighted sets.
    public var volume: Double
    /// `end − start`, when it has ended.
    public var duration: TimeInterval? { end.map { $0.timeIntervalSince(start) } }
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

  /// The summary of `audit`, made from `state`.
  ///
  /// A session's sets and volume are the audit's ``Audit/workoutTotals``; its start, end and
  /// time zone are its workout's in `state`.
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
          end: workout.document.end,
          timeZone: workout.timeZone.identifier,
          sets: totals.sets,
          volume: totals.volume
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
