#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a checked JSON object the way a journal's writer spells it — no whitespace, keys
/// and strings without escapes, numbers and literals as leaves — member by member, building
/// nothing.
///
/// It serves decoders of the payloads a journal holds most (``JSONPayload/withWrittenObject(_:)``).
/// Every read returns nil on any other spelling, and the caller then reads the payload
/// through ``JSONObjectSlice``, which takes every spelling. What the reader does return is
/// what the slice gives for the same member: leaves are parsed by the same ``JSONParser``.
/// A read that returns nil may leave the reader inside the value: give up on the object.
///
/// ```swift
/// let logID = payload.withWrittenObject { reader -> String? in
///   var logID: String?
///   while let key = reader.nextKey() {
///     guard key == "logID", logID == nil else { return nil }
///     logID = reader.string()
///   }
///   return reader.isComplete ? logID : nil
/// }
/// ```
public struct WrittenObjectReader {
  /// A member's key: its bytes between the quotes, valid inside the reading closure only.
  public struct Key {
    @usableFromInline let bytes: UnsafeRawBufferPointer

    /// Whether the key is `name`, byte for byte.
    ///
    /// Inlinable: the decoders compare each key with their members' names, a call each.
    @inlinable public static func == (key: Key, name: StaticString) -> Bool {
      guard key.bytes.count == name.utf8CodeUnitCount else { return false }
      guard let base = key.bytes.baseAddress else { return true }
      return bytesEqual(base, name.utf8Start, count: key.bytes.count)
    }
  }

  private var parser: JSONParser
  private var atFirstMember = true
  /// Whether this object is an element of ``forEachObject(_:)``: it then ends at its `}`, not at
  /// the end of the bytes.
  private let isNested: Bool
  /// Whether the object ended where it should (at the end of the bytes, or at its `}` for an
  /// element of ``forEachObject(_:)``): set by the ``nextKey()`` that returned nil for that reason,
  /// false when it returned nil for a spelling the reader does not read.
  public private(set) var isComplete = false

  /// A reader of the object in `bytes`; nil when they do not start one.
  @usableFromInline init?(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.first == UInt8(ascii: "{") else { return nil }
    parser = JSONParser(bytes)
    parser.index = 1
    isNested = false
  }

  /// A reader of the object whose `{` `parser` is at.
  private init(nestedAt parser: JSONParser) {
    self.parser = parser
    self.parser.index += 1
    isNested = true
  }

  /// The next member's key, the reader then at its value; nil at the object's end (then
  /// ``isComplete`` is true) or on a spelling the reader does not read.
  ///
  /// Call it again only after reading the value.
  public mutating func nextKey() -> Key? {
    if atFirstMember {
      atFirstMember = false
      if parser.peek() == UInt8(ascii: "}") { return end() }
    } else if parser.peek() == UInt8(ascii: ",") {
      parser.index += 1
    } else {
      return end()
    }
    guard let key = parser.parsePlainString(), parser.peek() == UInt8(ascii: ":") else {
      return nil
    }
    parser.index += 1
    return Key(bytes: UnsafeRawBufferPointer(rebasing: parser.bytes[key]))
  }

  /// Whether the next member's key is `name`: then the reader is at its value, as after a
  /// ``nextKey()`` that returned it; else nothing is read.
  ///
  /// For members a decoder expects in the writer's order: the key is matched where it would
  /// be (`"name":`, after a comma unless it is the first), not read and then compared.
  public mutating func nextKey(is name: StaticString) -> Bool {
    let count = name.utf8CodeUnitCount
    let quote = atFirstMember ? parser.index : parser.index + 1
    let colon = quote + count + 2
    guard colon < parser.bytes.count, let base = parser.bytes.baseAddress,
      atFirstMember || base.load(fromByteOffset: parser.index, as: UInt8.self) == 0x2C,
      base.load(fromByteOffset: quote, as: UInt8.self) == 0x22,
      base.load(fromByteOffset: quote + count + 1, as: UInt8.self) == 0x22,
      base.load(fromByteOffset: colon, as: UInt8.self) == 0x3A,
      bytesEqual(base + quote + 1, name.utf8Start, count: count)
    else { return false }
    atFirstMember = false
    parser.index = colon + 1
    return true
  }

