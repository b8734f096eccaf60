import Foundation
import JournalProjections
import JournalTestSupport
import Testing

@Suite struct AuditTests {
  @Test func eachSetCarriesItsProvenance() throws {
    let s = try ReadsScenario()
    let audit = Audit(history: s.history)
    let bench = audit.rows.filter { $0.logID == s.benchID }
    #expect(bench.map(\.provenance) == [.recorded, .adjusted, .filledFromPlan])
    #expect(bench.map(\.setNumber) == [1, 2, 3])
    #expect(
      bench.map(\.actual) == [
        SetValues(reps: 5, weight: 100), SetValues(reps: 5, weight: 102.5),
        SetValues(reps: 5, weight: 100),
      ]
    )
    let adjusted = bench[1]
    #expect(adjusted.original == SetValues(reps: 4, weight: 102.5))
    #expect(adjusted.recordedAs == .recorded)
    #expect(adjusted.device == "phone")
    #expect(adjusted.eventID == s.secondSet)
    #expect(adjusted.adjustments.map(\.eventID) == [s.adjustment])
    #expect(adjusted.adjustments.first?.device == "watch")
    #expect(adjusted.adjustments.first?.values == SetValues(reps: 5))
    #expect(adjusted.deviation == SetValues(reps: 0, weight: 2.5))
    #expect(bench[2].deviation.isZero)

    let push = audit.rows.filter { $0.logID == s.pushID }
    #expect(push.map(\.provenance) == [.reverted, .cursorOnly, .filledFromPlan])
    #expect(push[0].eventID == s.undoneSet)
    #expect(push[0].revertedBy == s.undo)
    #expect(push[0].setNumber == nil)
    #expect(push[0].actual == SetValues(reps: 12))
    #expect(push[1].eventID == s.legacySet)
    #expect(push[1].device == "oldwatch")
    #expect(push[1].actual == SetValues(reps: 15))
    #expect(push.map(\.setNumber) == [nil, 1, 2])
    #expect(audit.rows.allSatisfy { $0.timeZone == "Europe/Paris" && $0.splitName == "Upper Body" })
    #expect(!audit.rows.contains { $0.exercise == "Plank" })
  }

  @Test func totalsCountPerformedSetsButNotRevertedOnes() throws {
    let s = try ReadsScenario()
    let audit = Audit(history: s.history)
    let workout = try #require(audit.workoutTotals.first)
    #expect(audit.workoutTotals.count == 1)
    #expect(workout.key == s.workoutID)
    #expect(workout.sets == 5)
    #expect(workout.reps == 5 + 5 + 5 + 15 + 15)
    #expect(workout.volume == 500 + 512.5 + 500)
    #expect(audit.exerciseTotals.map(\.name) == ["Bench Press", "Push-up"])
    #expect(audit.exerciseTotals.map(\.sets) == [3, 2])
    #expect(audit.exerciseTotals.first?.volume == 1512.5)
  }

  @Test func filtersByExerciseSplitAndTime() throws {
    let s = try ReadsScenario()
    let all = Audit(history: s.history).rows
    #expect(Audit(history: s.history, filter: AuditFilter(exercise: "bench press")).rows.count == 3)
    #expect(Audit(history: s.history, filter: AuditFilter(exercise: "Bench")).rows.isEmpty)
    #expect(Audit(history: s.history, filter: AuditFilter(split: "upper body")).rows == all)
    #expect(Audit(history: s.history, filter: AuditFilter(split: "Legs")).rows.isEmpty)
    let second = try #require(all.first { $0.eventID == s.secondSet })
    let since = Audit(history: s.history, filter: AuditFilter(since: second.date)).rows
    #expect(since.first?.eventID == s.secondSet)
    let until = Audit(history: s.history, filter: AuditFilter(until: second.date)).rows
    #expect(until.count == 1)
    #expect(until.count + since.count == all.count)
    let noReverted = Audit(history: s.history, filter: AuditFilter(includeReverted: false))
    #expect(!noReverted.rows.contains { $0.provenance == .reverted })
  }

  @Test func filtersByLibraryName() throws {
    let h = try JournalHarness()
    try h.run(
      .createSplit(
        SplitSettings(name: "Legs", color: "red", systemImage: "figure"),
        exercises: [
          ExercisePlan(
            name: "Heavy Squat",
            sets: 1,
            reps: 3,
            weight: 140,
            loadType: .weight,
            libraryName: "Back Squat"
          )
        ]
      )
    )
    try h.run(.startWorkout(split: "Legs", timeZone: "UTC"))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 3, weight: 140)))
    let rows = Audit(history: h.journal.history, filter: AuditFilter(exercise: "back squat")).rows
    #expect(rows.count == 1)
    #expect(rows.first?.exerciseKey == "Back Squat")
  }

  @Test func asOfAPointShowsTheSetsThen() throws {
    let s = try ReadsScenario()
    let audit = Audit(history: s.history, upTo: .event(s.secondSet))
    #expect(audit.rows.map(\.provenance) == [.recorded, .recorded])
    #expect(audit.rows.last?.actual == SetValues(reps: 4, weight: 102.5))
  }

  @Test func aDeletedWorkoutHasNoRows() throws {
    let s = try ReadsScenario()
    try s.h.run(.deleteWorkout(workout: s.workoutID))
    #expect(Audit(history: s.history).rows.isEmpty)
  }
}
