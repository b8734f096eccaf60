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
    #expect(maximum.description == "7ZZZZZZZZZZZZZZZZZZZZZZZZZ")
    // Each bit alone: the character it falls in, and no other, shows it.
    for bit in 0..<128 {
      let id =
        bit < 64 ? ULID(high: 0, low: 1 << UInt64(bit)) : ULID(high: 1 << UInt64(bit - 64), low: 0)
      let text = Array(id.description.utf8)
      let place = 25 - bit / 5
      let digit = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)[1 << (bit % 5)]
      #expect(text.indices.allSatisfy { text[$0] == ($0 == place ? digit : UInt8(ascii: "0")) })
      #expect(ULID(id.description) == id)
    }
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

/// Every byte value at every position of a ULID: only Crockford's upper-case alphabet is
/// read, and the first digit is at most 7.
@Suite struct ULIDByteTests {
  static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

  @Test(arguments: 0..<26)
  func everyByteAtEveryPosition(position: Int) {
    let base = Array("01ARZ3NDEKTSV4RRFFQ69G5FAV".utf8)
    for byte in 0...255 as ClosedRange<UInt8> {
      var bytes = base
      bytes[position] = byte
      let text = String(decoding: bytes, as: UTF8.self)
      let digit = Self.alphabet.firstIndex(of: byte)
      let valid = digit.map { position > 0 || $0 <= 7 } ?? false
      let parsed = ULID(text)
      #expect((parsed != nil) == valid, "byte \(byte) at \(position)")
      if valid { #expect(parsed?.description == text, "byte \(byte) at \(position)") }
    }
  }
}
