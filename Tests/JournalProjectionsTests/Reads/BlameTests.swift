import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@Suite struct BlameTests {
  func credit(_ s: ReadsScenario, _ field: String) throws -> Blame.Line {
    let lines = try Blame.lines(path: try s.workoutPath, field: field, history: s.history)
    #expect(lines.count == 1)
    return try #require(lines.first)
  }

  func event(_ s: ReadsScenario, _ type: String, log: String? = nil) throws -> FoldEvent {
    try #require(
      s.history.last { $0.event.typeName == type && (log == nil || $0.event.logID == log) }
    )
  }

  @Test func anAdjustedWeightIsCreditedToTheAdjustmentAndItsRepsToo() throws {
    let s = try ReadsScenario()
    // Bench Press is log 0; set 2 was recorded at 102.5 and its reps adjusted.
    let weight = try credit(s, "/logs/0/setEntries/1/weight")
    #expect(weight.value.doubleValue == 102.5)
    #expect(weight.credit.eventID == s.secondSet)
    #expect(weight.credit.device == "phone")
    let reps = try credit(s, "/logs/0/setEntries/1/reps")
    #expect(reps.value == .int(5))
    #expect(reps.credit.eventID == s.adjustment)
    #expect(reps.credit.device == "watch")
    #expect(reps.credit.type == "set.adjusted")
  }

  @Test func theAdjustedWeightIsCreditedToAWeightAdjustment() throws {
    let s = try ReadsScenario()
    let events = try s.h.run(
      .adjustSet(workout: s.workoutID, exercise: "Bench Press", set: 2, SetActuals(weight: 105)),
      device: "laptop"
    )
    let weight = try credit(s, "/logs/0/setEntries/1/weight")
    #expect(weight.value.doubleValue == 105)
    #expect(weight.credit.eventID == events.first?.id)
    #expect(weight.credit.device == "laptop")
  }

  @Test func undoingAnAdjustmentGivesTheFieldBackToTheSet() throws {
    let s = try ReadsScenario()
    try s.h.run(
      .adjustSet(workout: s.workoutID, exercise: "Bench Press", set: 2, SetActuals(weight: 105)),
      device: "laptop"
    )
    try s.h.journal.undo(device: "laptop", now: s.h.now)
    let weight = try credit(s, "/logs/0/setEntries/1/weight")
    #expect(weight.value.doubleValue == 102.5)
    #expect(weight.credit.eventID == s.secondSet)
  }

  @Test func statusAndEndAreCreditedToTheEventThatResolvedTheLastLog() throws {
    let s = try ReadsScenario()
    let skip = try event(s, "log.skipped")
    let status = try credit(s, "/status")
    #expect(status.value == .string("completed"))
    #expect(status.credit.eventID == skip.id)
    let end = try credit(s, "/end")
    #expect(end.credit.eventID == skip.id)
    let pushStatus = try credit(s, "/logs/1/status")
    #expect(pushStatus.credit.eventID == (try event(s, "log.completed", log: s.pushID)).id)
  }

  @Test func aFieldHoldingOthersListsEachOne() throws {
    let s = try ReadsScenario()
    let lines = try Blame.lines(
      path: try s.workoutPath,
      field: "/logs/0/setEntries/2",
      history: s.history
    )
    #expect(
      lines.map(\.pointer) == [
        "/logs/0/setEntries/2/completedAt", "/logs/0/setEntries/2/reps",
        "/logs/0/setEntries/2/weight",
      ]
    )
    let completion = try event(s, "log.completed", log: s.benchID)
    #expect(lines.allSatisfy { $0.credit.eventID == completion.id })
  }

  @Test func aRevertedEventIsNeverCredited() throws {
    let s = try ReadsScenario()
    let lines = try Blame.lines(path: try s.workoutPath, history: s.history)
    #expect(!lines.contains { $0.credit.eventID == s.undoneSet || $0.credit.eventID == s.undo })
    #expect(lines.contains { $0.pointer == "/schemaVersion" })
  }

  @Test func splitDocumentsAreBlamedToo() throws {
    let s = try ReadsScenario()
    let split = try #require(s.h.state.liveSplits.first)
    var update = SplitUpdated()
    update.restSeconds = .set(120)
    let events = try s.h.run(.updateSplit(split: "Upper Body", update))
    let line = try #require(
      try Blame.lines(
        path: "Splits/\(split.document.id).json",
        field: "/restSeconds",
        history: s.history
      ).first
    )
    #expect(line.credit.eventID == events.first?.id)
    #expect(line.value == .int(120))
  }

  @Test func unknownDocumentsAndFieldsAreRefused() throws {
    let s = try ReadsScenario()
    #expect(throws: CommandError.self) {
      try Blame.lines(path: "Workouts/2020/01/01JNOPE.json", history: s.history)
    }
    #expect(throws: CommandError.self) {
      try Blame.lines(path: "notes.txt", history: s.history)
    }
    #expect(throws: CommandError.self) {
      try Blame.lines(path: try s.workoutPath, field: "/nope", history: s.history)
    }
  }
}
