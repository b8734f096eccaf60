import Foundation
import JournalCore
import Testing

@testable import JournalProjections

/// `streamID` and `storedID` search bytes when the text is ASCII: they must agree with the
/// `Character` search they replace, for ASCII and for any other text.
@Suite struct FoldEventIDTests {
  /// The reference: what the fold computed before the byte search.
  static func referenceStreamID(_ stream: String) -> String {
    guard let colon = stream.firstIndex(of: ":") else { return stream }
    return String(stream[stream.index(after: colon)...])
  }

  static func referenceStoredID(_ id: String) -> String {
    guard let hash = id.firstIndex(of: "#") else { return id }
    return String(id[..<hash])
  }

  static func event(id: String, stream: String) -> FoldEvent {
    FoldEvent(
      id: id,
      device: "phone",
      sequence: 1,
      milliseconds: 0,
      stream: stream,
      event: .workoutEnded
    )
  }

  static let samples: [String] = [
    "", ":", "#", "::", "##", "a:b:c", "a#b#c", "workout:01HQ7Z4X8K9M2N3P4Q5R6S7T8V",
    "01HQ7Z4X8K9M2N3P4Q5R6S7T8V#2", "history", "splits", "x\r\n:y", "x\r\n#y",
    "é:ü", "é#ü", "日本:語", "日本#語", "e\u{301}:x", ":\u{301}x:y", "#\u{301}x#y", "👍🏽:#", "a:\u{301}",
    "a#\u{301}", "\u{0}:\u{7F}#",
  ]

  @Test(arguments: samples) func agreesWithTheCharacterSearch(_ text: String) {
    let e = Self.event(id: text, stream: text)
    #expect(e.streamID == Self.referenceStreamID(text))
    #expect(e.storedID == Self.referenceStoredID(text))
  }

  /// The stored id is derived from the id, not kept beside it: an id set later (an upcast
  /// part, a test's edit) is seen at once.
  @Test(arguments: samples) func followsAnIDSetLater(_ text: String) {
    var e = Self.event(id: "01HQ7Z4X8K9M2N3P4Q5R6S7T8V", stream: "workout:w")
    e.id = text
    #expect(e.storedID == Self.referenceStoredID(text), "id \(text.debugDescription)")
    e.id = "01HQ7Z4X8K9M2N3P4Q5R6S7T8V#3"
    #expect(e.storedID == "01HQ7Z4X8K9M2N3P4Q5R6S7T8V")
  }

  /// The stream id's last byte, which spreads workouts among a fold's parts, follows a
  /// stream set later.
  @Test func keepsTheStreamIDsLastByte() {
    var e = Self.event(id: "01HQ7Z4X8K9M2N3P4Q5R6S7T8V", stream: "workout:w")
    #expect(e.streamTail == UInt8(ascii: "w"))
    e.stream = "workout:01HQ7Z4X8K9M2N3P4Q5R6S7T8Q"
    #expect(e.streamTail == UInt8(ascii: "Q"))
    e.stream = "workout:"
    #expect(e.streamID.isEmpty && e.streamTail == 0)
  }

  /// The stream id's last byte is read in place: the same as the UTF-8 view's last, for
  /// every sample stream (inline and heap strings, non-ASCII, empty) and one from Foundation.
  @Test(arguments: samples) func readsTheStreamIDsLastByteInPlace(_ text: String) {
    for stream in [text, "workout:" + text, String(text.reversed())] {
      let e = Self.event(id: "01HQ7Z4X8K9M2N3P4Q5R6S7T8V", stream: stream)
      #expect(e.streamTail == (Self.referenceStreamID(stream).utf8.last ?? 0))
    }
    let bridged = NSString(string: "workout:01HQ7Z4X8K9M2N3P4Q5R6S7T8é") as String
    #expect(FoldEvent.lastByte(of: bridged) == bridged.utf8.last)
  }

  /// A fold event takes at most 176 bytes.
  ///
  /// The history holds one per event, so its size is the history's memory: the stored id
  /// is derived and the small members sit in the event's tail (it was 192 bytes, then 168,
  /// then 176 while the stored id's last eight bytes were kept beside the id's text, which
  /// took 64 more bytes on the heap). The id held as a value (21 bytes) takes the room of
  /// the text's reference and those eight bytes.
  @Test func aFoldEventTakes176Bytes() {
    #expect(MemoryLayout<FoldEvent>.stride <= 176)
  }

  @Test func agreesOnSeededRandomText() {
    var state: UInt64 = 0x5EED
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    let alphabet: [String] = ["a", "Z", "0", ":", "#", "é", "\u{301}", "\r", "\n", "日", "👍", "🏽"]
    for _ in 0..<2_000 {
      let length = Int(next() % 12)
      let text = (0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }.joined()
      let e = Self.event(id: text, stream: text)
      #expect(e.streamID == Self.referenceStreamID(text), "stream \(text.debugDescription)")
      #expect(e.storedID == Self.referenceStoredID(text), "id \(text.debugDescription)")
    }
  }
}
