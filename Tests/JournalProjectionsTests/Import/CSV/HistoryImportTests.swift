import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// Importing exports into a journal: the events, idempotence, conflicts, refusals, units.
@Suite struct HistoryImportTests {
  static let berlin = zone("Europe/Berlin")
  /// 2026-09-21: after every workout of the files here.
  static let now = Date(timeIntervalSince1970: 1_790_000_000)
  static let strongHeader =
    "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,"
    + "Workout Notes,RPE\n"
  static let hevyHeader =
    "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,"
    + "set_index,set_type,weight_lbs,reps,distance_miles,duration_seconds,rpe\n"

  /// Two workouts: Push with a warm-up, a rest timer and a plank; Legs.
  static let strong =
    strongHeader
      + """
      2026-03-02 18:40:00,Push,1h 5m,Bench Press,W,40,10,0,0,,good day,
      2026-03-02 18:40:00,Push,1h 5m,Bench Press,1,80,5,0,0,paused,good day,8
      2026-03-02 18:40:00,Push,1h 5m,Bench Press,Rest Timer,0,0,0,120,,good day,
      2026-03-02 18:40:00,Push,1h 5m,Bench Press,2,80,4,0,0,,good day,9
      2026-03-02 18:40:00,Push,1h 5m,Plank,1,0,0,0,60,,good day,
      2026-03-04 07:00:00,Legs,50m,Squat,1,100,5,0,0,,,
      2026-03-04 07:00:00,Legs,50m,Squat,2,100,5,0,0,,,

      """

  func importing(
    _ text: String,
    into harness: JournalHarness,
    file: String = "strong.csv",
    unit: WeightUnit? = nil,
    splits: Bool = false,
    dryRun: Bool = false
  ) throws -> HistoryImportReport {
    try HistoryImporter(
      device: "laptop",
      timeZone: Self.berlin,
      unit: unit,
      createsSplits: splits,
      dryRun: dryRun
    )
    .importFile(Data(text.utf8), named: file, into: harness.journal, now: harness.now)
  }

  @Test func workoutsBecomeTheJournalsOwnEvents() throws {
    let harness = try JournalHarness(now: Self.now)
    let report = try importing(Self.strong, into: harness)
    #expect(report.imported.map(\.title) == ["Push", "Legs"])
    #expect(report.refused.isEmpty && !report.hasRefusals)
    let lines = harness.store.stored.map { e in
      "\(e.stream) \(e.type) " + ((try? e.payload.serializedString()) ?? "")
    }
    expectDocumentGolden(
      Data((lines.joined(separator: "\n") + "\n").utf8),
      named: "Import/strong-events.txt"
    )
    let push = try #require(harness.state.liveWorkouts.first { $0.document.splitName == "Push" })
    let document = push.document
    #expect(document.start == Date(timeIntervalSince1970: 1_772_473_200))
    #expect(document.end == document.start.addingTimeInterval(3900))
    #expect(document.status == .completed)
    #expect(push.timeZone.identifier == "Europe/Berlin")
    let bench = document.logs[0]
    #expect(bench.setEntries?.map(\.reps) == [10, 5, 4])
    #expect(bench.setEntries?.map(\.weight) == [40, 80, 80])
    #expect(bench.setEntries?.allSatisfy { $0.completedAt == document.start } == true)
    #expect(bench.notes == "paused")
    #expect(bench.sets == 3 && bench.reps == 5 && bench.weight == 80)
    #expect(document.logs[1].loadType == .duration)
    #expect(document.logs[1].setEntries?.map(\.seconds) == [60])
    // Volume counts the warm-up: 400 + 400 + 320.
    #expect(document.totalVolume == 1120)
  }

  @Test func auditAndRecordsShowWhereEachSetCameFrom() throws {
    let harness = try JournalHarness(now: Self.now)
    _ = try importing(Self.strong, into: harness)
    let audit = Audit(
      history: harness.journal.history,
      filter: AuditFilter(exercise: "Bench Press")
    )
    #expect(audit.rows.map { $0.origin?.set.line } == [2, 3, 5])
    #expect(audit.rows.map { $0.origin?.source } == [.strong, .strong, .strong])
    #expect(audit.rows.map(\.isWarmUp) == [true, false, false])
    #expect(audit.rows[1].origin?.set.restSeconds == 120)
    #expect(audit.rows[1].origin?.set.rpe == 8)
    #expect(audit.rows[1].origin?.set.notes == "paused")
    #expect(audit.rows.map(\.provenance) == [.recorded, .recorded, .recorded])
    #expect(audit.workoutTotals.first?.volume == 1120)
    let records = try #require(ExerciseRecords.all(from: audit.rows).first)
    #expect(records.sets == 2)
    // The warm-up's 10 reps at 40 set no record; its volume counts in the session.
    #expect(records.repsAtWeight.map(\.weight) == [80])
    #expect(records.bestSession?.volume == 1120)
    let history = WorkoutHistory.entries(
      workout: try #require(audit.rows.first?.workoutID),
      history: harness.journal.history
    )
    #expect(history.contains { $0.summary.contains("imported from Strong: strong.csv lines 2–6") })
    #expect(history.contains { $0.summary.hasSuffix("(from Strong, line 2, warm-up)") })
  }

