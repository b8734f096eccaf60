import JournalCore
import JournalTestSupport
import Testing

@Suite struct ULIDTests {
  @Test func parsesAndPrintsCanonicalForm() throws {
    let text = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
    let id = try #require(ULID(text))
    #expect(id.description == text)
    #expect(id.milliseconds == 1_469_922_850_259)
  }

  @Test(arguments: [
    "", "01ARZ3NDEKTSV4RRFFQ69G5FA", "01ARZ3NDEKTSV4RRFFQ69G5FAVX", "81ARZ3NDEKTSV4RRFFQ69G5FAV",
    "01ARZ3NDEKTSV4RRFFQ69G5FAU", "01arz3ndektsv4rrffq69g5fav", "01ARZ3NDEKTSV4RRFFQ69G5FA!",
  ])
  func rejectsNonCanonicalText(_ text: String) {
    #expect(ULID(text) == nil)
  }

  @Test func extremesRoundTrip() throws {
    let maximum = try #require(ULID("7ZZZZZZZZZZZZZZZZZZZZZZZZZ"))
    #expect(maximum.high == UInt64.max && maximum.low == UInt64.max)
    #expect(ULID(high: 0, low: 0).description == "00000000000000000000000000")
  }

  @Test func stringOrderIsValueOrder() {
    var random = SplitMix64(seed: 1)
    let ids = (0..<200).map { _ in ULID(high: random.next(), low: random.next()) }
    for (a, b) in zip(ids, ids.dropFirst()) {
      #expect((a < b) == (a.description < b.description))
      #expect(ULID(a.description) == a)
    }
  }

  @Test func generatorIsDeterministicAndMonotonic() {
    var first = ULIDGenerator(random: SplitMix64(seed: 42))
    var second = ULIDGenerator(random: SplitMix64(seed: 42))
    var previous: ULID?
    // Same millisecond, then a clock that steps back, then forward again.
    for time in [1_000, 1_000, 1_000, 999, 500, 1_001, 1_001] as [Int64] {
      let id = first.next(milliseconds: time)
      #expect(id == second.next(milliseconds: time))
      if let previous { #expect(previous < id) }
      previous = id
    }
    #expect(previous?.milliseconds == 1_001)
  }
}
