import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

@Suite struct DiffTests {
  @Test func anAdjustmentChangesItsFieldsAndTheStamps() throws {
    let s = try ReadsScenario()
    let before = try #require(s.history.last { $0.id < s.adjustment && $0.id != s.adjustment })
    let changes = try Diff.changes(
      history: s.history,
      from: .event(before.id),
      to: .event(s.adjustment)
    )
    #expect(changes.count == 1)
    let change = try #require(changes.first)
    #expect(change.path == (try s.workoutPath))
    #expect(change.kind == .changed)
    #expect(
      change.fields.map(\.pointer) == [
        "/logs/0/setEntries/1/reps", "/logs/0/updatedAt", "/updatedAt",
      ]
    )
    #expect(change.fields.first?.before == .int(4))
    #expect(change.fields.first?.after == .int(5))
  }

  @Test func fromTheStartEveryDocumentIsAdded() throws {
    let s = try ReadsScenario()
    let changes = try Diff.changes(history: s.history, from: nil, to: nil)
    #expect(changes.map(\.kind) == [.added, .added])
    #expect(changes.map(\.path).contains(try s.workoutPath))
    #expect(changes.allSatisfy { $0.fields.allSatisfy { $0.before == nil && $0.after != nil } })
  }

  @Test func aDeletionRemovesTheDocumentAndAddsItsStub() throws {
    let s = try ReadsScenario()
    let last = try #require(s.history.last).id
    try s.h.run(.deleteWorkout(workout: s.workoutID))
    let changes = try Diff.changes(history: s.history, from: .event(last), to: nil)
    let path = try s.workoutPath
    #expect(changes.map(\.path) == ["Stubs/" + path, path])
    #expect(changes.map(\.kind) == [.added, .removed])
  }

  @Test func samePointsDifferInNothing() throws {
    let s = try ReadsScenario()
    #expect(try Diff.changes(history: s.history, from: .event(s.undo), to: .event(s.undo)).isEmpty)
  }

  @Test func pointersEscapeAndOrderNumerically() {
    #expect(DocumentFields.escape("a/b~c") == "a~1b~0c")
    #expect(DocumentFields.pointerOrder("/logs/2/x", "/logs/10/x"))
    #expect(DocumentFields.pointer("/logs/0/sets", isWithin: "/logs/0"))
    #expect(!DocumentFields.pointer("/logs/00", isWithin: "/logs/0"))
  }
}
