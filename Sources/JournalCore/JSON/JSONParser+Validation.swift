#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Validating without building

extension JSONParser {
  /// Moves past one value, checking it exactly as ``parseValue()`` does (the same values are
  /// accepted, with the same failures) without building it.
  ///
  /// Reading a journal checks every payload this way and keeps its bytes; the payload is
  /// parsed only when something asks for it (`JSONPayload`).
  mutating func skipValue() throws(Failure) {
    guard index < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): try skipObject()
    case UInt8(ascii: "["): try skipArray()
    case UInt8(ascii: "\""): try skipString()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      _ = try parseValue()
    default: throw fail("unexpected \(describeByte())")
    }
  }

  /// Moves past a number, checking it as ``parseNumber()`` does, without building it.
  ///
  /// The usual numbers, `-?(0|[1-9][0-9]*)(\.[0-9]+)?` with at most 308 integer digits, are
  /// only scanned: every such number is finite as a Double. Anything else (an exponent, more
  /// digits, a malformed number) is read by ``parseNumber()``, which checks its range and
  /// fails as parsing would.
  private mutating func skipNumber() throws(Failure) {
    let start = index
    var position = index
    let count = bytes.count
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    let digits = position
    while position < count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
    var plain = position > digits && position - digits <= 308
    if plain, bytes[digits] == UInt8(ascii: "0"), position - digits > 1 { plain = false }
    if plain, position < count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      let fraction = position
      while position < count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
      if position == fraction { plain = false }
    }
    if plain, position < count, bytes[position] | 0x20 == UInt8(ascii: "e") { plain = false }
    guard plain else {
      index = start
      _ = try parseNumber()
      return
    }
    index = position
  }

  /// Moves past a string, checking its escapes and UTF-8; builds it only when it has any.
  private mutating func skipString() throws(Failure) {
    if parsePlainString() == nil { _ = try parseString() }
  }

  private mutating func skipObject() throws(Failure) {
    try enterContainer()
    index += 1
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      leaveContainer()
      return
    }
    // A duplicate key is refused as `parseValue()` refuses it. Plain keys (no escapes, the
    // usual case) are compared by their bytes; once an object has an escaped key or many
    // keys, its keys are compared as text in a set.
    let base = keyRanges.count
    defer { keyRanges.removeSubrange(base...) }
    var textKeys: Set<String>?
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else {
        throw fail("expected a string key, found \(describeByte())")
      }
      let keyOffset = index
      let plain = parsePlainString()
      let escaped: String? = plain == nil ? try parseString() : nil
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      try skipValue()
      if textKeys == nil, let plain, keyRanges.count - base < 32 {
        if isPlainKeyRepeated(plain, since: base) {
          throw Failure(offset: keyOffset, reason: "duplicate key '\(text(plain))'")
        }
        keyRanges.append(plain.lowerBound)
        keyRanges.append(plain.upperBound)
      } else {
        // Moved out and back, so that inserting does not copy the set.
        var seen =
          textKeys.take()
          ?? Set(
            stride(from: base, to: keyRanges.count, by: 2).map {
              text(keyRanges[$0]..<keyRanges[$0 + 1])
            }
          )
        let key = escaped ?? plain.map(text) ?? ""
        if !seen.insert(key).inserted {
          throw Failure(offset: keyOffset, reason: "duplicate key '\(key)'")
        }
        textKeys = seen
      }
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        leaveContainer()
        return
      default: throw fail("expected ',' or '}', found \(describeByte())")
      }
    }
  }

  /// Whether the plain key in `key` equals one recorded in ``keyRanges`` from `base`.
  private func isPlainKeyRepeated(_ key: Range<Int>, since base: Int) -> Bool {
    var position = base
    while position < keyRanges.count {
      let start = keyRanges[position]
      let end = keyRanges[position + 1]
      if end - start == key.count, let base = bytes.baseAddress,
        bytesEqual(base + start, base + key.lowerBound, count: key.count)
      {
        return true
      }
      position += 2
    }
    return false
  }

  /// The text of a plain string's bytes.
  private func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  private mutating func skipArray() throws(Failure) {
    try enterContainer()
    index += 1
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      index += 1
      leaveContainer()
      return
    }
    while true {
      skipWhitespace()
      try skipValue()
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        leaveContainer()
        return
      default: throw fail("expected ',' or ']', found \(describeByte())")
      }
    }
  }
}

// MARK: - Skipping checked bytes

extension JSONParser {
  /// Moves past one value already checked by ``skipValue()``, without checking it again:
  /// only strings and nesting are followed.
  mutating func skipCheckedValue() {
    guard index < bytes.count else { return }
    switch bytes[index] {
    case UInt8(ascii: "\""): skipCheckedString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var nesting = 0
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          skipCheckedString()
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          nesting -= 1
          if nesting == 0 {
            index += 1
            return
          }
        default: break
        }
        index += 1
      }
    default:
      // A number or a literal: up to the next delimiter.
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
          return
        default: index += 1
        }
      }
    }
  }

  /// Moves past a checked string, from its opening quote.
  private mutating func skipCheckedString() {
    index += 1
    // Eight bytes at a time to the next quote or backslash.
    if let base = bytes.baseAddress {
      while index + 8 <= bytes.count {
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let stops = quoteOrBackslashStops(in: word)
        guard stops != 0 else {
          index += 8
          continue
        }
        let stop = index + stops.trailingZeroBitCount >> 3
        if bytes[stop] == UInt8(ascii: "\"") {
          index = stop + 1
          return
        }
        index = stop + 2
      }
    }
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index += 1
        return
      case UInt8(ascii: "\\"): index += 2
      default: index += 1
      }
    }
  }
}
