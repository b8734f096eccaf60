import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// Decoding on every core against the plain reference, one event after the other.
@Suite struct DecodeAllTests {
  @Test func theSampleDecodesAsOneByOne() throws {
    let sample = try GeneratedSample.shared.get()
    let upcaster = try EventUpcasters.makeUpcaster()
    let stored = StoredEvents(sample.records)
    #expect(stored.count > 1_000)
    let parallel = Journal.decodeAll(stored, upcaster: upcaster)
    #expect(parallel == Journal.decodeOneByOne(stored, upcaster: upcaster))
    #expect(parallel.flatMap { (try? $0.get()) ?? [] } == sample.journal.history)
  }

  /// Seeded runs of good and broken events, longer than a chunk: each result in its place.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func failuresStayInTheirPlaces(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let upcaster = try EventUpcasters.makeUpcaster()
    let count = 4_096 * 2 + Int(random.next() % 4_096)
    let events = (0..<count).map { index -> StoredEvent in
      let broken = random.next() % 50 == 0
      return StoredEvent(
        id: String(format: "01J%023d", index),
        device: "phone",
        sequence: UInt64(index + 1),
        milliseconds: 1_700_000_000_000 + Int64(index),
        counter: 0,
        stream: "workout:W\(index % 7)",
        type: JournalEvent.TypeName.logStarted,
        version: JournalEvent.currentVersions[JournalEvent.TypeName.logStarted] ?? 1,
        payload: broken ? ["logID": 5] : ["logID": .string("L\(index % 5)")],
        location: "devices/phone/000001.jsonl:\(index + 1)"
      )
    }
    let stored = StoredEvents(events)
    let parallel = Journal.decodeAll(stored, upcaster: upcaster)
    #expect(parallel == Journal.decodeOneByOne(stored, upcaster: upcaster))
    #expect(parallel.contains { (try? $0.get()) == nil })
  }
}
