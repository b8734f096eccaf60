import Foundation
import Testing

@testable import JournalCore

/// Strings read lately share their storage.
@Suite struct RecentStringsTests {
  static func read(_ text: String, _ recent: inout RecentStrings) -> String {
    Array(text.utf8).withUnsafeBytes { recent.string($0) }
  }

  /// The identity of a string's storage (nil for one stored inline).
  static func storage(_ string: String) -> UnsafeRawPointer? {
    string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
  }

  @Test func aRepeatedStringSharesTheFirstOnesStorage() {
    var recent = RecentStrings()
    let first = Self.read("00AH2JBTZGE5B23WDH0T2BE1TB", &recent)
    let other = Self.read("00AH2JBTZGE5B23WDH0T2BE1TC", &recent)
    let again = Self.read("00AH2JBTZGE5B23WDH0T2BE1TB", &recent)
    #expect(again == first && other != first)
    #expect(Self.storage(again) == Self.storage(first))
    #expect(Self.storage(other) != Self.storage(first))
  }

  /// Seeded: strings of many lengths, some repeated soon, some after more than the strings
  /// kept, some differing from a kept one in one middle byte: each read is its own text.
  @Test func everyReadGivesItsOwnText() {
    var random = SplitMix64(seed: 0xA11C)
    var recent = RecentStrings()
    var seen: [String] = []
    for _ in 0..<5_000 {
      var text: String
      if !seen.isEmpty, random.next() % 2 == 0 {
        text = seen[seen.count - 1 - Int(random.next() % UInt64(min(seen.count, 40)))]
        if random.next() % 4 == 0, text.count > 2 {
          var bytes = Array(text.utf8)
          bytes[bytes.count / 2] = UInt8(ascii: "a") + UInt8(random.next() % 26)
          text = String(decoding: bytes, as: UTF8.self)
        }
      } else {
        let length = Int(random.next() % 40)
        text = String(
          (0..<length).map { _ in Character(UnicodeScalar(65 + UInt8(random.next() % 3))) }
        )
      }
      #expect(Self.read(text, &recent) == text)
      seen.append(text)
    }
  }
}
