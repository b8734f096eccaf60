import Testing

@testable import JournalCore

/// `String.isIdentical(to:)`: true only for one value bit for bit, never for different text.
@Suite struct StringIdentityTests {
  /// A string of `text` in storage of its own.
  static func fresh(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }

  @Test func aCopySharesItsStorageAndIsIdentical() {
    let id = Self.fresh("00AH2JBTZGE5B23WDH0T2BE1TB")
    let copy = id
    #expect(copy.isIdentical(to: id))
  }

  @Test func equalTextInTwoStoragesIsNotIdentical() {
    let first = Self.fresh("00AH2JBTZGE5B23WDH0T2BE1TB")
    let second = Self.fresh("00AH2JBTZGE5B23WDH0T2BE1TB")
    #expect(first == second)
    #expect(!first.isIdentical(to: second))
  }

  /// Strings of up to fifteen bytes are stored inline: equal ones are identical however they
  /// were made (a type read from a record against the type's constant).
  @Test func equalSmallStringsAreIdentical() {
    #expect(Self.fresh("set.completed").isIdentical(to: "set.completed"))
    #expect(!Self.fresh("set.completed").isIdentical(to: "log.completed"))
  }

  @Test func differentTextIsNeverIdentical() {
    var random = SplitMix64(seed: 0x1D)
    for _ in 0..<500 {
      let length = Int(random.next() % 40)
      let text = String(
        (0..<length).map { _ in Character(UnicodeScalar(UInt8(97 + random.next() % 3))) }
      )
      let other = String(
        (0..<length).map { _ in Character(UnicodeScalar(UInt8(97 + random.next() % 3))) }
      )
      #expect(text.isIdentical(to: other) == false || text == other)
    }
  }
}
