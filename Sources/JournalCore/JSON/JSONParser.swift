#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict RFC 8259 parser over UTF-8 bytes, producing ``JSONValue``s.
///
/// Numbers with neither fraction nor exponent that fit in `Int64` become `.int`; all others
/// become `.double` (correctly rounded). Duplicate object keys, unpaired surrogates, invalid
/// UTF-8, control characters in strings, leading zeros and trailing commas are rejected.
/// Nesting deeper than ``maximumDepth`` is rejected so hostile input cannot exhaust the stack.
struct JSONParser {
  /// Arrays and objects nested deeper than this are rejected.
  static let maximumDepth = 512

  /// Why parsing stopped, and where.
  struct Failure: Error {
    var offset: Int
    var reason: String
  }

  let bytes: UnsafeRawBufferPointer
  var index = 0
  private var depth = 0
  /// The byte ranges of the plain keys of the objects being checked by ``skipValue()``,
  /// innermost last (start and end of each, flattened).
  var keyRanges: [Int] = []

  /// A parser of `bytes`; `keyRanges` may bring an emptied buffer from an earlier parser, so
  /// that checking objects allocates nothing.
  init(_ bytes: UnsafeRawBufferPointer, keyRanges: [Int] = []) {
    self.bytes = bytes
    self.keyRanges = keyRanges
    // Most parsers start with none: emptying an empty array is still a call.
    if !keyRanges.isEmpty { self.keyRanges.removeAll(keepingCapacity: true) }
  }

  /// Parses a whole document: one value with optional surrounding whitespace.
  mutating func parseDocument() throws(Failure) -> JSONValue {
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    guard index == bytes.count else { throw fail("unexpected \(describeByte()) after the value") }
    return value
  }

  // MARK: - Values

