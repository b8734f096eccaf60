import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

/// `WorkoutTiming`: work, rest, exercise and workout durations and density from the times the
/// events carry, and nothing invented where a time is not known.
@Suite struct WorkoutTimingTests {
  /// A started "Upper Body" workout (Bench 3×5 @ 100, Push-up 2×15, Plank 2×60 s) whose start
  /// is `h.now` before the call returns.
  static func started() throws -> (h: JournalHarness, start: Date) {
    let h = try JournalHarness()
    try h.makeUpperBody()
    let start = h.now
    try h.run(.startWorkout(split: "Upper Body", timeZone: "Europe/Paris"), advance: 120)
    return (h, start)
  }

  /// Records a set that began `work` seconds before the clock, then rests `rest` seconds.
  static func set(
    _ h: JournalHarness,
    _ exercise: String,
    work: TimeInterval?,
    rest: TimeInterval,
    _ actuals: SetActuals = SetActuals()
  ) throws {
    let started = work.map { h.now - $0 }
    try h.run(
      .completeSet(workout: nil, exercise: exercise, actuals, startedAt: started),
      advance: rest
    )
  }

  static func timing(_ h: JournalHarness) throws -> WorkoutTiming {
    WorkoutTiming(of: try #require(h.state.liveWorkouts.last))
  }
}

// MARK: - Sets

extension WorkoutTimingTests {
  @Test func workAndRestComeFromTheRecordedTimes() throws {
    let (h, _) = try Self.started()
    try Self.set(h, "Bench Press", work: 40, rest: 90)
    try Self.set(h, "Bench Press", work: 35, rest: 100)
    try Self.set(h, "Bench Press", work: 30, rest: 120)
    let bench = try #require(try Self.timing(h).exercises.first)
    #expect(bench.sets.map(\.work) == [40, 35, 30])
    // The rest before a set ends when its work begins: the rest period minus its work.
    #expect(bench.sets.map(\.restBefore) == [nil, 55, 70])
    #expect(bench.sets.map(\.isFirstOfWorkout) == [true, false, false])
    // From the first set's start to the last set's done time.
    #expect(bench.duration == TimeInterval(40 + 90 + 100))
    #expect(bench.volume == 1500)
    #expect(bench.density == 1500 / (230.0 / 60))
  }

  @Test func theRestBeforeASetFollowsTheSetDoneBeforeItInAnyExercise() throws {
    let (h, _) = try Self.started()
    try Self.set(h, "Bench Press", work: 40, rest: 90)
    try Self.set(h, "Push-up", work: 20, rest: 60)
    try Self.set(h, "Bench Press", work: 30, rest: 60)
    let timing = try Self.timing(h)
    #expect(timing.set(1, ofLog: timing.exercises[1].logID)?.restBefore == 70)
    #expect(timing.set(2, ofLog: timing.exercises[0].logID)?.restBefore == 30)
  }

  @Test func aSetWithoutAStartHasNoWorkAndNoRest() throws {
    let (h, _) = try Self.started()
    try Self.set(h, "Bench Press", work: 40, rest: 90)
    try Self.set(h, "Bench Press", work: nil, rest: 90)
    try Self.set(h, "Bench Press", work: 30, rest: 90)
    let bench = try #require(try Self.timing(h).exercises.first)
    #expect(bench.sets[1].startedAt == nil)
    #expect(bench.sets[1].work == nil && bench.sets[1].restBefore == nil)
    // The set after it rests from its done time, which is known.
    #expect(bench.sets[2].restBefore == 60)
    #expect(bench.duration == TimeInterval(40 + 90 + 90))
  }

  @Test func anExerciseWhoseFirstStartIsUnknownHasNoDuration() throws {
    let (h, _) = try Self.started()
    try Self.set(h, "Bench Press", work: nil, rest: 90)
    try Self.set(h, "Bench Press", work: 30, rest: 90)
    let bench = try #require(try Self.timing(h).exercises.first)
    #expect(bench.duration == nil && bench.density == nil)
  }

  @Test func setsFilledFromThePlanHaveNoTimesOfTheirOwn() throws {
    let (h, _) = try Self.started()
    try Self.set(h, "Bench Press", work: 40, rest: 60)
    try h.run(.completeLog(workout: nil, exercise: "Bench Press"), advance: 60)
    let bench = try #require(try Self.timing(h).exercises.first)
    #expect(bench.sets.map(\.isFilledFromPlan) == [false, true, true])
    #expect(bench.sets.dropFirst().allSatisfy { $0.startedAt == nil && $0.work == nil })
    #expect(bench.sets.dropFirst().allSatisfy { $0.restBefore == nil })
    // They count in volume; the duration spans the performed set only.
    #expect(bench.volume == 1500)
    #expect(bench.duration == 40)
  }

