import Foundation
import JournalCore
import Testing

@testable import JournalProjections

/// The walk over reverts (`Replayer.CancelledEvents`) against a plain reference: the rule of
/// docs/Fold.md over the ids' text.
@Suite struct RevertsTests {
  /// A history of `count` events in merge order, about a third of them reverts of earlier
  /// events (undo) or of earlier reverts (redo, and undo of a redo), some naming several.
  static func history(seed: UInt64, count: Int) -> [FoldEvent] {
    var random = SplitMix64(seed: seed)
    var ids = ULIDGenerator(random: SplitMix64(seed: seed ^ 0x5EED))
    var events: [FoldEvent] = []
    for index in 0..<count {
      let id = ids.next(milliseconds: 1_000 + Int64(index)).description
      var event = FoldEvent(
        id: id,
        device: "phone",
        sequence: UInt64(index),
        milliseconds: 1_000 + Int64(index),
        stream: "workout:W\(random.next() % 5)",
        event: .splitDeleted
      )
      if !events.isEmpty, random.next() % 3 == 0 {
        let named = (0...(random.next() % 3 == 0 ? 2 : 0)).map { _ in
          events[Int(random.next() % UInt64(events.count))].storedID
        }
        event.event = .eventsReverted(EventsReverted(eventIDs: named, reason: "undo"))
      }
      events.append(event)
    }
    return events
  }

  /// The reference: from the newest event to the oldest, a revert not itself cancelled
  /// cancels the ids it names, each by the first such revert met.
  static func reference(_ history: [FoldEvent]) -> [String: String] {
    var cancelledBy: [String: String] = [:]
    for event in history.reversed() {
      guard case .eventsReverted(let revert) = event.event, cancelledBy[event.storedID] == nil
      else { continue }
      for id in revert.eventIDs where cancelledBy[id] == nil { cancelledBy[id] = event.id }
    }
    return cancelledBy
  }

  static func expectSame(
    _ history: [FoldEvent],
    _ comment: Comment,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let cancelled = Replayer.cancelledEvents(in: history)
    let expected = Self.reference(history)
    #expect(cancelled.count == expected.count, comment, sourceLocation: sourceLocation)
    for event in history {
      #expect(
        cancelled[event.storedID] == expected[event.storedID],
        "\(comment): \(event.id)",
        sourceLocation: sourceLocation
      )
      #expect(
        cancelled.contains(event.eventID) == (expected[event.storedID] != nil),
        "\(comment): \(event.id)",
        sourceLocation: sourceLocation
      )
    }
    // The reverts alone decide it.
    #expect(
      Replayer.cancelledEvents(in: history.filter { $0.event.foldTarget == .nothing })
        == cancelled,
      comment,
      sourceLocation: sourceLocation
    )
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func cancelsWhatTheReferenceCancels(seed: UInt64) {
    Self.expectSame(Self.history(seed: seed, count: 30 + Int(seed) * 40), "seed \(seed)")
  }

  /// A named id in another spelling names no stored event.
  @Test func aNameInAnotherSpellingCancelsNothing() throws {
    var history = Self.history(seed: 3, count: 60)
    let last = try #require(history.lastIndex { $0.event.foldTarget == .nothing })
    guard case .eventsReverted(var revert) = history[last].event else {
      Issue.record("not a revert")
      return
    }
    revert.eventIDs = [revert.eventIDs[0].lowercased()]
    history[last].event = .eventsReverted(revert)
    Self.expectSame(history, "lower case")
  }
}
