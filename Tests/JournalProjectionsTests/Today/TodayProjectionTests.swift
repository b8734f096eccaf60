import Foundation
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