  @Test func aResetExerciseForgetsItsSetsTimes() throws {
    let (h, _) = try Self.started()
    try Self.set(h, "Bench Press", work: 40, rest: 60)
    try h.run(.resetLog(workout: nil, exercise: "Bench Press"), advance: 60)
    let bench = try #require(try Self.timing(h).exercises.first)
    #expect(bench.sets.isEmpty && bench.duration == nil)
  }

  @Test func olderEventsWithoutAStartReadAsUnknown() throws {
    let scenario = try ReadsScenario()
    let timing = WorkoutTiming(of: try #require(scenario.h.state.liveWorkouts.last))
    let sets = timing.exercises.flatMap(\.sets)
    #expect(!sets.isEmpty)
    #expect(sets.allSatisfy { $0.startedAt == nil && $0.work == nil && $0.restBefore == nil })
  }
}

// MARK: - The workout

extension WorkoutTimingTests {
  @Test func theWorkoutLastsFromItsStartToItsEnd() throws {
    let (h, start) = try Self.started()
    try Self.set(h, "Bench Press", work: 40, rest: 60)
    #expect(try Self.timing(h).duration == nil)
    try h.run(.endWorkout(workout: nil), advance: 0)
    let timing = try Self.timing(h)
    let end = try #require(timing.end)
    #expect(timing.start == start)
    #expect(timing.duration == end.timeIntervalSince(start))
    #expect(timing.volume == 500)
    #expect(timing.density == 500 / ((timing.duration ?? 0) / 60))
  }

  @Test func theTimingEncodesUnknownTimesAsNull() throws {
    let (h, _) = try Self.started()
    try Self.set(h, "Bench Press", work: nil, rest: 60)
    let data = try DocumentCoder.encodeWithFoundation(try Self.timing(h))
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""startedAt" : null"#))
    #expect(text.contains(#""work" : null"#))
    #expect(text.contains(#""duration" : null"#))
  }
}

// MARK: - Validation

extension WorkoutTimingTests {
  @Test func aStartAfterTheSetIsDoneIsRefused() throws {
    let (h, _) = try Self.started()
    h.expectRefused(
      .completeSet(workout: nil, exercise: nil, SetActuals(), startedAt: h.now + 5),
      containing: "after it is done"
    )
  }

  @Test func aStartBeforeTheWorkoutIsRefused() throws {
    let (h, start) = try Self.started()
    h.expectRefused(
      .completeSet(workout: nil, exercise: nil, SetActuals(), startedAt: start - 1),
      containing: "before its workout"
    )
  }

  @Test func theStartSurvivesTheStoreAndTheSavedState() throws {
    let (h, _) = try Self.started()
    try Self.set(h, "Bench Press", work: 42.5, rest: 60)
    let stored = try #require(h.store.stored.last { $0.type == "set.completed" })
    #expect(stored.version == 3)
    let reopened = try Journal(store: h.store, newID: h.ids.make)
    let workout = try #require(reopened.state().liveWorkouts.last)
    #expect(WorkoutTiming(of: workout) == (try Self.timing(h)))
    #expect(WorkoutTiming(of: workout).exercises[0].sets[0].work == 42.5)
  }
}

// MARK: - Property

extension WorkoutTimingTests {
  /// Seeded histories of sets with and without starts, checked against a plain model: work is
  /// done − start, rest is start − the previous done time in the workout, unknown stays nil.
  @Test(arguments: 0..<16 as Range<UInt64>)
  func agreesWithAPlainModel(_ seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let (h, _) = try Self.started()
    var model: [(exercise: String, work: TimeInterval?, done: Date)] = []
    var remaining = ["Bench Press": 3, "Push-up": 2]
    while let exercise = remaining.filter({ $0.value > 0 }).keys.sorted().randomElement(
      using: &rng
    ) {
      remaining[exercise, default: 0] -= 1
      let work: TimeInterval? = rng.next() % 3 == 0 ? nil : TimeInterval(5 + rng.next() % 60)
      model.append((exercise, work, h.now))
      try Self.set(h, exercise, work: work, rest: TimeInterval(30 + rng.next() % 120))
    }
    let timing = try Self.timing(h)
    for (index, expected) in model.enumerated() {
      let exercise = try #require(timing.exercises.first { $0.exercise == expected.exercise })
      let number = model[...index].filter { $0.exercise == expected.exercise }.count
      let set = try #require(timing.set(number, ofLog: exercise.logID))
      #expect(set.completedAt == expected.done)
      #expect(set.work == expected.work)
      // A start before the previous set was done (two exercises overlapping) is no rest.
      let rest =
        index == 0
        ? nil
        : expected.work.flatMap {
          let seconds = expected.done.timeIntervalSince(model[index - 1].done) - $0
          return seconds >= 0 ? seconds : nil
        }
      #expect(set.restBefore == rest, "set \(index)")
    }
  }
}
