import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@Suite struct TodayProjectionTests {
  // 2026-03-10T20:00:00Z = 21:00 in Paris.
  let evening = Date(timeIntervalSince1970: 1_773_172_800)
  let paris = TimeZone(identifier: "Europe/Paris") ?? .gmt

  func trainedTonight() throws -> JournalHarness {
    let h = try JournalHarness(now: evening)
    try h.makeUpperBody(name: "A")
    try h.makeUpperBody(name: "B")
    try h.makeUpperBody(name: "C")
    try h.run(.startWorkout(split: "B", timeZone: "Europe/Paris"))
    try h.run(.completeSet(workout: nil, exercise: "Bench Press", SetActuals(reps: 5, weight: 100)))
    try h.run(.completeSet(workout: nil, exercise: "Bench Press", SetActuals(reps: 4, weight: 100)))
    try h.run(.completeSet(workout: nil, exercise: "Push-up", SetActuals(reps: 10)))
    return h
  }

  @Test func countsTheSetsAndVolumeOfTheDay() throws {
    let h = try trainedTonight()
    let today = TodayProjection.snapshot(of: h.state, at: h.now, timeZone: paris)
    #expect(today.day == "2026-03-10")
    #expect(today.setsDone == 3)
    #expect(today.volume == 900)
    #expect(today.workouts.count == 1)
    #expect(today.inProgress?.splitName == "B")
    #expect(today.nextSplit?.name == "C")
    #expect(today.lastTrained == "2026-03-10")
  }

  @Test func aLaterDayRollsOverToZerosWhileTheRotationCarriesOn() throws {
    let h = try trainedTonight()
    try h.run(.endWorkout(workout: nil))
    let tomorrow = TodayProjection.snapshot(of: h.state, at: h.now + 86_400, timeZone: paris)
    #expect(tomorrow.day == "2026-03-11")
    #expect(tomorrow.setsDone == 0)
    #expect(tomorrow.volume == 0)
    #expect(tomorrow.workouts.isEmpty)
    #expect(tomorrow.inProgress == nil)
    #expect(tomorrow.nextSplit?.name == "C")
    #expect(tomorrow.lastTrained == "2026-03-10")
  }

  @Test func theDayIsLocalToTheZoneAsked() throws {
    let h = try trainedTonight()
    // 20:0x UTC is already the next day in Tokyo.
    let tokyo = TodayProjection.snapshot(
      of: h.state,
      at: h.now,
      timeZone: TimeZone(identifier: "Asia/Tokyo") ?? .gmt
    )
    #expect(tokyo.day == "2026-03-11")
    #expect(tokyo.setsDone == 3)
  }

  @Test func theRotationWrapsAroundAndStartsAtTheFirstSplit() throws {
    let h = try JournalHarness(now: evening)
    try h.makeUpperBody(name: "A")
    try h.makeUpperBody(name: "B")
    #expect(
      TodayProjection.snapshot(of: h.state, at: h.now, timeZone: paris).nextSplit?.name == "A"
    )
    try h.run(.startWorkout(split: "B", timeZone: "UTC"))
    #expect(
      TodayProjection.snapshot(of: h.state, at: h.now, timeZone: paris).nextSplit?.name == "A"
    )
  }
}

/// The snapshot looks at every workout once; a plain reference over the sorted
/// `liveWorkouts` must give the same day, on random journals (workouts started at colliding
/// back-dated times, sets done, ended, deleted) at several moments and zones.
@Suite struct TodayProjectionReferenceTests {
  struct Reference: Equatable {
    var setsDone: Int
    var volume: Double
    var workouts: [String]
    var inProgress: String?
    var lastTrained: String?
  }

  static func reference(_ state: JournalState, at moment: Date, _ zone: TimeZone) -> Reference {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let dayStart = calendar.startOfDay(for: moment)
    let dayEnd = calendar.date(byAdding: .day, value: 1, to: dayStart) ?? dayStart
    let workouts = state.liveWorkouts.filter { $0.document.start <= max(moment, dayEnd) }
    var setsDone = 0
    var volume = 0.0
    for workout in workouts {
      for log in workout.document.logs {
        for entry in log.setEntries ?? []
        where entry.completedAt >= dayStart && entry.completedAt < dayEnd {
          setsDone += 1
          if log.loadType == .weight { volume += Double(entry.reps ?? 0) * (entry.weight ?? 0) }
        }
      }
    }
    return Reference(
      setsDone: setsDone,
      volume: volume,
      workouts: workouts.filter { $0.document.start >= dayStart && $0.document.start < dayEnd }
        .map(\.document.id),
      inProgress: workouts.last { !$0.document.status.isResolved }?.document.id,
      lastTrained: workouts.last { $0.document.start < dayEnd }.map { workout in
        let parts = calendar.dateComponents([.year, .month, .day], from: workout.document.start)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
      }
    )
  }

  @Test(arguments: 0..<24 as Range<UInt64>)
  func theSnapshotAgreesWithTheReference(seed: UInt64) throws {
    var rng = SplitMix64(seed: 0x70DA_0000 + seed)
    let h = try JournalHarness()
    try h.makeUpperBody()
    let base = h.now
    for _ in 0..<(10 + Int(rng.next() % 14)) {
      switch rng.next() % 6 {
      case 0, 1:
        let at = base - Double(rng.next() % 4) * 12 * 3_600
        _ = try? h.run(.startWorkout(split: "Upper Body", timeZone: "UTC"), at: at)
      case 2, 3:
        let live = h.state.liveWorkouts
        guard let workout = live.randomElement(using: &rng) else { continue }
        let weight = Double(rng.next() % 40) * 2.5 + 0.1
        _ = try? h.run(
          .completeSet(
            workout: workout.document.id,
            exercise: nil,
            SetActuals(reps: Int(rng.next() % 12), weight: weight)
          )
        )
      case 4:
        guard let workout = h.state.liveWorkouts.randomElement(using: &rng) else { continue }
        _ = try? h.run(.endWorkout(workout: workout.document.id))
      default:
        guard let workout = h.state.liveWorkouts.randomElement(using: &rng) else { continue }
        _ = try? h.run(.deleteWorkout(workout: workout.document.id))
      }
    }
    let zones = ["UTC", "Asia/Tokyo", "America/Los_Angeles"].compactMap(TimeZone.init(identifier:))
    for zone in zones {
      for offset in [-36.0, -12, 0, 6] {
        let moment = h.now + offset * 3_600
        let today = TodayProjection.snapshot(of: h.state, at: moment, timeZone: zone)
        let got = Reference(
          setsDone: today.setsDone,
          volume: today.volume,
          workouts: today.workouts.map(\.id),
          inProgress: today.inProgress?.id,
          lastTrained: today.lastTrained
        )
        #expect(got == Self.reference(h.state, at: moment, zone), "seed \(seed), \(offset) h")
      }
    }
  }
}
