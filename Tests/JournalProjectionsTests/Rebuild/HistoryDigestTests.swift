import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The digest that proves the history before a checkpoint unchanged.
@Suite struct HistoryDigestTests {
  func history(seed: UInt64) throws -> [FoldEvent] {
    var session = try RandomSession(seed: seed)
    for _ in 0..<60 { session.step() }
    return session.journal.history
  }

  @Test func aPrefixIsTheDigestOfThePrefixAlone() throws {
    let events = try history(seed: 3)
    let whole = HistoryDigest(events)
    #expect(whole.count == events.count)
    for length in [0, 1, events.count / 3, events.count / 2 + 1, events.count - 1, events.count] {
      let prefix = whole.prefix(length, of: events)
      #expect(prefix == HistoryDigest(events.prefix(length)), "length \(length)")
      #expect(prefix.count == length)
    }
    var appended = HistoryDigest(events.prefix(10))
    appended.append(contentsOf: events.dropFirst(10))
    #expect(appended == whole)
  }

  /// An event changed, inserted, removed or moved before the end of a
  /// prefix changes the prefix's digest.
  @Test func everyEarlierChangeIsSeen() throws {
    let events = try history(seed: 5)
    let length = events.count / 2
    let original = HistoryDigest(events).prefix(length, of: events)
    var changed = events
    changed[length / 2].id += "x"
    var inserted = events
    inserted.insert(events[length + 3], at: length / 3)
    var removed = events
    removed.remove(at: length / 4)
    var swapped = events
    swapped.swapAt(2, 3)
    for (name, variant) in [
      ("changed", changed), ("inserted", inserted), ("removed", removed), ("swapped", swapped),
    ] {
      let digest = HistoryDigest(variant).prefix(length, of: variant)
      #expect(digest != original, "\(name)")
      #expect(digest.description != original.description, "\(name)")
    }
  }

  /// The journal keeps its digest up to date as events are appended.
  @Test func theJournalKeepsItsDigestAcrossAppends() throws {
    var session = try RandomSession(seed: 9)
    for _ in 0..<20 { session.step() }
    _ = session.journal.historyDigest()
    for _ in 0..<20 { session.step() }
    #expect(session.journal.historyDigest() == HistoryDigest(session.journal.history))
    try session.journal.reload()
    #expect(session.journal.historyDigest() == HistoryDigest(session.journal.history))
  }

  /// The terms are fixed: a checkpoint saved by one build is checked by the next.
  @Test func theDigestOfKnownIdsIsPinned() {
    var digest = HistoryDigest()
    for id in (0..<3).map({ "01J" + String(repeating: "0", count: 22) + "\($0)" }) + ["é"] {
      digest.append(id)
    }
    #expect(digest.description == "4-746f429709cd7643-8b35ae786aa2a762")
  }

  /// An id the fold holds as a value (``EventID``) is hashed as its text: the same pinned
  /// digest from events, and a part's id as the text `<id>#<n>`.
  @Test func idsHeldAsValuesHashAsTheirText() throws {
    let ids = (0..<3).map({ "01J" + String(repeating: "0", count: 22) + "\($0)" }) + ["é"]
    let events = try history(seed: 3).prefix(ids.count).enumerated().map { offset, event in
      var event = event
      event.id = ids[offset]
      return event
    }
    #expect(events[0].eventID.ulid != nil && events[3].eventID.ulid == nil)
    #expect(HistoryDigest(events).description == "4-746f429709cd7643-8b35ae786aa2a762")
    let ulid = try #require(ULID(ids[0]))
    var byValue = HistoryDigest()
    byValue.append(EventID(ulid, part: 12))
    var byText = HistoryDigest()
    byText.append(ids[0] + "#12")
    #expect(byValue == byText)
  }

  /// A long history is summed in chunks on every core, to the same digest.
  @Test func aLongHistorySummedInChunksGivesTheSameDigest() throws {
    let events = try history(seed: 3)
    let long = (0..<150_000).map { index in
      var event = events[index % events.count]
      event.id = "\(index)-\(event.id)"
      return event
    }
    let whole = HistoryDigest(long)
    var oneByOne = HistoryDigest()
    for event in long { oneByOne.append(event.id) }
    #expect(whole == oneByOne)
    #expect(whole.prefix(100_000, of: long) == HistoryDigest(long.prefix(100_000)))
  }
}
