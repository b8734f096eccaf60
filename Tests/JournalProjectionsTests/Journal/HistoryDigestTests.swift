import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The digest a streamed history checks its second read with.
@Suite struct HistoryDigestTests {
  func history(seed: UInt64) throws -> [FoldEvent] {
    var session = try RandomSession(seed: seed)
    for _ in 0..<60 { session.step() }
    return session.journal.history
  }

  @Test func appendingIsTheDigestOfTheWhole() throws {
    let events = try history(seed: 3)
    let whole = HistoryDigest(events)
    #expect(whole.count == events.count)
    var appended = HistoryDigest(events.prefix(10))
    appended.append(contentsOf: events.dropFirst(10))
    #expect(appended == whole)
  }

  /// An event changed, inserted, removed or moved changes the digest.
  @Test func everyChangeIsSeen() throws {
    let events = try history(seed: 5)
    let length = events.count / 2
    let original = HistoryDigest(events)
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
      let digest = HistoryDigest(variant)
      #expect(digest != original, "\(name)")
      #expect(digest.description != original.description, "\(name)")
    }
  }

  /// The terms are fixed: the same ids give the same digest in every build.
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
}
