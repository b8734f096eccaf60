#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Canonical serialization

extension JSONValue {
  /// The canonical, compact JSON text of the value, as UTF-8 bytes.
  ///
  /// The form is deterministic, so equal values give equal bytes:
  /// - no whitespace;
  /// - object keys sorted by the bytes of their UTF-8 form;
  /// - strings escape only `"` and `\` (as `\"`, `\\`) and control characters U+0000–U+001F
  ///   (`\b \f \n \r \t`, others as `\u00xx` with lowercase hex); everything else, `/` and
  ///   non-ASCII included, is written as UTF-8;
  /// - ``int(_:)`` as plain decimal digits;
  /// - ``double(_:)`` as Swift's `Double.description`: the shortest digits that round-trip,
  ///   always with a `.` or an exponent (`45.0`, `0.1`, `-0.0`, `1e+16`, `5e-324`), so it
  ///   parses back as a double.
  ///
  /// `JSONValue.parse(value.serialized()) == value` for every value this accepts.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidValue`` for a NaN or
  ///   infinite double, which JSON cannot represent.
  public func serialized() throws -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(64)
    try serialize(into: &output)
    return output
  }

  /// The canonical, compact JSON text of the value; see ``serialized()``.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidValue`` for a NaN or
  ///   infinite double.
  public func serializedString() throws -> String {
    String(decoding: try serialized(), as: UTF8.self)
  }

  /// Appends the canonical form of the value to `output`.
  func serialize(into output: inout [UInt8]) throws(JournalError) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value): appendDecimal(value, to: &output)
    case .double(let value): try appendDouble(value, to: &output)
    case .string(let value): appendJSONString(value, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        try element.serialize(into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      // The members sorted as they are, so no key is looked up (hashed) again.
      let sorted = members.sorted { utf8Precedes($0.key, $1.key) }
      for (index, member) in sorted.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        appendJSONString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        try member.value.serialize(into: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }
}

/// Whether `a`'s UTF-8 bytes sort before `b`'s: the order of object keys.
func utf8Precedes(_ a: String, _ b: String) -> Bool {
  // The bytes in place for native strings (compared by `memcmp`), else one by one.
  let inPlace = a.utf8.withContiguousStorageIfAvailable { x in
    b.utf8.withContiguousStorageIfAvailable { y -> Bool in
      let common = min(x.count, y.count)
      if common > 0, let left = x.baseAddress, let right = y.baseAddress {
        let order = memcmp(left, right, common)
        if order != 0 { return order < 0 }
      }
      return x.count < y.count
    }
  }
  if let inPlace, let precedes = inPlace { return precedes }
  return a.utf8.lexicographicallyPrecedes(b.utf8)
}

/// Appends `value` in decimal: the one integer writer of the record lines, canonical JSON and
/// the app's documents.
@inlinable
package func appendDecimal(_ value: some BinaryInteger, to output: inout [UInt8]) {
  if value >= 0 && value < 10 {
    output.append(UInt8(ascii: "0") + UInt8(value))
    return
  }
  if value < 0 { output.append(UInt8(ascii: "-")) }
  guard let magnitude = UInt64(exactly: value.magnitude) else {
    output.append(contentsOf: String(value.magnitude).utf8)
    return
  }
  // The digits written last first into the end of a scratch buffer, then appended at once.
  withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
    var rest = magnitude
    var start = digits.count
    repeat {
      let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
      start -= 1
      digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: digit)
      rest = quotient
    } while rest > 0
    output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
  }
}

extension [UInt8] {
  /// Appends the bytes of an ASCII literal.
  @inline(__always)
  mutating func appendASCII(_ literal: StaticString) {
    literal.withUTF8Buffer { append(contentsOf: $0) }
  }

  /// Appends `count` bytes that `fill` writes into a scratch buffer of that size.
  @inline(__always)
  mutating func appendBytes(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
      fill(buffer)
      append(contentsOf: UnsafeBufferPointer(buffer))
    }
  }
}

/// Appends `value` as Swift's `Double.description` writes it: the shortest digits that
/// round-trip, always with a `.` or an exponent.
///
/// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidValue`` for a NaN or
///   infinite number.
func appendDouble(_ value: Double, to output: inout [UInt8]) throws(JournalError) {
  guard value.isFinite else {
    throw JournalError(.invalidValue, "cannot store the number '\(value)' in JSON")
  }
  output.append(contentsOf: value.description.utf8)
}

/// Whether a byte must be escaped in a JSON string: `"`, `\` and control characters.
private func needsEscape(_ byte: UInt8) -> Bool {
  byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
}

/// Appends `string` as a JSON string literal with the canonical minimal escaping.
func appendJSONString(_ string: String, to output: inout [UInt8]) {
  var string = string
  string.withUTF8 { appendJSONString(utf8: $0, to: &output) }
}

/// Appends the UTF-8 text `utf8` as a JSON string literal with the canonical minimal escaping.
func appendJSONString(utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
  output.append(UInt8(ascii: "\""))
  // Runs of bytes that need no escape are copied whole.
  var mark = 0
  for index in utf8.indices {
    let byte = utf8[index]
    guard needsEscape(byte) else { continue }
    if mark < index {
      output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
    }
    appendEscaped(byte, to: &output)
    mark = index + 1
  }
  if mark < utf8.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...])) }
  output.append(UInt8(ascii: "\""))
}

/// Appends the escape of a byte that JSON strings must escape.
private func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
  switch byte {
  case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
  case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
  case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
  case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
  case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
  case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
  case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
  case 0..<0x20:
    output.append(contentsOf: "\\u00".utf8)
    output.append(hexDigits[Int(byte >> 4)])
    output.append(hexDigits[Int(byte & 0xF)])
  default: output.append(byte)
  }
}
