import JournalCore
import JournalTestSupport
import Testing

@Suite struct CRC32CTests {
  @Test func checkValue() {
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
  }

  /// Vectors from RFC 3720 (iSCSI), appendix B.4.
  @Test func iscsiVectors() {
    #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    #expect(CRC32C.checksum((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
  }

  @Test func emptyInput() {
    #expect(CRC32C.checksum([UInt8]()) == 0)
  }

  /// The slicing-by-8 loop agrees with a bit-at-a-time reference on every length and split.
  @Test func matchesBitwiseReference() {
    var random = SplitMix64(seed: 7)
    let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &random) }
    for length in 0..<bytes.count {
      let slice = Array(bytes[0..<length])
      #expect(CRC32C.checksum(slice) == bitwiseCRC32C(slice), "length \(length)")
    }
    var crc = CRC32C()
    crc.update(bytes[0..<13])
    crc.update(bytes[13...])
    #expect(crc.value == bitwiseCRC32C(bytes))
  }
}

private func bitwiseCRC32C(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
  }
  return ~crc
}