  @Test func importingAgainAppendsNothingAndLaterExportsOnlyWhatIsNew() throws {
    let harness = try JournalHarness(now: Self.now)
    _ = try importing(Self.strong, into: harness)
    let count = harness.store.stored.count
    let again = try importing(
      Self.strong.replacingOccurrences(of: "\n", with: "\r\n"),
      into: harness
    )
    #expect(again.imported.isEmpty && again.unchanged.count == 2 && again.appendedEvents == 0)
    #expect(harness.store.stored.count == count)
    let later = try importing(
      Self.strong + "2026-03-06 18:00:00,Pull,40m,Row,1,60,8,0,0,,,\n",
      into: harness
    )
    #expect(later.imported.map(\.title) == ["Pull"])
    #expect(later.unchanged.count == 2)
    #expect(harness.state.liveWorkouts.count == 3)
  }

  @Test func aWorkoutEditedInTheTrackerIsAConflict() throws {
    let harness = try JournalHarness(now: Self.now)
    _ = try importing(Self.strong, into: harness)
    let before = harness.store.stored
    let edited = Self.strong.replacingOccurrences(
      of: "Legs,50m,Squat,2,100,5",
      with: "Legs,50m,Squat,2,105,5"
    )
    let report = try importing(edited, into: harness)
    #expect(report.conflicts.map(\.title) == ["Legs"])
    #expect(report.conflicts.first?.reasons.first?.contains("changed in Strong") == true)
    #expect(harness.store.stored == before)
    // Deleted in the journal: not imported again.
    let legs = try #require(report.conflicts.first?.id)
    try harness.run(.deleteWorkout(workout: legs))
    let afterDelete = try importing(Self.strong, into: harness)
    #expect(afterDelete.conflicts.first?.reasons == ["deleted in the journal; not imported again"])
  }

  @Test func anotherTimeZoneIsAConflictNotASecondCopy() throws {
    let harness = try JournalHarness(now: Self.now)
    _ = try importing(Self.strong, into: harness)
    let before = harness.store.stored
    let report = try HistoryImporter(device: "laptop", timeZone: zone("America/New_York"))
      .importFile(Data(Self.strong.utf8), named: "strong.csv", into: harness.journal, now: Self.now)
    #expect(report.imported.isEmpty)
    #expect(report.conflicts.count == 2)
    #expect(report.conflicts.first?.reasons.first?.contains("read in Europe/Berlin") == true)
    #expect(harness.store.stored == before)
  }

  @Test func undoCancelsTheWholeImportAndItCanBeImportedAgain() throws {
    let harness = try JournalHarness(now: Self.now)
    _ = try importing(Self.strong, into: harness)
    try harness.journal.undo(device: "laptop", now: harness.now)
    #expect(harness.state.liveWorkouts.isEmpty)
    let again = try importing(Self.strong, into: harness)
    #expect(again.imported.count == 2)
    #expect(harness.state.liveWorkouts.count == 2)
  }

