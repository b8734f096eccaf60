import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// A deliberately simple model of one workout's logs: what a lifter would
/// expect after each command, written without the fold's machinery.
struct ReferenceLog: Equatable {
  var status: WorkoutStatus = .notStarted
  var reps: [Int] = []
  var sets: Int
  var plannedReps: Int
}

@Suite struct FoldPropertyTests {
  static let names = ["Bench Press", "Push-up", "Plank"]

  /// Runs `steps` random commands on one or two devices.
  ///
  /// Every accepted command is mirrored in the reference model, undo included.
  static func randomSession(
    seed: UInt64,
    steps: Int,
    devices: [String] = ["phone"]
  ) throws
    -> (JournalHarness, [String: ReferenceLog])
  {
    var rng = SplitMix64(seed: seed)
    let h = try JournalHarness()
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "Upper Body", timeZone: "America/New_York"))
    var model: [String: ReferenceLog] = [
      "Bench Press": ReferenceLog(sets: 3, plannedReps: 5),
      "Push-up": ReferenceLog(sets: 2, plannedReps: 15),
      "Plank": ReferenceLog(sets: 2, plannedReps: 0),
    ]
    var undoStack: [String: [[String: ReferenceLog]]] = [:]
    for _ in 0..<steps {
      let name = names[Int(rng.next() % 3)]
      let device = devices[Int(rng.next() % UInt64(devices.count))]
      let reps = Int(rng.next() % 12)
      let before = model
      var log = model[name] ?? ReferenceLog(sets: 0, plannedReps: 0)
      let command: JournalCommand
      switch rng.next() % 9 {
      case 0, 1, 2:
        let actuals = name == "Plank" ? SetActuals(seconds: reps * 5) : SetActuals(reps: reps)
        command = .completeSet(workout: nil, exercise: name, actuals, keepOpen: rng.next() % 2 == 0)
        log.reps.append(name == "Plank" ? 0 : reps)
        log.status = .inProgress
        if log.reps.count == log.sets, case .completeSet(_, _, _, false, _) = command {
          log.status = .completed
        }
      case 3:
        command = .skipLog(workout: nil, exercise: name)
        log.status = .skipped
      case 4:
        command = .resetLog(workout: nil, exercise: name)
        log = ReferenceLog(sets: log.sets, plannedReps: log.plannedReps)
      case 5:
        command = .completeLog(workout: nil, exercise: name)
        while log.reps.count < log.sets { log.reps.append(name == "Plank" ? 0 : log.plannedReps) }
        log.status = .completed
      case 6:
        command = .addSet(workout: nil, exercise: name)
        log.sets += 1
        if log.status == .completed { log.status = .inProgress }
      case 7:
        let index = log.reps.isEmpty ? 1 : Int(rng.next() % UInt64(log.reps.count)) + 1
        command = .adjustSet(
          workout: nil,
          exercise: name,
          set: index,
          name == "Plank" ? SetActuals(seconds: reps) : SetActuals(reps: reps)
        )
        if name != "Plank", index <= log.reps.count { log.reps[index - 1] = reps }
      default:
        if let previous = undoStack[device]?.popLast(),
          (try? h.journal.undo(device: device, now: h.now)) != nil
        {
          model = previous
        }
        continue
      }
      do {
        try h.run(command, device: device)
        model[name] = log
        undoStack[device, default: []].append(before)
      } catch is CommandError {
        model = before
      }
    }
    return (h, model)
  }

  @Test(arguments: 0..<48 as Range<UInt64>)
  func foldAgreesWithTheReferenceModel(seed: UInt64) throws {
    let (h, model) = try Self.randomSession(seed: seed, steps: 40)
    let workout = try h.workout()
    for log in workout.logs {
      let expected = try #require(model[log.exerciseName])
      #expect(log.status == expected.status, "seed \(seed): \(log.exerciseName)")
      #expect(log.sets == expected.sets, "seed \(seed): \(log.exerciseName)")
      if log.loadType != .duration {
        #expect(
          (log.setEntries ?? []).map { $0.reps ?? -1 } == expected.reps,
          "seed \(seed): \(log.exerciseName)"
        )
      } else {
        #expect(
          (log.setEntries ?? []).count == expected.reps.count,
          "seed \(seed): \(log.exerciseName)"
        )
      }
    }
    #expect(h.state.anomalies.isEmpty, "seed \(seed): \(h.state.anomalies)")
  }

  @Test(arguments: 0..<32 as Range<UInt64>)
  func everyDocumentDecodesAndObeysTheSchemaRules(seed: UInt64) throws {
    let (h, _) = try Self.randomSession(seed: seed, steps: 60, devices: ["phone", "watch"])
    for (path, bytes) in try h.state.documentTree() where path.hasPrefix("Workouts/") {
      let document = try DocumentCoder.decode(WorkoutDocument.self, from: bytes, file: path)
      #expect(try DocumentCoder.encode(document) == bytes)
      for log in document.logs {
        let entries = log.setEntries?.count ?? 0
        switch log.status {
        case .notStarted: #expect(log.setEntries == nil, "seed \(seed)")
        case .completed: #expect(entries >= log.sets, "seed \(seed)")
        case .inProgress, .skipped: #expect(entries <= log.sets, "seed \(seed)")
        }
        #expect(log.currentStateIndex == entries, "seed \(seed): \(log.exerciseName)")
      }
      let resolved = document.logs.allSatisfy(\.status.isResolved)
      #expect((document.end != nil) == (resolved && !document.logs.isEmpty), "seed \(seed)")
    }
  }

  @Test(arguments: 0..<24 as Range<UInt64>)
  func deliveryOrderAndDuplicatesChangeNothing(seed: UInt64) throws {
    let (h, _) = try Self.randomSession(seed: seed, steps: 50, devices: ["phone", "watch"])
    let expected = try h.state.documentTree()
    var rng = SplitMix64(seed: seed ^ 0xABCD)
    var events = h.store.stored
    events.shuffle(using: &rng)
    let redelivered = (0..<5).compactMap { _ in events.randomElement(using: &rng) }
    let copy = InMemoryEventStore(events: events + redelivered)
    let journal = try Journal(store: copy, newID: SequentialIDs(prefix: "01K").make)
    #expect(try journal.state().documentTree() == expected, "seed \(seed)")
  }

  @Test(arguments: 0..<24 as Range<UInt64>)
  func redoRestoresWhatUndoRemoved(seed: UInt64) throws {
    let (h, _) = try Self.randomSession(seed: seed, steps: 30)
    let before = try h.state.documentTree()
    guard (try? h.journal.undo(device: "phone", now: h.now)) != nil else { return }
    try h.journal.redo(device: "phone", now: h.now)
    #expect(try h.state.documentTree() == before, "seed \(seed)")
  }

  @Test(arguments: 0..<16 as Range<UInt64>)
  func asOfEveryEventEqualsFoldingThePrefix(seed: UInt64) throws {
    let (h, _) = try Self.randomSession(seed: seed, steps: 25)
    let history = h.journal.history
    for index in stride(from: 0, to: history.count, by: 3) {
      let point = Replayer.fold(history, upTo: .event(history[index].id))
      let prefix = Replayer.fold(Array(history[...index]))
      #expect(try point.documentTree() == prefix.documentTree(), "seed \(seed) at \(index)")
    }
  }
}

@Suite(.serialized) struct TimeZoneIndependenceTests {
  @Test func theSameHistoryFoldsToTheSameBytesInAnyMachineZone() throws {
    let (h, _) = try FoldPropertyTests.randomSession(
      seed: 7,
      steps: 60,
      devices: ["phone", "watch"]
    )
    let original = ProcessInfo.processInfo.environment["TZ"]
    defer {
      if let original { setenv("TZ", original, 1) } else { unsetenv("TZ") }
      NSTimeZone.resetSystemTimeZone()
    }
    var trees: [[String: Data]] = []
    for zone in ["Pacific/Kiritimati", "America/Adak", "Asia/Kathmandu"] {
      setenv("TZ", zone, 1)
      NSTimeZone.resetSystemTimeZone()
      #expect(TimeZone.current.identifier == zone)
      let journal = try Journal(store: h.store, newID: SequentialIDs(prefix: "01K").make)
      trees.append(try journal.state().documentTree())
    }
    #expect(trees[0] == trees[1])
    #expect(trees[1] == trees[2])
  }
}
