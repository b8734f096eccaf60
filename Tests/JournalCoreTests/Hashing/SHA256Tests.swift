import Foundation
import JournalTestSupport
import ProcessorHashing
import Testing

@testable import JournalCore

@Suite struct SHA256Tests {
  /// FIPS 180-2 appendix B and the NIST example values for SHA-256.
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
        + "lmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func nistVectors(message: String, expected: String) {
    #expect(SHA256.hash(Array(message.utf8)).hexString == expected)
  }

  @Test(arguments: [false, true])
  func oneMillionA(portable: Bool) {
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    let digest = message.withUnsafeBytes { SHA256.hash($0, portable: portable) }
    #expect(digest.hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// The portable rounds and the processor's SHA instructions (where this machine has them;
  /// else both sides are the portable rounds) give the same digest for every length up to
  /// ten blocks, at every alignment, and through `update` in pieces.
  @Test func portableAndProcessorRoundsAgree() {
    var random = SplitMix64(seed: 5)
    let bytes = (0..<650).map { _ in UInt8.random(in: 0...255, using: &random) }
    bytes.withUnsafeBytes { all in
      for start in 0..<4 {
        for length in 0...(all.count - start) {
          let buffer = UnsafeRawBufferPointer(rebasing: all[start..<start + length])
          #expect(
            SHA256.hash(buffer, portable: true) == SHA256.hash(buffer),
            "start \(start), length \(length)"
          )
        }
      }
    }
    var pieces = SHA256()
    var portable = SHA256(portable: true)
    for cut in stride(from: 0, to: bytes.count, by: 45) {
      pieces.update(bytes[cut..<min(cut + 45, bytes.count)])
      portable.update(bytes[cut..<min(cut + 45, bytes.count)])
    }
    #expect(pieces.finalize() == portable.finalize())
  }

  /// The processor's features as `cpuid` reads them agree with the kernel's (`/proc/cpuinfo`
  /// on Linux x86-64): a build that lost the module's flags, or a misread feature bit, would
  /// quietly fall back to the portable code.
  @Test func processorFeaturesAgreeWithTheKernel() throws {
    #if os(Linux) && arch(x86_64)
    let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
    let flags = Set(
      info.split(separator: "\n").first { $0.hasPrefix("flags") }?
        .split(separator: " ").map(String.init) ?? []
    )
    #expect(ProcessorHashing.hasSHA256 == flags.contains("sha_ni"))
    #expect(ProcessorHashing.hasCRC32C == flags.contains("sse4_2"))
    #endif
  }

  /// Where the processor has no SHA instructions the hardware path declines and leaves the
  /// state alone; where it has them, one block of "abc" padded gives the known digest.
  @Test func processorPathDeclinesOrAgrees() {
    var block = [UInt8](repeating: 0, count: 64)
    block[0...2] = [0x61, 0x62, 0x63]
    block[3] = 0x80
    block[63] = 24
    let initial: ProcessorHashing.SHA256State = (
      0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
      0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    var state = initial
    let done = block.withUnsafeBytes {
      ProcessorHashing.sha256Compress(&state, blocks: $0.baseAddress!, count: 1)
    }
    #expect(done == ProcessorHashing.hasSHA256)
    let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
    if done {
      #expect(words.first == 0xba78_16bf && words.last == 0xf200_15ad)
    } else {
      #expect(words.first == initial.0 && words.last == initial.7)
    }
  }

  @Test func incrementalUpdatesMatchOneShot() {
    let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let expected = SHA256.hash(message)
    for split in [0, 1, 55, 56, 63, 64, 65, 127, 128, 500, 999, 1000] {
      var hasher = SHA256()
      hasher.update(message[0..<split])
      hasher.update(message[split...])
      #expect(hasher.finalize() == expected, "split at \(split)")
    }
  }

  @Test func digestHexRoundTrip() {
    let digest = SHA256.hash(Array("abc".utf8))
    #expect(SHA256Digest(hexString: digest.hexString) == digest)
    #expect(SHA256Digest(hexString: digest.hexString.uppercased()) == nil)
    #expect(SHA256Digest(hexString: "00") == nil)
    #expect(SHA256Digest.zero.hexString == String(repeating: "0", count: 64))
    #expect(digest.bytes.count == 32)
    #expect(digest.bytes.first == 0xBA)
  }

  /// The hex digits are written eight at a time without a table: every digit value at
  /// every position reads as its byte's two digits.
  @Test func hexDigitsAreTheBytesInOrder() {
    for length in 0..<600 {
      let digest = SHA256.hash((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) })
      let expected = digest.bytes.map { byte in
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
      }.joined()
      #expect(digest.hexString == expected, "length \(length)")
      #expect(SHA256Digest(hexString: expected) == digest)
    }
  }
}

/// Digests written as hex are read eight digits at a time; every byte value at every
/// position of a word is checked against the rule: lowercase hex digits only.
@Suite struct DigestHexTests {
  static let sample = "0123456789abcdef" + "fedcba9876543210" + String(repeating: "5a", count: 16)

  @Test(arguments: 0..<16)
  func everyByteAtEveryPosition(position: Int) throws {
    let reference = try #require(SHA256Digest(hexString: Self.sample))
    #expect(reference.hexString == Self.sample)
    for byte in 0...255 as ClosedRange<UInt8> {
      var bytes = Array(Self.sample.utf8)
      bytes[position] = byte
      let text = String(decoding: bytes, as: UTF8.self)
      let parsed = SHA256Digest(hexString: text)
      let isDigit = (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
      if isDigit {
        #expect(parsed?.hexString == text, "byte \(byte) at \(position)")
      } else {
        #expect(parsed == nil, "byte \(byte) at \(position)")
      }
    }
  }
}
