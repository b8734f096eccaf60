import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

/// The one-pass look-ups commands use (`latestLiveWorkout`, `openWorkouts`) against the
/// sorted list they replace (`liveWorkouts`), on journals of random workouts: started at
/// random back-dated times (some at the same instant, so the id decides), ended, deleted.
@Suite struct WorkoutLookupTests {
  static func randomJournal(seed: UInt64) throws -> JournalHarness {
    var rng = SplitMix64(seed: seed)
    let h = try JournalHarness()
    try h.makeUpperBody()
    var started: [String] = []
    let base = h.now
    for _ in 0..<(8 + Int(rng.next() % 12)) {
      switch rng.next() % 5 {
      case 0, 1, 2:
        // Back-dated to one of six instants, so that starts collide and the id decides.
        let at = base - Double(rng.next() % 6) * 3_600
        let events = try h.run(.startWorkout(split: "Upper Body", timeZone: "UTC"), at: at)
        if let id = events.first?.streamID { started.append(id) }
      case 3:
        guard let id = started.randomElement(using: &rng) else { continue }
        _ = try? h.run(.endWorkout(workout: id))
      default:
        guard let id = started.randomElement(using: &rng) else { continue }
        _ = try? h.run(.deleteWorkout(workout: id))
      }
    }
    return h
  }

  @Test(arguments: 0..<40 as Range<UInt64>)
  func oneLookUpAgreesWithTheSortedList(seed: UInt64) throws {
    let state = try Self.randomJournal(seed: seed).state
    let live = state.liveWorkouts
    #expect(state.latestLiveWorkout?.document.id == live.last?.document.id, "seed \(seed)")
    #expect(
      state.openWorkouts.map(\.document.id)
        == live.filter { !$0.document.status.isResolved }.map(\.document.id),
      "seed \(seed)"
    )
  }

  @Test func noWorkoutHasNoLatest() throws {
    let h = try JournalHarness()
    try h.makeUpperBody()
    #expect(h.state.latestLiveWorkout == nil)
    #expect(h.state.openWorkouts.isEmpty)
  }

  @Test func aCorrectionWithNothingOpenGoesToTheNewestWorkout() throws {
    let h = try JournalHarness()
    try h.makeUpperBody()
    let first = try h.run(.startWorkout(split: "Upper Body", timeZone: "UTC"))
    try h.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5), keepOpen: false))
    try h.run(.endWorkout(workout: nil))
    // Started later but back-dated before the first: the first is the newest.
    try h.run(.startWorkout(split: "Upper Body", timeZone: "UTC"), at: h.now - 86_400)
    try h.run(.endWorkout(workout: nil))
    let events = try h.run(.adjustSet(workout: nil, exercise: nil, set: 1, SetActuals(reps: 4)))
    #expect(events.first?.streamID == first.first?.streamID)
  }
}
