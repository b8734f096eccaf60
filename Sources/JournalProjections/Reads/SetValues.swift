import Foundation

/// The values of one set: reps, weight or seconds.
///
/// Which are set follows the log's ``LoadType``. Used for the planned, actual
/// and deviation columns of the reads.
public struct SetValues: Codable, Sendable, Hashable {
  public var reps: Int?
  public var weight: Double?
  public var seconds: Int?

  public init(reps: Int? = nil, weight: Double? = nil, seconds: Int? = nil) {
    self.reps = reps
    self.weight = weight
    self.seconds = seconds
  }

  /// The values of a set entry.
  public init(_ entry: SetEntry) {
    self.init(reps: entry.reps, weight: entry.weight, seconds: entry.seconds)
  }

  /// The values an adjustment or a recorded set gives.
  public init(_ actuals: SetActuals) {
    self.init(reps: actuals.reps, weight: actuals.weight, seconds: actuals.seconds)
  }

  /// The plan of one set of `log`.
  public init(planOf log: WorkoutLogDocument) {
    self.init(log.planEntry(at: log.date))
  }

  /// `self − base`, field by field, for the fields both have.
  public func deviation(from base: SetValues) -> SetValues {
    SetValues(
      reps: reps.flatMap { a in base.reps.map { a - $0 } },
      weight: weight.flatMap { a in base.weight.map { a - $0 } },
      seconds: seconds.flatMap { a in base.seconds.map { a - $0 } }
    )
  }

  /// Whether every field present is zero (no deviation).
  public var isZero: Bool { (reps ?? 0) == 0 && (weight ?? 0) == 0 && (seconds ?? 0) == 0 }

  /// reps × weight, 0 when either is missing.
  public var volume: Double { Double(reps ?? 0) * (weight ?? 0) }
}

extension SetActuals {
  init(_ values: SetValues) {
    self.init(reps: values.reps, weight: values.weight, seconds: values.seconds)
  }
}
