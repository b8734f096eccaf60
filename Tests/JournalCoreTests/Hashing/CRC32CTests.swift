import JournalTestSupport
import ProcessorHashing
import Testing

@testable import JournalCore

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

  /// The tables and the processor's `crc32` instruction (where this machine has it; else both
  /// sides are the tables) give the same checksum: every length up to 1,100 bytes from an
  /// aligned start, every 37th from the seven other offsets of a word, fed whole or in pieces.
  @Test func tablesAndProcessorAgree() {
    var random = SplitMix64(seed: 11)
    let bytes = (0..<1_100).map { _ in UInt8.random(in: 0...255, using: &random) }
    for start in 0..<8 {
      for length in stride(from: 0, through: bytes.count - start, by: start == 0 ? 1 : 37) {
        let slice = bytes[start..<start + length]
        var tables = CRC32C(portable: true)
        tables.update(slice)
        #expect(tables.value == CRC32C.checksum(slice), "start \(start), length \(length)")
        #expect(tables.value == bitwiseCRC32C(Array(slice)), "start \(start), length \(length)")
      }
    }
    var pieces = CRC32C()
    var tables = CRC32C(portable: true)
    for cut in stride(from: 0, to: bytes.count, by: 97) {
      let piece = bytes[cut..<min(cut + 97, bytes.count)]
      pieces.update(piece)
      tables.update(piece)
    }
    #expect(pieces == tables)
    #expect(pieces.value == bitwiseCRC32C(bytes))
  }

  /// Where the processor has no CRC-32C instruction the hardware path declines; where it
  /// has one, it computes the register a table-driven loop keeps.
  @Test func processorPathDeclinesOrAgrees() {
    let bytes = Array("123456789".utf8)
    let register = bytes.withUnsafeBytes { ProcessorHashing.crc32c(0xFFFF_FFFF, $0) }
    if ProcessorHashing.hasCRC32C {
      #expect(register.map { ~$0 } == 0xE306_9283)
    } else {
      #expect(register == nil)
    }
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
