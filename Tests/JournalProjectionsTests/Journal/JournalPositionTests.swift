import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

/// `Journal.positions`: where the history read ends, moved by the journal's own appends.
@Suite struct JournalPositionTests {
  private let now = Date(timeIntervalSince1970: 1_767_225_600)

  private func open(_ url: URL, ids: SequentialIDs) throws -> Journal {
    let store = try FileEventStore(url: url, options: DeviceWriter.Options(durability: .none))
    return try Journal(store: store, newID: ids.make)
  }

  /// A journal asks its store whether it is positioned rather than casting it.
  @Test func onlyAFileStoreIsPositioned() throws {
    let url = try makeTemporaryDirectory("positioned")
    _ = try EventLog.create(at: url)
    #expect(try FileEventStore(url: url).positioned != nil)
    #expect(InMemoryEventStore().positioned == nil)
  }

  @Test func positionsFollowTheHistoryReadAndTheJournalsOwnAppends() throws {
    let url = try makeTemporaryDirectory("positions")
    _ = try EventLog.create(at: url)
    let ids = SequentialIDs(prefix: "01K")
    let journal = try open(url, ids: ids)
    #expect(journal.positions.isEmpty)
    try journal.execute(.createSplit(SplitSettings(name: "Push")), device: "phone", now: now)
    let log = try EventLog(at: url)
    #expect(journal.positions == (try log.readHistory().positions))
    #expect(journal.positions["phone"]?.sequence == 1)
    #expect(try open(url, ids: ids).positions == journal.positions)

    // Another writer appends to the same device: this journal's position of it is dropped,
    // as its history misses that event.
    let other = try open(url, ids: ids)
    try other.execute(.createSplit(SplitSettings(name: "Pull")), device: "phone", now: now)
    try journal.execute(.createSplit(SplitSettings(name: "Legs")), device: "phone", now: now)
    #expect(journal.positions["phone"] == nil)
    try journal.execute(.createSplit(SplitSettings(name: "Arms")), device: "watch", now: now)
    #expect(journal.positions["watch"] == (try log.readHistory().positions["watch"]))
    try journal.reload()
    #expect(journal.positions == (try log.readHistory().positions))
    #expect(journal.positions["phone"]?.sequence == 3)
  }

  @Test func storesWithoutFilesHaveNoPositions() throws {
    let harness = try JournalHarness()
    try harness.run(.createSplit(SplitSettings(name: "Push")))
    #expect(harness.journal.positions.isEmpty)
  }
}
