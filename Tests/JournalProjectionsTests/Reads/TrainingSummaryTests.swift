import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

@Suite struct TrainingSummaryTests {
  /// A split "Push" with one weighted exercise, 2 × 5 @ 100.
  func push() throws -> JournalHarness {
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
    return h
  }

  @Test func civilDaysReadInTheGivenZone() {
    // 2026-03-01T23:30:00Z is already 2 March in Berlin, still 1 March in New York.
    let moment = Date(timeIntervalSince1970: 1_772_407_800)
    #expect(CivilDay(moment, timeZone: "UTC").description == "2026-03-01")
    #expect(CivilDay(moment, timeZone: "Europe/Berlin").description == "2026-03-02")
    #expect(CivilDay(moment, timeZone: "America/New_York").description == "2026-03-01")
    #expect(CivilDay(number: 0).description == "1970-01-01")
    #expect(CivilDay(number: 0).weekday == 3)  // a Thursday
    #expect(CivilDay(number: -1).description == "1969-12-31")
    #expect(CivilDay(number: 20_513).description == "2026-03-01")
    #expect(CivilDay(number: 20_513).weekStart.description == "2026-02-23")
  }

  /// Seeded: CivilDay agrees with Foundation's Gregorian calendar, the reference model, on
  /// the day and the Monday of its week, across zones and centuries.
  @Test func civilDaysAgreeWithFoundationsCalendar() {
    var random = SplitMix64(seed: 44)
    let zones = ["UTC", "Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Auckland"]
    for _ in 0..<500 {
      let seconds = Double(random.next() % 8_000_000_000) - 2_000_000_000
      let date = Date(timeIntervalSince1970: seconds)
      let zone = zones[Int(random.next() % UInt64(zones.count))]
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
      calendar.firstWeekday = 2
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      let expected = String(
        format: "%04d-%02d-%02d",
        parts.year ?? 0,
        parts.month ?? 0,
        parts.day ?? 0
      )
      let day = CivilDay(date, timeZone: zone)
      #expect(day.description == expected, "\(date) in \(zone)")
      let weekday = (calendar.component(.weekday, from: date) + 5) % 7  // Monday 0
      #expect(day.weekday == weekday, "\(date) in \(zone)")
    }
  }

