import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// `blame`, `diff`, `redo` and `rewind` answered from the saved state against a full replay,
/// over seeded multi-device histories whose events the state has seen in part: each command
/// gives the same answer, and redo and rewind append the same revert.
extension SavedStateTests {
  /// A command of ``command(_:split:)``'s, or one that leaves a document depending on the
  /// fold's `now` (a removed log, a deleted workout).
  static func historyCommand(
    _ random: inout SplitMix64,
    split: String,
    state: JournalState
  ) -> JournalCommand {
    let open = state.openWorkouts.first
    switch random.next() % 16 {
    case 0:
      guard let open, let log = open.document.logs.first else { break }
      return .removeLog(workout: open.document.id, exercise: log.id)
    case 1:
      guard let workout = state.liveWorkouts.randomElement(using: &random) else { break }
      return .deleteWorkout(workout: workout.document.id)
    default: break
    }
    return command(&random, split: split)
  }

  /// What a command answered, or the error it gave, as text; nil when the scope was too
  /// narrow.
  static func answer<T>(_ body: () throws -> T) -> String? {
    do {
      return "\(try body())"
    } catch is ScopeTooNarrow {
      return nil
    } catch {
      return "error: \(error)"
    }
  }

  /// The points `diff` and `rewind` are asked about: none, an event of the history (a
  /// stored one, or the last part of one), and a time.
  static func points(
    _ random: inout SplitMix64,
    in history: [FoldEvent]
  ) -> [Replayer.Point?] {
    guard let event = history.randomElement(using: &random),
      let other = history.randomElement(using: &random)
    else { return [nil] }
    return [nil, .event(event.id), .time(other.recordedAt), .event("01J0UNKNOWN")]
  }

