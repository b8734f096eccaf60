import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalCLI
@testable import JournalProjections

/// The run flow driven through whole workouts with a virtual clock: every action a library
/// command on an in-memory journal, the documents as the same workout typed as commands.
@Suite struct RunFlowTests {
  /// A journal with "Push" (Bench 2×5 @ 60, Plank 1×30 s; rest 60 s), a workout started from
  /// it, and a flow on it.
  struct Fixture {
    let h: JournalHarness
    let runner: JournalRunner
    var flow: RunFlow
    /// The virtual clock.
    var now: Date

    init(flowMode: Bool = false, finishCountdown: Int = 10, leadIn: Int = 3) throws {
      let h = try JournalHarness()
      try Self.makePush(h, flowMode: flowMode)
      let started = try h.run(.startWorkout(split: "Push", timeZone: "UTC"), advance: 0)
      let id = try #require(started.first?.streamID)
      self.h = h
      runner = JournalRunner(
        journal: h.journal,
        device: "phone",
        workoutID: id,
        stampsActionTimes: true
      )
      flow = RunFlow(
        workout: try runner.workout(),
        settings: RunFlow.Settings(rest: 90, leadIn: leadIn, finishCountdown: finishCountdown)
      )
      now = h.now
    }

    static func makePush(_ h: JournalHarness, flowMode: Bool) throws {
      var settings = SplitSettings(name: "Push", color: "red", systemImage: "dumbbell")
      settings.restSeconds = 60
      settings.autoAdvance = flowMode
      try h.run(
        .createSplit(
          settings,
          exercises: [
            ExercisePlan(name: "Bench", sets: 2, reps: 5, weight: 60, loadType: .weight),
            ExercisePlan(
              name: "Plank",
              sets: 1,
              reps: 0,
              weight: 0,
              loadType: .duration,
              durationSeconds: 30
            ),
          ]
        ),
        advance: 0
      )
    }

    /// Presses `key` after `seconds` pass.
    mutating func press(_ key: RunKey, after seconds: TimeInterval = 1) throws {
      now += seconds
      try flow.handle(key, at: now, journal: runner)
    }

    mutating func press(_ character: Character, after seconds: TimeInterval = 1) throws {
      try press(.character(character), after: seconds)
    }

    /// Lets `seconds` pass, the timers ticking each second.
    mutating func wait(_ seconds: Int) {
      for _ in 0..<seconds {
        now += 1
        flow.tick(at: now, journal: runner)
      }
    }

    var stored: [StoredEvent] { h.store.stored }
    var document: WorkoutDocument { flow.workout.document }
    func log(_ name: String) throws -> WorkoutLogDocument {
      try #require(document.logs.first { $0.exerciseName == name })
    }
  }

  /// A document without its times: what typed commands and the flow must agree on.
  static func shape(_ d: WorkoutDocument) -> String {
    var lines = ["\(d.splitName ?? "") \(d.status.rawValue) ended:\(d.end != nil)"]
    for log in d.logs {
      let entries = (log.setEntries ?? []).map {
        "\($0.reps ?? -1)x\($0.weight ?? -1)/\($0.seconds ?? -1)"
      }
      lines.append(
        "\(log.exerciseName) \(log.status.rawValue) \(log.sets) [\(entries.joined(separator: " "))]"
      )
    }
    return lines.joined(separator: "\n")
  }

  /// The same workout typed as commands.
  static func typed(_ commands: [JournalCommand], flowMode: Bool = false) throws -> WorkoutDocument
  {
    let h = try JournalHarness()
    try Fixture.makePush(h, flowMode: flowMode)
    try h.run(.startWorkout(split: "Push", timeZone: "UTC"))
    for command in commands { try h.run(command) }
    return try h.workout()
  }
}

// MARK: - Whole workouts

