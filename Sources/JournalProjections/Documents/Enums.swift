import Foundation

/// The status of a workout or of one of its logs (raw values are the app's).
public enum WorkoutStatus: String, Codable, Sendable, CaseIterable {
  case notStarted
  case inProgress
  case completed
  case skipped

  /// Whether the status is final for a log: completed or skipped.
  public var isResolved: Bool { self == .completed || self == .skipped }
}

/// How an exercise is loaded; decides which ``SetEntry`` fields a set carries.
public enum LoadType: Int, Codable, Sendable, CaseIterable {
  /// Bodyweight: a set records reps.
  case none = 0
  /// Weighted: a set records reps and weight.
  case weight = 1
  /// Timed: a set records seconds.
  case duration = 2
}

/// The HealthKit activity a split is recorded as (raw values are the app's).
public enum WorkoutActivityType: Int, Codable, Sendable, CaseIterable {
  case traditionalStrength = 0
  case functionalStrength = 1
  case hiit = 2
  case coreTraining = 3
  case cardio = 4
  case cycling = 5
  case warmUp = 6
  case stretching = 7
  case mindAndBody = 8
}

/// Where a workout's metrics came from.
public enum MetricSource: String, Codable, Sendable, CaseIterable {
  case watch
  case phoneEstimate
}

/// The unit weights are displayed in.
///
/// Display only: never stored in documents,
/// and stored weights are never rewritten when it changes.
public enum WeightUnit: String, Sendable, CaseIterable {
  case lb
  case kg

  /// Formats a unit-less weight for display, trimming a trailing `.0`.
  ///
  /// ```swift
  /// WeightUnit.lb.format(45)    // "45 lb"
  /// WeightUnit.kg.format(42.5)  // "42.5 kg"
  /// ```
  public func format(_ value: Double) -> String {
    "\(WeightUnit.number(value)) \(rawValue)"
  }

  /// A weight without unit: whole values without a decimal point, others in
  /// the shortest form that reads back as the same value (as documents print
  /// them, except that negative zero reads `0`).
  public static func number(_ value: Double) -> String {
    if value == 0 { return "0" }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
  }
}
