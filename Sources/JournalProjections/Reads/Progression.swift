import Foundation

/// Per exercise, one point per completed workout: the top-set weight and the
/// best estimated one-rep max, for charts.
///
/// Points follow the app's progression chart: the effective set entries of
/// the exercise's finished logs (actuals, else the plan's values for sets
/// filled in from it). A log is finished when it is completed, or when its
/// workout is over (ended keeping progress). ``Point/isAllActual`` says
/// whether every set of the point was actually recorded.
public struct Progression: Sendable, Hashable {
  /// One workout's best.
  public struct Point: Codable, Sendable, Hashable {
    public var date: Date
    public var timeZone: String
    public var workoutID: String
    /// The heaviest weight of the workout's sets (with at least one rep).
    public var topSetWeight: Double
    /// The best Epley estimate of those sets.
    public var bestEstimatedOneRepMax: Double
    /// Whether every set was recorded or adjusted (none filled from the plan).
    public var isAllActual: Bool
  }

  /// The library name, else the display name.
  public var exercise: String
  /// Oldest first.
  public var points: [Point]

  /// A progression of `exercise` through `points`.
  init(exercise: String, points: [Point]) {
    self.exercise = exercise
    self.points = points
  }

  /// The progression of the exercise named `name` (display or library name,
  /// case-insensitive) among `rows` (an audit), counting the logs `finished`
  /// names (`<workout id>/<log id>`).
  public init(exercise name: String, rows: [AuditRow], finished: Set<String>) {
    let matching = rows.filter { $0.matches(exercise: name) }
    self.init(key: matching.first?.exerciseKey ?? name, matching: matching, finished: finished)
  }

  /// The progression of the exercise `key` from `rows`, all of that exercise.
  init(key: String, matching rows: [AuditRow], finished: Set<String>) {
    var byWorkout: [String: [AuditRow]] = [:]
    var order: [String] = []
    for row in rows {
      guard row.provenance != .reverted, row.loadType == .weight,
        finished.contains("\(row.workoutID)/\(row.logID)")
      else { continue }
      if byWorkout[row.workoutID] == nil { order.append(row.workoutID) }
      byWorkout[row.workoutID, default: []].append(row)
    }
    exercise = key
    points = order.compactMap { id in
      let sets = byWorkout[id] ?? []
      let lifted = sets.filter { ($0.actual.reps ?? 0) >= 1 && ($0.actual.weight ?? 0) > 0 }
      guard let first = sets.first, !lifted.isEmpty else { return nil }
      let e1rm = lifted.compactMap {
        ExerciseRecords.estimatedOneRepMax(weight: $0.actual.weight ?? 0, reps: $0.actual.reps ?? 0)
      }
      return Point(
        date: first.date,
        timeZone: first.timeZone,
        workoutID: id,
        topSetWeight: lifted.map { $0.actual.weight ?? 0 }.max() ?? 0,
        bestEstimatedOneRepMax: e1rm.max() ?? 0,
        isAllActual: sets.allSatisfy(\.provenance.isActual)
      )
    }
  }
}

extension Audit {
  /// The progression of one exercise over this audit's finished logs in
  /// `state` (the state the audit was made from).
  public func progression(of exercise: String, in state: JournalState) -> Progression {
    Progression(exercise: exercise, rows: rows, finished: Self.finishedLogs(in: state))
  }

  /// The progression of every exercise of ``exerciseTotals``, in that order, over this
  /// audit's finished logs in `state` (the state the audit was made from).
  ///
  /// - Complexity: O(n) in the rows.
  public func progressions(in state: JournalState) -> [Progression] {
    let finished = Self.finishedLogs(in: state)
    var byExercise: [String: [AuditRow]] = [:]
    for row in rows { byExercise[row.exerciseKey, default: []].append(row) }
    return exerciseTotals.map {
      Progression(key: $0.key, matching: byExercise[$0.key] ?? [], finished: finished)
    }
  }

  /// The logs of `state`'s live workouts a chart counts (`<workout id>/<log id>`): the
  /// completed ones, and every log of a workout that is over.
  static func finishedLogs(in state: JournalState) -> Set<String> {
    var finished: Set<String> = []
    for workout in state.liveWorkouts {
      for log in workout.document.logs
      where log.status == .completed || workout.document.status.isResolved {
        finished.insert("\(workout.document.id)/\(log.id)")
      }
    }
    return finished
  }
}

extension Progression {
  /// This progression with one point per week, for long histories.
  ///
  /// Weeks run Monday to Sunday, each point's read in its workout's own time zone. A week's
  /// point is its best top set and best e1RM, dated and identified by its last workout, all
  /// actual when every point of the week was. Oldest first.
  ///
  /// A week's point falls in its own week, so the weeks of weeks are the same weeks: parts
  /// of a history can be reduced apart and their weeks reduced together
  /// (`weeks(of:)`).
  ///
  /// - Complexity: O(n log n) in the points.
  public func weekly() -> Progression {
    var copy = self
    copy.points = Point.weeks(of: points)
    return copy
  }
}

extension Progression.Point {
  /// One point per week of `points` (in any order), oldest first: see
  /// ``Progression/weekly()``.
  static func weeks(of points: [Self]) -> [Self] {
    var byWeek: [CivilDay: Self] = [:]
    for point in points {
      let week = CivilDay(point.date, timeZone: point.timeZone).weekStart
      guard let held = byWeek[week] else {
        byWeek[week] = point
        continue
      }
      var last = held.precedes(point) ? point : held
      last.topSetWeight = max(held.topSetWeight, point.topSetWeight)
      last.bestEstimatedOneRepMax = max(held.bestEstimatedOneRepMax, point.bestEstimatedOneRepMax)
      last.isAllActual = held.isAllActual && point.isAllActual
      byWeek[week] = last
    }
    return byWeek.values.sorted { $0.precedes($1) }
  }

  /// Whether this point comes before `other` in a progression: by date, then workout id.
  func precedes(_ other: Self) -> Bool { (date, workoutID) < (other.date, other.workoutID) }
}