extension RunFlowTests {
  @Test func aWholeWorkoutWithoutFlowMode() throws {
    var f = try Fixture()
    #expect(f.flow.page == .list && f.flow.cursor == 0)
    try f.press(.enter)
    guard case .ready(let until) = f.flow.page else {
      Issue.record("expected Ready?, got \(f.flow.page)")
      return
    }
    f.wait(3)
    #expect(f.flow.page == .work(since: until))
    try f.press(.enter, after: 40)
    // The set is recorded with the start of its work, and the rest begins.
    let set = try #require(f.flow.workout.provenance[try f.log("Bench").id]?.first)
    #expect(set.startedAt == until)
    guard case .rest(_, then: .nextSet) = f.flow.page else {
      Issue.record("expected a rest, got \(f.flow.page)")
      return
    }
    f.wait(60)
    guard case .work = f.flow.page else {
      Issue.record("expected work after the rest, got \(f.flow.page)")
      return
    }
    try f.press(.enter, after: 35)
    guard case .finish(let doneAt) = f.flow.page else {
      Issue.record("expected Finish, got \(f.flow.page)")
      return
    }
    #expect(doneAt == f.now + 10)
    try f.press("d")
    #expect(f.flow.page == .list && f.flow.cursor == 1)
    // The timed exercise counts down its planned seconds; its end rings once.
    #expect(f.flow.takeBells() == 3)  // the last seconds of the rest before set 2
    try f.press(.enter)
    try f.press(.enter)
    f.wait(31)
    #expect(f.flow.takeBells() == 1)
    f.wait(5)
    #expect(f.flow.takeBells() == 0)
    try f.press(.enter)
    try f.press(.enter)
    #expect(f.flow.page == .complete)
    #expect(f.document.status == .completed)
    let typed = try Self.typed([
      .completeSet(workout: nil, exercise: "Bench", SetActuals()),
      .completeSet(workout: nil, exercise: "Bench", SetActuals(), keepOpen: true),
      .completeLog(workout: nil, exercise: "Bench"),
      .completeSet(workout: nil, exercise: "Plank", SetActuals()),
    ])
    #expect(Self.shape(f.document) == Self.shape(typed))
    try f.press(.enter)
    #expect(f.flow.page == .left)
  }

  @Test func flowModeRestsThenMovesIntoTheNextExercise() throws {
    var f = try Fixture(flowMode: true)
    #expect(f.flow.flowMode)
    try f.press(.enter)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    f.wait(60)
    try f.press(.enter, after: 30)
    try f.press(.enter)
    guard case .rest(_, then: .nextExercise) = f.flow.page else {
      Issue.record("expected the rest before the next exercise, got \(f.flow.page)")
      return
    }
    #expect(f.flow.currentLog?.exerciseName == "Plank")
    f.wait(60)
    guard case .ready = f.flow.page else {
      Issue.record("expected Ready? for Plank, got \(f.flow.page)")
      return
    }
    #expect(f.flow.currentLog?.exerciseName == "Plank")
  }

  @Test func doneCompletesByItselfAfterTheCountdown() throws {
    var f = try Fixture(finishCountdown: 5)
    try f.press(.enter)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    let before = f.stored.count
    f.wait(4)
    #expect(f.stored.count == before)
    f.wait(1)
    #expect(f.stored.count == before + 1)
    #expect(try f.log("Bench").status == .completed)
    #expect(f.flow.page == .list)
  }

  @Test func aCountdownOfZeroNeverFinishesByItself() throws {
    var f = try Fixture(finishCountdown: 0)
    try f.press(.enter)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    #expect(f.flow.page == .finish(doneAt: nil))
    let before = f.stored.count
    f.wait(600)
    #expect(f.stored.count == before)
  }

  @Test func oneMoreAddsASetThenRestsIntoIt() throws {
    var f = try Fixture()
    try f.press(.enter)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    try f.press("m")
    guard case .rest(_, then: .nextSet) = f.flow.page else {
      Issue.record("expected a rest before the extra set, got \(f.flow.page)")
      return
    }
    #expect(try f.log("Bench").sets == 3)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    #expect(try f.log("Bench").setEntries?.count == 3)
    guard case .finish = f.flow.page else {
      Issue.record("expected Finish after the extra set, got \(f.flow.page)")
      return
    }
    try f.press("d")
    let typed = try Self.typed([
      .completeSet(workout: nil, exercise: "Bench", SetActuals()),
      .completeSet(workout: nil, exercise: "Bench", SetActuals(), keepOpen: true),
      .addSet(workout: nil, exercise: "Bench"),
      .completeSet(workout: nil, exercise: "Bench", SetActuals(), keepOpen: true),
      .completeLog(workout: nil, exercise: "Bench"),
    ])
    #expect(Self.shape(f.document) == Self.shape(typed))
  }
}

