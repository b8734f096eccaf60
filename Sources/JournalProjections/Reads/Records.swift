import Foundation

/// Personal records per exercise, from actuals only.
///
/// A set counts when its values are what the lifter did: recorded live, or
/// corrected afterwards (``AuditRow/Provenance/isActual``). Sets filled in
/// from the plan and legacy cursor-only sets (whose values are the plan's)
/// never count, nor do reverted sets. Because records are derived from the
/// audit of the folded state, adjusting or reverting a past set recomputes
/// them. A tie never takes a record from the set that set it first.
///
/// Exercises are keyed by library name, else display name (``AuditRow/exerciseKey``).
///
/// A warm-up (``AuditRow/isWarmUp``) sets no record and is not counted in ``sets``; its volume
/// counts toward its session's, as it counts toward every volume (docs/Import.md).
public struct ExerciseRecords: Codable, Sendable, Hashable {
  /// One set that holds a record.
  public struct RecordSet: Codable, Sendable, Hashable {
    /// The record's value: weight, e1RM or reps × weight.
    public var value: Double
    public var reps: Int
    public var weight: Double
    public var date: Date
    public var timeZone: String
    public var workoutID: String
    public var eventID: String
  }

  /// The most reps done at a weight.
  public struct RepsAtWeight: Codable, Sendable, Hashable {
    public var weight: Double
    public var reps: Int
    public var date: Date
    public var timeZone: String
    public var workoutID: String
  }

  /// The heaviest volume of the exercise in one workout.
  public struct Session: Codable, Sendable, Hashable {
    public var volume: Double
    public var sets: Int
    public var date: Date
    public var timeZone: String
    public var workoutID: String
  }

  /// The library name, else the display name.
  public var exercise: String
  /// How many sets counted.
  public var sets: Int
  /// The heaviest weight lifted for at least one rep.
  public var heaviest: RecordSet?
  /// The best Epley estimate (``estimatedOneRepMax(weight:reps:)``).
  public var bestEstimatedOneRepMax: RecordSet?
  /// The best reps × weight in one set.
  public var bestSetVolume: RecordSet?
  public var bestSession: Session?
  /// Rep records, heaviest weight first: a weight is listed only when more
  /// reps were done at it than at any heavier weight (a rep PR curve).
  public var repsAtWeight: [RepsAtWeight]

  /// Epley's estimate of the one-rep max: `weight × (1 + reps / 30)`, and
  /// `weight` itself for a single; nil without reps or weight.
  public static func estimatedOneRepMax(weight: Double, reps: Int) -> Double? {
    guard reps >= 1, weight > 0 else { return nil }
    return reps == 1 ? weight : weight * (1 + Double(reps) / 30)
  }

  /// The records of every exercise in `rows` (an audit), by exercise name.
  public static func all(from rows: [AuditRow]) -> [ExerciseRecords] {
    var byExercise: [String: [AuditRow]] = [:]
    for row in rows where row.provenance.isActual && row.loadType != .duration {
      byExercise[row.exerciseKey, default: []].append(row)
    }
    return byExercise.map { ExerciseRecords(exercise: $0.key, rows: $0.value) }
      .sorted { $0.exercise.lowercased() < $1.exercise.lowercased() }
  }

