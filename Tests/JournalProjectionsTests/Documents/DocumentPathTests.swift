import Foundation
import Testing

@testable import JournalProjections

@Suite struct DocumentPathTests {
  static func zone(hours: Int) throws -> TimeZone {
    try #require(TimeZone(secondsFromGMT: hours * 3600))
  }

  /// An instant given as a local time in a zone with a fixed offset.
  static func instant(_ text: String, hours: Int) throws -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try zone(hours: hours)
    let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
    let components = DateComponents(
      year: parts[0],
      month: parts[1],
      day: parts[2],
      hour: parts[3],
      minute: parts[4]
    )
    return try #require(calendar.date(from: components))
  }

  /// 23:30 on the last day of a month lands in that month where it is 23:30,
  /// and in the next month where the clock is ahead; the path uses only the
  /// time zone it is given, never the machine's.
  @Test(arguments: [
    ("2026-01-31T23:30", "2026/01", "2026/02"),
    ("2026-02-28T23:30", "2026/02", "2026/03"),
    ("2028-02-29T23:30", "2028/02", "2028/03"),
    ("2026-12-31T23:30", "2026/12", "2027/01"),
  ])
  func lastEveningOfTheMonth(local: String, sameMonth: String, nextMonth: String) throws {
    // 23:30 in UTC−10 is 11:30 the next day in UTC+2.
    let start = try Self.instant(local, hours: -10)
    #expect(
      DocumentPath.workout(id: "W", start: start, timeZone: try Self.zone(hours: -10))
        == "Workouts/\(sameMonth)/W.json"
    )
    #expect(
      DocumentPath.workout(id: "W", start: start, timeZone: try Self.zone(hours: 2))
        == "Workouts/\(nextMonth)/W.json"
    )
    // 23:30 in UTC+2 is still that month in UTC+2 and in UTC−10 (11:30 that day).
    let early = try Self.instant(local, hours: 2)
    #expect(
      DocumentPath.workout(id: "W", start: early, timeZone: try Self.zone(hours: 2))
        == "Workouts/\(sameMonth)/W.json"
    )
    #expect(
      DocumentPath.workout(id: "W", start: early, timeZone: try Self.zone(hours: -10))
        == "Workouts/\(sameMonth)/W.json"
    )
    // ...and in the next month for UTC+14, 12 hours ahead of UTC+2.
    #expect(
      DocumentPath.workout(id: "W", start: early, timeZone: try Self.zone(hours: 14))
        == "Workouts/\(nextMonth)/W.json"
    )
  }

  /// The same instant in named zones, whatever `TimeZone.current` is.
  @Test func namedZonesAndDaylightSaving() throws {
    // 2026-03-31T22:30Z: 00:30 on April 1 in Paris (summer time), 18:30 March 31 in New York.
    let start = Date(timeIntervalSince1970: 1_774_996_200)
    let paris = try #require(TimeZone(identifier: "Europe/Paris"))
    let newYork = try #require(TimeZone(identifier: "America/New_York"))
    #expect(
      DocumentPath.workout(id: "W", start: start, timeZone: paris) == "Workouts/2026/04/W.json"
    )
    #expect(
      DocumentPath.workout(id: "W", start: start, timeZone: newYork) == "Workouts/2026/03/W.json"
    )
    let gmt = try #require(TimeZone(identifier: "GMT"))
    #expect(DocumentPath.workout(id: "W", start: start, timeZone: gmt) == "Workouts/2026/03/W.json")
  }

  @Test func yearsArePaddedToFourDigits() throws {
    let gmt = try #require(TimeZone(identifier: "GMT"))
    let start = Date(timeIntervalSince1970: -30_610_224_000)  // 0999-12-27
    #expect(DocumentPath.workout(id: "W", start: start, timeZone: gmt) == "Workouts/0999/12/W.json")
  }

  @Test func splitAndStubPaths() throws {
    #expect(DocumentPath.split(id: "01HF") == "Splits/01HF.json")
    #expect(DocumentPath.stub(of: "Splits/01HF.json") == "Stubs/Splits/01HF.json")
    let gmt = try #require(TimeZone(identifier: "GMT"))
    let path = DocumentPath.workout(
      id: "01HG",
      start: Date(timeIntervalSince1970: 0),
      timeZone: gmt
    )
    #expect(DocumentPath.stub(of: path) == "Stubs/Workouts/1970/01/01HG.json")
  }
}