// MARK: - Keys

extension RunFlowTests {
  @Test func changedValuesAreRecordedAndTheLastSetCorrected() throws {
    var f = try Fixture()
    try f.press(.enter)
    try f.press(.enter)
    try f.press("+")
    try f.press("]")
    try f.press(.enter, after: 30)
    #expect(try f.log("Bench").setEntries?.first?.reps == 6)
    #expect(try f.log("Bench").setEntries?.first?.weight == 62.5)
    // On the rest page the keys correct the set just done.
    try f.press("-")
    try f.press("-")
    try f.press("a")
    #expect(try f.log("Bench").setEntries?.first?.reps == 4)
    let adjusted = f.stored.last { $0.type == JournalEvent.TypeName.setAdjusted }
    #expect(adjusted != nil)
    guard case .rest = f.flow.page else {
      Issue.record("a correction stays on the rest, got \(f.flow.page)")
      return
    }
  }

  @Test func undoTakesBackTheLastSetAndReturnsToItsWorkPage() throws {
    var f = try Fixture(leadIn: 0)
    try f.press(.enter)
    let began = f.now
    try f.press("+", after: 10)
    try f.press(.enter, after: 30)
    #expect(try f.log("Bench").setEntries?.count == 1)
    try f.press("u", after: 5)
    #expect(try f.log("Bench").setEntries ?? [] == [])
    #expect(f.stored.last?.type == JournalEvent.TypeName.eventsReverted)
    // The set is to do again: its work page, with its start and the values changed on it.
    #expect(f.flow.page == .work(since: began))
    #expect(f.flow.draft.reps == 6)
    try f.press(.enter, after: 20)
    let set = try #require(f.flow.workout.provenance[try f.log("Bench").id]?.last)
    #expect(set.startedAt == began)
    #expect(try f.log("Bench").setEntries?.map(\.reps) == [6])
  }

  @Test func undoOnFinishReturnsToTheLastSet() throws {
    var f = try Fixture(finishCountdown: 5, leadIn: 0)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    f.wait(60)
    guard case .work(let began) = f.flow.page else {
      Issue.record("expected the second set's work, got \(f.flow.page)")
      return
    }
    try f.press(.enter, after: 30)
    guard case .finish = f.flow.page else {
      Issue.record("expected Finish, got \(f.flow.page)")
      return
    }
    try f.press("u")
    #expect(f.flow.page == .work(since: began))
    #expect(f.flow.currentLog?.exerciseName == "Bench")
    #expect(try f.log("Bench").setEntries?.count == 1)
    // The timer of the page left is gone: nothing completes by itself.
    let before = f.stored.count
    f.wait(30)
    #expect(f.stored.count == before)
  }

  @Test func undoingOneMoreOrDoneReturnsToFinish() throws {
    var f = try Fixture(flowMode: true, finishCountdown: 5, leadIn: 0)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    f.wait(60)
    try f.press(.enter, after: 30)
    try f.press("m")
    #expect(try f.log("Bench").sets == 3)
    try f.press("u")
    #expect(try f.log("Bench").sets == 2)
    // Finish again, its countdown started over.
    #expect(f.flow.page == .finish(doneAt: f.now + 5))
    try f.press("d")
    guard case .rest(_, then: .nextExercise) = f.flow.page else {
      Issue.record("expected the rest before Plank, got \(f.flow.page)")
      return
    }
    try f.press("u")
    #expect(try f.log("Bench").status == .inProgress)
    #expect(f.flow.page == .finish(doneAt: f.now + 5))
    #expect(f.flow.currentLog?.exerciseName == "Bench")
    // Undoing twice goes two actions back: the One More was undone, so the last set.
    try f.press("u")
    guard case .work = f.flow.page else {
      Issue.record("expected the last set's work, got \(f.flow.page)")
      return
    }
    #expect(try f.log("Bench").setEntries?.count == 1)
  }

