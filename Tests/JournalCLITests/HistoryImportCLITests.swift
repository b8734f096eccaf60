import Foundation
import JournalTestSupport
import Testing

/// `journal import FILE.csv` run as the built binary: statuses, reports, what a refused file
/// leaves, and the round trip of the sample journal through `journal export`.
@Suite struct HistoryImportCLITests {
  static let strong = """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\r
    2026-03-02 18:40:00,Push,1h 5m,Bench Press,W,40,10,0,0,,,\r
    2026-03-02 18:40:00,Push,1h 5m,Bench Press,1,80,5,0,0,,,8\r
    2026-03-04 07:00:00,Legs,50m,Squat,1,100,5,0,0,,,\r
    2026-03-04 07:00:00,Legs,50m,Squat,2,100,5,0,0,,,
    """

  func run(_ arguments: [String], journal: URL) throws -> (status: Int32, out: String, err: String)
  {
    try BinaryTests().run(arguments, journal: journal)
  }

  /// Runs the binary with `WORKOUT_UNIT` set, as a lifter who labels weights does.
  func run(_ arguments: [String], journal: URL, unit: String) throws -> (status: Int32, out: String)
  {
    let process = Process()
    process.executableURL = try journalBinary()
    process.arguments = arguments
    process.environment = [
      "WORKOUT_JOURNAL": journal.path, "WORKOUT_DEVICE": "phone", "NO_COLOR": "1",
      "WORKOUT_UNIT": unit,
    ]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func workoutUnitIsTheUnitStored() throws {
    let (journal, folder) = try freshJournal()
    let hevy = folder.appendingPathComponent("hevy.csv")
    try write(
      "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,"
        + "set_index,set_type,weight_lbs,reps,distance_miles,duration_seconds,rpe\n"
        + "\"Arms\",\"9 Mar 2026, 18:00\",\"9 Mar 2026, 18:40\",,\"Curl\",,,0,\"normal\",45,10,,,\n",
      to: hevy
    )
    let result = try run(["import", hevy.path, "--time-zone", "UTC"], journal: journal, unit: "kg")
    #expect(result.status == 0)
    #expect(result.out.contains("weights stored in kg ($WORKOUT_UNIT kg), converted from lb"))
    let audit = try run(["audit", "--json"], journal: journal, unit: "kg")
    #expect(audit.out.contains("20.41"))
  }

  func freshJournal() throws -> (journal: URL, folder: URL) {
    let folder = try makeTemporaryDirectory("history-import")
    let journal = folder.appendingPathComponent("Journal")
    let result = try run(["init"], journal: journal)
    #expect(result.status == 0, "\(result.err)")
    return (journal, folder)
  }

  func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
  }

