// The phone and the watch share one journal folder, each appending to its own files; the
// phone regenerates the app's documents from the history. Run with `swift run` in this folder.
import Foundation
import JournalCore
import JournalProjections

/// Fresh event ids from the wall clock, safe to share between the journals of one process.
final class IDs: @unchecked Sendable {
  private var generator = ULIDGenerator()
  private let lock = NSLock()

  func next() -> String {
    lock.withLock { generator.next(milliseconds: Date().milliseconds).description }
  }
}

let folder = FileManager.default.temporaryDirectory
  .appendingPathComponent("phone-and-watch-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: folder) }
let journalURL = folder.appendingPathComponent("Journal")
let documentsURL = folder.appendingPathComponent("Documents")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
_ = try EventLog.create(at: journalURL)
let store = try FileEventStore(url: journalURL)
let ids = IDs()

// The phone plans a split and starts a workout from it.
let phone = try Journal.open(store: store, scope: .splits, newID: ids.next)
try phone.execute(
  .createSplit(
    SplitSettings(name: "Upper Body", color: "blue", systemImage: "dumbbell"),
    exercises: [
      ExercisePlan(name: "Bench Press", sets: 3, reps: 5, weight: 60, loadType: .weight),
      ExercisePlan(name: "Pull-up", sets: 2, reps: 8, weight: 0, loadType: .none),
    ]
  ),
  device: "phone",
  now: Date()
)
try phone.execute(
  .startWorkout(split: "upper", timeZone: "Europe/Paris"),
  device: "phone",
  now: Date()
)

// The watch records the sets, each command reading only the workout in progress.
for reps in [5, 5, 4] {
  let watch = try Journal.open(store: store, scope: .workout(nil), newID: ids.next)
  try watch.execute(
    .completeSet(workout: nil, exercise: "bench", SetActuals(reps: reps, weight: 60)),
    device: "watch",
    now: Date()
  )
}
// The watch face's glance at the day: only the day's workouts are read, and the next split
// comes from the splits the saved state keeps folded.
let zone = TimeZone(identifier: "UTC") ?? .current
let moment = Date()
let glance = try Journal.open(
  store: store,
  scope: TodayProjection.scope(at: moment, timeZone: zone),
  newID: ids.next
)
.today(at: moment, timeZone: zone)
print("today: \(glance.setsDone) sets, next split \(glance.nextSplit?.name ?? "none")")
// A mistake, undone: the revert is appended, nothing is erased.
let watch = try Journal.open(store: store, scope: .workout(nil), newID: ids.next)
try watch.execute(.skipLog(workout: nil, exercise: "pull"), device: "watch", now: Date())
let undone = try Journal.open(
  store: store,
  scope: StateScope(recentActionsOf: "watch"),
  newID: ids.next
)
.undo(device: "watch", now: Date())
print(
  "watch undid \(undone.cancelled.count) event(s) of stream \(undone.cancelled.first?.stream ?? "?")"
)

// A refused command appends nothing.
do {
  try Journal.open(store: store, scope: .workout(nil), newID: ids.next).execute(
    .completeSet(workout: nil, exercise: "pull", SetActuals(reps: -1)),
    device: "watch",
    now: Date()
  )
} catch let refused as CommandError {
  print("refused: \(refused.message)")
}

// The phone brings the documents up to date from its saved state: only the streams changed
// since its last rebuild are folded.
let report = try Rebuild.run(store: store, output: documentsURL)
let everything = try Journal.open(store: store, scope: .all, newID: ids.next)
guard let workout = everything.state().liveWorkouts.last else { fatalError("no workout") }
let bench = workout.document.logs.first { $0.exerciseName == "Bench Press" }
print("rebuilt \(report.written.count) documents")
print(
  "\(workout.path): Bench Press \(bench?.status.rawValue ?? "?"), "
    + "\(bench?.setEntries?.count ?? 0) sets, volume \(workout.document.totalVolume)"
)
let verified = try store.log.verify()
print(
  verified.problems.isEmpty
    ? "verified: every chain intact" : "verify found \(verified.problems.count) problems"
)
