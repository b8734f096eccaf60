import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// One journal shared by many tasks, as an app's phone and watch sessions share it: every
/// append is validated and stored one at a time, and every read sees a whole state.
@Suite struct JournalConcurrencyTests {
  @Test func appendsAndReadsFromManyTasksAtOnce() async throws {
    let url = try makeTemporaryDirectory("concurrency").appendingPathComponent("journal")
    _ = try EventLog.create(at: url)
    let ids = SequentialIDs()
    let store = try FileEventStore(url: url, options: DeviceWriter.Options(durability: .none))
    let journal = try Journal(store: store, newID: ids.make)
    try journal.execute(
      .createSplit(
        SplitSettings(name: "Push", color: "red", systemImage: "dumbbell"),
        exercises: [ExercisePlan(name: "Bench", sets: 3, reps: 5, weight: 60, loadType: .weight)]
      ),
      device: "phone",
      now: Date()
    )
    let initial = journal.history.count
    let tasks = 8
    let appendsPerTask = 12
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<tasks {
        group.addTask {
          for index in 0..<appendsPerTask {
            var update = SplitUpdated()
            update.restSeconds = .set(30 + task * appendsPerTask + index)
            try journal.execute(
              .updateSplit(split: "Push", update),
              device: task % 2 == 0 ? "phone" : "watch",
              now: Date()
            )
            // Reads between the appends of the other tasks.
            let state = journal.state()
            #expect(state.splits.count == 1)
            #expect(journal.history.count >= initial + 1 + index)
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(journal.history.count == initial + tasks * appendsPerTask)
    // What the files hold is what the shared journal folded.
    let fresh = try Journal(store: FileEventStore(url: url), newID: ids.make)
    #expect(fresh.history.map(\.id) == journal.history.map(\.id))
    #expect(fresh.state().splits == journal.state().splits)
  }
}