  /// A long history is appended in batches of whole workouts, each one action, so that the
  /// revert undoing one fits in a record.
  @Test func aLongHistoryIsAppendedInBatchesOfWholeWorkouts() throws {
    let harness = try JournalHarness(now: Self.now)
    var text = Self.strongHeader
    for day in 0..<300 {
      let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 86_400)
      let stamp = ISO8601DateFormatter().string(from: date).replacingOccurrences(of: "T", with: " ")
        .replacingOccurrences(of: "Z", with: "")
      for exercise in 0..<5 {
        for set in 1...5 { text += "\(stamp),Day,1h,Lift \(exercise),\(set),50,5,0,0,,,\n" }
      }
    }
    let report = try importing(text, into: harness)
    #expect(report.imported.count == 300)
    #expect(report.batches == 2)
    #expect(report.appendedEvents == 300 * (2 + 25 + 5))
    let actions = Set(harness.journal.history.map { $0.action ?? $0.id })
    #expect(actions.count == 2)
    try harness.journal.undo(device: "laptop", now: harness.now)
    #expect(harness.state.liveWorkouts.count < 300 && !harness.state.liveWorkouts.isEmpty)
    try harness.journal.undo(device: "laptop", now: harness.now)
    #expect(harness.state.liveWorkouts.isEmpty)
  }

  @Test func aBadRowRefusesItsWorkoutOnly() throws {
    let harness = try JournalHarness(now: Self.now)
    let text = Self.strong.replacingOccurrences(
      of: "Legs,50m,Squat,2,100,5",
      with: "Legs,50m,Squat,2,100,five"
    )
    let report = try importing(text, into: harness)
    #expect(report.imported.map(\.title) == ["Push"])
    #expect(report.refused.map(\.title) == ["Legs"])
    #expect(report.refused.first?.reasons == ["line 8: reps 'five' is not a number"])
    #expect(report.hasRefusals)
    #expect(harness.state.liveWorkouts.map(\.document.splitName) == ["Push"])
    let payloads = harness.store.stored.map { (try? $0.payload.serializedString()) ?? "" }
    #expect(!payloads.contains { $0.contains("Squat") })
  }

  @Test func twoWorkoutsWithOneIdentityAreNotBothImported() throws {
    let harness = try JournalHarness(now: Self.now)
    let text =
      "\"Workout #\";\"Date\";\"Workout Name\";\"Duration (sec)\";\"Exercise Name\";"
      + "\"Set Order\";\"Weight (kg)\";\"Reps\"\n"
      + "1;2026-03-02 18:40:00;Push;600;Dip;1;0;10\n"
      + "2;2026-03-02 18:40:00;Push;600;Dip;1;0;12\n"
    let report = try importing(text, into: harness)
    #expect(report.imported.count == 1)
    #expect(report.refused.first?.reasons.first?.contains("same start and title (line 2)") == true)
    #expect(harness.state.anomalies.isEmpty)
  }

  @Test func aFileRefusedWholeAppendsNothing() throws {
    let harness = try JournalHarness(now: Self.now)
    #expect(throws: HistoryImportError.self) {
      try importing("Date,Workout Name,Exercise Name,Set Order,Mood\n", into: harness)
    }
    #expect(harness.store.stored.isEmpty)
  }

  @Test func poundsAreConvertedOnlyWhenAsked() throws {
    let harness = try JournalHarness(now: Self.now)
    _ = try importing(Self.strong, into: harness)
    let before = harness.store.stored
    let hevy =
      Self.hevyHeader
      + "\"Arms\",\"9 Mar 2026, 18:00\",\"9 Mar 2026, 18:40\",,\"Curl\",,,0,\"normal\",45,10,,,\n"
    do {
      _ = try importing(hevy, into: harness, file: "hevy.csv")
      Issue.record("expected the unit to be refused")
    } catch let error as HistoryImportError {
      #expect(error.message.contains("in lb, the journal's earlier imports in kg"))
      #expect(error.hint?.contains("--unit kg") == true)
    }
    #expect(harness.store.stored == before)
    let report = try importing(hevy, into: harness, file: "hevy.csv", unit: .kg)
    #expect(report.unit == .kg && report.fileUnit == .lb)
    let arms = try #require(harness.state.liveWorkouts.first { $0.document.splitName == "Arms" })
    // 45 lb = 20.41165665 kg, rounded to 0.01.
    #expect(arms.document.logs[0].setEntries?.first?.weight == 20.41)
    let audit = Audit(history: harness.journal.history, filter: AuditFilter(exercise: "Curl"))
    #expect(audit.rows.first?.origin?.set.fileWeight == 45)
    #expect(audit.rows.first?.origin?.source == .hevy)
  }

  @Test func aFirstImportKeepsTheFilesUnit() throws {
    let harness = try JournalHarness(now: Self.now)
    let hevy =
      Self.hevyHeader
      + "\"Arms\",\"9 Mar 2026, 18:00\",\"9 Mar 2026, 18:40\",,\"Curl\",,,0,\"normal\",45,10,,,\n"
    let report = try importing(hevy, into: harness, file: "hevy.csv")
    #expect(report.unit == .lb)
    #expect(harness.state.liveWorkouts.first?.document.logs[0].setEntries?.first?.weight == 45)
  }

  @Test func dryRunAppendsNothing() throws {
    let harness = try JournalHarness(now: Self.now)
    let report = try importing(Self.strong, into: harness, dryRun: true)
    #expect(report.imported.count == 2 && report.appendedEvents > 0 && report.isDryRun)
    #expect(harness.store.stored.isEmpty)
  }

  @Test func splitsAreMadeFromTheLastWorkoutOfEachName() throws {
    let harness = try JournalHarness(now: Self.now)
    let text =
      Self.strong
      + "2026-03-09 18:40:00,Push,40m,Overhead Press,1,40,8,0,0,,,\n"
      + "2026-03-09 18:40:00,Push,40m,Bench Press,1,82.5,5,0,0,,,\n"
    let report = try importing(text, into: harness, splits: true)
    #expect(report.splitsCreated == ["Push", "Legs"])
    let push = try #require(harness.state.liveSplits.first { $0.document.name == "Push" })
    #expect(push.document.exercises.map(\.name) == ["Overhead Press", "Bench Press"])
    #expect(push.document.exercises[1].weight == 82.5)
    let workouts = harness.state.liveWorkouts.filter { $0.document.splitName == "Push" }
    #expect(workouts.allSatisfy { $0.document.splitID == push.document.id })
    // A second import with --splits keeps the splits there are.
    let again = try importing(text, into: harness, splits: true)
    #expect(again.splitsCreated.isEmpty && again.appendedEvents == 0)
  }

  /// Seeded random workouts, written as one of the layouts, import as a reference model
  /// says: every set's values, in order, per workout and exercise.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func randomExportsImportAsWritten(seed: UInt64) throws {
    var random = SplitMix64(seed: 0x1_4B0_0000 + seed)
    func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    let exercises = ["Squat", "Bench, Press", "Row \"Pendlay\"", "Plank", "Pull-up"]
    // The reference: per workout title, its exercises' sets as (reps, weight, seconds).
    var expected: [String: [[SetValues]]] = [:]
    var rows: [[String]] = []
    let hevy = pick(2) == 0
    var day = 1
    for number in 0..<(2 + pick(5)) {
      day += 1 + pick(3)
      let title = "W\(number)"
      var logs: [[SetValues]] = []
      for name in exercises.shuffled(using: &random).prefix(1 + pick(3)) {
        var sets: [SetValues] = []
        for index in 0..<(1 + pick(4)) {
          let timed = name == "Plank"
          let reps = timed ? nil : 1 + pick(12)
          let weight =
            timed || name == "Pull-up" ? nil : Double(20 + pick(80)) + 0.5 * Double(pick(2))
          let seconds = timed ? 30 + pick(60) : nil
          sets.append(SetValues(reps: reps, weight: weight, seconds: seconds))
          let start = "2026-05-\(day < 10 ? "0" : "")\(day) 18:0\(pick(10)):00"
          if hevy {
            let date = "\(day) May 2026, 18:00"
            rows.append([
              title, date, "\(day) May 2026, 19:00", "", name, "", "", "\(index)", "normal",
              weight.map { WeightUnit.number($0) } ?? "", reps.map(String.init) ?? "", "",
              seconds.map(String.init) ?? "", "",
            ])
          } else {
            _ = start
            rows.append([
              "2026-05-\(day < 10 ? "0" : "")\(day) 18:00:00", title, "1h", name, "\(index + 1)",
              weight.map { WeightUnit.number($0) } ?? "0", reps.map(String.init) ?? "0", "0",
              seconds.map(String.init) ?? "0", "", "", "",
            ])
          }
        }
        logs.append(sets)
      }
      expected[title] = logs
    }
    let separator: Unicode.Scalar = !hevy && pick(2) == 0 ? ";" : ","
    var header = hevy ? Self.hevyHeader : Self.strongHeader
    header = header.replacingOccurrences(of: "weight_lbs", with: "weight_kg")
    header = header.replacingOccurrences(of: "distance_miles", with: "distance_km")
    if separator == ";" { header = header.replacingOccurrences(of: ",", with: ";") }
    let lineEnd = pick(2) == 0 ? "\n" : "\r\n"
    let text =
      header.replacingOccurrences(of: "\n", with: lineEnd)
      + rows.map { CSVReader.line($0, separator: separator) }.joined(separator: lineEnd)
    let harness = try JournalHarness(now: Self.now)
    let report = try importing(text, into: harness, file: "random.csv")
    #expect(!report.hasRefusals, "\(report.refused)")
    var actual: [String: [[SetValues]]] = [:]
    for workout in harness.state.liveWorkouts {
      actual[workout.document.splitName ?? ""] = workout.document.logs.map { log in
        (log.setEntries ?? []).map { entry in
          SetValues(
            reps: log.loadType == .duration ? nil : entry.reps,
            weight: log.loadType == .weight ? entry.weight : nil,
            seconds: entry.seconds
          )
        }
      }
    }
    #expect(actual == expected, "\(text)")
    let again = try importing(text, into: harness, file: "random.csv")
    #expect(again.appendedEvents == 0 && again.unchanged.count == expected.count)
  }
}
