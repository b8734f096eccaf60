import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// A long history is folded in parts at once (`Replayer.Fold.applyInParts`): the state must
/// be the one the plain fold gives, event by event, for any history, anomalies included.
@Suite struct FoldInPartsTests {
  /// The reference: every event applied in turn.
  static func foldedOneByOne(_ history: [FoldEvent]) -> JournalState {
    var fold = Replayer.Fold(reverts: history)
    for event in history { fold.apply(event) }
    return fold.state
  }

  static func foldedInParts(_ history: [FoldEvent], parts: Int) -> JournalState {
    history.withUnsafeBufferPointer { Replayer.foldInParts($0, parts: parts) }
  }

  static func expectSame(
    _ actual: JournalState,
    _ expected: JournalState,
    _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(actual.eventCount == expected.eventCount, "\(context)", sourceLocation: sourceLocation)
    #expect(actual.now == expected.now, "\(context)", sourceLocation: sourceLocation)
    #expect(actual.splits == expected.splits, "\(context)", sourceLocation: sourceLocation)
    #expect(actual.workouts == expected.workouts, "\(context)", sourceLocation: sourceLocation)
    // The first anomaly out of place, rather than both lists.
    let firstDifference = zip(actual.anomalies, expected.anomalies).enumerated()
      .first { $0.element.0 != $0.element.1 }?.offset
    #expect(
      actual.anomalies.count == expected.anomalies.count && firstDifference == nil,
      "\(context): anomaly \(firstDifference ?? -1) of \(expected.anomalies.count)",
      sourceLocation: sourceLocation
    )
    #expect(
      try actual.documentTree() == expected.documentTree(),
      "\(context)",
      sourceLocation: sourceLocation
    )
  }

  /// The sample's history, damaged at random.
  ///
  /// Events are dropped, repeated, moved to another stream (a workout's events on a split
  /// and the other way round); reverts, reorders of every split and splits created without
  /// an order are added. The fold meets every kind of anomaly, in several parts at once.
  static func damaged(_ history: [FoldEvent], seed: UInt64) -> [FoldEvent] {
    var random = SplitMix64(seed: seed)
    let streams = Array(Set(history.map(\.stream))).sorted()
    var damaged: [FoldEvent] = []
    for (index, original) in history.enumerated() {
      var event = original
      switch random.next() % 40 {
      case 0: continue
      case 1:
        damaged.append(event)
        event.id += "#again"
      case 2: event.stream = streams[Int(random.next() % UInt64(streams.count))]
      case 3 where !damaged.isEmpty:
        let named = (0..<Int(random.next() % 3 + 1)).map { _ in
          damaged[Int(random.next() % UInt64(damaged.count))].storedID
        }
        damaged.append(
          Self.event(
            "REVERT\(seed)-\(index)",
            like: event,
            stream: "history",
            .eventsReverted(EventsReverted(eventIDs: named, reason: "undo"))
          )
        )
      case 4:
        // Splits reordered (every split, the one the reorder names, read in one fold) and a
        // split created after the last (its order read from every other split).
        let splitIDs = streams.filter { $0.hasPrefix("split:") }.map { String($0.dropFirst(6)) }
        damaged.append(
          Self.event(
            "ORDER\(seed)-\(index)",
            like: event,
            stream: "splits",
            .splitsReordered(SplitsReordered(splitIDs: splitIDs.shuffled(using: &random)))
          )
        )
        let settings = SplitSettings(name: "Extra \(index)", color: "blue", systemImage: "star")
        damaged.append(
          Self.event(
            "SPLIT\(seed)-\(index)",
            like: event,
            stream: "split:EXTRA\(seed)-\(index)",
            .splitCreated(SplitCreated(settings: settings))
          )
        )
      default: break
      }
      damaged.append(event)
    }
    return damaged
  }

  /// An event recorded when `neighbour` was.
  static func event(
    _ id: String,
    like neighbour: FoldEvent,
    stream: String,
    _ event: JournalEvent
  ) -> FoldEvent {
    FoldEvent(
      id: id,
      device: neighbour.device,
      sequence: neighbour.sequence,
      milliseconds: neighbour.milliseconds,
      stream: stream,
      event: event
    )
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func partsGiveTheStateOfTheOneByOneFold(seed: UInt64) throws {
    let history = try GeneratedSample.shared.get().journal.history
    let damaged = seed == 0 ? history : Self.damaged(history, seed: seed)
    // A copy in a buffer of its own: the parts read each event through a pointer shared by
    // every thread, and must leave it as it was.
    let untouched = damaged.map { $0 }
    let expected = Self.foldedOneByOne(damaged)
    if seed > 0 { #expect(!expected.anomalies.isEmpty, "seed \(seed): no anomaly to order") }
    for parts in [1, 2, 3, 5, 8, 16, 32] {
      try Self.expectSame(
        Self.foldedInParts(damaged, parts: parts),
        expected,
        "seed \(seed), \(parts) parts"
      )
    }
    #expect(damaged == untouched, "seed \(seed): the fold changed an event")
  }

  /// The replayer folds a history this long in parts; shorter ones and folds from a state,
  /// to a point or watched event by event, one by one.
  @Test func theReplayerFoldsALongHistoryInParts() throws {
    let history = try GeneratedSample.shared.get().journal.history
    // Copies of the sample's history, each with its own streams and ids, one after another.
    var long: [FoldEvent] = []
    var copy = 0
    while long.count < Replayer.partsMinimum {
      for var event in history {
        event.id = "C\(copy)-\(event.id)"
        event.stream = "\(event.stream)-\(copy)"
        if case .eventsReverted(var revert) = event.event {
          revert.eventIDs = revert.eventIDs.map { "C\(copy)-\($0)" }
          event.event = .eventsReverted(revert)
        }
        long.append(event)
      }
      copy += 1
    }
    let expected = Self.foldedOneByOne(long)
    #expect(expected.workouts.count > Set(history.map(\.stream)).count)
    try Self.expectSame(Replayer.fold(long), expected, "the long history")
    let middle = long[long.count / 2].id
    try Self.expectSame(
      Replayer.fold(long, upTo: .event(middle)),
      Self.foldedOneByOne(Array(long[...(long.count / 2)])),
      "up to the middle"
    )
  }

  /// Workouts are dealt by their id's last digit as a number, so that every part gets about
  /// as many (the digit's character code would leave some parts empty); split events and
  /// reverts go to the first part, and the deal finds every revert.
  @Test func theDealSpreadsWorkoutsEvenly() {
    var ids = ULIDGenerator(random: SplitMix64(seed: 8))
    var events: [FoldEvent] = []
    for index in 0..<3_200 {
      let id = ids.next(milliseconds: 1_000_000 + Int64(index))
      events.append(
        FoldEvent(
          id: "E\(index)",
          device: "phone",
          sequence: UInt64(index + 1),
          milliseconds: 1_000_000,
          stream: "workout:\(id)",
          event: .workoutEnded
        )
      )
    }
    let split = FoldEvent(
      id: "S",
      device: "phone",
      sequence: 1,
      milliseconds: 1,
      stream: "split:\(ids.next(milliseconds: 1))",
      event: .splitDeleted
    )
    let revert = FoldEvent(
      id: "R",
      device: "phone",
      sequence: 1,
      milliseconds: 1,
      stream: "history",
      event: .eventsReverted(EventsReverted(eventIDs: ["E1"], reason: "undo"))
    )
    events.insert(split, at: 10)
    events.insert(revert, at: 20)
    events.append(revert)
    for parts in [2, 8, 16, 32] {
      let deal = events.withUnsafeBufferPointer { Replayer.Deal($0, parts: parts) }
      #expect(deal.reverts == [20, events.count - 1], "\(parts) parts")
      #expect(deal.parts[10] == 0 && deal.parts[20] == 0, "\(parts) parts")
      var counts = [Int](repeating: 0, count: parts)
      for index in events.indices where events[index].stream.hasPrefix("workout:") {
        counts[Int(deal.parts[index])] += 1
      }
      let mean = 3_200 / parts
      #expect(
        counts.allSatisfy { $0 > mean * 7 / 10 && $0 < mean * 13 / 10 },
        "\(parts) parts: \(counts)"
      )
    }
  }
}
