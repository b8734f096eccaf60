import Foundation
import JournalCore
import Testing

@testable import JournalProjections

/// A workout keeps each log's entry sources beside the log (`WorkoutState.sources`): the
/// same provenance as a dictionary by log id, whatever changed the logs.
@Suite struct WorkoutSourcesTests {
  static let start = Date(timeIntervalSince1970: 0)

  static func entry(_ key: String) -> EntryProvenance {
    EntryProvenance(
      kind: .recorded,
      event: EventID(key),
      device: "phone",
      original: SetEntry(completedAt: start)
    )
  }

  static func log(_ id: String, order: Int) -> WorkoutLogDocument {
    WorkoutLogDocument(
      plan: LogPlan(
        logID: id,
        order: order,
        plan: ExercisePlan(name: id, sets: 3, reps: 5, weight: 20, loadType: .weight)
      ),
      date: start
    )
  }

  static func workout(logs: [String]) -> WorkoutState {
    var document = WorkoutDocument(id: "w", start: start, createdAt: start, updatedAt: start)
    document.logs = logs.enumerated().map { log($1, order: $0) }
    return WorkoutState(document: document, timeZone: .gmt)
  }

  @Test func provenanceReadsBackAsItWasSetWithASlotPerLog() {
    var workout = Self.workout(logs: ["b", "a", "c"])
    let sources = ["a": [Self.entry("1")], "c": [], "gone": [Self.entry("2")]]
    workout.provenance = sources
    #expect(workout.provenance == sources)
    #expect(workout.sources.map(\.logID) == ["b", "a", "c", "gone"])
    #expect(workout.sources.map(\.entries) == [nil, [Self.entry("1")], [], [Self.entry("2")]])
    // The same sources set in another order, or from a checkpoint, make an equal workout.
    var again = Self.workout(logs: ["b", "a", "c"])
    again.provenance = Dictionary(uniqueKeysWithValues: sources.reversed())
    #expect(again == workout)
  }

  /// Logs changed behind the fold's back: the slot found out of line is lined up before it
  /// is used, and no source is lost or given to another log.
  @Test func aSlotOutOfLineIsLinedUpBeforeUse() {
    var workout = Self.workout(logs: ["a", "b", "c"])
    workout.provenance = ["a": [Self.entry("1")], "c": [Self.entry("3")]]
    workout.document.logs.reverse()
    workout.document.logs.insert(Self.log("d", order: 9), at: 1)
    for (index, id, entries) in [(0, "c", [Self.entry("3")]), (3, "a", [Self.entry("1")])] {
      let slot = workout.sourcesSlot(ofLogAt: index)
      #expect(workout.document.logs[index].id == id)
      #expect(workout.sources[slot].logID == id)
      #expect(workout.sources[slot].entries == entries)
    }
    #expect(workout.sources.map(\.logID) == ["c", "d", "b", "a"])
    #expect(workout.provenance == ["a": [Self.entry("1")], "c": [Self.entry("3")]])
  }

  /// The fold of a log added, sets recorded on it and on another, and a log removed: the
  /// sources follow their logs.
  @Test func theFoldKeepsSourcesWithTheirLogs() {
    var workout = Self.workout(logs: ["a", "c"])
    workout.alignSources()
    func event(_ id: String, _ event: JournalEvent) -> FoldEvent {
      FoldEvent(
        id: id,
        device: "phone",
        sequence: 1,
        milliseconds: 0,
        stream: "workout:w",
        event: event
      )
    }
    let plan = LogPlan(
      logID: "b",
      order: 1,
      plan: ExercisePlan(name: "b", sets: 1, reps: 1, weight: 0, loadType: .none)
    )
    #expect(
      workout.apply(event("e1", .setCompleted(SetCompleted(logID: "c", actuals: nil)))) == nil
    )
    #expect(workout.apply(event("e2", .logAdded(plan))) == nil)
    #expect(workout.document.logs.map(\.id) == ["a", "b", "c"])
    // The same log again is refused, and changes nothing.
    let added = workout
    #expect(workout.apply(event("e2b", .logAdded(plan))) == "log 'b' exists already")
    #expect(workout == added)
    #expect(
      workout.apply(event("e3", .setCompleted(SetCompleted(logID: "b", actuals: nil)))) == nil
    )
    #expect(
      workout.apply(event("e4", .setCompleted(SetCompleted(logID: "c", actuals: nil)))) == nil
    )
    #expect(
      workout.provenance.mapValues { $0.map(\.eventID) } == ["b": ["e3"], "c": ["e1", "e4"]]
    )
    #expect(workout.apply(event("e5", .logRemoved(logID: "b"))) == nil)
    #expect(workout.sources.map(\.logID) == ["a", "c"])
    #expect(workout.provenance.mapValues { $0.map(\.eventID) } == ["c": ["e1", "e4"]])
  }

  /// A log found by its id's text takes the event's string from then on, as its slot does:
  /// the document and its sources stay equal, and the next events that share the string
  /// find the log by identity.
  @Test func aLogFoundByTextTakesTheEventsString() {
    let ids = ["00AH2JBTZGE5B23WDH0T2BE1TA", "00AH2JBTZGE5B23WDH0T2BE1TB"]
    var workout = Self.workout(logs: ids)
    workout.provenance = [ids[1]: [Self.entry("1")]]
    let before = workout
    // The same text in storage of its own, as another device's events read it.
    let named = String(decoding: Array(ids[1].utf8), as: UTF8.self)
    #expect(!named.isIdentical(to: workout.document.logs[1].id))
    #expect(workout.logIndex(adopting: named) == 1)
    #expect(workout.document.logs[1].id.isIdentical(to: named))
    #expect(workout.sources[1].logID.isIdentical(to: named))
    #expect(!workout.document.logs[0].id.isIdentical(to: named))
    #expect(workout == before)
    #expect(workout.provenance == [ids[1]: [Self.entry("1")]])
    #expect(workout.logIndex(adopting: named) == 1)
    #expect(workout.logIndex(named) == 1)
    #expect(workout.log(named)?.id == ids[1])
    // An id with no log: nothing found, nothing changed.
    #expect(workout.logIndex(adopting: "00AH2JBTZGE5B23WDH0T2BE1TC") == nil)
    #expect(workout == before)
  }
}
