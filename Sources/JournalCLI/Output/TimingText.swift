import Foundation
import JournalProjections

/// Durations and densities of ``WorkoutTiming`` for people.
///
/// A time the journal does not know prints as `?`, never as a guess.
enum TimingText {
  /// `0:42`, `12:05`, `1:02:10`, whole seconds rounded down; `?` for nil.
  static func clock(_ seconds: TimeInterval?) -> String {
    guard let seconds else { return "?" }
    let total = Int(seconds.rounded(.down))
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
    let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
  }

  /// `28.4/min` (volume per minute, one decimal); `?` for nil.
  static func density(_ value: Double?) -> String {
    guard let value else { return "?" }
    return DisplayUnit.weight((value * 10).rounded() / 10) + "/min"
  }

  /// The rest before a set for a table cell: `1:30`; `-` for the workout's first set and for a
  /// set filled in from the plan; `?` when not known.
  static func rest(_ set: WorkoutTiming.SetTiming?) -> String {
    guard let set, !set.isFilledFromPlan, !set.isFirstOfWorkout else { return "-" }
    return clock(set.restBefore)
  }

  /// The work of a set for a table cell: `0:42`; `-` for a set filled in from the plan; `?`
  /// when its start is not known.
  static func work(_ set: WorkoutTiming.SetTiming?) -> String {
    guard let set, !set.isFilledFromPlan else { return "-" }
    return clock(set.work)
  }

  /// Seconds as a JSON number (milliseconds kept), or null.
  static func json(_ seconds: TimeInterval?) -> Any {
    seconds.map { ($0 * 1000).rounded() / 1000 } ?? NSNull()
  }
}