  @Test(arguments: 1...6 as ClosedRange<UInt64>)
  func historyReadsFromTheStateMatchAFullReplay(seed: UInt64) throws {
    let fixture = try Fixture(seed: seed)
    // Days pass between steps, so that removed logs and deleted documents outlive their grace
    // periods between two points.
    var clock = Date().milliseconds
    fixture.clock = clock
    let split = try #require(
      try fixture.full().execute(
        .createSplit(
          SplitSettings(name: "Push", color: "red", systemImage: "dumbbell"),
          exercises: [
            ExercisePlan(name: "Bench", sets: 2, reps: 5, weight: 60, loadType: .weight),
            ExercisePlan(name: "Dips", sets: 2, reps: 8, weight: 0, loadType: .none),
          ]
        ),
        device: "phone",
        now: Date()
      ).first?.streamID
    )
    let devices = ["phone", "watch", "laptop"]
    // How often the saved state answered, so that the test cannot pass on fallbacks alone.
    var fromState = (blame: 0, diff: 0, redo: 0, rewind: 0)
    for step in 0..<60 {
      clock += Int64(fixture.random.next() % (12 * 86_400_000))
      fixture.clock = clock
      let now = Date(milliseconds: clock)
      let device = devices[Int(fixture.random.next() % 3)]
      let context = "seed \(seed), step \(step)"
      let full = try fixture.full()
      // Events appended without the state (a sync service delivering them) make its tail;
      // those appended through it move its positions.
      let journal =
        fixture.random.next() % 2 == 0
        ? full : try fixture.scoped(StateScope(openWorkouts: true))
      switch fixture.random.next() % 12 {
      case 0: _ = try? journal.undo(device: device, now: now)
      case 1:
        try? FileManager.default.removeItem(at: fixture.stateFolder)
      case 2:
        try Self.damageAFile(in: fixture.stateFolder, random: &fixture.random)
      case 3, 4:
        let (expected, expectedTree) = try fixture.onACopy { copy in
          (
            Self.answer { try copy.redo(device: device, now: now).cancelled.map(\.id) },
            try copy.state().documentTree()
          )
        }
        var answered = Self.answer {
          try fixture.scoped(StateScope(recentActionsOf: device)).redo(device: device, now: now)
            .cancelled.map(\.id)
        }
        if answered == nil {
          answered = Self.answer { try full.redo(device: device, now: now).cancelled.map(\.id) }
        } else {
          fromState.redo += 1
        }
        #expect(answered == expected, "redo: \(context)")
        #expect(try fixture.full().state().documentTree() == expectedTree, "redo: \(context)")
      case 5:
        let point = try #require(
          Self.points(&fixture.random, in: full.history).dropFirst().randomElement(
            using: &fixture.random
          )
        )
        guard let point else { break }
        let (expected, expectedTree) = try fixture.onACopy { copy in
          (
            Self.answer { try copy.rewind(to: point, device: device, now: now).eventIDs },
            try copy.state().documentTree()
          )
        }
        var answered = Self.answer {
          try fixture.scoped(StateScope(splits: false)).rewind(
            to: point,
            device: device,
            now: now
          ).eventIDs
        }
        if answered == nil {
          answered = Self.answer { try full.rewind(to: point, device: device, now: now).eventIDs }
        } else {
          fromState.rewind += 1
        }
        #expect(answered == expected, "rewind to \(point): \(context)")
        #expect(
          try fixture.full().state().documentTree() == expectedTree,
          "rewind to \(point): \(context)"
        )
      default:
        let command = Self.historyCommand(&fixture.random, split: split, state: full.state())
        _ = try? journal.execute(command, device: device, now: now)
      }
      let whole = try fixture.full()
      guard fixture.random.next() % 2 == 0 else { continue }

      // Blame each document the tree holds, live or stub.
      let tree = try whole.state().documentTree()
      for path in tree.keys.sorted() where fixture.random.next() % 3 == 0 {
        let expected = Self.answer { try whole.blame(path: path) }
        if let answered = Self.answer({
          try fixture.scoped(.document(at: path)).blame(path: path)
        }) {
          fromState.blame += 1
          #expect(answered == expected, "blame \(path): \(context)")
        }
      }
      // Diff between points of the history, in either order.
      let points = Self.points(&fixture.random, in: whole.history)
      for (from, to) in [(points[1], nil), (points[2], points[1]), (nil, points[2])] {
        let reference = Self.answer {
          try Diff.changes(history: whole.history, from: from, to: to)
        }
        #expect(Self.answer { try whole.diff(from: from, to: to) } == reference)
        if let answered = Self.answer({
          try fixture.scoped(StateScope(splits: false)).diff(from: from, to: to)
        }) {
          fromState.diff += 1
          #expect(
            answered == reference,
            "diff \(String(describing: from)) → \(String(describing: to)): \(context)"
          )
        }
      }
    }
    #expect(fromState.blame > 0 && fromState.diff > 0, "\(fromState)")
    #expect(fromState.redo + fromState.rewind > 0, "\(fromState)")
  }

  /// An undo of an action older than the device's recent streams (`undo --workout` of an old
  /// workout) is in no stream the redo's scope reads: the scope says it cannot tell rather
  /// than redo an earlier undo, and the whole history redoes the right one.
  @Test func redoDoesNotPassOverAnUndoOutsideTheDevicesRecentStreams() throws {
    let fixture = try Fixture(seed: 3)
    let split = try fixture.createSplit(
      "Legs",
      color: "blue",
      ExercisePlan(name: "Squat", sets: 3, reps: 5, weight: 80, loadType: .weight)
    )
    let set = JournalCommand.completeSet(workout: nil, exercise: nil, SetActuals(reps: 5))
    func act(_ command: JournalCommand) throws {
      try fixture.scoped(.splits).execute(command, device: "phone", now: Date())
    }
    try act(.startWorkout(split: split, timeZone: "UTC"))
    let first = try #require(fixture.full().state().openWorkouts.first?.document.id)
    try act(set)
    try act(.endWorkout(workout: nil))
    for index in 0..<SavedState.recentLimit {
      try act(.startWorkout(split: split, timeZone: "UTC"))
      if index == SavedState.recentLimit - 1 {
        // An undo the scope sees.
        try act(set)
        try fixture.scoped(StateScope(recentActionsOf: "phone")).undo(device: "phone", now: Date())
      }
      try act(.endWorkout(workout: nil))
    }
    let seen = try fixture.onACopy { try $0.redo(device: "phone", now: Date()).eventIDs }
    #expect(
      try fixture.scoped(StateScope(recentActionsOf: "phone")).redo(
        device: "phone",
        now: Date()
      ).eventIDs == seen
    )
    try fixture.full().undo(device: "phone", now: Date())
    // The undo of the first workout's end, which the device's recent streams do not hold.
    let hidden = try fixture.full().undo(device: "phone", workout: first, now: Date())
    #expect(throws: ScopeTooNarrow.self) {
      try fixture.scoped(StateScope(recentActionsOf: "phone")).redo(device: "phone", now: Date())
    }
    #expect(try fixture.full().redo(device: "phone", now: Date()).eventIDs == [hidden.revert.id])
  }

  /// Undoing a workout's start, or a rewind, takes the workout out of the catalogue, and the
  /// state goes on without reading everything again.
  @Test func aWorkoutLeavingTheCatalogueKeepsTheState() throws {
    let fixture = try Fixture(seed: 5)
    let split = try fixture.createSplit(
      "Arms",
      color: "red",
      ExercisePlan(name: "Curl", sets: 3, reps: 8, weight: 20, loadType: .weight)
    )
    let start = try fixture.scoped(.splits).execute(
      .startWorkout(split: split, timeZone: "UTC"),
      device: "phone",
      now: Date()
    )
    let point = try #require(start.last?.id)
    try fixture.scoped(.workout(nil)).execute(
      .completeSet(workout: nil, exercise: nil, SetActuals(reps: 8)),
      device: "phone",
      now: Date()
    )
    try fixture.scoped(StateScope(splits: false)).rewind(
      to: .event(point),
      device: "phone",
      now: Date()
    )
    try fixture.scoped(StateScope(recentActionsOf: "phone")).undo(device: "phone", now: Date())
    // The start itself: the workout leaves the catalogue.
    try fixture.scoped(StateScope(recentActionsOf: "phone")).undo(device: "phone", now: Date())
    try fixture.scoped(StateScope(recentActionsOf: "phone")).undo(device: "phone", now: Date())
    for listed in [false, true] {
      let opened = try SavedState.open(journal: fixture.url, store: try fixture.store())
      #expect(opened.rebuiltBecause == nil, "\(opened.rebuiltBecause ?? "")")
      #expect(try opened.loadCatalogue().isEmpty != listed)
      try fixture.scoped(StateScope(recentActionsOf: "phone")).redo(device: "phone", now: Date())
    }
    let scope = StateScope.workout(nil)
    try Self.expectAgrees(fixture.scoped(scope), fixture.full(), scope, "after the redo")
  }
}