  /// The records of one exercise's counted rows.
  init(exercise: String, rows: [AuditRow]) {
    self.exercise = exercise
    let rows = rows.sorted(by: AuditRow.precedes)
    sets = rows.count { !$0.isWarmUp }
    var repsByWeight: [Double: RepsAtWeight] = [:]
    var sessions: [String: Session] = [:]
    var sessionOrder: [String] = []
    for row in rows {
      let reps = row.actual.reps ?? 0
      let weight = row.actual.weight ?? 0
      guard reps >= 1 else { continue }
      if row.isWarmUp {
        Self.addToSession(row, sessions: &sessions, order: &sessionOrder)
        continue
      }
      func record(_ value: Double) -> RecordSet {
        RecordSet(
          value: value,
          reps: reps,
          weight: weight,
          date: row.date,
          timeZone: row.timeZone,
          workoutID: row.workoutID,
          eventID: row.eventID
        )
      }
      if weight > 0 {
        if weight > heaviest?.value ?? 0 { heaviest = record(weight) }
        if let e1rm = Self.estimatedOneRepMax(weight: weight, reps: reps),
          e1rm > bestEstimatedOneRepMax?.value ?? 0
        {
          bestEstimatedOneRepMax = record(e1rm)
        }
        let volume = Double(reps) * weight
        if volume > bestSetVolume?.value ?? 0 { bestSetVolume = record(volume) }
      }
      if reps > repsByWeight[weight]?.reps ?? 0 {
        repsByWeight[weight] = RepsAtWeight(
          weight: weight,
          reps: reps,
          date: row.date,
          timeZone: row.timeZone,
          workoutID: row.workoutID
        )
      }
      Self.addToSession(row, sessions: &sessions, order: &sessionOrder)
    }
    for id in sessionOrder {
      guard let session = sessions[id], session.volume > 0 else { continue }
      if session.volume > bestSession?.volume ?? 0 { bestSession = session }
    }
    var curve: [RepsAtWeight] = []
    for entry in repsByWeight.values.sorted(by: { $0.weight > $1.weight })
    where entry.reps > curve.last?.reps ?? 0 {
      curve.append(entry)
    }
    repsAtWeight = curve
  }

  /// The records of one exercise over all of `parts`, each the records of the exercise in
  /// other workouts than the others' (or a merge of such): what ``init(exercise:rows:)``
  /// gives over the rows of every part at once.
  ///
  /// A record and a reps-at-weight entry are held by one set, a best session by one workout:
  /// the best of the parts' wins, and a tie goes to the earlier set as in rows' order (by
  /// date, then workout). A reps-at-weight entry a part left out was beaten inside its own
  /// workouts by a heavier weight with as many reps, so it is beaten over every part too.
  static func merging(_ parts: [ExerciseRecords]) -> ExerciseRecords? {
    guard var merged = parts.first else { return nil }
    func better<T>(_ a: T?, _ b: T?, _ value: (T) -> Double, _ order: (T) -> (Date, String)) -> T? {
      guard let a else { return b }
      guard let b else { return a }
      if value(a) != value(b) { return value(a) > value(b) ? a : b }
      return order(a) <= order(b) ? a : b
    }
    var repsByWeight: [Double: RepsAtWeight] = [:]
    for entry in merged.repsAtWeight { repsByWeight[entry.weight] = entry }
    for part in parts.dropFirst() {
      merged.sets += part.sets
      merged.heaviest = better(merged.heaviest, part.heaviest, \.value) { ($0.date, $0.workoutID) }
      merged.bestEstimatedOneRepMax = better(
        merged.bestEstimatedOneRepMax,
        part.bestEstimatedOneRepMax,
        \.value
      ) { ($0.date, $0.workoutID) }
      merged.bestSetVolume = better(merged.bestSetVolume, part.bestSetVolume, \.value) {
        ($0.date, $0.workoutID)
      }
      merged.bestSession = better(merged.bestSession, part.bestSession, \.volume) {
        ($0.date, $0.workoutID)
      }
      for entry in part.repsAtWeight {
        let reps = { (held: RepsAtWeight) in Double(held.reps) }
        repsByWeight[entry.weight] = better(repsByWeight[entry.weight], entry, reps) {
          ($0.date, $0.workoutID)
        }
      }
    }
    merged.repsAtWeight = []
    for entry in repsByWeight.values.sorted(by: { $0.weight > $1.weight })
    where entry.reps > merged.repsAtWeight.last?.reps ?? 0 {
      merged.repsAtWeight.append(entry)
    }
    return merged
  }

  /// Adds `row` to the session of its workout, the first of which is appended to `order`.
  private static func addToSession(
    _ row: AuditRow,
    sessions: inout [String: Session],
    order: inout [String]
  ) {
    if sessions[row.workoutID] == nil {
      order.append(row.workoutID)
      sessions[row.workoutID] = Session(
        volume: 0,
        sets: 0,
        date: row.date,
        timeZone: row.timeZone,
        workoutID: row.workoutID
      )
    }
    sessions[row.workoutID]?.volume += row.volume
    sessions[row.workoutID]?.sets += 1
  }
}
