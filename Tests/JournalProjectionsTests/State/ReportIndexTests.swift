import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The report index of the saved state: one part per year, read again only when a workout of
/// its year changed, and always the reads of a full replay.
@Suite struct ReportIndexTests {
  typealias Fixture = SavedStateTests.Fixture

  /// 2031-01-01, a Wednesday, at 10:00 UTC.
  static let base = Date(timeIntervalSince1970: 1_925_028_000)

  /// A journal with a finished workout of two sets in each of the years 2031, 2032 and 2033; the ids
  /// of the workouts, oldest first.
  static func threeYears() throws -> (Fixture, [String]) {
    let fixture = try Fixture(seed: 1)
    let journal = try fixture.full()
    _ = try journal.execute(
      .createSplit(
        SplitSettings(name: "Push", color: "red", systemImage: "dumbbell"),
        exercises: [ExercisePlan(name: "Bench", sets: 3, reps: 5, weight: 60, loadType: .weight)]
      ),
      device: "phone",
      at: base,
      now: base
    )
    var ids: [String] = []
    for year in 0..<3 {
      let start = base + Double(year) * 366 * 86_400
      let started = try journal.execute(
        .startWorkout(split: "Push", timeZone: "UTC"),
        device: "phone",
        at: start,
        now: start
      )
      ids.append(try #require(started.first?.streamID))
      for set in 1...2 {
        let at = start + Double(set) * 180
        _ = try journal.execute(
          .completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: 60)),
          device: "phone",
          at: at,
          now: at
        )
      }
      _ = try journal.execute(
        .endWorkout(workout: nil),
        device: "phone",
        at: start + 600,
        now: start + 600
      )
    }
    return (fixture, ids)
  }

  func part(_ fixture: Fixture, _ name: String) throws -> Data {
    try Data(
      contentsOf: fixture.stateFolder.appendingPathComponent("\(ReportIndex.folder)/\(name)")
    )
  }

  @Test func aChangeToOneYearReadsThatYearAgain() throws {
    let (fixture, ids) = try Self.threeYears()
    try SavedStateTests.expectSameReport(fixture, "three years")
    let before = try ["2031", "2032", "2033"].map { try part(fixture, $0) }
    // A correction to the 2032 workout, recorded a year later.
    let late = Self.base + 400 * 86_400
    _ = try fixture.scoped(StateScope(workouts: [ids[1]])).execute(
      .adjustSet(workout: ids[1], exercise: nil, set: 1, SetActuals(reps: 3, weight: 70)),
      device: "watch",
      at: late,
      now: late
    )
    try SavedStateTests.expectSameReport(fixture, "a set added to 2032")
    let after = try ["2031", "2032", "2033"].map { try part(fixture, $0) }
    #expect(after[0] == before[0])
    #expect(after[1] != before[1])
    #expect(after[2] == before[2])
  }

  @Test func anUndoneStartMovesTheWorkoutOutOfItsYear() throws {
    let (fixture, _) = try Self.threeYears()
    try SavedStateTests.expectSameReport(fixture, "three years")
    let later = Self.base + 800 * 86_400
    _ = try fixture.full().execute(
      .startWorkout(split: "Push", timeZone: "UTC"),
      device: "phone",
      at: later,
      now: later
    )
    try SavedStateTests.expectSameReport(fixture, "a fourth workout")
    _ = try fixture.scoped(StateScope(recentActionsOf: "phone")).undo(
      device: "phone",
      workout: nil,
      count: 1,
      now: later + 60
    )
    try SavedStateTests.expectSameReport(fixture, "its start undone")
  }

  /// A part file damaged or removed is read again, and every part is when the index is
  /// damaged or the change list is gone (which starts again).
  @Test(arguments: ["cut", "flipped", "removed", "index", "change list", "sessions"])
  func aDamagedPartIsReadAgain(damage: String) throws {
    let (fixture, _) = try Self.threeYears()
    try SavedStateTests.expectSameReport(fixture, "three years")
    let folder = fixture.stateFolder.appendingPathComponent(ReportIndex.folder)
    let file =
      damage == "change list"
      ? fixture.stateFolder.appendingPathComponent(ChangeList.path)
      : folder.appendingPathComponent(
        ["index": "index", "sessions": "2033.sessions"][damage] ?? "2032"
      )
    var bytes = try Data(contentsOf: file)
    switch damage {
    case "cut": bytes = bytes.prefix(bytes.count / 2)
    case "flipped": bytes[bytes.count / 3] ^= 0x20
    case "index":
      bytes = Data(
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(
          of: "position ",
          with: "position 0"
        ).utf8
      )
    default: try FileManager.default.removeItem(at: file)
    }
    if !["removed", "change list", "sessions"].contains(damage) { try bytes.write(to: file) }
    try SavedStateTests.expectSameReport(fixture, "2032 \(damage)")
    #expect(try part(fixture, "2032").isEmpty == false)
  }
}
