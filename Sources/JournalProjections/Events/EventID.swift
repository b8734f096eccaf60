import JournalCore

/// An event's id as the fold holds it: the ULID of the stored event and, when upcasting split
/// that event into several, the part's number; its text (`01J…`, `01J…#2`) is made only when
/// asked for.
///
/// A replay folds every event of the journal, and most are never named again: their ids are
/// held as numbers, without an allocation each.
///
/// An id spelled any other way (the events an import reconstructs, a probe) keeps its text.
/// Every id has one form: a text that spells a ULID in its canonical form, optionally followed
/// by `#` and a part number from 2 up without leading zeros, is held as the value. So two ids
/// are equal exactly when their texts are, and hash alike.
///
/// ```swift
/// let id = EventID("01ARZ3NDEKTSV4RRFFQ69G5FAV#2")
/// id.part         // 2
/// id.stored       // 01ARZ3NDEKTSV4RRFFQ69G5FAV
/// ```
struct EventID: Sendable, Hashable, CustomStringConvertible {
  private enum Form: Sendable, Hashable {
    /// A stored event's ULID and the part's number: 1 is the stored event itself.
    case value(ULID, part: UInt32)
    /// Any other spelling.
    case text(String)
  }

  private let form: Form

  /// The id of the stored event `ulid`.
  init(_ ulid: ULID) { form = .value(ulid, part: 1) }

  /// The id of part `part` (1 for the first, the stored event itself) of the stored event
  /// `ulid`.
  init(_ ulid: ULID, part: Int) {
    precondition(part >= 1, "parts are numbered from 1")
    if let number = UInt32(exactly: part) {
      form = .value(ulid, part: number)
    } else {
      // Past the numbers the value holds: its text, as ``init(_:)-(String)`` keeps it.
      form = .text("\(ulid)#\(part)")
    }
  }

  /// The id spelled `text`.
  init(_ text: String) {
    var copy = text
    let value = copy.withUTF8 { Self.value(spelledBy: UnsafeRawBufferPointer($0)) }
    form = value.map { .value($0.ulid, part: $0.part) } ?? .text(text)
  }

  /// The ULID and part `bytes` spell, or nil when they spell something else.
  private static func value(spelledBy bytes: UnsafeRawBufferPointer) -> (ulid: ULID, part: UInt32)?
  {
    guard bytes.count >= 26, let ulid = ULID(utf8: UnsafeRawBufferPointer(rebasing: bytes[..<26]))
    else { return nil }
    guard bytes.count > 26 else { return (ulid, 1) }
    // `#`, then a decimal number from 2 up without a leading zero.
    guard bytes.count > 27, bytes.count <= 37, bytes[26] == UInt8(ascii: "#"),
      bytes[27] != UInt8(ascii: "0")
    else { return nil }
    var part: UInt64 = 0
    for byte in bytes[27...] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      part = part * 10 + UInt64(byte - UInt8(ascii: "0"))
    }
    guard part >= 2, let number = UInt32(exactly: part) else { return nil }
    return (ulid, number)
  }

  /// The id's text.
  var description: String {
    switch form {
    case .value(let ulid, part: 1): ulid.description
    case .value: withText { String(decoding: $0, as: UTF8.self) }
    case .text(let text): text
    }
  }

  /// Calls `body` with the UTF-8 of ``description``, written on the stack for an id held as
  /// a value.
  func withText<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows
    -> Result
  {
    switch form {
    case .value(let ulid, let part):
      // 26 characters, `#` and at most ten digits.
      return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 37) { buffer in
        ulid.writeText(into: buffer)
        var count = 26
        if part != 1 {
          buffer[26] = UInt8(ascii: "#")
          var digits = 0
          var rest = part
          repeat {
            digits += 1
            rest /= 10
          } while rest > 0
          count = 27 + digits
          // The digits from the last.
          var index = count
          rest = part
          repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
          } while rest > 0
        }
        return try body(UnsafeBufferPointer(rebasing: buffer[..<count]))
      }
    case .text(var text):
      return try text.withUTF8(body)
    }
  }

  /// Whether the id's text starts with the bytes of `prefix`, read without making the text.
  func textHasPrefix(_ prefix: String) -> Bool {
    withText { text in
      prefix.utf8.count <= text.count && zip(prefix.utf8, text).allSatisfy { $0 == $1 }
    }
  }

  /// The ULID of the stored event, when the id is held as a value.
  var ulid: ULID? {
    guard case .value(let ulid, _) = form else { return nil }
    return ulid
  }

  /// The part's number, 1 for the stored event itself (and for an id not held as a value).
  var part: Int {
    guard case .value(_, let part) = form else { return 1 }
    return Int(part)
  }

  /// The id of the stored event this one came from: itself unless it names a part.
  ///
  /// A part is named `<stored id>#<number>`: the stored id is the text before the first `#`.
  /// Reverts name stored ids, so they cancel every part.
  var stored: EventID {
    switch form {
    case .value(let ulid, _): EventID(ulid)
    case .text(let text): EventID(Self.storedText(of: text))
    }
  }

  /// The text before the first `#` of `text`, or all of it.
  static func storedText(of text: String) -> String { text.split(atASCII: "#")?.before ?? text }

  /// The id of part `number` (from 2: the first part keeps the event's own id) of the event
  /// this id names, `<id>#<number>`.
  func part(_ number: Int) -> EventID {
    precondition(number >= 2, "the first part is the event itself")
    guard case .value(let ulid, part: 1) = form else { return EventID("\(self)#\(number)") }
    return EventID(ulid, part: number)
  }

  /// Whether this id sorts before `other` in a strict total order that agrees with `==`.
  ///
  /// Ids held as values come first, by ULID then part, then ids spelled otherwise, by their
  /// text. For searching sorted ids; it is not the merge order.
  func sortsBefore(_ other: EventID) -> Bool {
    switch (form, other.form) {
    case (.value(let a, let partA), .value(let b, let partB)): (a, partA) < (b, partB)
    case (.value, .text): true
    case (.text, .value): false
    case (.text(let a), .text(let b)): a < b
    }
  }
}
