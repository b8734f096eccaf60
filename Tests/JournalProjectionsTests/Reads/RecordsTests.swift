import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@Suite struct RecordsTests {
  /// Two workouts of one weighted exercise: 5 × 100 then 3 × 110 and 8 × 90.
  func twoWorkouts() throws -> (JournalHarness, first: String, firstSet: String) {
    let h = try JournalHarness()
    try h.run(
      .createSplit(
        SplitSettings(name: "Push", color: "red", systemImage: "figure"),
        exercises: [
          ExercisePlan(
            name: "Bench",
            sets: 2,
            reps: 5,
            weight: 100,
            loadType: .weight,
            libraryName: "Bench Press"
          )
        ]
      )
    )
    try h.run(.startWorkout(split: "Push", timeZone: "UTC"))
    let first = try h.workout().id
    let firstSet = try #require(
      try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: 100))).first?
        .id
    )
    try h.run(.completeLog(workout: nil, exercise: nil))  // set 2 filled from the plan
    h.now += 2 * 86_400
    try h.run(.startWorkout(split: "Push", timeZone: "UTC"))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 3, weight: 110)))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 8, weight: 90)))
    return (h, first, firstSet)
  }

  func records(_ h: JournalHarness) throws -> ExerciseRecords {
    let all = ExerciseRecords.all(from: Audit(history: h.journal.history).rows)
    #expect(all.count == 1)
    return try #require(all.first)
  }

  @Test func recordsComeFromRecordedSetsOnly() throws {
    let (h, first, firstSet) = try twoWorkouts()
    let r = try records(h)
    #expect(r.exercise == "Bench Press")
    #expect(r.sets == 3)  // the filled set does not count
    #expect(r.heaviest?.weight == 110)
    #expect(r.heaviest?.reps == 3)
    // Epley: 90 × (1 + 8/30) = 114; 110 × 1.1 = 121; 100 × (1 + 5/30) ≈ 116.7
    #expect(r.bestEstimatedOneRepMax?.weight == 110)
    #expect(abs((r.bestEstimatedOneRepMax?.value ?? 0) - 121) < 1e-9)
    #expect(r.bestSetVolume?.value == 720)
    #expect(r.bestSession?.volume == 1050)
    #expect(r.bestSession?.workoutID != first)
    #expect(r.repsAtWeight.map(\.weight) == [110, 100, 90])
    #expect(r.repsAtWeight.map(\.reps) == [3, 5, 8])
    #expect(r.bestSetVolume?.eventID != firstSet)
  }

  @Test func adjustingAPastSetRecomputesTheRecordsAndUndoRestoresThem() throws {
    let (h, first, firstSet) = try twoWorkouts()
    let before = try records(h)
    try h.run(
      .adjustSet(workout: first, exercise: "Bench", set: 1, SetActuals(reps: 5, weight: 120))
    )
    let adjusted = try records(h)
    #expect(adjusted.heaviest?.weight == 120)
    #expect(adjusted.heaviest?.workoutID == first)
    #expect(adjusted.heaviest?.eventID == firstSet)
    #expect(adjusted.bestEstimatedOneRepMax?.value == 140)
    #expect(adjusted.bestSession == before.bestSession)  // 600 does not beat 1050
    #expect(adjusted.repsAtWeight.map(\.weight) == [120, 90])
    try h.journal.undo(device: "phone", now: h.now)
    #expect(try records(h) == before)
  }

  @Test func revertingARecordSetRemovesItsRecord() throws {
    let (h, _, _) = try twoWorkouts()
    try h.journal.undo(device: "phone", count: 2, now: h.now)
    let r = try records(h)
    #expect(r.heaviest?.weight == 100)
    #expect(r.sets == 1)
  }

  @Test func aTieKeepsTheEarlierSet() throws {
    let (h, _, _) = try twoWorkouts()
    try h.run(.addSet(workout: nil, exercise: nil))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 3, weight: 110)))
    let r = try records(h)
    let firstHeavy = Audit(history: h.journal.history).rows.first { $0.actual.weight == 110 }
    #expect(r.heaviest?.eventID == firstHeavy?.eventID)
  }

  @Test func cursorOnlyAndFilledSetsNeverCount() throws {
    let s = try ReadsScenario()
    let all = ExerciseRecords.all(from: Audit(history: s.history).rows)
    #expect(all.map(\.exercise) == ["Bench Press"])  // Push-up has no recorded set left
    #expect(all.first?.sets == 2)
    #expect(all.first?.heaviest?.weight == 102.5)
  }

  @Test func epleyEstimate() {
    #expect(ExerciseRecords.estimatedOneRepMax(weight: 100, reps: 1) == 100)
    #expect(ExerciseRecords.estimatedOneRepMax(weight: 90, reps: 30) == 180)
    #expect(ExerciseRecords.estimatedOneRepMax(weight: 100, reps: 0) == nil)
    #expect(ExerciseRecords.estimatedOneRepMax(weight: 0, reps: 5) == nil)
  }

  @Test func progressionHasOnePointPerFinishedLog() throws {
    let (h, first, _) = try twoWorkouts()  // the second set completed the second log
    // A third workout in progress: its set is not a point yet.
    try h.run(.startWorkout(split: "Push", timeZone: "UTC"))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 1, weight: 130)))
    let state = h.state
    let progression = Audit(history: h.journal.history).progression(of: "bench press", in: state)
    #expect(progression.exercise == "Bench Press")
    #expect(progression.points.map(\.workoutID).first == first)
    #expect(progression.points.map(\.topSetWeight) == [100, 110])
    #expect(progression.points.map(\.isAllActual) == [false, true])
    #expect(abs((progression.points.last?.bestEstimatedOneRepMax ?? 0) - 121) < 1e-9)
  }
}
