import Testing

@testable import JournalCore

/// XXH64 against the reference implementation (the `xxhash` library's `xxh64`), at every
/// length that takes a different path: under 4, 8 and 32 bytes, whole stripes, and tails
/// of each kind after them.
@Suite struct XXH64Tests {
  /// Byte `i` of a test message of any length: `(31 i + 7) mod 256`.
  static func message(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
  }

  @Test(arguments: [
    (0, "ef46db3751d8e999"), (1, "a96c7f0ce858bbb7"), (3, "56e6957632a487f9"),
    (4, "c60d15b1e3ff8f04"), (5, "808815858624dd4e"), (7, "afbefc3d6c6f9a8e"),
    (8, "3da5c7aa269683e0"), (9, "4b17a9ba9e215c09"), (15, "ae2a37eb9357caa7"),
    (16, "a19ad429b02bc413"), (17, "fe9f0feb7eeedc09"), (31, "4a74f3a1a39ad4a1"),
    (32, "8d57d6a4671cc43d"), (33, "62c9fd21ed857664"), (35, "85cbcf9e0d9cbeca"),
    (36, "a4475c606b0abc3c"), (39, "1789542489e59cc4"), (40, "49b45332e280f187"),
    (63, "5c320a0d2707057f"), (64, "7bbabbc45729d17e"), (65, "f3980c34bae65dc1"),
    (100, "efa0ad2d3e70c151"), (255, "2c3db4bb567f731e"), (1000, "99594f4828043d35"),
    (6684, "83c5a3aeb436f707"),
  ])
  func referenceVectors(count: Int, expected: String) {
    #expect(XXH64.hex(Self.message(count)) == expected)
  }

  @Test(arguments: [
    (0, "6ec6d05f61c7e7a7"), (31, "659ec2b1252d56f5"), (32, "f113d2457128cf6d"),
    (101, "082b81a399a98998"),
  ])
  func referenceVectorsWithASeed(count: Int, expected: String) {
    let seed: UInt64 = 0x9E37_79B1_85EB_CA87
    #expect(XXH64.hash(Self.message(count), seed: seed) == UInt64(expected, radix: 16))
  }

  @Test func textVectors() {
    #expect(XXH64.hex(Array("abc".utf8)) == "44bc2cf5ad770999")
    #expect(
      XXH64.hex(Array("Nobody inspects the spammish repetition".utf8)) == "fbcea83c8a378bf1"
    )
  }

  /// Leading zeros are kept: the hex form always has 16 digits.
  @Test func hexHasSixteenDigits() {
    for count in 0..<2_000 {
      let hex = XXH64.hex(Self.message(count))
      #expect(hex.count == 16)
      #expect(UInt64(hex, radix: 16) == XXH64.hash(Self.message(count)))
    }
  }
}