  @Test func undoingAnActionTakenElsewhereShowsTheListOnItsExercise() throws {
    let f = try Fixture()
    // A set typed on the same device before the flow began ('journal done Plank').
    _ = try f.runner.execute(
      .completeSet(workout: nil, exercise: "Plank", SetActuals(), keepOpen: true),
      at: f.now
    )
    var flow = RunFlow(workout: try f.runner.workout(), settings: f.flow.settings)
    try flow.handle(.enter, at: f.now + 1, journal: f.runner)
    try flow.handle(.character("u"), at: f.now + 2, journal: f.runner)
    #expect(try f.runner.workout().log(try f.log("Plank").id)?.setEntries ?? [] == [])
    #expect(flow.page == .list && flow.cursor == 1)
  }

  @Test func anExerciseTakenUpAfterItsLastSetIsOnFinish() throws {
    let f = try Fixture()
    // As after a crash on Finish: every planned set recorded, the exercise still open.
    for _ in 0..<2 {
      _ = try f.runner.execute(
        .completeSet(workout: nil, exercise: "Bench", SetActuals(), keepOpen: true),
        at: f.now
      )
    }
    var flow = RunFlow(workout: try f.runner.workout(), settings: f.flow.settings)
    #expect(flow.cursor == 0)
    try flow.handle(.enter, at: f.now + 1, journal: f.runner)
    #expect(flow.page == .finish(doneAt: f.now + 11))
    try flow.handle(.enter, at: f.now + 2, journal: f.runner)
    #expect(flow.workout.log(try f.log("Bench").id)?.status == .completed)
  }

  @Test func resetStartsTheExerciseOver() throws {
    var f = try Fixture()
    try f.press(.enter)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    f.wait(60)
    try f.press("r")
    #expect(try f.log("Bench").status == .notStarted)
    guard case .ready = f.flow.page else {
      Issue.record("expected Ready? after a reset, got \(f.flow.page)")
      return
    }
  }

  @Test func skipKeepsTheSetsAndMovesOn() throws {
    var f = try Fixture()
    try f.press(.enter)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    try f.press("s")
    #expect(try f.log("Bench").status == .skipped)
    #expect(try f.log("Bench").setEntries?.count == 1)
    #expect(f.flow.page == .list && f.flow.cursor == 1)
  }

  @Test func aRefusedActionShowsWhyAndAppendsNothing() throws {
    var f = try Fixture()
    try f.press("s")
    #expect(try f.log("Bench").status == .skipped)
    try f.press(.up)
    #expect(f.flow.cursor == 0)
    let before = f.stored
    // One More on a skipped exercise: the library refuses it.
    try f.press("m")
    #expect(f.stored == before)
    #expect(f.flow.messageIsError)
    #expect(f.flow.message?.contains("was skipped") == true)
    #expect(f.flow.page == .list)
  }

  @Test func leavingKeepsTheWorkoutInProgress() throws {
    var f = try Fixture()
    try f.press(.enter)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    try f.press("q")
    #expect(f.flow.page == .left)
    #expect(f.document.status == .inProgress)
  }

  @Test func endKeepsProgressAndResolvesTheRest() throws {
    var f = try Fixture()
    try f.press(.enter)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    try f.press("e")
    #expect(f.flow.page == .complete)
    #expect(try f.log("Bench").setEntries?.count == 1)
    #expect(f.document.end != nil)
  }

  @Test func theLastSecondsOfARestRingOnceEach() throws {
    var f = try Fixture()
    try f.press(.enter)
    try f.press(.enter)
    try f.press(.enter, after: 30)
    f.wait(56)
    #expect(f.flow.takeBells() == 0)
    f.wait(3)
    #expect(f.flow.takeBells() == 3)
    // A longer rest rings again at its own end.
    try f.press("x", after: 0)
    f.wait(27)
    #expect(f.flow.takeBells() == 0)
    f.wait(3)
    #expect(f.flow.takeBells() == 3)
  }
}
