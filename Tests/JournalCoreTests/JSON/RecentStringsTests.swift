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

  /// A kept string is found by its length where a JSON string's content is exactly its
  /// bytes (the quote right after them), and nowhere else: not in a longer string, not in
  /// one that differs in a byte, not at the end of the text without its quote.
  @Test func aKeptStringIsFoundByItsLength() {
    var recent = RecentStrings()
    let id = "00AH2JBTZGE5B23WDH0T2BE1TB"
    let other = "00AH2JBTZGE5B23WDH0T2BE1TC"
    let kept = Self.read(id, &recent)
    let keptOther = Self.read(other, &recent)
    func find(_ text: String, at quote: Int = 0) -> (String, Int)? {
      Array(text.utf8).withUnsafeBytes { recent.string(in: $0, quote: quote) }
    }
    let found = find(#""\#(id)","reps":5"#)
    #expect(found?.0 == id && found?.1 == 27)
    #expect(found.map { Self.storage($0.0) == Self.storage(kept) } == true)
    let foundOther = find(#"{"logID":"\#(other)"}"#, at: 9)
    #expect(foundOther?.0 == other && foundOther?.1 == 36)
    #expect(foundOther.map { Self.storage($0.0) == Self.storage(keptOther) } == true)
    #expect(find(#""\#(id)X""#) == nil)
    #expect(find(#""\#(id)"#) == nil)
    #expect(find(#""00AH2JBTZGE5B23WDH0T2BE1TD""#) == nil)
    #expect(find(#""00AH2JBTZGE5B23WDH0T2BE1T""#) == nil)
    #expect(find("", at: 0) == nil)
    var empty = RecentStrings()
    #expect(empty.string(in: UnsafeRawBufferPointer(start: nil, count: 0), quote: 0) == nil)
  }

  /// Seeded: strings of many lengths, some repeated soon, some after more than the strings
  /// kept, some differing from a kept one in one middle byte: each read is its own text, and
  /// a string found by its length is its own text too.
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
      let quoted = Array("\"\(text)\",".utf8)
      if let found = quoted.withUnsafeBytes({ recent.string(in: $0, quote: 0) }) {
        #expect(found.string == text && found.end == quoted.count - 2)
      }
      #expect(Self.read(text, &recent) == text)
      seen.append(text)
    }
  }
}
