import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// A journal in a fresh log at `url`, written by the phone as this build writes: a split with
/// one exercise, a workout started from it, and a set completed for each of `reps`.
///
/// The store stamps events with the machine's clock: each command runs at its time.
func makeWorkoutJournal(at url: URL, reps: [Int]) throws -> Journal {
  _ = try EventLog.create(at: url)
  let journal = try Journal(
    store: try FileEventStore(url: url, options: DeviceWriter.Options(durability: .none)),
    newID: SequentialIDs().make
  )
  let split = try #require(
    journal.execute(
      .createSplit(
        SplitSettings(name: "Push", color: "red", systemImage: "dumbbell"),
        exercises: [
          ExercisePlan(name: "Bench Press", sets: 3, reps: 5, weight: 100, loadType: .weight)
        ]
      ),
      device: "phone",
      now: Date()
    ).first?.streamID
  )
  try journal.execute(.startWorkout(split: split, timeZone: "UTC"), device: "phone", now: Date())
  for count in reps {
    try journal.execute(
      .completeSet(workout: nil, exercise: nil, SetActuals(reps: count, weight: 100)),
      device: "phone",
      now: Date()
    )
  }
  return journal
}