  mutating func parseValue() throws(Failure) -> JSONValue {
    guard index < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw fail("unexpected \(describeByte())")
    }
  }

  private mutating func parseObject() throws(Failure) -> JSONValue {
    try enterContainer()
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else {
        throw fail("expected a string key, found \(describeByte())")
      }
      let keyOffset = index
      let key = try parseString()
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      let value = try parseValue()
      if members.updateValue(value, forKey: key) != nil {
        throw Failure(offset: keyOffset, reason: "duplicate key '\(key)'")
      }
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        depth -= 1
        return .object(members)
      default: throw fail("expected ',' or '}', found \(describeByte())")
      }
    }
  }

  private mutating func parseArray() throws(Failure) -> JSONValue {
    try enterContainer()
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        depth -= 1
        return .array(elements)
      default: throw fail("expected ',' or ']', found \(describeByte())")
      }
    }
  }

  mutating func enterContainer() throws(Failure) {
    depth += 1
    if depth > JSONParser.maximumDepth {
      throw fail("nesting deeper than \(JSONParser.maximumDepth) levels")
    }
  }

  mutating func leaveContainer() { depth -= 1 }

  // MARK: - Numbers

  mutating func parseNumber() throws(Failure) -> JSONValue {
    let start = index
    var negative = false
    if peek() == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    guard let first = peek(), isDigit(first) else {
      throw fail("expected a digit, found \(describeByte())")
    }
    if first == UInt8(ascii: "0") {
      index += 1
      if let next = peek(), isDigit(next) { throw fail("leading zero in a number") }
    } else {
      while let byte = peek(), isDigit(byte) { index += 1 }
    }
    var isInteger = true
    var point: Int?
    if peek() == UInt8(ascii: ".") {
      isInteger = false
      point = index
      index += 1
      guard let byte = peek(), isDigit(byte) else { throw fail("expected a digit after '.'") }
      while let byte = peek(), isDigit(byte) { index += 1 }
    }
    if let point, peek() != UInt8(ascii: "e"), peek() != UInt8(ascii: "E"),
      let value = shortDecimalValue(from: negative ? start + 1 : start, point: point, to: index)
    {
      return .double(negative ? -value : value)
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard let byte = peek(), isDigit(byte) else { throw fail("expected a digit in the exponent") }
      while let byte = peek(), isDigit(byte) { index += 1 }
    }
    if isInteger, let value = integerValue(from: negative ? start + 1 : start, to: index, negative)
    {
      return .int(value)
    }
    let text = String(
      decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]),
      as: UTF8.self
    )
    guard let value = Double(text), value.isFinite else {
      throw Failure(offset: start, reason: "number '\(text)' is out of range")
    }
    return .double(value)
  }

  /// The value of the digits `start..<end` with a `.` at `point`, when they are at most 15.
  ///
  /// The digits are read as an integer, then divided by the power of ten of the digits after
  /// the point. Both are exact doubles (below 2^53, and 10^k for k ≤ 22), so the one
  /// division rounds correctly, as `Double(String)` does (Clinger's fast path). Nil for more
  /// digits.
  private func shortDecimalValue(from start: Int, point: Int, to end: Int) -> Double? {
    guard end - start <= 16 else { return nil }
    var mantissa: Int64 = 0
    for position in start..<end where position != point {
      mantissa = mantissa &* 10 &+ Int64(bytes[position] &- UInt8(ascii: "0"))
    }
    return Double(mantissa) / powersOfTen[end - point - 1]
  }

  /// Parses a number written as a plain integer (`-?(0|[1-9][0-9]*)`, then no `.`, `e` or
  /// `E`) that fits in Int64, which ``parseValue()`` would give as `.int`; returns nil,
  /// without moving, for anything else, which ``parseValue()`` then reads or refuses.
  mutating func parsePlainInteger() -> Int64? {
    var position = index
    let count = bytes.count
    let negative = position < count && bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    let digits = position
    guard position < count, bytes[position] &- UInt8(ascii: "0") < 10 else { return nil }
    // The value is made as the digits are scanned; wrapping, as more than 18 digits may
    // overflow, and are then read again with checks.
    var value = Int64(bytes[position] &- UInt8(ascii: "0"))
    position += 1
    if value != 0 {
      while position < count {
        let digit = bytes[position] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        value = value &* 10 &+ Int64(digit)
        position += 1
      }
    }
    if position < count {
      switch bytes[position] {
      case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        return nil
      default: break
      }
    }
    if position - digits > 18 {
      guard let checked = integerValue(from: digits, to: position, negative) else { return nil }
      value = checked
    } else if negative {
      value = 0 &- value
    }
    index = position
    return value
  }

  /// The digits in `start..<end` as an Int64, or nil when they overflow.
  private func integerValue(from start: Int, to end: Int, _ negative: Bool) -> Int64? {
    // Eighteen digits or fewer cannot overflow: no check per digit (record times have 12,
    // sequence numbers and counts fewer).
    if end - start <= 18, let base = bytes.baseAddress {
      var value: Int64 = 0
      for position in start..<end {
        value = value &* 10 &+ Int64(base.load(fromByteOffset: position, as: UInt8.self) &- 0x30)
      }
      return negative ? 0 &- value : value
    }
    // Accumulate negatively so that Int64.min is representable.
    var value: Int64 = 0
    for position in start..<end {
      let digit = Int64(bytes[position] &- UInt8(ascii: "0"))
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = times.subtractingReportingOverflow(digit)
      if overflow1 || overflow2 { return nil }
      value = next
    }
    if negative { return value }
    return value == Int64.min ? nil : -value
  }

  // MARK: - Strings

  /// Parses a string starting at the opening quote.
  mutating func parseString() throws(Failure) -> String {
    index += 1
    let start = index
    // Fast path: no escapes, plain ASCII.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let result = String(
          decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]),
          as: UTF8.self
        )
        index += 1
        return result
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
      index += 1
    }
    var scalars = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
    while true {
      guard index < bytes.count else { throw fail("unterminated string") }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return String(decoding: scalars, as: UTF8.self)
      case UInt8(ascii: "\\"):
        index += 1
        try appendEscape(to: &scalars)
      case 0..<0x20:
        throw fail("unescaped control character \(describeByte()) in a string")
      case 0x80...:
        try appendUTF8Sequence(to: &scalars)
      default:
        scalars.append(byte)
        index += 1
      }
    }
  }

  /// Moves past the string at the index when its content is exactly `text`'s bytes; else
  /// stays (``stringEnd(spelling:in:at:)``).
  @inline(__always)
  mutating func skipString(spelling text: String) -> Bool {
    guard let end = stringEnd(spelling: text, in: bytes, at: index) else { return false }
    index = end + 1
    return true
  }

  /// Parses a string made only of printable ASCII without escapes, returning the byte range
  /// of its content; returns nil, without moving, for any other string.
  mutating func parsePlainString() -> Range<Int>? {
    guard peek() == UInt8(ascii: "\"") else { return nil }
    var position = index + 1
    // Eight bytes at a time while none is a quote, a backslash, a control character or
    // non-ASCII; the first that is ends the string when it is the quote.
    if let base = bytes.baseAddress {
      while position + 8 <= bytes.count {
        let word = UInt64(
          littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        )
        let stops = plainStringStops(in: word)
        if stops != 0 {
          let stop = position + stops.trailingZeroBitCount >> 3
          guard bytes[stop] == UInt8(ascii: "\"") else { return nil }
          let range = index + 1..<stop
          index = stop + 1
          return range
        }
        position += 8
      }
    }
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let range = index + 1..<position
        index = position + 1
        return range
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
      position += 1
    }
    return nil
  }

  private mutating func appendEscape(to output: inout [UInt8]) throws(Failure) {
    guard let byte = peek() else { throw fail("unterminated string") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
    case UInt8(ascii: "b"): output.append(0x08)
    case UInt8(ascii: "f"): output.append(0x0C)
    case UInt8(ascii: "n"): output.append(0x0A)
    case UInt8(ascii: "r"): output.append(0x0D)
    case UInt8(ascii: "t"): output.append(0x09)
    case UInt8(ascii: "u"):
      let escapeStart = index - 2
      var scalar = try parseHex4()
      if (0xD800...0xDBFF).contains(scalar) {
        guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count,
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw Failure(offset: escapeStart, reason: "unpaired surrogate in a string") }
        index += 2
        let low = try parseHex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw Failure(offset: escapeStart, reason: "unpaired surrogate in a string")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw Failure(offset: escapeStart, reason: "unpaired surrogate in a string")
      }
      guard let unicode = Unicode.Scalar(scalar) else {
        throw Failure(offset: escapeStart, reason: "invalid unicode escape")
      }
      output.append(contentsOf: String(Character(unicode)).utf8)
    default:
      index -= 1
      throw fail("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
    }
  }

  private mutating func parseHex4() throws(Failure) -> UInt32 {
    guard index + 4 <= bytes.count else { throw fail("truncated unicode escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let nibble: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
      default: throw fail("invalid hex digit \(describeByte()) in a unicode escape")
      }
      value = value << 4 | UInt32(nibble)
      index += 1
    }
    return value
  }

  /// Validates one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates).
  private mutating func appendUTF8Sequence(to output: inout [UInt8]) throws(Failure) {
    let lead = bytes[index]
    let count: Int
    var lowerBound: UInt8 = 0x80
    var upperBound: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: count = 2
    case 0xE0:
      count = 3
      lowerBound = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: count = 3
    case 0xED:
      count = 3
      upperBound = 0x9F
    case 0xF0:
      count = 4
      lowerBound = 0x90
    case 0xF1...0xF3: count = 4
    case 0xF4:
      count = 4
      upperBound = 0x8F
    default: throw fail("invalid UTF-8")
    }
    guard index + count <= bytes.count else { throw fail("invalid UTF-8") }
    let second = bytes[index + 1]
    guard second >= lowerBound && second <= upperBound else { throw fail("invalid UTF-8") }
    for offset in 2..<max(count, 2) where bytes[index + offset] & 0xC0 != 0x80 {
      throw fail("invalid UTF-8")
    }
    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<index + count]))
    index += count
  }

  // MARK: - Helpers

  @inline(__always)
  func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  @inline(__always)
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  mutating func expect(_ byte: UInt8) throws(Failure) {
    guard peek() == byte else {
      throw fail("expected '\(Character(Unicode.Scalar(byte)))', found \(describeByte())")
    }
    index += 1
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
    let start = index
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count, let base = bytes.baseAddress,
      bytesEqual(base + index, literal.utf8Start, count: count)
    else { throw Failure(offset: start, reason: "invalid literal") }
    index += count
  }

  func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

  /// The byte at the current position, for messages.
  func describeByte() -> String {
    guard let byte = peek() else { return "end of input" }
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(String(byte, radix: 16, uppercase: false))"
  }
}

