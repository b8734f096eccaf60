import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The check undo and redo make before appending a revert folds only the streams the revert
/// changes (`Replayer.anomaliesAdded(by:to:)`): it must find the anomalies that folding all of
/// history before and after the revert finds, in the same order.
@Suite struct UndoCheckPropertyTests {
  /// What the check found when it folded everything twice.
  static func reference(_ revert: FoldEvent, _ history: [FoldEvent]) -> [Anomaly] {
    let before = Replayer.fold(history).anomalies
    return Replayer.fold(history + [revert]).anomalies.filter { !before.contains($0) }
  }

  static func revert(_ ids: [String], after history: [FoldEvent]) -> FoldEvent {
    FoldEvent(
      id: "~probe",
      device: "phone",
      sequence: .max,
      milliseconds: (history.last?.milliseconds ?? 0) + 1,
      stream: "history",
      event: .eventsReverted(EventsReverted(eventIDs: ids, reason: RevertReason.undo))
    )
  }

  /// A journal of two workouts on one split, with split edits, undos and redos among them.
  static func history(seed: UInt64) throws -> [FoldEvent] {
    var rng = SplitMix64(seed: seed)
    let h = try JournalHarness()
    try h.makeUpperBody()
    let names = ["Bench Press", "Push-up", "Plank"]
    for _ in 0..<2 {
      // Undos may have gone back past the split: the workout is then refused.
      _ = try? h.run(.startWorkout(split: "Upper Body", timeZone: "Europe/Paris"))
      for _ in 0..<14 {
        let name = names[Int(rng.next() % 3)]
        switch rng.next() % 9 {
        case 0, 1, 2:
          let actuals =
            name == "Plank" ? SetActuals(seconds: 30) : SetActuals(reps: Int(rng.next() % 9))
          _ = try? h.run(.completeSet(workout: nil, exercise: name, actuals))
        case 3: _ = try? h.run(.skipLog(workout: nil, exercise: name))
        case 4: _ = try? h.run(.resetLog(workout: nil, exercise: name))
        case 5: _ = try? h.run(.addSet(workout: nil, exercise: name))
        case 6:
          let position = Int(rng.next() % 3) + 1
          _ = try? h.run(.moveExercise(split: "Upper Body", exercise: name, position: position))
        case 7: _ = try? h.journal.undo(device: "phone", now: h.now)
        default: _ = try? h.journal.redo(device: "phone", now: h.now)
        }
      }
      _ = try? h.run(.endWorkout(workout: nil))
    }
    return h.journal.history
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func foldingTheChangedStreamsFindsWhatFoldingEverythingFinds(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed ^ 0xA5A5)
    let history = try Self.history(seed: seed)
    // Every event alone (reverts too: reverting an undo is a redo), then random groups.
    var probes = history.map { [$0.storedID] }
    for _ in 0..<20 {
      probes.append((0..<3).map { _ in history[Int(rng.next() % UInt64(history.count))].storedID })
    }
    Self.expectAgreement(reverting: probes, in: history, "seed \(seed)")
  }

  /// Compares the check with folding everything for a revert of each of `probes`; some must
  /// strand later events, so that the comparison is not between empty lists only.
  static func expectAgreement(
    reverting probes: [[String]],
    in history: [FoldEvent],
    _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var found = 0
    for ids in probes {
      let revert = revert(ids, after: history)
      let expected = reference(revert, history)
      #expect(
        Replayer.anomaliesAdded(by: revert, to: history) == expected,
        "\(context), reverting \(ids)",
        sourceLocation: sourceLocation
      )
      found += expected.count
    }
    #expect(found > 0, "\(context)", sourceLocation: sourceLocation)
  }

  /// The fold finds a workout by the id after its stream's prefix: an event on another
  /// stream naming the same id (foreign data) folds into that workout, and is checked with it.
  @Test func anEventOnAnotherStreamOfTheSameIDIsCheckedWithItsWorkout() throws {
    var history = try Self.history(seed: 3)
    let set = try #require(
      history.last { if case .setCompleted = $0.event { true } else { false } }
    )
    var stray = set
    stray.id = "01KZZZZZZZZZZZZZZZZZZZZZZZ"
    stray.stream = "elsewhere:\(set.streamID)"
    stray.milliseconds = (history.last?.milliseconds ?? 0) + 1
    history.append(stray)
    Self.expectAgreement(reverting: history.map { [$0.storedID] }, in: history, "stray event")
  }
}
