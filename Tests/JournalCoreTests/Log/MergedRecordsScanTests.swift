import JournalTestSupport
import Testing

@testable import JournalCore

/// The merge's search for repeated ids among devices read whole, against counting.
@Suite struct MergedRecordsScanTests {
  /// Ids drawn from a small pool, so that many come again; among them the zero id and ids
  /// that differ in one half only.
  func pool(_ random: inout SplitMix64, size: Int) -> [ULID] {
    var pool = [ULID(high: 0, low: 0), ULID(high: 0, low: 1), ULID(high: 1, low: 0)]
    let shared = random.next()
    while pool.count < size {
      switch random.next() % 3 {
      case 0: pool.append(ULID(high: random.next(), low: shared))
      case 1: pool.append(ULID(high: shared, low: random.next()))
      default: pool.append(ULID(high: random.next(), low: random.next()))
      }
    }
    return pool
  }

  /// Records whose ids come from `ids`, cut into runs of random lengths (some empty).
  func runs(of ids: [ULID], _ random: inout SplitMix64) -> [[EventRecord]] {
    let template = EventRecord(
      id: ULID(high: 0, low: 0),
      device: "phone",
      sequence: 1,
      time: HybridTime(milliseconds: 0, counter: 0),
      stream: "workout:1",
      type: "set.completed",
      version: 1,
      payload: .object([:]),
      previousHash: SHA256Digest(words: (0, 0, 0, 0, 0, 0, 0, 0)),
      hash: nil,
      location: RecordLocation(file: "devices/phone/000001.jsonl", line: 1)
    )
    var runs: [[EventRecord]] = []
    var rest = ids[...]
    while !rest.isEmpty {
      let length = Int(random.next() % UInt64(min(rest.count, 900) + 1))
      runs.append(
        rest.prefix(length).map { id in
          var record = template
          record.id = id
          record.time = HybridTime(
            milliseconds: Int64(random.next() % 1_000),
            counter: UInt32(random.next() % 3)
          )
          return record
        }
      )
      rest = rest.dropFirst(length)
    }
    return runs
  }

  @Test(arguments: [(1, 300), (2, 5_000), (3, 9_000), (4, 20_000)])
  func repeatedIDsAreThoseFoundMoreThanOnce(seed: UInt64, count: Int) {
    var random = SplitMix64(seed: seed)
    let pool = pool(&random, size: count)
    // Most ids once, some twice or more, in the same run or in others.
    var ids = pool
    for _ in 0..<(count / 50) { ids.append(pool[Int(random.next() % UInt64(pool.count))]) }
    ids.shuffle(using: &random)
    var counts: [ULID: Int] = [:]
    for id in ids { counts[id, default: 0] += 1 }
    let expected = Set(counts.filter { $0.value > 1 }.keys)
    #expect(!expected.isEmpty)
    let inRuns = runs(of: ids, &random)
    let scan = MergedRecords.scan(inRuns)
    let found = scan.repeated
    #expect(Set(found) == expected)
    // The times are read in the same pass, run by run.
    #expect(scan.times == inRuns.map { $0.map(\.time) })
    #expect(found.count == ids.count - pool.count)
    #expect(MergedRecords.scan(runs(of: pool, &random)).repeated.isEmpty)
  }

  /// One id thousands of times, in many runs: listed every time but the first.
  @Test func anIDRepeatedThousandsOfTimesIsListedEachTime() {
    var random = SplitMix64(seed: 7)
    let pool = pool(&random, size: 12_000)
    var ids = pool + [ULID](repeating: pool[5], count: 9_000)
    ids.shuffle(using: &random)
    let found = MergedRecords.scan(runs(of: ids, &random)).repeated
    #expect(found.count == 9_000 && found.allSatisfy { $0 == pool[5] })
  }
}