  /// Ends the object at a `}` where it should end; nil.
  private mutating func end() -> Key? {
    guard parser.peek() == UInt8(ascii: "}") else { return nil }
    parser.index += 1
    isComplete = isNested || parser.index == parser.bytes.count
    return nil
  }

  /// The value as a string written without escapes; nil for anything else.
  public mutating func string() -> String? {
    guard let content = parser.parsePlainString() else { return nil }
    return String(decoding: UnsafeRawBufferPointer(rebasing: parser.bytes[content]), as: UTF8.self)
  }

  /// The value as a string written without escapes: `known` itself when it has the same
  /// text (a second member that repeats the first shares its storage); nil for anything
  /// else.
  ///
  /// `known` must be a string such a reader read (no quote, escape or control character).
  public mutating func string(reusing known: String?) -> String? {
    if let known, parser.skipString(spelling: known) { return known }
    return string()
  }

  /// The value as a string written without escapes, sharing the storage of the same string
  /// read lately (``RecentStrings``); nil for anything else.
  ///
  /// A string read lately is first looked for by its length, without scanning for its end;
  /// `new` says that the string is most likely not one of them (a log id a workout's start
  /// introduces), so that it is read first and looked for once.
  public mutating func string(sharing recent: inout RecentStrings, new: Bool = false) -> String? {
    if !new, let (string, end) = recent.string(in: parser.bytes, quote: parser.index) {
      parser.index = end + 1
      return string
    }
    guard let content = parser.parsePlainString() else { return nil }
    return recent.string(UnsafeRawBufferPointer(rebasing: parser.bytes[content]))
  }

  /// The value as an integer written plainly (no fraction, no exponent) that fits in Int64;
  /// nil for anything else.
  public mutating func integer() -> Int64? { parser.parsePlainInteger() }

  /// The value when it is a number, `true`, `false` or `null`; nil for a string or a
  /// container.
  public mutating func scalar() -> JSONValue? {
    switch parser.peek() ?? 0 {
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"),
      UInt8(ascii: "f"), UInt8(ascii: "n"):
      // Most numbers a journal holds are plain integers (weights, reps): read by the
      // parser's shortcut, which gives what `parseValue()` gives where it answers.
      if let integer = parser.parsePlainInteger() { return .int(integer) }
      do throws(JSONParser.Failure) {
        return try parser.parseValue()
      } catch {
        return nil
      }
    default: return nil
    }
  }

  /// The value as an array of numbers, `true`, `false` or `null`; nil for anything else.
  public mutating func scalars() -> [JSONValue]? { array { $0.scalar() } }

  /// The value as an array of strings written without escapes; nil for anything else.
  public mutating func strings() -> [String]? { array { $0.string() } }

  /// Reads the value as an array of objects, handing each to `read` to read to its end;
  /// false for anything else, or when `read` returns false for one.
  ///
  /// The caller keeps what it reads. Not generic: a generic array made here for a caller in
  /// another module would be built by unspecialized code, its type looked up at run time on
  /// every call.
  public mutating func forEachObject(_ read: (inout WrittenObjectReader) -> Bool) -> Bool {
    forEachElement { reader in
      guard reader.parser.peek() == UInt8(ascii: "{") else { return false }
      var element = WrittenObjectReader(nestedAt: reader.parser)
      guard read(&element), element.isComplete else { return false }
      reader.parser.index = element.parser.index
      return true
    }
  }

  /// The value as an array, each element read by `element`; nil for anything else, or when
  /// `element` gives nil for one.
  private mutating func array<Element>(
    _ element: (inout WrittenObjectReader) -> Element?
  ) -> [Element]? {
    var elements: [Element] = []
    let read = forEachElement { reader in
      guard let value = element(&reader) else { return false }
      elements.append(value)
      return true
    }
    return read ? elements : nil
  }

  /// Reads the value as an array, each element by `element`; false for anything else, or
  /// when `element` returns false for one.
  private mutating func forEachElement(_ element: (inout WrittenObjectReader) -> Bool) -> Bool {
    guard parser.peek() == UInt8(ascii: "[") else { return false }
    parser.index += 1
    if parser.peek() == UInt8(ascii: "]") {
      parser.index += 1
      return true
    }
    while element(&self) {
      switch parser.peek() {
      case UInt8(ascii: ","): parser.index += 1
      case UInt8(ascii: "]"):
        parser.index += 1
        return true
      default: return false
      }
    }
    return false
  }
}
