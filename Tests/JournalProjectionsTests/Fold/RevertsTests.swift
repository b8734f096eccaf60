import Foundation
import JournalCore
import Testing

@testable import JournalProjections

/// The reverts a read that does not hold the history keeps (`Replayer.Reverts`, held flat)
/// cancel what the walk over the held history's text cancels.
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

  static func expectSame(
    _ cancelled: Replayer.CancelledEvents,
    _ history: [FoldEvent],
    _ comment: Comment,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let byText = Replayer.cancelledEvents(in: history)
    // A name in another spelling is a key of the walk over text, naming no stored event.
    let named = byText.keys.filter { ULID($0) != nil }
    #expect(cancelled.count == named.count, comment, sourceLocation: sourceLocation)
    for event in history {
      #expect(
        cancelled.contains(event.eventID) == (byText[event.storedID] != nil),
        "\(comment): \(event.id)",
        sourceLocation: sourceLocation
      )
    }
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func flatRevertsCancelWhatTheWalkOverTextCancels(seed: UInt64) {
    let history = Self.history(seed: seed, count: 30 + Int(seed) * 40)
    var reverts = Replayer.Reverts()
    var added = 0
    for event in history where reverts.append(event) { added += 1 }
    #expect(added == history.filter { $0.event.foldTarget == .nothing }.count)
    Self.expectSame(Replayer.CancelledEvents(reverts: reverts), history, "appended")

    // As the deal gathers them: in chunks, each exactly, put together in order.
    var chunked = Replayer.Reverts()
    let size = 1 + Int(seed % 7) * 9
    for start in stride(from: 0, to: history.count, by: size) {
      var chunk = Replayer.Reverts()
      history.withUnsafeBufferPointer { events in
        for index in start..<min(start + size, events.count) {
          _ = chunk.append(exactly: events.baseAddress! + index)
        }
      }
      chunked.append(contentsOf: chunk)
    }
    #expect(chunked == reverts)

    // A quarantined stream's reverts taken back: as if its events were not in the history.
    let lost = "workout:W\(seed % 5)"
    let streams = history.filter { $0.event.foldTarget == .nothing }.map(\.stream)
    reverts.removeAll { streams[$0] == lost }
    Self.expectSame(
      Replayer.CancelledEvents(reverts: reverts),
      history.filter { $0.event.foldTarget != .nothing || $0.stream != lost },
      "without \(lost)"
    )
  }

  /// A named id in another spelling names no stored event: appended, it is left out; appended
  /// exactly, the revert is refused and nothing of it stays.
  @Test func aNameInAnotherSpellingIsLeftOutOrRefused() throws {
    var history = Self.history(seed: 3, count: 60)
    let last = try #require(history.lastIndex { $0.event.foldTarget == .nothing })
    guard case .eventsReverted(var revert) = history[last].event else {
      Issue.record("not a revert")
      return
    }
    let named = revert.eventIDs[0]
    revert.eventIDs = [named, named.lowercased()]
    history[last].event = .eventsReverted(revert)

    var reverts = Replayer.Reverts()
    for event in history { reverts.append(event) }
    Self.expectSame(Replayer.CancelledEvents(reverts: reverts), history, "lower case left out")

    var exact = Replayer.Reverts()
    history.withUnsafeBufferPointer { events in
      for index in events.indices where index != last {
        let added = exact.append(exactly: events.baseAddress! + index)
        #expect(added == (events[index].event.foldTarget == .nothing))
      }
      let before = exact
      let added = exact.append(exactly: events.baseAddress! + last)
      #expect(!added)
      #expect(exact == before)
    }
  }
}
