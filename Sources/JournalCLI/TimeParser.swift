import Foundation

/// Reads the times people type: ISO 8601 with a zone (`2026-03-01T18:30:00+01:00`,
/// `…Z`), or a local date and time in the machine's zone (`2026-03-01T18:30`,
/// `2026-03-01 18:30`), or a date (`2026-03-01`, midnight local), or `now`.
enum TimeParser {
  static func parse(_ text: String, now: Date, timeZone: TimeZone = .current) throws -> Date {
    if text == "now" { return now }
    // The common form first, read without a formatter: loading ICU costs a few
    // milliseconds of the command's start. The formatters below take the rest.
    if let date = internetDateTime(text) { return date }
    let withZone = ISO8601DateFormatter()
    withZone.formatOptions = [.withInternetDateTime]
    if let date = withZone.date(from: text) { return date }
    withZone.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = withZone.date(from: text) { return date }
    let local = DateFormatter()
    local.locale = Locale(identifier: "en_US_POSIX")
    local.timeZone = timeZone
    local.calendar = Calendar(identifier: .gregorian)
    for format in [
      "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm",
      "yyyy-MM-dd",
    ] {
      local.dateFormat = format
      if let date = local.date(from: text) { return date }
    }
    throw UsageError(
      "cannot read time '\(text)': use ISO 8601 such as '2026-03-01T18:30:00+01:00' or '2026-03-01 18:30'"
    )
  }

  /// `YYYY-MM-DDTHH:MM:SS` then `Z` or `±HH:MM`, every field in range; nil for
  /// anything else (which the formatters then try).
  static func internetDateTime(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20 || bytes.count == 25 else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
          return nil
        }
        value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      }
      return value
    }
    guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var offset = 0
    if bytes.count == 20 {
      guard bytes[19] == UInt8(ascii: "Z") else { return nil }
    } else {
      guard bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-"),
        bytes[22] == UInt8(ascii: ":"), let hours = number(20..<22), let minutes = number(23..<25),
        hours < 24, minutes < 60
      else { return nil }
      offset = (hours * 3600 + minutes * 60) * (bytes[19] == UInt8(ascii: "-") ? -1 : 1)
    }
    let seconds =
      daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600
      + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds))
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
  static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let shifted = month <= 2 ? year - 1 : year  // years start in March: leap days come last
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
