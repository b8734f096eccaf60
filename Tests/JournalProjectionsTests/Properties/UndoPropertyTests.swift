import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@Suite struct UndoPropertyTests {
  /// Undoing the last k actions gives the documents of the journal that never
  /// had them.
  @Test(arguments: 0..<32 as Range<UInt64>)
  func undoingTheLastActionsEqualsNeverHavingThem(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let h = try JournalHarness()
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "Upper Body", timeZone: "Europe/Paris"))
    let names = ["Bench Press", "Push-up", "Plank"]
    var boundaries = [h.journal.history.count]  // history length after each action
    while boundaries.count < 15 {
      let name = names[Int(rng.next() % 3)]
      let command: JournalCommand
      switch rng.next() % 6 {
      case 0, 1:
        let actuals =
          name == "Plank" ? SetActuals(seconds: 30) : SetActuals(reps: Int(rng.next() % 9))
        command = .completeSet(workout: nil, exercise: name, actuals)
      case 2: command = .skipLog(workout: nil, exercise: name)
      case 3: command = .resetLog(workout: nil, exercise: name)
      case 4: command = .completeLog(workout: nil, exercise: name)
      default: command = .addSet(workout: nil, exercise: name)
      }
      guard (try? h.run(command)) != nil else { continue }
      boundaries.append(h.journal.history.count)
    }
    let k = Int(rng.next() % 5) + 1
    let kept = Array(h.journal.history.prefix(boundaries[boundaries.count - 1 - k]))
    try h.journal.undo(device: "phone", count: k, now: h.now)
    #expect(
      try h.state.documentTree() == Replayer.fold(kept).documentTree(),
      "seed \(seed), k \(k)"
    )
  }
}
