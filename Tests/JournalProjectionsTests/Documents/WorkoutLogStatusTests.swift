import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@Suite struct WorkoutLogStatusTests {
  static let t0 = Date(timeIntervalSince1970: 1_000)
  static let t1 = Date(timeIntervalSince1970: 2_000)
  static let t2 = Date(timeIntervalSince1970: 3_000)
  /// A set the lifter recorded differently from the plan.
  static let recorded = SetEntry(reps: 8, weight: 40, seconds: 50, completedAt: t0)

  /// A log with the plan 3 × 10 @ 42.5 (or 45 s), in `status`, as the status
  /// machine leaves it, with one recorded entry when `partial`.
  static func log(
    _ loadType: LoadType,
    _ status: WorkoutStatus,
    partial: Bool
  ) -> WorkoutLogDocument {
    WorkoutLogDocument(
      id: "L",
      exerciseName: "X",
      order: 0,
      sets: 3,
      reps: 10,
      weight: 42.5,
      loadType: loadType,
      durationSeconds: 45,
      currentStateIndex: partial ? 1 : 0,
      status: status,
      date: t0,
      startedAt: status == .notStarted ? nil : t0,
      completedAt: status == .completed ? t1 : nil,
      setEntries: partial ? [recorded] : nil,
      updatedAt: t1
    )
  }

  /// The plan-default entry of each load type.
  static func planEntry(_ loadType: LoadType, at date: Date) -> SetEntry {
    switch loadType {
    case .weight: SetEntry(reps: 10, weight: 42.5, completedAt: date)
    case .none: SetEntry(reps: 10, completedAt: date)
    case .duration: SetEntry(seconds: 45, completedAt: date)
    }
  }

  static let allCases: [(LoadType, WorkoutStatus, WorkoutStatus, Bool)] =
    LoadType.allCases.flatMap { loadType in
      WorkoutStatus.allCases.flatMap { from in
        WorkoutStatus.allCases.flatMap { to in [false, true].map { (loadType, from, to, $0) } }
      }
    }

  /// Every status to every status, with and without a partial entry, for each
  /// load type (96 cases), against the rules of the per-set actuals plan.
  @Test(arguments: allCases)
  func transitionTable(loadType: LoadType, from: WorkoutStatus, to: WorkoutStatus, partial: Bool) {
    let before = Self.log(loadType, from, partial: partial)
    var after = before
    after.transition(to: to, at: Self.t2)

    guard from != to else {
      #expect(after == before, "moving to the current status changes nothing")
      return
    }
    #expect(after.status == to)
    #expect(after.updatedAt == Self.t2)
    let plan = Self.planEntry(loadType, at: Self.t2)
    switch to {
    case .notStarted:
      #expect(after.setEntries == nil)
      #expect(after.currentStateIndex == 0)
    case .completed:
      let expected = partial ? [Self.recorded, plan, plan] : [plan, plan, plan]
      #expect(after.setEntries == expected)
      #expect(after.currentStateIndex == 3)
    case .inProgress, .skipped:
      #expect(after.setEntries == before.setEntries)
      #expect(after.currentStateIndex == before.currentStateIndex)
    }
    // startedAt: the first move to in-progress; never cleared.
    let startedAt = to == .inProgress && before.startedAt == nil ? Self.t2 : before.startedAt
    #expect(after.startedAt == startedAt)
    // completedAt: the last move to completed; never cleared.
    #expect(after.completedAt == (to == .completed ? Self.t2 : before.completedAt))
    // Plan and identity never change.
    #expect(after.sets == 3 && after.reps == 10 && after.weight == 42.5)
    #expect(after.loadType == loadType && after.date == Self.t0)
  }

  @Test func completingNeverOverwritesRecordedEntries() {
    var log = Self.log(.weight, .inProgress, partial: false)
    let recorded = [
      SetEntry(reps: 9, weight: 50, completedAt: Self.t0),
      SetEntry(reps: 7, weight: 52.5, completedAt: Self.t1),
    ]
    log.setEntries = recorded
    log.currentStateIndex = 2
    log.transition(to: .completed, at: Self.t2)
    #expect(log.setEntries == recorded + [Self.planEntry(.weight, at: Self.t2)])
  }

  /// One More: more entries than planned sets are all kept.
  @Test func completingKeepsBonusSets() {
    var log = Self.log(.none, .inProgress, partial: false)
    let five = (0..<5).map { SetEntry(reps: 10 + $0, completedAt: Self.t1) }
    log.setEntries = five
    log.currentStateIndex = 5
    log.transition(to: .completed, at: Self.t2)
    #expect(log.setEntries == five)
    #expect(log.currentStateIndex == 5)
  }

  /// Reset then start again: the entries are gone, the history stays.
  @Test func resetKeepsTheFirstStartAndTheLastCompletion() {
    var log = Self.log(.weight, .notStarted, partial: false)
    log.transition(to: .inProgress, at: Self.t0)
    log.transition(to: .completed, at: Self.t1)
    log.transition(to: .notStarted, at: Self.t2)
    #expect(log.setEntries == nil)
    #expect(log.startedAt == Self.t0)
    #expect(log.completedAt == Self.t1)
    let t3 = Date(timeIntervalSince1970: 4_000)
    log.transition(to: .inProgress, at: t3)
    #expect(log.startedAt == Self.t0)
    let t4 = Date(timeIntervalSince1970: 5_000)
    log.transition(to: .completed, at: t4)
    #expect(log.completedAt == t4)
    #expect(log.updatedAt == t4)
    #expect(log.setEntries?.count == 3)
  }

  @Test func skipKeepsPartialEntries() {
    var log = Self.log(.duration, .inProgress, partial: true)
    log.transition(to: .skipped, at: Self.t2)
    #expect(log.setEntries == [Self.recorded])
    #expect(log.currentStateIndex == 1)
    #expect(log.completedAt == nil)
  }

  // MARK: - fillSetEntries and planEntry

  @Test(arguments: LoadType.allCases)
  func fillSetEntriesAppendsPlanDefaults(loadType: LoadType) {
    var log = Self.log(loadType, .inProgress, partial: true)
    log.fillSetEntries(upTo: 4, at: Self.t2)
    let plan = Self.planEntry(loadType, at: Self.t2)
    #expect(log.setEntries == [Self.recorded, plan, plan, plan])
    #expect(log.planEntry(at: Self.t2) == plan)
    // Only the tail: asking for fewer than there are changes nothing.
    log.fillSetEntries(upTo: 2, at: Self.t0)
    #expect(log.setEntries == [Self.recorded, plan, plan, plan])
  }

  @Test func fillSetEntriesToZeroLeavesNothingRecorded() {
    var log = Self.log(.weight, .inProgress, partial: false)
    log.fillSetEntries(upTo: 0, at: Self.t2)
    #expect(log.setEntries == nil)
    log.sets = 0
    log.transition(to: .completed, at: Self.t2)
    #expect(log.setEntries == nil)
    #expect(log.effectiveSetEntries.isEmpty)
  }

  // MARK: - effectiveSetEntries

  @Test(arguments: LoadType.allCases)
  func effectiveEntriesPreferActuals(loadType: LoadType) {
    let log = Self.log(loadType, .completed, partial: true)
    #expect(log.effectiveSetEntries == [Self.recorded])
  }

  /// A completed legacy log (no entries, or an empty list) gets the plan,
  /// stamped at its completion, else at its date.
  @Test(arguments: LoadType.allCases)
  func effectiveEntriesSynthesiseForCompletedLegacyLogs(loadType: LoadType) {
    var log = Self.log(loadType, .completed, partial: false)
    #expect(
      log.effectiveSetEntries == Array(repeating: Self.planEntry(loadType, at: Self.t1), count: 3)
    )
    log.setEntries = []
    #expect(log.effectiveSetEntries.count == 3)
    log.completedAt = nil
    #expect(
      log.effectiveSetEntries == Array(repeating: Self.planEntry(loadType, at: Self.t0), count: 3)
    )
  }

  @Test(arguments: [WorkoutStatus.notStarted, .inProgress, .skipped])
  func effectiveEntriesOfUnfinishedLegacyLogsAreEmpty(status: WorkoutStatus) {
    #expect(Self.log(.weight, status, partial: false).effectiveSetEntries.isEmpty)
    #expect(Self.log(.weight, status, partial: true).effectiveSetEntries == [Self.recorded])
  }

  // MARK: - Volume

  @Test func volumeFromActualsOnly() {
    var log = Self.log(.weight, .completed, partial: false)
    log.setEntries = [
      SetEntry(reps: 10, weight: 40, completedAt: Self.t0),
      SetEntry(reps: 8, weight: 42.5, completedAt: Self.t0),
      SetEntry(reps: 6, weight: 45, completedAt: Self.t0),
      SetEntry(reps: nil, weight: 45, completedAt: Self.t0),
      SetEntry(reps: 5, weight: nil, completedAt: Self.t0),
    ]
    #expect(log.volume == 400 + 340 + 270)
    // Not weighted: no volume, whatever the entries say.
    log.loadType = .none
    #expect(log.volume == 0)
    log.loadType = .duration
    #expect(log.volume == 0)
  }

  @Test func volumeMixesActualsAndLegacyLogs() {
    var actual = Self.log(.weight, .inProgress, partial: false)
    actual.setEntries = [SetEntry(reps: 12, weight: 20.5, completedAt: Self.t0)]
    let legacy = WorkoutLogDocument(
      id: "legacy",
      exerciseName: "Row",
      order: 1,
      sets: 4,
      reps: 8,
      weight: 45,
      loadType: .weight,
      durationSeconds: 0,
      currentStateIndex: 4,
      status: .completed,
      date: Self.t0
    )
    let bodyweight = Self.log(.none, .completed, partial: false)
    let unfinished = Self.log(.weight, .skipped, partial: false)
    let workout = WorkoutDocument(
      id: "W",
      start: Self.t0,
      createdAt: Self.t0,
      updatedAt: Self.t0,
      logs: [actual, legacy, bodyweight, unfinished]
    )
    #expect(workout.totalVolume == 12 * 20.5 + 4 * 8 * 45)
  }

  /// For legacy-only workouts the volume equals the old formula: Σ sets × reps
  /// × weight over the completed weighted logs.
  @Test func legacyVolumeEqualsTheOldFormula() {
    var generator = SplitMix64(seed: 0x5EED)
    for _ in 0..<200 {
      let logs = (0..<Int.random(in: 0...8, using: &generator)).map { index in
        WorkoutLogDocument(
          id: "L\(index)",
          exerciseName: "E",
          order: index,
          sets: Int.random(in: 0...6, using: &generator),
          reps: Int.random(in: 0...20, using: &generator),
          weight: Double(Int.random(in: 0...400, using: &generator)) / 4,
          loadType: LoadType.allCases.randomElement(using: &generator) ?? .weight,
          durationSeconds: 30,
          status: WorkoutStatus.allCases.randomElement(using: &generator) ?? .completed,
          date: Self.t0
        )
      }
      let workout = WorkoutDocument(
        id: "W",
        start: Self.t0,
        createdAt: Self.t0,
        updatedAt: Self.t0,
        logs: logs
      )
      let oldFormula = logs.filter { $0.status == .completed && $0.loadType == .weight }
        .reduce(0.0) { $0 + Double($1.sets * $1.reps) * $1.weight }
      #expect(workout.totalVolume == oldFormula)
    }
  }

  // MARK: - The workout's status

  @Test(
    arguments: [
      ([], WorkoutStatus.notStarted, false),
      ([.notStarted], .notStarted, false),
      ([.notStarted, .notStarted], .notStarted, false),
      ([.inProgress], .inProgress, false),
      ([.completed, .notStarted], .inProgress, false),
      ([.skipped, .notStarted], .inProgress, false),
      ([.completed, .inProgress], .inProgress, false),
      ([.completed], .completed, true),
      ([.completed, .skipped], .completed, true),
      ([.skipped, .completed, .skipped], .completed, true),
      ([.skipped], .skipped, true),
      ([.skipped, .skipped], .skipped, true),
    ] as [([WorkoutStatus], WorkoutStatus, Bool)]
  )
  func workoutStatusFromLogs(logs: [WorkoutStatus], status: WorkoutStatus, ended: Bool) {
    var workout = WorkoutDocument(
      id: "W",
      start: Self.t0,
      createdAt: Self.t0,
      updatedAt: Self.t0,
      logs: logs.map { Self.log(.weight, $0, partial: false) }
    )
    workout.recomputeStatusFromLogs(at: Self.t2)
    #expect(workout.status == status)
    #expect(workout.end == (ended ? Self.t2 : nil))
  }

  @Test func endIsStampedOnceAndClearedWhenReopened() {
    var workout = WorkoutDocument(
      id: "W",
      start: Self.t0,
      createdAt: Self.t0,
      updatedAt: Self.t0,
      logs: [Self.log(.weight, .completed, partial: false)]
    )
    workout.recomputeStatusFromLogs(at: Self.t1)
    workout.recomputeStatusFromLogs(at: Self.t2)
    #expect(workout.end == Self.t1)
    workout.logs[0].transition(to: .inProgress, at: Self.t2)
    workout.recomputeStatusFromLogs(at: Self.t2)
    #expect(workout.status == .inProgress)
    #expect(workout.end == nil)
  }
}
