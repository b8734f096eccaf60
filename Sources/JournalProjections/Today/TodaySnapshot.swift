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
  /// fully historical view).
  public static func snapshot(
    of state: JournalState,
    at moment: Date,
    timeZone: TimeZone
  ) -> TodaySnapshot {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let dayStart = calendar.startOfDay(for: moment)
    let dayEnd = calendar.date(byAdding: .day, value: 1, to: dayStart) ?? dayStart
    let workouts = state.liveWorkouts.filter { $0.document.start <= max(moment, dayEnd) }

    var setsDone = 0
    var volume = 0.0
    for workout in workouts {
      for log in workout.document.logs {
        for entry in log.setEntries ?? []
        where entry.completedAt >= dayStart && entry.completedAt < dayEnd {
          setsDone += 1
          if log.loadType == .weight { volume += Double(entry.reps ?? 0) * (entry.weight ?? 0) }
        }
      }
    }
    let ofTheDay = workouts.filter { $0.document.start >= dayStart && $0.document.start < dayEnd }
    let open = workouts.last { !$0.document.status.isResolved }
    let trained = workouts.filter { $0.document.start < dayEnd }
    let last = trained.last
    let splits = state.liveSplits
    var next: TodaySnapshot.SplitReference?
    if !splits.isEmpty {
      let lastIndex = last.flatMap { workout in
        splits.firstIndex { $0.document.id == workout.document.splitID }
      }
      let split = splits[lastIndex.map { ($0 + 1) % splits.count } ?? 0].document
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