  @Test func sessionsDaysAndWeeksAreTheAuditsTotals() throws {
    let h = try push()
    // Monday 2026-03-02 18:00 UTC, and Sunday 2026-03-08 23:30 UTC, which is Monday 9 March in
    // Berlin: the next week there.
    h.now = Date(timeIntervalSince1970: 1_772_474_400)
    try h.run(.startWorkout(split: "Push", timeZone: "UTC"))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: 100)))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 4, weight: 100)))
    let first = try h.workout().id
    h.now = Date(timeIntervalSince1970: 1_773_012_600)
    try h.run(.startWorkout(split: "Push", timeZone: "Europe/Berlin"))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: 110)))
    try h.run(.completeLog(workout: nil, exercise: nil))  // set 2 filled from the plan
    let state = h.journal.state()
    let audit = Audit(state: state, history: h.journal.history)
    let summary = TrainingSummary(audit: audit, state: state)
    #expect(summary.workouts == audit.workoutTotals.count)
    #expect(summary.sets == audit.workoutTotals.reduce(0) { $0 + $1.sets })
    #expect(summary.volume == audit.workoutTotals.reduce(0) { $0 + $1.volume })
    #expect(summary.sessions.map(\.volume) == [900, 1050])
    #expect(summary.sessions.first?.workoutID == first)
    #expect(summary.days.map(\.day.description) == ["2026-03-02", "2026-03-09"])
    #expect(summary.weeks.map(\.day.description) == ["2026-03-02", "2026-03-09"])
    // Each workout ended when its last log was resolved: both have a duration.
    #expect(summary.sessions.allSatisfy { $0.duration != nil })
    #expect(summary.duration == summary.sessions.compactMap(\.duration).reduce(0, +))
  }

  @Test func durationsAndRestsAreEachWorkoutsTiming() throws {
    let h = try push()
    h.now = Date(timeIntervalSince1970: 1_772_474_400)
    try h.run(.startWorkout(split: "Push", timeZone: "UTC"))
    // Set 1 started 30 s after the start, done at +90 s; set 2 started 120 s after that.
    let start = h.now
    h.now = start + 90
    try h.run(
      .completeSet(
        workout: nil,
        exercise: nil,
        SetActuals(reps: 5, weight: 100),
        startedAt: start + 30
      )
    )
    h.now = start + 300
    try h.run(
      .completeSet(
        workout: nil,
        exercise: nil,
        SetActuals(reps: 5, weight: 100),
        startedAt: start + 210
      )
    )
    let state = h.journal.state()
    let summary = TrainingSummary(
      audit: Audit(state: state, history: h.journal.history),
      state: state
    )
    let session = try #require(summary.sessions.first)
    let workout = try #require(state.workouts[session.workoutID])
    #expect(session.timing == WorkoutTiming(of: workout))
    #expect(session.duration == WorkoutTiming(of: workout).duration)
    // The harness moves its clock on 60 s after each command: the workout began at start − 60
    // and ended with its last set, at start + 300.
    #expect(session.duration == 360)
    #expect(session.rests == [120])
    #expect(summary.medianRest == 120)
    #expect(summary.timedSessions == 1)
    #expect(summary.averageDuration == 360)
  }

  @Test func medianOfRests() {
    #expect(TrainingSummary.median([]) == nil)
    #expect(TrainingSummary.median([90]) == 90)
    #expect(TrainingSummary.median([120, 60, 90]) == 90)
    #expect(TrainingSummary.median([120, 60, 90, 100]) == 95)
  }

  /// The median read from a tally of the rests (what a summary keeps) against the middle of
  /// the sorted list, for lists with many repeats.
  @Test func medianOfATallyIsTheSortedMiddle() {
    var random = SplitMix64(seed: 44)
    for _ in 0..<500 {
      let values = (0..<Int(random.next() % 10)).map { _ in Double(random.next() % 5) * 30 }
      let sorted = values.sorted()
      let middle = sorted.count / 2
      let expected: Double? =
        sorted.isEmpty
        ? nil : sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
      #expect(TrainingSummary.median(values) == expected, "\(values)")
    }
  }

  @Test func weeklyProgressionKeepsEachWeeksBest() throws {
    let h = try push()
    h.now = Date(timeIntervalSince1970: 1_772_474_400)  // Monday 2026-03-02
    for (day, weight) in [(0.0, 100.0), (2, 105), (7, 102.5)] {
      h.now = Date(timeIntervalSince1970: 1_772_474_400 + day * 86_400)
      try h.run(.startWorkout(split: "Push", timeZone: "UTC"))
      try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: weight)))
      try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: 90)))
    }
    let state = h.journal.state()
    let audit = Audit(state: state, history: h.journal.history)
    let progression = try #require(audit.progressions(in: state).first)
    #expect(progression == audit.progression(of: "Bench Press", in: state))
    #expect(progression.points.map(\.topSetWeight) == [100, 105, 102.5])
    let weekly = progression.weekly()
    #expect(weekly.points.map(\.topSetWeight) == [105, 102.5])
    #expect(weekly.points.first?.workoutID == progression.points[1].workoutID)
  }

  /// A report's progression points gathered in parts (as the report index keeps them) read
  /// as the points of the whole.
  ///
  /// One a workout up to the limit, else the week's best, with the weeks read in each
  /// workout's own time zone. Checked against the definition: one
  /// point per week, the best of the points of that week, named by its latest workout.
  @Test func progressionPointsGatheredInPartsReadAsTheWhole() {
    var random = SplitMix64(seed: 4401)
    let zones = ["UTC", "Pacific/Auckland", "America/Los_Angeles", "Europe/Berlin"]
    for _ in 0..<300 {
      let limit = Int(random.next() % 6)
      let points = (0..<Int(random.next() % 40)).map { i in
        Progression.Point(
          date: Date(timeIntervalSince1970: 1_772_474_400 + Double(random.next() % 60) * 36_000),
          timeZone: zones[Int(random.next() % UInt64(zones.count))],
          workoutID: "w\(i)",
          topSetWeight: Double(random.next() % 8) * 10,
          bestEstimatedOneRepMax: Double(random.next() % 8) * 12,
          isAllActual: random.next() % 4 != 0
        )
      }
      // Gathered in random groups, merged in random order.
      var groups: [ReportReads.Points] = []
      var group = ReportReads.Points()
      for point in points {
        group.merge(ReportReads.Points([point]), limit: limit)
        if random.next() % 3 == 0 {
          groups.append(group)
          group = ReportReads.Points()
        }
      }
      groups.append(group)
      var gathered = ReportReads.Points()
      for other in groups.shuffled(using: &random) { gathered.merge(other, limit: limit) }

      let read = gathered.read(limit: limit)
      #expect(gathered.count == points.count)
      guard points.count > limit else {
        #expect(read == points.sorted { ($0.date, $0.workoutID) < ($1.date, $1.workoutID) })
        continue
      }
      func week(_ p: Progression.Point) -> CivilDay {
        CivilDay(p.date, timeZone: p.timeZone).weekStart
      }
      let weeks = Dictionary(grouping: points, by: week)
      #expect(read.count == weeks.count)
      #expect(read == read.sorted { ($0.date, $0.workoutID) < ($1.date, $1.workoutID) })
      for point in read {
        let members = weeks[week(point)] ?? []
        let latest = members.max { ($0.date, $0.workoutID) < ($1.date, $1.workoutID) }
        #expect(point.workoutID == latest?.workoutID)
        #expect(point.date == latest?.date)
        #expect(point.topSetWeight == members.map(\.topSetWeight).max())
        #expect(point.bestEstimatedOneRepMax == members.map(\.bestEstimatedOneRepMax).max())
        #expect(point.isAllActual == members.allSatisfy(\.isAllActual))
      }
      #expect(
        Progression(exercise: "Squat", points: read)
          == Progression(exercise: "Squat", points: points).weekly()
      )
    }
  }
}
