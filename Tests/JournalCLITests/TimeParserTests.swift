import Foundation
import Testing

@testable import JournalCLI

@Suite struct TimeParserTests {
  /// The formatter the parser used alone before it read the common form itself.
  static func foundation(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }

  @Test(arguments: [
    "2026-03-01T18:30:00Z", "2026-03-01T18:30:00+01:00", "2026-03-01T18:30:00-09:30",
    "2100-01-01T12:00:00Z", "1980-01-01T00:00:00Z", "2026-03-01T18:30:00.250Z",
    "2024-02-29T23:59:59+14:00", "2026-12-31T23:59:59-12:00",
  ])
  func zonedTimesReadAsFoundationReadsThem(_ text: String) throws {
    let expected = try #require(Self.foundation(text))
    #expect(try TimeParser.parse(text, now: Date()) == expected)
  }

  @Test func localTimesAndDatesAreReadInTheGivenZone() throws {
    let zone = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
    let moment = try TimeParser.parse("2026-03-01 18:30", now: Date(), timeZone: zone)
    #expect(moment == Date(timeIntervalSince1970: 1_772_339_400))
    let day = try TimeParser.parse("2026-03-01", now: Date(), timeZone: zone)
    #expect(day == Date(timeIntervalSince1970: 1_772_272_800))
  }

  @Test(arguments: [
    "2026-13-01T00:00:00Z", "yesterday", "2026-03-01T25:00:00Z", "",
  ])
  func nonsenseIsRefused(_ text: String) {
    #expect(throws: UsageError.self) { try TimeParser.parse(text, now: Date()) }
  }

  /// Seeded times over four centuries and every kind of offset: the hand-read
  /// form gives what Foundation's formatter gives.
  @Test func theHandReadFormAgreesWithFoundationOnSeededTimes() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<2_000 {
      let year = 1900 + next(400)
      let month = 1 + next(12)
      let first = try #require(
        calendar.date(from: DateComponents(year: year, month: month, day: 1))
      )
      let days = try #require(calendar.range(of: .day, in: .month, for: first)).count
      var text = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02d",
        year,
        month,
        1 + next(days),
        next(24),
        next(60),
        next(60)
      )
      let minutes = next(5) == 0 ? 0 : next(14 * 60 + 1)
      text +=
        minutes == 0 && next(2) == 0
        ? "Z"
        : String(format: "%@%02d:%02d", next(2) == 0 ? "+" : "-", minutes / 60, minutes % 60)
      let expected = try #require(Self.foundation(text), "\(text)")
      #expect(TimeParser.internetDateTime(text) == expected, "\(text)")
    }
  }
}