/// Which of the eight bytes of `word` end a plain string's fast scan.
///
/// Those are a `"`, a `\`, a byte below 0x20 and a byte of 0x80 and above (the classic "has
/// a zero byte" test on `word ^ pattern` and `word - 0x20…`, and the high bits).
///
/// Returns the high bit of each byte that stops it, and perhaps of bytes after the first
/// (a borrow only runs upwards), so the lowest set bit marks the first stop in memory order
/// (the word is read little-endian); zero when no byte stops it.
@inline(__always)
private func plainStringStops(in word: UInt64) -> UInt64 {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highs: UInt64 = 0x8080_8080_8080_8080
  let hasControl = (word &- ones &* 0x20) & ~word & highs
  return quoteOrBackslashStops(in: word) | hasControl | (word & highs)
}

/// The high bit of each byte of `word` that is a quote or a backslash, and perhaps of bytes
/// after the first; the lowest set bit marks the first (see ``plainStringStops(in:)``).
@inline(__always)
func quoteOrBackslashStops(in word: UInt64) -> UInt64 {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highs: UInt64 = 0x8080_8080_8080_8080
  let quotes = word ^ (ones &* 0x22)
  let backslashes = word ^ (ones &* 0x5C)
  return ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & highs
}

/// 10^0 through 10^15, each exact as a double.
private let powersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
]

