import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// Events from a broken or hostile device, arriving through a synced folder.
///
/// Ids that try to name files outside the output folder, and numbers no lifter could lift. Each
/// one is refused or reported; no write escapes the output folder (see docs/BadInput.md).
@Suite struct HostileEventTests {
  let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

  /// A hostile stream or id, and what it tries.
  struct HostileID: Sendable, CustomTestStringConvertible {
    var id: String
    var testDescription: String

    init(_ id: String, _ description: String) {
      self.id = id
      self.testDescription = description
    }
  }

  static let hostileIDs: [HostileID] = [
    HostileID("../../escaped", "parent folders"),
    HostileID("/tmp/escaped", "an absolute path"),
    HostileID("a/../../b", "a separator and parents"),
    HostileID("a\\..\\b", "backslashes"),
    HostileID("esc\u{0}aped", "a NUL byte"),
    HostileID(String(repeating: "A", count: 300), "a name longer than 255 bytes"),
    HostileID("..\u{2215}..\u{2215}escaped", "U+2215 DIVISION SLASH"),
    HostileID("..\u{FF0F}..\u{FF0F}escaped", "U+FF0F FULLWIDTH SOLIDUS"),
    HostileID("..\u{2044}escaped", "U+2044 FRACTION SLASH"),
    HostileID(".hidden", "a hidden name"),
    HostileID("..", "the parent itself"),
    HostileID("", "an empty id"),
  ]

  @Test(arguments: hostileIDs)
  func aHostileSplitIDNeverNamesAFileOutsideTheOutput(_ hostile: HostileID) throws {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody()
    let created = try #require(h.store.stored.first)
    var event = created
    event.id = "01JZZZZZZZZZZZZZZZZZZZZZZZ"
    event.stream = "split:" + hostile.id
    event.milliseconds += 1000
    h.store.deliver([event])
    try h.journal.reload()

    let parent = try makeTemporaryDirectory("hostile")
    let out = parent.appendingPathComponent("out")
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.conflicts.count == 1, "\(report.conflicts)")
    // Only the output folder holds anything, and only documents with safe names.
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["out"])
    let written = try JournalFingerprint(of: out).entries.keys
    #expect(written.allSatisfy { !$0.hasPrefix("/") && !$0.contains("..") })
    #expect(written.allSatisfy { $0.hasPrefix("Splits") || $0.hasPrefix(".") })
  }

  @Test(arguments: ["Workouts", "Splits", "Stubs"])
  func anOutputFolderThatIsASymbolicLinkIsRefused(_ name: String) throws {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "upper body", timeZone: "Europe/Paris"))
    try h.makeUpperBody(name: "Legs")
    try h.run(.deleteSplit(split: "legs"))
    let out = try makeTemporaryDirectory("rebuild")
    let elsewhere = try makeTemporaryDirectory("elsewhere")
    try FileManager.default.createSymbolicLink(
      at: out.appendingPathComponent(name),
      withDestinationURL: elsewhere
    )
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.conflicts.contains { $0.path.hasPrefix(name + "/") }, "\(report.conflicts)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
  }

  /// A journal whose workout has one set completed, then the same set delivered again from
  /// another device with `weight`.
  func workoutWithDeliveredWeight(_ weight: Double) throws -> JournalHarness {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "upper body", timeZone: "Europe/Paris"))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5)))
    var event = try #require(h.store.stored.last)
    event.id = "01JZZZZZZZZZZZZZZZZZZZZZZZ"
    event.milliseconds += 1000
    event.payload = setting(event.payload, "weight", .double(weight))
    event.payload = setting(event.payload, "reps", .int(8))
    h.store.deliver([event])
    try h.journal.reload()
    return h
  }

  @Test(arguments: [1e308, 1.7976931348623157e308, -1e308, 1e7])
  func anEnormousWeightFromAnotherDeviceQuarantinesItsWorkout(_ weight: Double) throws {
    let h = try workoutWithDeliveredWeight(weight)
    let workout = try #require(h.store.stored.last?.stream)
    let reason = try #require(h.journal.quarantined[workout])
    #expect(reason.hasSuffix("field 'weight' must be a weight within ±1000000"), "\(reason)")
    // The rebuild leaves the workout's document alone and says why; nothing overflows.
    let out = try makeTemporaryDirectory("rebuild")
    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(try documentFiles(in: out).keys.allSatisfy { !$0.hasPrefix("Workouts/") })
    #expect(report.written.allSatisfy { $0.hasPrefix("Splits/") })
  }

  @Test(arguments: [Double.leastNonzeroMagnitude, 5000, 999_999])
  func aWeightWithinTheLimitFolds(_ weight: Double) throws {
    let h = try workoutWithDeliveredWeight(weight)
    #expect(h.journal.quarantined.isEmpty)
    let out = try makeTemporaryDirectory("rebuild")
    try Rebuild.run(journal: h.journal, output: out)
    #expect(try documentFiles(in: out).keys.contains { $0.hasPrefix("Workouts/") })
  }

  private func setting(_ object: JSONValue, _ key: String, _ value: JSONValue) -> JSONValue {
    guard case .object(var members) = object else { return object }
    members[key] = value
    return .object(members)
  }
}
