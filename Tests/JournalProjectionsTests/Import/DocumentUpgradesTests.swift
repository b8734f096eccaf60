import Foundation
import JournalCore
import Testing

@testable import JournalProjections

/// The document upgrade steps, one rule at a time, on raw JSON.
@Suite struct DocumentUpgradesTests {
  static func log(_ fields: [String: JSONValue]) -> JSONValue {
    var log: [String: JSONValue] = [
      "id": "01HZ0000000000000000G00001", "exerciseName": "Squat", "order": 0, "sets": 3,
      "reps": 5, "weight": 100, "loadType": 1, "durationSeconds": 0, "currentStateIndex": 0,
      "status": "notStarted", "date": "2025-03-04T17:30:00Z",
    ]
    log.merge(fields) { _, new in new }
    return .object(log)
  }

  static func workout(version: Int, logs: [JSONValue]) -> JSONValue {
    [
      "schemaVersion": .int(Int64(version)), "id": "01HZ0000000000000000W00001",
      "start": "2025-03-04T17:30:00Z", "status": "inProgress", "createdAt": "2025-03-04T17:30:00Z",
      "updatedAt": "2025-03-04T18:00:00Z", "end": "2025-03-04T18:10:00Z", "logs": .array(logs),
    ]
  }

  static func upgradedLog(_ log: JSONValue, from version: Int) throws -> JSONValue {
    let result = try DocumentUpgrades.upgrade(
      workout(version: version, logs: [log]),
      kind: .workout
    )
    #expect(result.document["schemaVersion"] == 5)
    #expect(result.fromVersion == version)
    return try #require(result.document["logs"]?.arrayValue?.first)
  }

  @Test func splitV1LosesCategoryAndRemindersAndGetsDoubleWeights() throws {
    let split: JSONValue = [
      "schemaVersion": 1,
      "exercises": [
        [
          "id": "x", "weight": 60, "category": "legs", "weightReminder": true,
          "weightReminderWeeks": 2,
        ]
      ],
    ]
    let result = try DocumentUpgrades.upgrade(split, kind: .split)
    #expect(
      result.document == ["schemaVersion": 3, "exercises": [["id": "x", "weight": .double(60)]]]
    )
  }

  @Test func theStatusWinsOverADisagreeingCompletedFlag() throws {
    let log = try Self.upgradedLog(
      Self.log(["status": "inProgress", "completed": true, "startedAt": "2025-03-04T17:40:00Z"]),
      from: 2
    )
    #expect(log["status"] == "inProgress")
    #expect(log["completed"] == nil)
    #expect(log["completedAt"] == nil)
  }

  @Test func aCompletedLegacyCursorBecomesPlanEntriesAtCompletionFilledToTheSets() throws {
    let log = try Self.upgradedLog(
      Self.log([
        "status": "completed", "currentStateIndex": 2, "completedAt": "2025-03-04T17:50:00Z",
      ]),
      from: 3
    )
    let entry: JSONValue = [
      "reps": 5, "weight": .double(100), "completedAt": "2025-03-04T17:50:00Z",
    ]
    #expect(log["setEntries"] == .array([entry, entry, entry]))
    #expect(log["currentStateIndex"] == 3)
    #expect(log["updatedAt"] == "2025-03-04T17:50:00Z")
  }

  @Test func aCursorPastTheSetsGrowsThem() throws {
    let log = try Self.upgradedLog(
      Self.log(["status": "skipped", "currentStateIndex": 4, "startedAt": "2025-03-04T17:40:00Z"]),
      from: 3
    )
    #expect(log["sets"] == 4)
    #expect(log["setEntries"]?.arrayValue?.count == 4)
  }

  @Test func aNotStartedLogKeepsNoStrayProgress() throws {
    let log = try Self.upgradedLog(Self.log(["currentStateIndex": 2]), from: 3)
    #expect(log["currentStateIndex"] == 0)
    #expect(log["setEntries"] == nil)
    #expect(log["updatedAt"] == nil)
  }

  @Test func aLogSkippedWithoutDatesIsDatedAtTheWorkoutsEnd() throws {
    let log = try Self.upgradedLog(Self.log(["status": "skipped"]), from: 4)
    #expect(log["updatedAt"] == "2025-03-04T18:10:00Z")
  }

  @Test func newerAndUnknownVersionsAreRefused() {
    #expect(
      throws: DocumentUpgrades.Failure(
        reason: "schema version 6 is newer than this build reads (workout 5)"
      )
    ) {
      try DocumentUpgrades.upgrade(["schemaVersion": 6], kind: .workout)
    }
    #expect(throws: DocumentUpgrades.Failure(reason: "unknown schema version -1")) {
      try DocumentUpgrades.upgrade(["schemaVersion": -1], kind: .split)
    }
  }
}
