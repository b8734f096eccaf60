import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// `audit` and `export` read a workout at a time from the saved state give what the whole
/// history read at once gives (``SavedStateTests/expectSameStreams(_:_:sourceLocation:)``),
/// on seeded histories of several devices: late arrivals, undo, redo and rewind, deleted
/// workouts, redelivered events and a stream this build cannot read.
@Suite struct StreamedAuditTests {
  @Test(arguments: 1...6 as ClosedRange<UInt64>)
  func streamedReadsEqualTheWholeHistory(seed: UInt64) throws {
    let fixture = try SavedStateTests.Fixture(seed: seed)
    let split = try #require(
      try fixture.full().execute(
        .createSplit(
          SplitSettings(name: "Push", color: "red", systemImage: "dumbbell"),
          exercises: [
            ExercisePlan(
              name: "Bench",
              sets: 3,
              reps: 5,
              weight: 60,
              loadType: .weight,
              libraryName: "Bench Press"
            ),
            ExercisePlan(name: "Dips", sets: 2, reps: 8, weight: 0, loadType: .none),
          ]
        ),
        device: "phone",
        now: Date()
      ).first?.streamID
    )
    let devices = ["phone", "watch"]
    var quarantined = false
    for step in 0..<60 {
      let device = devices[Int(fixture.random.next() % 2)]
      let journal = try fixture.full()
      switch fixture.random.next() % 16 {
      case 0:
        // Events the saved state has not seen: another device's files delivered by a sync.
        _ = try? journal.execute(
          SavedStateTests.command(&fixture.random, split: split),
          device: "laptop",
          now: Date()
        )
      case 1, 2: _ = try? journal.undo(device: device, now: Date())
      case 3: _ = try? journal.redo(device: device, now: Date())
      case 4:
        if let point = journal.history.dropLast(1).randomElement(using: &fixture.random) {
          _ = try? journal.rewind(to: .event(point.id), device: device, now: Date())
        }
      case 5:
        if let workout = journal.state().liveWorkouts.randomElement(using: &fixture.random) {
          _ = try? journal.execute(
            .deleteWorkout(workout: workout.document.id),
            device: device,
            now: Date()
          )
        }
      case 6 where !quarantined && step > 20:
        // An event of a version newer than this build: its stream is set aside.
        let streams = journal.history.map(\.stream).filter { $0.hasPrefix("workout:") }
        if let stream = streams.randomElement(using: &fixture.random) {
          let writer = try EventLog(at: fixture.url).openWriter(
            device: "newer-phone",
            options: DeviceWriter.Options(durability: .none)
          )
          try writer.append([
            NewEvent(stream: stream, type: "set.completed", version: 99, payload: [:])
          ])
          writer.close()
          quarantined = true
        }
      case 7 where step > 10:
        // A sync service delivering an event again, in another device's files: the copy is
        // set aside, wherever the original lies.
        let stored = try fixture.store().readHistory().events
        if let original = stored.randomElement(using: &fixture.random) {
          let writer = try EventLog(at: fixture.url).openWriter(
            device: "relay",
            options: DeviceWriter.Options(durability: .none)
          )
          try writer.append([
            NewEvent(
              stream: original.stream,
              type: original.type,
              version: original.version,
              payload: original.payload,
              id: ULID(original.id)
            )
          ])
          writer.close()
        }
      default:
        // Appended through the saved state, with the scope the command line opens.
        let command = SavedStateTests.command(&fixture.random, split: split)
        let scope: StateScope
        switch command {
        case .startWorkout, .updateSplit: scope = .splits
        default: scope = .workout(nil)
        }
        _ = try? fixture.scoped(scope).execute(command, device: device, now: Date())
      }
      if step % 10 == 9 {
        try SavedStateTests.expectSameStreams(fixture, "seed \(seed), step \(step)")
      }
    }
  }
}
