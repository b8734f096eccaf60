import Foundation

/// Reads the times people type: ISO 8601 with a zone (`2026-03-01T18:30:00+01:00`,
/// `…Z`), or a local date and time in the machine's zone (`2026-03-01T18:30`,
/// `2026-03-01 18:30`), or a date (`2026-03-01`, midnight local), or `now`.
enum TimeParser {
  static func parse(_ text: String, now: Date, timeZone: TimeZone = .current) throws -> Date {
    if text == "now" { return now }
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
}
