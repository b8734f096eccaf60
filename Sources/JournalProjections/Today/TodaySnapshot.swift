import Foundation

/// One local day at a glance, for a widget or `journal today`: what was
/// lifted that day, the workout in progress, and the split that comes next.
///
/// Day-scoped counters belong to `day`: asked for a later day they are zero,
/// never stale values from the day before and never "unknown". What is not a
/// measurement (the rotation, the open workout) carries over.
public struct TodaySnapshot: Sendable, Hashable, Codable {
  /// A workout in the snapshot.
  public struct Workout: Sendable, Hashable, Codable {
    public var id: String
    public var splitName: String?
    public var status: WorkoutStatus
    public var start: Date
    public var setsDone: Int
    public var volume: Double
  }

  /// A split, by id and name.
  public struct SplitReference: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
  }

  /// The local day, `YYYY-MM-DD`.
  public var day: String
  /// The time zone the day is read in.
  public var timeZone: String
  /// Sets whose entries were completed that day, in any workout.
  public var setsDone: Int
  /// Σ reps × weight of those sets (weighted exercises only).
  public var volume: Double
  /// Workouts started that day, oldest first.
  public var workouts: [Workout]
  /// The workout still open, whatever day it started.
  public var inProgress: Workout?
  /// The split after the one trained last, in the splits' order (wrapping).
  public var nextSplit: SplitReference?
  /// The local day of the most recent workout before or on `day`.
  public var lastTrained: String?
}

/// Builds ``TodaySnapshot`` from the folded state: a pure function of the
/// state, the moment asked about and a time zone.
public enum TodayProjection {
  /// The snapshot of the local day containing `moment` in `timeZone`.
  ///
  /// Workouts after `moment` are ignored, so a snapshot of a past day reads
  /// as it would have that evening (use a state folded as of that time for a
  /// fully historical view). The next split comes from the state's splits: a
  /// journal opened with ``scope(at:timeZone:)`` does not hold them, so ask
  /// it ``Journal/today(at:timeZone:)`` instead.
  public static func snapshot(
    of state: JournalState,
    at moment: Date,
    timeZone: TimeZone
  ) -> TodaySnapshot {
    snapshot(
      of: state,
      splits: state.liveSplits.map(\.document),
      at: moment,
      timeZone: timeZone
    )
  }

  /// The snapshot of the local day containing `moment` in `timeZone`, from the workouts of
  /// `state` and the live splits `splits`, in their order.
  static func snapshot(
    of state: JournalState,
    splits: [SplitDocument],
    at moment: Date,
    timeZone: TimeZone
  ) -> TodaySnapshot {
    let (calendar, dayStart, dayEnd) = day(at: moment, timeZone: timeZone)
    // One pass over the live workouts started by then, without copying and sorting them all:
    // the workouts of the day and those with a set done that day are sorted afterwards (in
    // `liveWorkouts` order, so that the volume is summed in the same order on every run), the
    // newest open and the newest trained are kept as the pass goes.
    let horizon = max(moment, dayEnd)
    var ofTheDay: [WorkoutState] = []
    var withSetsToday: [WorkoutState] = []
    var open: WorkoutState?
    var last: WorkoutState?
    for workout in state.workouts.values
    where workout.deletedAt == nil && workout.document.start <= horizon {
      let start = workout.document.start
      if start >= dayStart && start < dayEnd { ofTheDay.append(workout) }
      if !workout.document.status.isResolved,
        open.map({ JournalState.startsBefore($0, workout) }) ?? true
      {
        open = workout
      }
      if start < dayEnd, last.map({ JournalState.startsBefore($0, workout) }) ?? true {
        last = workout
      }
      let today = workout.document.logs.contains { log in
        log.setEntries?.contains { $0.completedAt >= dayStart && $0.completedAt < dayEnd }
          ?? false
      }
      if today { withSetsToday.append(workout) }
    }
    ofTheDay.sort(by: JournalState.startsBefore)
    withSetsToday.sort(by: JournalState.startsBefore)

    var setsDone = 0
    var volume = 0.0
    for workout in withSetsToday {
      for log in workout.document.logs {
        for entry in log.setEntries ?? []
        where entry.completedAt >= dayStart && entry.completedAt < dayEnd {
          setsDone += 1
          if log.loadType == .weight { volume += Double(entry.reps ?? 0) * (entry.weight ?? 0) }
        }
      }
    }
    var next: TodaySnapshot.SplitReference?
    if !splits.isEmpty {
      let lastIndex = last.flatMap { workout in
        splits.firstIndex { $0.id == workout.document.splitID }
      }
      let split = splits[lastIndex.map { ($0 + 1) % splits.count } ?? 0]
      next = TodaySnapshot.SplitReference(id: split.id, name: split.name)
    }
    return TodaySnapshot(
      day: format(dayStart, calendar),
      timeZone: timeZone.identifier,
      setsDone: setsDone,
      volume: volume,
      workouts: ofTheDay.map(summary),
      inProgress: open.map(summary),
      nextSplit: next,
      lastTrained: last.map { format($0.document.start, calendar) }
    )
  }

  /// The local day containing `moment` in `timeZone`: its calendar, start and end.
  static func day(at moment: Date, timeZone: TimeZone) -> (Calendar, start: Date, end: Date) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let start = calendar.startOfDay(for: moment)
    return (calendar, start, calendar.date(byAdding: .day, value: 1, to: start) ?? start)
  }

  /// The workouts a snapshot at `moment` reads, as a scope of the saved state.
  ///
  /// The scope leaves the splits' streams out: ``Journal/today(at:timeZone:)`` reads the
  /// live splits from the documents the saved state keeps of them.
  ///
  /// - Parameters:
  ///   - moment: a moment of the day to report.
  ///   - timeZone: the zone the day is read in.
  /// - Returns: the scope to open the journal with before ``Journal/today(at:timeZone:)``.
  public static func scope(at moment: Date, timeZone: TimeZone) -> StateScope {
    let (_, start, end) = day(at: moment, timeZone: timeZone)
    return StateScope(
      day: StateScope.Day(start: start, end: end, horizon: max(moment, end)),
      splits: false
    )
  }

  static func summary(_ workout: WorkoutState) -> TodaySnapshot.Workout {
    TodaySnapshot.Workout(
      id: workout.document.id,
      splitName: workout.document.splitName,
      status: workout.document.status,
      start: workout.document.start,
      setsDone: workout.document.logs.reduce(0) { $0 + ($1.setEntries?.count ?? 0) },
      volume: workout.document.totalVolume
    )
  }

  static func format(_ date: Date, _ calendar: Calendar) -> String {
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }
}
