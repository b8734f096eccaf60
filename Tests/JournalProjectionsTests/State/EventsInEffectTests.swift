import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The events in effect read from the saved state (`export --format ndjson`) against a full
/// replay, for what the seeded histories do not make: reverts that concern no stream.
@Suite struct EventsInEffectTests {
  /// Appends a revert of `ids` from the device `relay`, bypassing the command's checks (as a
  /// device whose events are not delivered yet would leave it); its id.
  static func appendRevert(of ids: [String], in fixture: SavedStateTests.Fixture) throws -> String {
    let version = try #require(JournalEvent.currentVersions[JournalEvent.TypeName.eventsReverted])
    let writer = try EventLog(at: fixture.url).openWriter(
      device: "relay",
      options: DeviceWriter.Options(durability: .none)
    )
    defer { writer.close() }
    let stored = try writer.append([
      NewEvent(
        stream: "history",
        type: JournalEvent.TypeName.eventsReverted,
        version: version,
        payload: ["events": .array(ids.map(JSONValue.string)), "reason": "undo"]
      )
    ])
    return try #require(stored.first?.id.description)
  }

  /// What a full replay holds in effect.
  static func expected(_ fixture: SavedStateTests.Fixture) throws -> [FoldEvent] {
    let history = try fixture.full().history
    let cancelled = Replayer.cancelledEvents(in: history)
    return history.filter { !cancelled.contains($0.eventID) }
  }

  @Test func revertsThatConcernNoStreamCountAmongThemselves() throws {
    let fixture = try SavedStateTests.Fixture(seed: 1)
    let split = try fixture.createSplit(
      "Legs",
      color: "blue",
      ExercisePlan(name: "Squat", sets: 2, reps: 5, weight: 80, loadType: .weight)
    )
    _ = try fixture.scoped(.splits).execute(
      .startWorkout(split: split, timeZone: "UTC"),
      device: "phone",
      now: Date()
    )
    // A revert of an event no device delivered, then one of that revert, then one more of an
    // unknown event that stays in effect.
    let first = try Self.appendRevert(of: ["01J0000000000000000000ZZZZ"], in: fixture)
    _ = try Self.appendRevert(of: [first], in: fixture)
    _ = try Self.appendRevert(of: ["01J0000000000000000000ZZZY"], in: fixture)
    var merged: [FoldEvent] = []
    try fixture.scoped(StateScope(splits: false)).forEachEventInEffect { merged.append($0) }
    let expected = try Self.expected(fixture)
    #expect(merged == expected)
    #expect(expected.filter { $0.stream == "history" }.count == 2)
    // The slices behind `audit`, `export` and the report hand on every event a full read
    // holds: the reverts in no stream's file come in a slice of their own.
    var sliced: [String] = []
    try fixture.scoped(StateScope(splits: false)).forEachSlice { _, events in
      sliced += events.map(\.id)
    }
    #expect(sliced.sorted() == (try fixture.full().history.map(\.id)).sorted())
  }
}
