import Foundation
import JournalCore
import Testing

@testable import JournalProjections

/// An ``EventID`` is held as a value when its text spells a ULID (and a part), else as text:
/// either way it must behave as its text does (the reference model).
@Suite struct EventIDTests {
  static let ulid = "01HQ7Z4X8K9M2N3P4Q5R6S7T8V"

  /// Texts near the spelling held as a value, on both sides of it.
  static let samples: [String] = [
    ulid, ulid + "#2", ulid + "#10", ulid + "#4294967295", ulid + "#1", ulid + "#0",
    ulid + "#02", ulid + "#", ulid + "#4294967296", ulid + "#99999999999", ulid + "#2#3",
    ulid + "#-2", ulid + "#+2", ulid + "#2 ", ulid + "/1", ulid.lowercased(),
    "8" + ulid.dropFirst(),
    String(ulid.dropLast()), ulid + "0", ulid + "é", "", "~probe", "#2", "é#2", "import-1",
    "01HQ7Z4X8K9M2N3P4Q5R6S7T8I", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "00000000000000000000000000",
  ]

  static func referenceStoredID(_ id: String) -> String {
    guard let hash = id.firstIndex(of: "#") else { return id }
    return String(id[..<hash])
  }

  /// Whether the reference says `text` is held as a value: a canonical ULID, then nothing or
  /// `#` and a number from 2 to 2³² − 1 without a leading zero.
  static func referenceIsValue(_ text: String) -> Bool {
    let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    guard ULID(String(parts[0])) != nil else { return false }
    guard parts.count == 2 else { return true }
    let number = parts[1]
    guard let value = UInt32(number), value >= 2, String(value) == number else { return false }
    return true
  }

  @Test(arguments: samples) func spellsItsText(_ text: String) {
    let id = EventID(text)
    #expect(id.description == text)
    #expect(id.withText { String(decoding: $0, as: UTF8.self) } == text)
    #expect((id.ulid != nil) == Self.referenceIsValue(text), "\(text.debugDescription)")
    #expect(id.stored.description == Self.referenceStoredID(text))
    #expect(id.stored == EventID(Self.referenceStoredID(text)))
    for length in 0...text.utf8.count + 1 {
      let prefix = String(decoding: text.utf8.prefix(length), as: UTF8.self)
      #expect(id.textHasPrefix(prefix) == text.utf8.starts(with: prefix.utf8))
    }
    #expect(!id.textHasPrefix(text + "0") && (text.isEmpty || !id.textHasPrefix("Q" + text)))
  }

  /// Equal exactly when the texts are, with equal hashes: a value and a text never name the
  /// same id, because every text that spells a value is held as one.
  @Test func equalityIsTheTexts() {
    let ids = Self.samples.map(EventID.init)
    for (a, x) in zip(Self.samples, ids) {
      for (b, y) in zip(Self.samples, ids) {
        #expect((x == y) == (a == b), "\(a.debugDescription) vs \(b.debugDescription)")
        if a == b { #expect(x.hashValue == y.hashValue) }
      }
    }
    let ulid = ULID(Self.ulid)!
    #expect(EventID(ulid) == EventID(Self.ulid))
    #expect(EventID(ulid, part: 1) == EventID(ulid))
    #expect(EventID(ulid, part: 7) == EventID(Self.ulid + "#7"))
    #expect(EventID(ulid, part: 7).part == 7 && EventID(ulid, part: 7).ulid == ulid)
    // Past the parts a value holds: the text, as parsing it keeps it.
    let huge = Int(UInt32.max) + 1
    #expect(EventID(ulid, part: huge) == EventID("\(Self.ulid)#\(huge)"))
    #expect(EventID(ulid, part: huge).description == "\(Self.ulid)#\(huge)")
  }

  /// The order the cancelled set is searched by is strict and total, and agrees with
  /// equality: of two ids, exactly one sorts first unless they are equal.
  @Test func sortsInAStrictTotalOrder() {
    let ids = Self.samples.map(EventID.init)
    for a in ids {
      for b in ids {
        let ordered = [a.sortsBefore(b), b.sortsBefore(a), a == b]
        #expect(ordered.filter { $0 }.count == 1, "\(a) \(b)")
        for c in ids where a.sortsBefore(b) && b.sortsBefore(c) {
          #expect(a.sortsBefore(c), "\(a) \(b) \(c)")
        }
      }
    }
  }

  /// A part's id is `<id>#<n>`, whether the id is held as a value or as text.
  @Test(arguments: samples) func namesAPart(_ text: String) {
    for number in [2, 3, 12, Int(UInt32.max), Int(UInt32.max) + 1] {
      let part = EventID(text).part(number)
      #expect(part == EventID("\(text)#\(number)"), "\(text.debugDescription)#\(number)")
      #expect(part.description == "\(text)#\(number)")
    }
  }

  /// Seeded random ids and texts made of their pieces, against the text.
  @Test func agreesWithItsTextOnSeededIDs() {
    var state: UInt64 = 0x1D5
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    var texts: [String] = []
    for _ in 0..<3_000 {
      let ulid = ULID(high: next() >> 8 | next() << 45, low: next() << 11 ^ next())
      var text = ulid.description
      switch next() % 6 {
      case 0: break
      case 1: text += "#\(next() % 40)"
      case 2: text += "#\(next() % (1 << 33))"
      case 3: text += "#0\(next() % 9)"
      case 4: text = String(text.dropLast(Int(next() % 3)))
      default: text += "#\(2 + next() % 9)#\(next() % 9)"
      }
      texts.append(text)
      let id = EventID(text)
      #expect(id.description == text)
      #expect((id.ulid != nil) == Self.referenceIsValue(text), "\(text)")
      #expect(id.stored.description == Self.referenceStoredID(text))
      if id.ulid != nil { #expect(id.ulid == ULID(Self.referenceStoredID(text))) }
    }
    // Pairs: a text and its neighbours (many share a ULID).
    for (a, b) in Array(zip(texts, texts.dropFirst())) + Array(zip(texts, texts)) {
      #expect((EventID(a) == EventID(b)) == (a == b))
      let sameStored = Self.referenceStoredID(a) == Self.referenceStoredID(b)
      #expect((EventID(a).stored == EventID(b).stored) == sameStored)
    }
  }
}
