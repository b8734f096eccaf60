import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// A history written entirely at old event versions folds to the same
/// documents as the same history written at the current versions.
@Suite struct OldVersionHistoryTests {
  static let split = "01J0000000000000000000SP01"
  static let workout = "01J0000000000000000000WK01"

  static func stored(
    _ n: Int,
    _ stream: String,
    _ type: String,
    _ version: Int,
    _ payload: JSONValue,
    at minute: Int? = nil
  ) -> StoredEvent {
    StoredEvent(
      id: "01J00000000000000000000\(String(format: "%03d", n))",
      device: "phone",
      sequence: UInt64(n),
      milliseconds: 1_767_225_600_000 + Int64(minute ?? n) * 60_000,
      counter: minute == nil ? 0 : 1,
      stream: stream,
      type: type,
      version: version,
      payload: payload,
      location: "test:\(n)"
    )
  }

  static let old: [StoredEvent] = [
    stored(
      1,
      "split:\(split)",
      "split.created",
      1,
      [
        "name": "Legs", "color": "green", "systemImage": "figure.run", "order": 0,
        "exercises": [
          [
            "exerciseID": "01J0000000000000000000EX01", "name": "Squat", "order": 0, "sets": 2,
            "reps": 5, "weight": 100, "loadType": 1, "durationSeconds": 0, "category": "legs",
            "weightReminder": true, "weightReminderWeeks": 4,
          ]
        ],
      ]
    ),
    stored(
      2,
      "split:\(split)",
      "exercise.updated",
      1,
      ["exerciseID": "01J0000000000000000000EX01", "weight": 105, "category": "quads"]
    ),
    stored(
      3,
      "workout:\(workout)",
      "workout.started",
      1,
      [
        "splitID": .string(split), "splitName": "Legs", "timeZone": "Europe/Paris",
        "logs": [
          [
            "logID": "01J0000000000000000000LG01", "order": 0, "name": "Squat", "sets": 2,
            "reps": 5,
            "weight": 105, "loadType": 1, "durationSeconds": 0, "completed": false,
          ]
        ],
      ]
    ),
    stored(
      4,
      "workout:\(workout)",
      "set.completed",
      1,
      ["logID": "01J0000000000000000000LG01", "index": 1]
    ),
    stored(
      5,
      "workout:\(workout)",
      "log.completed",
      1,
      ["logID": "01J0000000000000000000LG01", "completed": true]
    ),
  ]

  static let current: [StoredEvent] = [
    stored(
      1,
      "split:\(split)",
      "split.created",
      2,
      ["name": "Legs", "color": "green", "systemImage": "figure.run", "order": 0]
    ),
    stored(
      6,
      "split:\(split)",
      "exercise.added",
      3,
      [
        "exerciseID": "01J0000000000000000000EX01", "name": "Squat", "order": 0, "sets": 2,
        "reps": 5,
        "weight": 100.0, "loadType": 1, "durationSeconds": 0,
      ],
      at: 1
    ),
    stored(
      2,
      "split:\(split)",
      "exercise.updated",
      3,
      ["exerciseID": "01J0000000000000000000EX01", "weight": 105.0]
    ),
    stored(
      3,
      "workout:\(workout)",
      "workout.started",
      3,
      [
        "splitID": .string(split), "splitName": "Legs", "timeZone": "Europe/Paris",
        "logs": [
          [
            "logID": "01J0000000000000000000LG01", "order": 0, "name": "Squat", "sets": 2,
            "reps": 5,
            "weight": 105.0, "loadType": 1, "durationSeconds": 0,
          ]
        ],
      ]
    ),
    stored(
      4,
      "workout:\(workout)",
      "set.completed",
      2,
      ["logID": "01J0000000000000000000LG01", "cursorOnly": true]
    ),
    stored(5, "workout:\(workout)", "log.completed", 2, ["logID": "01J0000000000000000000LG01"]),
  ]

  @Test func oldAndCurrentVersionsFoldToTheSameDocuments() throws {
    let old = try Journal(store: InMemoryEventStore(events: Self.old), newID: { "" })
    let current = try Journal(store: InMemoryEventStore(events: Self.current), newID: { "" })
    #expect(old.quarantined.isEmpty)
    #expect(old.state().anomalies.isEmpty)
    let tree = try old.state().documentTree()
    #expect(tree.count == 2)
    #expect(tree == (try current.state().documentTree()))
    let workout = try #require(old.state().workouts[Self.workout]?.document)
    let provenance = try #require(
      old.state().workouts[Self.workout]?.provenance["01J0000000000000000000LG01"]
    )
    #expect(provenance.map(\.kind) == [.cursorOnly, .filledFromPlan])
    #expect(workout.logs[0].setEntries?.map(\.weight) == [105, 105])
  }

  @Test func aNewerVersionQuarantinesItsStreamAndSaysWhy() throws {
    var events = Self.current
    events.append(
      Self.stored(
        7,
        "workout:\(Self.workout)",
        "set.completed",
        9,
        ["logID": "01J0000000000000000000LG01"]
      )
    )
    let journal = try Journal(store: InMemoryEventStore(events: events), newID: { "" })
    let reason = try #require(journal.quarantined["workout:\(Self.workout)"])
    #expect(
      reason.contains("event 'set.completed' has version 9; the highest this build reads is 3")
    )
    let state = journal.state()
    #expect(state.workouts[Self.workout] == nil)
    #expect(state.splits[Self.split] != nil)
  }
}
