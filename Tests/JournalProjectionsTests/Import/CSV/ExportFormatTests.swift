import Foundation
import JournalCore
import Testing

@testable import JournalProjections

/// The zone named `identifier`, UTC when it has none.
func zone(_ identifier: String) -> TimeZone {
  TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0) ?? .current
}

/// Reading each tracker's layouts: columns, units, dates, set kinds, and the rows refused.
@Suite struct ExportFormatTests {
  static let berlin = zone("Europe/Berlin")

  func read(
    _ text: String,
    source: HistorySource? = nil,
    zone: TimeZone = berlin
  ) throws -> ExportFile {
    try ExportFile(data: Data(text.utf8), source: source, timeZone: zone)
  }

  func date(_ text: String, _ zone: TimeZone = berlin) -> Date? {
    ExportValues.localTime(text).flatMap { ExportValues.date($0, in: zone) }
  }

  @Test func strongTwelveColumns() throws {
    let file = try read(
      """
      Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
      2026-03-02 18:40:00,Push,1h 5m,Bench Press,W,40,10.0,0,0,,felt good,
      2026-03-02 18:40:00,Push,1h 5m,Bench Press,1,37.49999999999999,5,0,0,paused,felt good,8.5
      2026-03-02 18:40:00,Push,1h 5m,Bench Press,Rest Timer,0,0,0,90,,felt good,
      2026-03-02 18:40:00,Push,1h 5m,Bench Press,D,30,8,0,0,,felt good,
      2026-03-02 18:40:00,Push,1h 5m,Plank,1,0,0,0,60,,felt good,
      """
    )
    #expect(file.layout.source == .strong)
    #expect(file.layout.weightUnit == nil)
    let workout = try #require(file.workouts.first)
    #expect(workout.refusals.isEmpty)
    #expect(workout.start == date("2026-03-02T18:40:00+01:00"))
    #expect(workout.end == workout.start?.addingTimeInterval(3900))
    #expect(workout.notes == ["felt good"])
    #expect(workout.exercises.map(\.name) == ["Bench Press", "Plank"])
    let bench = workout.exercises[0].sets
    #expect(bench.map(\.kind) == [.warmUp, .normal, .drop])
    #expect(bench.map(\.reps) == [10, 5, 8])
    #expect(bench[1].weight == 37.49999999999999)
    #expect(bench[1].restSeconds == 90)
    #expect(bench[1].rpe == 8.5)
    #expect(bench[1].notes == "paused")
    #expect(bench.map(\.line) == [2, 3, 5])
    #expect(workout.exercises[1].sets[0].seconds == 60)
  }

  @Test func strongSemicolonsWithUnitColumns() throws {
    let file = try read(
      "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;"
        + "Distance Unit;Seconds;Notes;Workout Notes;Workout Duration\n"
        + "2019-01-11 12:31:54;\"Leg\";\"Deadlift (Barbell)\";0;225;lbs;5;;;;0;\"\";\"\";54m\n"
        + "2019-01-11 12:31:54;\"Leg\";\"Running\";1;;;;;2,5;km;900;;;54m"
    )
    let workout = try #require(file.workouts.first)
    #expect(workout.refusals.isEmpty, "\(workout.refusals)")
    #expect(workout.exercises[0].sets[0].weightUnit == .lb)
    #expect(workout.exercises[0].sets[0].order == "0")
    #expect(workout.exercises[1].sets[0].distance == 2.5)
    #expect(workout.exercises[1].sets[0].distanceUnit == "km")
    #expect(workout.end == workout.start?.addingTimeInterval(54 * 60))
  }

  @Test func strongCurrentLayoutQuotedWithUnitsInTheHeader() throws {
    let file = try read(
      """
      "Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (lbs)";"Reps";"RPE";"Distance (miles)";"Seconds";"Notes";"Workout Notes"\r
      "12";"2026-04-08 16:50:00";"Pull";"3120";"Pull Up";"1";"0";"10";"";"";"";"";""\r
      "12";"2026-04-08 16:50:00";"Pull";"3120";"Row";"F";"135";"6";"9";"";"";"";""
      """
    )
    #expect(file.layout.weightUnit == .lb)
    #expect(file.layout.distanceUnit == "mi")
    let workout = try #require(file.workouts.first)
    #expect(workout.refusals.isEmpty, "\(workout.refusals)")
    #expect(workout.end == workout.start?.addingTimeInterval(3120))
    #expect(workout.exercises[1].sets[0].kind == .failure)
  }

