import Foundation

/// A calendar day as read on a wall clock in a given time zone: the unit the reads group
/// training by (a day of the calendar heatmap, a week of the weekly bars).
///
/// A day is read in the zone of the workout it belongs to (the zone its device had when it
/// started), never the machine's, so the same journal groups alike everywhere.
public struct CivilDay: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Days since 1970-01-01.
  public var number: Int

  /// The day numbered `number` (days since 1970-01-01).
  public init(number: Int) { self.number = number }

  /// The day `date` falls on in the zone named `timeZone` (UTC when the name is unknown).
  public init(_ date: Date, timeZone: String) {
    let zone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .gmt
    let seconds = Int((date.timeIntervalSince1970).rounded(.down)) + zone.secondsFromGMT(for: date)
    number = Int((Double(seconds) / 86_400).rounded(.down))
  }

  /// The Monday that starts this day's week (ISO 8601 weeks).
  public var weekStart: CivilDay {
    // 1970-01-01 was a Thursday: day 0 is the fourth day (index 3) of its week.
    CivilDay(number: number - ((number % 7 + 7 + 3) % 7))
  }

  /// 0 for Monday through 6 for Sunday.
  public var weekday: Int { number - weekStart.number }

  /// `2026-03-02`.
  public var description: String {
    let (year, month, day) = DocumentWriter.civil(fromDays: number)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(day))"
  }

  public static func < (a: CivilDay, b: CivilDay) -> Bool { a.number < b.number }
}