@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool {
  byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

/// Whether the `count` bytes at `a` and `b` are equal.
///
/// Where the JSON string whose opening quote is at `quote` in `bytes` closes, when its
/// content is exactly `text`'s bytes; nil otherwise.
///
/// `text` must hold no quote, backslash or control character (a string
/// ``JSONParser/parsePlainString()`` read earlier): then the first quote after the opening
/// one is right after the bytes, and the string is what ``JSONParser/parsePlainString()``
/// would give, found by its length without scanning for its end.
@inline(__always)
func stringEnd(spelling text: String, in bytes: UnsafeRawBufferPointer, at quote: Int) -> Int? {
  let count = text.utf8.count
  let end = quote + 1 + count
  guard quote >= 0, end < bytes.count, let base = bytes.baseAddress,
    base.load(fromByteOffset: quote, as: UInt8.self) == UInt8(ascii: "\""),
    base.load(fromByteOffset: end, as: UInt8.self) == UInt8(ascii: "\"")
  else { return nil }
  let same = text.utf8.withContiguousStorageIfAvailable { spelled in
    spelled.baseAddress.map { memcmp(base + quote + 1, $0, count) == 0 } ?? (count == 0)
  }
  return same == true ? end : nil
}

/// Keys and the envelope's literals are short: 4 to 16 bytes compare as two overlapping
/// words, without a call.
@inlinable @inline(__always)
func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
  switch count {
  case 8...16:
    return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
      && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
  case 4..<8:
    return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
      && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
  default:
    return count <= 0 || memcmp(a, b, count) == 0
  }
}