  @Test func olderUnitNamedColumnsAndTranslatedHeaders() throws {
    let old = try read(
      "Date,Workout Name,Exercise Name,Set Order,kg,Reps,km,Seconds,Notes\n"
        + "2018-05-01 07:00:00,A,Squat,0,100,5,,,\n"
    )
    #expect(old.layout.weightUnit == .kg)
    #expect(old.layout.distanceUnit == "km")
    let german = try read(
      "Datum;Trainingsname;Dauer;Übungsname;Satzreihenfolge;Gewicht;Wiederholungen;Distanz;"
        + "Sekunden;Notizen;Trainingsnotizen;RPE\n"
        + "2026-01-05 09:00:00;Beine;45m;Kniebeuge;1;100;5;0;0;;;\n"
    )
    #expect(german.workouts.first?.exercises.first?.sets.first?.weight == 100)
    let french = try read(
      "Date,Nom de l'entraînement,Durée,Nom de l'exercice,Ordre des séries,Poids,Répétitions\n"
        + "2026-01-05 09:00:00,Jambes,45m,Squat,1,100,5\n"
    )
    #expect(french.workouts.first?.refusals == [])
  }

  @Test func unknownHeadersAndOtherFilesAreRefusedWhole() {
    #expect(throws: HistoryImportError.self) {
      try read("Datum;Trainingsname;Übungsname;Satzreihenfolge;Gewicht;Wiederholungen;Wasser\n")
    }
    do {
      _ = try read("Date,Workout Name,Exercise Name,Set Order,Gewicht (kg),Reps,Mystery\n")
      Issue.record("expected a refusal")
    } catch let error as HistoryImportError {
      #expect(error.message.contains("unknown column 'Mystery'"))
    } catch { Issue.record("\(error)") }
    #expect(throws: HistoryImportError.self) { try read("name,calories\nbread,200\n") }
    #expect(throws: HistoryImportError.self) { try read("") }
    #expect(throws: HistoryImportError.self) { try read("Date,Date,Workout Name\n") }
  }

  @Test func hevyKilogramsAndPounds() throws {
    let header =
      "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,"
      + "set_index,set_type,weight_kg,reps,distance_km,duration_seconds,rpe\n"
    let file = try read(
      header
        + "\"Upper\",\"8 Apr 2026, 16:50\",\"8 Apr 2026, 17:55\",\"line one\\nline two\","
        + "\"Bench Press (Barbell)\",0,\"grip\\nwide\",0,\"warmup\",40,10,,,\n"
        + "\"Upper\",\"8 Apr 2026, 16:50\",\"8 Apr 2026, 17:55\",\"line one\\nline two\","
        + "\"Bench Press (Barbell)\",0,\"grip\\nwide\",1,\"normal\",80,5,,,8\n"
        + "\"Upper\",\"8 Apr 2026, 16:50\",\"8 Apr 2026, 17:55\",\"line one\\nline two\","
        + "\"Row\",0,,0,\"dropset\",60,8,,,"
    )
    #expect(file.layout.source == .hevy)
    #expect(file.layout.weightUnit == .kg)
    let workout = try #require(file.workouts.first)
    #expect(workout.refusals.isEmpty, "\(workout.refusals)")
    #expect(workout.start == date("2026-04-08T16:50:00+02:00"))
    #expect(workout.end == date("2026-04-08T17:55:00+02:00"))
    #expect(workout.notes == ["line one\nline two"])
    #expect(workout.exercises[0].notes == ["grip\nwide"])
    #expect(workout.exercises[0].superset == "0")
    #expect(workout.exercises[0].sets.map(\.kind) == [.warmUp, .normal])
    #expect(workout.exercises[1].sets[0].kind == .drop)
    let pounds = try read(header.replacingOccurrences(of: "weight_kg", with: "weight_lbs"))
    #expect(pounds.layout.weightUnit == .lb)
  }

  @Test func datesInEachSpelling() {
    let utc = zone("UTC")
    let expected = date("2026-04-08T16:50:00Z", utc)
    #expect(expected != nil)
    for text in [
      "2026-04-08 16:50:00", "2026-04-08 16:50", "2026-04-08T16:50:00", "8 Apr 2026, 16:50",
      "Apr 8, 2026, 4:50 PM", "2026-04-08 4:50:00\u{202F}PM", "8 avr. 2026, 16:50",
      "8. Apr. 2026, 16:50", "2026-04-08 18:50:00+02:00",
    ] {
      #expect(date(text, utc) == expected, "\(text)")
    }
    for bad in ["", "2026-02-30 10:00:00", "2026-04-08", "8 Foo 2026, 16:50", "13:00 PM x"] {
      #expect(date(bad, utc) == nil, "\(bad)")
    }
    // The zone places a local time: Hevy's 16:50 in New York is 20:50 UTC.
    #expect(
      date("8 Apr 2026, 16:50", zone("America/New_York"))
        == date("2026-04-08 20:50:00", utc)
    )
  }

  /// The wall-clock count is the UTC calendar's, on every day of four centuries' leap rules.
  @Test func wallClockMillisecondsAreTheUTCCalendars() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone("UTC")
    var random = SplitMix64(seed: 0x7141)
    for _ in 0..<500 {
      let year = 1900 + Int(random.next() % 1100)
      let month = 1 + Int(random.next() % 12)
      let day = 1 + Int(random.next() % 28)
      let time = ExportValues.LocalTime(
        year: year,
        month: month,
        day: day,
        hour: Int(random.next() % 24),
        minute: Int(random.next() % 60),
        second: Int(random.next() % 60),
        offset: nil
      )
      let date = try #require(ExportValues.date(time, in: zone("UTC")))
      #expect(ExportValues.wallClockMilliseconds(time) == Int64(date.timeIntervalSince1970) * 1000)
    }
  }

  @Test func durations() {
    #expect(ExportValues.duration("1h 5m") == 3900)
    #expect(ExportValues.duration("54m") == 3240)
    #expect(ExportValues.duration("2h") == 7200)
    #expect(ExportValues.duration("") == 0)
    #expect(ExportValues.duration("3120") == 3120)
    #expect(ExportValues.duration("1 hour") == nil)
  }

  @Test func badRowsRefuseTheirWorkoutWithLineNumbers() throws {
    let file = try read(
      """
      Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
      2026-03-02 18:40:00,Push,36m,Bench Press,1,60,5,0,0,,,
      2026-03-02 18:40:00,Push,36m,Bench Press,2,-60,5,0,0,,,
      2026-03-02 18:40:00,Push,36m,Bench Press,3,NaN,5,0,0,,,
      2026-03-04 18:40:00,Legs,36m,Squat,1,100,5.5,0,0,,,
      2026-03-05 18:40:00,Pull,36m,Row,1,60,5,0,0,,,
      2026-03-02 18:40:00,Push,36m,Bench Press,4,60,5,0,0,,,
      2026-03-06 18:40:00,Arms,36m,Curl,1,20,10,0
      2026-03-07 25:00:00,Core,36m,Plank,1,0,0,0,60,,,
      2026-03-08 18:40:00,Back,36m,Row,X,60,5,0,0,,,
      2026-03-09 18:40:00,Fine,36m,Row,1,60,5,0,0,,,
      """
    )
    let refusals = Dictionary(
      uniqueKeysWithValues: file.workouts.map { ($0.title, $0.refusals.map(\.line)) }
    )
    #expect(refusals["Push"] == [3, 4, 7])
    #expect(refusals["Legs"] == [5])
    #expect(refusals["Pull"] == [])
    #expect(refusals["Arms"] == [8])
    #expect(refusals["Core"] == [9])
    #expect(refusals["Back"] == [10])
    #expect(refusals["Fine"] == [])
    let push = try #require(file.workouts.first { $0.title == "Push" })
    #expect(push.refusals[0].reason.contains("negative"))
    #expect(push.refusals[1].reason.contains("not a finite number"))
    #expect(push.refusals[2].reason.contains("after rows of another"))
  }
}