  @Test func importsThenReimportsAsANoOp() throws {
    let (journal, folder) = try freshJournal()
    let file = folder.appendingPathComponent("strong.csv")
    try write(Self.strong, to: file)
    let first = try run(["import", file.path, "--time-zone", "Europe/Berlin"], journal: journal)
    #expect(first.status == 0, "\(first.err)")
    #expect(first.out.contains("imported 2 workouts (4 sets) from Strong 'strong.csv'"))
    #expect(first.out.contains("dates read in Europe/Berlin (--time-zone)"))
    #expect(first.out.contains("weights stored in kg"))
    let before = try JournalFingerprint(of: journal)
    let again = try run(
      ["import", file.path, "--time-zone", "Europe/Berlin", "--json"],
      journal: journal
    )
    #expect(again.status == 0, "\(again.err)")
    let report = try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any]
    #expect(report?["appendedEvents"] as? Int == 0)
    #expect((report?["unchanged"] as? [Any])?.count == 2)
    #expect(try JournalFingerprint(of: journal) == before)
    let audit = try run(["audit", "--exercise", "Bench Press", "--json"], journal: journal)
    #expect(audit.status == 0, "\(audit.err)")
    let rows =
      (try JSONSerialization.jsonObject(with: Data(audit.out.utf8)) as? [String: Any])?["rows"]
      as? [[String: Any]] ?? []
    let origins = rows.compactMap { $0["imported"] as? [String: Any] }
    #expect(origins.map { $0["kind"] as? String } == ["warmup", "normal"])
    #expect(origins.map { $0["line"] as? Int } == [2, 3])
    #expect(
      origins.allSatisfy { $0["setTime"] as? Bool == false && $0["source"] as? String == "strong" }
    )
    let verify = try run(["verify"], journal: journal)
    #expect(verify.status == 0)
  }

  @Test func aBadRowExitsOneAndImportsTheOtherWorkouts() throws {
    let (journal, folder) = try freshJournal()
    let file = folder.appendingPathComponent("bad.csv")
    try write(
      Self.strong.replacingOccurrences(of: "Squat,2,100,5", with: "Squat,2,-100,5"),
      to: file
    )
    let result = try run(["import", file.path, "--time-zone", "UTC"], journal: journal)
    #expect(result.status == 1)
    #expect(result.err.contains("refused: workout 'Legs' of 2026-03-04 07:00:00 (lines 4–5)"))
    #expect(result.err.contains("line 5: weight -100 is negative"))
    #expect(result.out.contains("imported 1 workouts (2 sets)"))
    let status = try run(["audit", "--json"], journal: journal)
    #expect(!status.out.contains("Squat"))
  }

  @Test func aFileRefusedWholeLeavesEveryFileAsItWas() throws {
    let (journal, folder) = try freshJournal()
    _ = try run(["split", "add", "Legs"], journal: journal)
    let before = try JournalFingerprint(of: journal)
    let unknown = folder.appendingPathComponent("unknown.csv")
    try write("Date,Workout Name,Exercise Name,Set Order,Mood\n", to: unknown)
    let refused = try run(["import", unknown.path], journal: journal)
    #expect(refused.status == 1)
    #expect(refused.err.contains("error: unknown.csv: unknown column 'Mood'"))
    let hevy = folder.appendingPathComponent("hevy.csv")
    try write(
      "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,"
        + "set_index,set_type,weight_lbs,reps,distance_miles,duration_seconds,rpe\n"
        + "\"Arms\",\"9 Mar 2026, 18:00\",\"9 Mar 2026, 18:40\",,\"Curl\",,,0,\"normal\",45,10,,,\n",
      to: hevy
    )
    let dry = try run(["import", hevy.path, "--dry-run", "--time-zone", "UTC"], journal: journal)
    #expect(dry.status == 0, "\(dry.err)")
    #expect(dry.out.contains("would import 1 workouts"))
    let badZone = try run(["import", hevy.path, "--time-zone", "Mars/Olympus"], journal: journal)
    #expect(badZone.status == 64)
    let badUnit = try run(["import", hevy.path, "--unit", "stone"], journal: journal)
    #expect(badUnit.status == 64)
    let folderWithUnit = try run(["import", folder.path, "--unit", "kg"], journal: journal)
    #expect(folderWithUnit.status == 64)
    #expect(folderWithUnit.err.contains("'--unit' is for an export FILE"))
    #expect(try JournalFingerprint(of: journal) == before)
  }

  /// The sample journal's `journal export`, imported into a fresh journal, audits the same.
  ///
  /// The same audit apart from ids and provenance, and exports again to the same bytes. Strong's format
  /// has no plan, no time of each set and no library name: those are left out of the
  /// comparison.
  @Test func sampleJournalRoundTrip() throws {
    let sample = SampleFreshnessTests.repository.appendingPathComponent("Journal")
    let (journal, folder) = try freshJournal()
    let exported = try run(["export", "--journal", sample.path], journal: journal)
    #expect(exported.status == 0, "\(exported.err)")
    let file = folder.appendingPathComponent("sample.csv")
    try write(exported.out, to: file)
    let imported = try run(["import", file.path, "--time-zone", "Europe/Berlin"], journal: journal)
    #expect(imported.status == 0, "\(imported.err)")
    let again = try run(["export"], journal: journal)
    #expect(again.out == exported.out)

    func audit(_ arguments: [String]) throws -> [String: Any] {
      let result = try run(["audit", "--json"] + arguments, journal: journal)
      #expect(result.status == 0, "\(result.err)")
      return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
    }
    // Per workout, its rows without ids, provenance, plan and set times.
    func workouts(_ audit: [String: Any]) -> [String] {
      let rows = (audit["rows"] as? [[String: Any]] ?? []).filter {
        $0["provenance"] as? String != "reverted"
      }
      var byWorkout: [String: [String]] = [:]
      for row in rows {
        var kept = row
        for key in [
          "workout", "log", "event", "device", "provenance", "recordedAs", "original",
          "adjustments", "imported", "date", "planned", "deviation", "timeZone", "libraryName",
          "timing",
        ] {
          kept[key] = nil
        }
        let text = String(
          decoding: (try? JSONSerialization.data(withJSONObject: kept, options: .sortedKeys))
            ?? Data(),
          as: UTF8.self
        )
        byWorkout[row["workout"] as? String ?? "", default: []].append(text)
      }
      return byWorkout.values.map { $0.sorted().joined(separator: "\n") }.sorted()
    }
    let original = try audit(["--journal", sample.path])
    let roundTrip = try audit([])
    let originalWorkouts = workouts(original)
    #expect(originalWorkouts.count == 70)
    let roundTripWorkouts = workouts(roundTrip)
    #expect(originalWorkouts.count == roundTripWorkouts.count)
    for (index, workout) in originalWorkouts.enumerated() where index < roundTripWorkouts.count {
      if workout != roundTripWorkouts[index] {
        Issue.record("workout \(index) differs:\n\(workout.prefix(600))")
        break
      }
    }
    // The totals of each workout, without its id.
    func workoutTotals(_ audit: [String: Any]) -> [String] {
      let totals = (audit["totals"] as? [String: Any])?["workouts"] as? [[String: Any]] ?? []
      return totals.map { total in
        ["name", "sets", "reps", "volume", "seconds"].map { "\(total[$0] ?? "")" }
          .joined(separator: " ")
      }
      .sorted()
    }
    #expect(workoutTotals(original).count == 70)
    #expect(workoutTotals(original) == workoutTotals(roundTrip))
  }
}
