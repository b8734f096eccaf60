import Foundation
import JournalTestSupport
import Testing

@testable import JournalProjections

@Suite struct FoldScenarioTests {
  let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

  func started() throws -> JournalHarness {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "upper body", timeZone: "Europe/Paris"))
    return h
  }

  @Test func startingSnapshotsThePlanAndTheRoutine() throws {
    let h = try started()
    let workout = try h.workout()
    #expect(workout.status == .notStarted)
    #expect(workout.splitName == "Upper Body")
    #expect(workout.restSeconds == 90)
    #expect(workout.start == t0 + 60)
    #expect(workout.createdAt == workout.start)
    #expect(workout.logs.map(\.exerciseName) == ["Bench Press", "Push-up", "Plank"])
    #expect(workout.logs.allSatisfy { $0.setEntries == nil && $0.status == .notStarted })
    #expect(workout.end == nil)
  }

  @Test func doneRecordsActualsAndDefaultsToThePlan() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 4)))
    let bench = try h.log("Bench Press")
    #expect(bench.status == .inProgress)
    #expect(bench.startedAt == t0 + 120)
    #expect(bench.setEntries == [SetEntry(reps: 4, weight: 100, completedAt: t0 + 120)])
    #expect(bench.currentStateIndex == 1)
    #expect(bench.updatedAt == t0 + 120)
    #expect(try h.workout().status == .inProgress)
  }

  @Test func theLastPlannedSetCompletesTheLog() throws {
    let h = try started()
    for _ in 0..<3 { try h.run(.completeSet(workout: nil, exercise: "bench press", SetActuals())) }
    let bench = try h.log("Bench Press")
    #expect(bench.status == .completed)
    #expect(bench.completedAt == t0 + 240)
    #expect(bench.setEntries?.count == 3)
    #expect(bench.currentStateIndex == 3)
  }

  @Test func keepOpenThenOneMoreAddsABonusSet() throws {
    let h = try started()
    for _ in 0..<2 { try h.run(.completeSet(workout: nil, exercise: nil, SetActuals())) }
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(), keepOpen: true))
    #expect(try h.log("Bench Press").status == .inProgress)
    try h.run(.addSet(workout: nil, exercise: nil))
    #expect(try h.log("Bench Press").sets == 4)
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 3, weight: 90)))
    let bench = try h.log("Bench Press")
    #expect(bench.status == .completed)
    #expect(bench.setEntries?.last == SetEntry(reps: 3, weight: 90, completedAt: t0 + 360))
  }

  @Test func oneMoreOnACompletedLogReopensIt() throws {
    let h = try started()
    try h.run(.completeLog(workout: nil, exercise: "Bench Press"))
    try h.run(.addSet(workout: nil, exercise: "Bench Press"))
    let bench = try h.log("Bench Press")
    #expect(bench.status == .inProgress)
    #expect(bench.sets == 4)
    #expect(bench.completedAt == t0 + 120)  // history: the last move to completed
    #expect(bench.setEntries?.count == 3)
  }

  @Test func adjustCorrectsTheNamedSetOnly() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    try h.run(.adjustSet(workout: nil, exercise: nil, set: 1, SetActuals(weight: 102.5)))
    let bench = try h.log("Bench Press")
    #expect(bench.setEntries?.map(\.weight) == [102.5, 100])
    #expect(bench.setEntries?.first?.completedAt == t0 + 120)
    #expect(bench.updatedAt == t0 + 240)
  }

  @Test func finishFillsOnlyTheMissingTail() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 6, weight: 95)))
    try h.run(.completeLog(workout: nil, exercise: nil))
    let bench = try h.log("Bench Press")
    #expect(
      bench.setEntries == [
        SetEntry(reps: 6, weight: 95, completedAt: t0 + 120),
        SetEntry(reps: 5, weight: 100, completedAt: t0 + 180),
        SetEntry(reps: 5, weight: 100, completedAt: t0 + 180),
      ]
    )
    let provenance = try #require(h.state.liveWorkouts.first?.provenance[bench.id])
    #expect(provenance.map(\.kind) == [.recorded, .filledFromPlan, .filledFromPlan])
  }

  @Test func bodyweightAndTimedEntriesFollowTheLoadType() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: "Push-up", SetActuals(reps: 12)))
    try h.run(.completeSet(workout: nil, exercise: "Plank", SetActuals(seconds: 45)))
    #expect(try h.log("Push-up").setEntries == [SetEntry(reps: 12, completedAt: t0 + 120)])
    #expect(try h.log("Plank").setEntries == [SetEntry(seconds: 45, completedAt: t0 + 180)])
  }

  @Test func skipKeepsPartialsAndResetClearsThem() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    try h.run(.skipLog(workout: nil, exercise: "Bench Press"))
    var bench = try h.log("Bench Press")
    #expect(bench.status == .skipped)
    #expect(bench.setEntries?.count == 1)
    try h.run(.resetLog(workout: nil, exercise: "Bench Press"))
    bench = try h.log("Bench Press")
    #expect(bench.status == .notStarted)
    #expect(bench.setEntries == nil)
    #expect(bench.currentStateIndex == 0)
    #expect(bench.startedAt == t0 + 120)  // history: the first move to in-progress
  }

  @Test func endKeepsProgressAndStampsEnd() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals()))
    try h.run(.completeLog(workout: nil, exercise: "Plank"))
    try h.run(.endWorkout(workout: nil))
    let workout = try h.workout()
    #expect(workout.status == .completed)
    #expect(workout.end == t0 + 240)
    #expect(workout.logs.map(\.status) == [.skipped, .skipped, .completed])
    #expect(workout.logs[0].setEntries?.count == 1)
  }

  @Test func everyLogSkippedMakesASkippedWorkout() throws {
    let h = try started()
    try h.run(.endWorkout(workout: nil))
    #expect(try h.workout().status == .skipped)
  }

  @Test func resettingALogReopensAnEndedWorkout() throws {
    let h = try started()
    try h.run(.endWorkout(workout: nil))
    try h.run(.resetLog(workout: nil, exercise: "Plank"))
    let workout = try h.workout()
    #expect(workout.status == .inProgress)
    #expect(workout.end == nil)
  }

  @Test func removedLogsLeaveATombstoneForThirtyDays() throws {
    let h = try started()
    let plank = try h.log("Plank").id
    try h.run(.removeLog(workout: nil, exercise: "Plank"))
    var workout = try h.workout()
    #expect(workout.logs.count == 2)
    #expect(workout.deletedLogIDs?[plank] != nil)
    let state = h.state
    let live = try #require(state.liveWorkouts.first)
    #expect(live.renderedDocument(now: t0 + 29 * 86_400).deletedLogIDs?[plank] != nil)
    #expect(live.renderedDocument(now: t0 + 31 * 86_400).deletedLogIDs == nil)
    workout = try h.workout()
    #expect(workout.logs.allSatisfy { $0.id != plank })
  }

  @Test func metricsVolumeComesFromActuals() throws {
    let h = try started()
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: 110)))
    try h.run(.completeLog(workout: nil, exercise: nil))
    try h.run(
      .recordMetrics(workout: nil, MetricsRecorded(activeEnergyKcal: 250, source: .phoneEstimate))
    )
    let state = h.state
    let live = try #require(state.liveWorkouts.first)
    let metrics = try #require(live.renderedDocument(now: t0).metrics)
    #expect(
      metrics.totalVolume == Double(5 * 110 + 2 * 5 * 100),
      "\(String(describing: metrics.totalVolume))"
    )
    #expect(metrics.recordedAt == t0 + 240)
  }

  @Test func deletingAWorkoutLeavesAFullStub() throws {
    let h = try started()
    let id = try h.workout().id
    try h.run(.deleteWorkout(workout: id.lowercased()))
    let state = h.state
    #expect(state.liveWorkouts.isEmpty)
    let tree = try state.documentTree()
    let stubPath = try #require(tree.keys.first { $0.hasPrefix("Stubs/Workouts/2026/01/") })
    let stub = try #require(tree[stubPath])
    let text = String(decoding: stub, as: UTF8.self)
    #expect(text.contains("\"deletedAt\" : \"2026-01-01T00:02:00Z\""))
    #expect(text.contains("\"logs\" : ["))
  }

  @Test func splitEditingKeepsOrdersConsistent() throws {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody()
    try h.run(.duplicateExercise(split: "Upper Body", exercise: "Bench Press"))
    var split = try #require(h.state.liveSplits.first?.document)
    #expect(split.exercises.map(\.name) == ["Bench Press", "Bench Press", "Push-up", "Plank"])
    #expect(split.exercises.map(\.order) == [0, 1, 2, 3])
    try h.run(.moveExercise(split: "Upper Body", exercise: "Plank", position: 1))
    split = try #require(h.state.liveSplits.first?.document)
    #expect(split.exercises.map(\.name) == ["Plank", "Bench Press", "Bench Press", "Push-up"])
    try h.run(
      .updateExercise(
        split: "upper body",
        exercise: "plank",
        {
          var update = ExerciseUpdated(exerciseID: "")
          update.name = .set("Side Plank")
          update.libraryName = .set("Plank")
          return update
        }()
      )
    )
    split = try #require(h.state.liveSplits.first?.document)
    #expect(split.exercises[0].name == "Side Plank")
    #expect(split.exercises[0].libraryName == "Plank")
    #expect(split.updatedAt == t0 + 180)
    #expect(split.createdAt == t0)
  }

  @Test func splitsReorderAndDeleteIntoAStub() throws {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody(name: "A")
    try h.makeUpperBody(name: "B")
    try h.makeUpperBody(name: "C")
    try h.run(.moveSplit(split: "C", position: 1))
    #expect(h.state.liveSplits.map(\.document.name) == ["C", "A", "B"])
    try h.run(.deleteSplit(split: "A"))
    #expect(h.state.liveSplits.map(\.document.name) == ["C", "B"])
    let tree = try h.state.documentTree()
    #expect(tree.keys.filter { $0.hasPrefix("Stubs/Splits/") }.count == 1)
    #expect(tree.keys.filter { $0.hasPrefix("Splits/") }.count == 2)
  }

  @Test func theMonthFolderFollowsTheWorkoutsTimeZone() throws {
    // 2026-01-31T23:30 in Honolulu is 2026-02-01T09:30Z.
    let h = try JournalHarness(now: Date(timeIntervalSince1970: 1_769_938_200))
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "Upper Body", timeZone: "Pacific/Honolulu"))
    let tree = try h.state.documentTree()
    #expect(tree.keys.contains { $0.hasPrefix("Workouts/2026/01/") })
  }
}
