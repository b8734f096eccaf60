#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An event's payload: a ``JSONValue``, or the checked bytes it was read from.
///
/// Reading a journal checks each payload's bytes as strictly as ``JSONValue/parse(_:)-(Collection<UInt8>)``
/// would and keeps them (the payloads of records read together share one array) instead
/// of building a tree of dictionaries; a reader asks for members by key through
/// ``JSONSlice`` and ``JSONObjectSlice``, which parse only the leaves asked for. ``value``
/// builds the whole ``JSONValue`` when something needs it.
///
/// Equality and hashing are those of ``value``: a payload read from bytes equals the same
/// payload built as a value.
package struct JSONPayload: Sendable, Hashable {
  @usableFromInline enum Storage: Sendable {
    case value(JSONValue)
    /// Checked bytes: `count` of them from `start` in `buffer`, which may hold the
    /// payloads of other records too (32-bit bounds keep a payload as small as a value).
    case bytes([UInt8], start: UInt32, count: UInt32)
  }

  @usableFromInline var storage: Storage

  /// A payload built as a value.
  package init(_ value: JSONValue) { storage = .value(value) }

  /// A payload from bytes holding exactly one JSON value, with no whitespace around it,
  /// checked here.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/malformedJSON`` naming the byte
  ///   offset of the problem, as ``JSONValue/parse(_:)-(Collection<UInt8>)`` would.
  package init(checking bytes: [UInt8]) throws {
    guard bytes.count <= UInt32.max else {
      throw JournalError(
        .malformedJSON,
        "a payload of \(bytes.count) bytes is larger than 4 GiB, the most one may hold"
      )
    }
    try bytes.withUnsafeBytes { buffer in
      var parser = JSONParser(buffer)
      do throws(JSONParser.Failure) {
        try parser.skipValue()
        guard parser.index == buffer.count else {
          throw parser.fail("unexpected \(parser.describeByte()) after the value")
        }
      } catch {
        throw JournalError(.malformedJSON, "byte \(error.offset): \(error.reason)")
      }
    }
    storage = .bytes(bytes, start: 0, count: UInt32(bytes.count))
  }

  /// Bytes the caller has already checked with ``JSONParser/skipValue()``.
  init(checkedBytes bytes: [UInt8]) { self.init(checkedBytes: bytes, range: bytes.indices) }

  /// The bytes in `range` of `buffer`, already checked with ``JSONParser/skipValue()``;
  /// `buffer` may hold other payloads around them.
  init(checkedBytes buffer: [UInt8], range: Range<Int>) {
    precondition(buffer.count <= UInt32.max, "payload buffers are smaller than 4 GiB")
    storage = .bytes(
      buffer,
      start: UInt32(truncatingIfNeeded: range.lowerBound),
      count: UInt32(truncatingIfNeeded: range.count)
    )
  }

  /// The payload as a value, parsed from its bytes when it was read.
  package var value: JSONValue {
    switch storage {
    case .value(let value): return value
    case .bytes(let bytes, let start, let count):
      // Checked by the same parser when kept: parsing cannot fail.
      do {
        return try bytes.withUnsafeBytes { buffer in
          try JSONValue.parse(
            UnsafeRawBufferPointer(rebasing: buffer[Int(start)..<Int(start) + Int(count)])
          )
        }
      } catch {
        assertionFailure("checked payload bytes did not parse: \(error)")
        return .null
      }
    }
  }

  /// The payload for reading member by member: over its bytes, or over its canonical
  /// serialization when it was built as a value.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidValue`` for a value
  ///   holding a NaN or infinite number, which JSON cannot represent.
  package func slice() throws -> JSONSlice {
    switch storage {
    case .bytes(let bytes, let start, let count):
      return JSONSlice(bytes: bytes, range: Int(start)..<Int(start) + Int(count))
    case .value(let value):
      let bytes = try value.serialized()
      return JSONSlice(bytes: bytes, range: 0..<bytes.count)
    }
  }

  package static func == (lhs: JSONPayload, rhs: JSONPayload) -> Bool {
    if case .bytes(let left, let leftStart, let leftCount) = lhs.storage,
      case .bytes(let right, let rightStart, let rightCount) = rhs.storage,
      leftCount == rightCount,
      left[Int(leftStart)..<Int(leftStart) + Int(leftCount)]
        .elementsEqual(right[Int(rightStart)..<Int(rightStart) + Int(rightCount)])
    {
      return true
    }
    return lhs.value == rhs.value
  }

  package func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// One checked JSON value inside a payload's bytes, read without building its containers.
package struct JSONSlice: Sendable {
  /// The whole payload.
  let bytes: [UInt8]
  /// This value's bytes in ``bytes``, without surrounding whitespace.
  let range: Range<Int>

  private var first: UInt8 { bytes[range.lowerBound] }

  package var isNull: Bool { first == UInt8(ascii: "n") }

  /// The value, built: cheap for strings, numbers and literals.
  package var value: JSONValue {
    bytes.withUnsafeBytes { buffer in
      var parser = JSONParser(UnsafeRawBufferPointer(rebasing: buffer[range]))
      do throws(JSONParser.Failure) {
        return try parser.parseValue()
      } catch {
        assertionFailure("checked payload bytes did not parse: \(error.reason)")
        return .null
      }
    }
  }

  /// The value as a string, nil when it is not one; read straight from the bytes when it
  /// has no escape.
  package var stringValue: String? {
    guard first == UInt8(ascii: "\"") else { return nil }
    let content = range.lowerBound + 1..<range.upperBound - 1
    return bytes.withUnsafeBytes { buffer in
      let text = UnsafeRawBufferPointer(rebasing: buffer[content])
      // Checked when kept: without a backslash the content is the string's UTF-8.
      if !text.contains(UInt8(ascii: "\\")) { return String(decoding: text, as: UTF8.self) }
      return value.stringValue
    }
  }

  /// The value as an integer, as ``JSONValue/intValue`` gives it; read straight from the
  /// bytes when written as a plain integer.
  package var intValue: Int64? {
    let plain = bytes.withUnsafeBytes { buffer -> Int64? in
      var parser = JSONParser(UnsafeRawBufferPointer(rebasing: buffer[range]))
      guard let number = parser.parsePlainInteger(), parser.index == range.count else {
        return nil
      }
      return number
    }
    return plain ?? value.intValue
  }

  /// The elements, when the value is an array.
  package var elements: [JSONSlice]? {
    guard first == UInt8(ascii: "[") else { return nil }
    return bytes.withUnsafeBytes { buffer -> [JSONSlice] in
      var parser = JSONParser(buffer)
      parser.index = range.lowerBound + 1
      var elements: [JSONSlice] = []
      parser.skipWhitespace()
      if parser.peek() == UInt8(ascii: "]") { return elements }
      while true {
        parser.skipWhitespace()
        let start = parser.index
        parser.skipCheckedValue()
        elements.append(JSONSlice(bytes: bytes, range: start..<parser.index))
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: ",") else { break }
        parser.index += 1
      }
      return elements
    }
  }

  /// The members, when the value is an object.
  package var object: JSONObjectSlice? {
    guard first == UInt8(ascii: "{") else { return nil }
    return JSONObjectSlice(self)
  }
}

/// A checked JSON object inside a payload's bytes: its members found once, looked up by key
/// by comparing bytes.
package struct JSONObjectSlice: Sendable {
  private struct Member: Sendable {
    /// The key's bytes between the quotes.
    var key: Range<Int>
    /// The key as text when it holds an escape, else nil (compared as bytes).
    var escapedKey: String?
    var value: Range<Int>
  }

  private let bytes: [UInt8]
  private let members: [Member]

  fileprivate init(_ slice: JSONSlice) {
    bytes = slice.bytes
    members = slice.bytes.withUnsafeBytes { buffer -> [Member] in
      var parser = JSONParser(buffer)
      parser.index = slice.range.lowerBound + 1
      var members: [Member] = []
      members.reserveCapacity(8)
      parser.skipWhitespace()
      if parser.peek() == UInt8(ascii: "}") { return members }
      // Checked when kept: nothing here can fail; a failure ends the members.
      do throws(JSONParser.Failure) {
        while true {
          parser.skipWhitespace()
          let escapedKey: String?
          let key: Range<Int>
          if let plain = parser.parsePlainString() {
            key = plain
            escapedKey = nil
          } else {
            let start = parser.index + 1
            escapedKey = try parser.parseString()
            key = start..<parser.index - 1
          }
          parser.skipWhitespace()
          try parser.expect(UInt8(ascii: ":"))
          parser.skipWhitespace()
          let start = parser.index
          parser.skipCheckedValue()
          members.append(Member(key: key, escapedKey: escapedKey, value: start..<parser.index))
          parser.skipWhitespace()
          guard parser.peek() == UInt8(ascii: ",") else { break }
          parser.index += 1
        }
      } catch {
        assertionFailure("checked payload bytes did not parse: \(error.reason)")
      }
      return members
    }
  }

  /// The member `key`, nil when absent.
  package subscript(key: String) -> JSONSlice? {
    var key = key
    return key.withUTF8 { wanted -> JSONSlice? in
      bytes.withUnsafeBufferPointer { buffer -> JSONSlice? in
        for member in members {
          let matches: Bool
          if let escaped = member.escapedKey {
            matches = escaped.utf8.elementsEqual(wanted)
          } else if member.key.count != wanted.count {
            matches = false
          } else if let stored = buffer.baseAddress, let asked = wanted.baseAddress {
            matches = bytesEqual(stored + member.key.lowerBound, asked, count: wanted.count)
          } else {
            matches = true  // both empty
          }
          if matches { return JSONSlice(bytes: bytes, range: member.value) }
        }
        return nil
      }
    }
  }

  /// The keys, in the order they are stored.
  package var keys: [String] {
    members.map { member in
      member.escapedKey ?? String(decoding: bytes[member.key], as: UTF8.self)
    }
  }
}

extension JSONPayload {
  /// Reads `bytes`, one JSON object with no whitespace around it, as its members: each
  /// member's value parsed, but the member named `key` kept as a payload over its bytes
  /// (checked, not parsed), so that a reader of the payload reads those bytes once.
  ///
  /// - Returns: the other members, and the payload; nil when the bytes are not such an
  ///   object or it has no member `key`.
  package static func members(
    of bytes: [UInt8],
    keeping key: String
  ) -> (members: [String: JSONValue], payload: JSONPayload)? {
    guard bytes.count <= UInt32.max else { return nil }
    let read = bytes.withUnsafeBytes { buffer -> ([String: JSONValue], Range<Int>)? in
      var parser = JSONParser(buffer)
      var members: [String: JSONValue] = [:]
      var kept: Range<Int>?
      do throws(JSONParser.Failure) {
        try parser.expect(UInt8(ascii: "{"))
        parser.skipWhitespace()
        if parser.peek() != UInt8(ascii: "}") {
          while true {
            parser.skipWhitespace()
            guard parser.peek() == UInt8(ascii: "\"") else { throw parser.fail("expected a key") }
            let name = try parser.parseString()
            parser.skipWhitespace()
            try parser.expect(UInt8(ascii: ":"))
            parser.skipWhitespace()
            if name == key {
              let start = parser.index
              try parser.skipValue()
              kept = start..<parser.index
            } else {
              members[name] = try parser.parseValue()
            }
            parser.skipWhitespace()
            guard parser.peek() == UInt8(ascii: ",") else { break }
            parser.index += 1
          }
        }
        try parser.expect(UInt8(ascii: "}"))
      } catch {
        return nil
      }
      guard parser.index == buffer.count, let kept else { return nil }
      return (members, kept)
    }
    guard let (members, range) = read else { return nil }
    return (members, JSONPayload(checkedBytes: bytes, range: range))
  }

  /// The spelling of an object's members as ``JSONValue/serialized()`` writes them: for each
  /// key in order, the bytes before its value (`{"key":`, then `,"key":`).
  package static func canonicalPrefixes(_ keys: [String]) -> [[UInt8]] {
    keys.enumerated().map { index, key in
      var prefix: [UInt8] = [index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ",")]
      appendJSONString(key, to: &prefix)
      prefix.append(UInt8(ascii: ":"))
      return prefix
    }
  }

  /// Reads an object spelled as ``JSONValue/serialized()`` writes one with exactly the keys
  /// of `prefixes` (``canonicalPrefixes(_:)``), in their order: the values in that order,
  /// parsed, but the one at `kept` kept as a payload over its bytes (checked, not parsed).
  ///
  /// The same values as ``members(of:keeping:)``, without a dictionary or a string per key.
  ///
  /// - Returns: nil when the bytes are spelled otherwise (whitespace, other keys or
  ///   order) or are not such an object; ``members(of:keeping:)`` reads any spelling.
  package static func canonicalMembers(
    of bytes: [UInt8],
    prefixes: [[UInt8]],
    keeping kept: Int
  ) -> (values: [JSONValue], payload: JSONPayload)? {
    guard bytes.count <= UInt32.max, prefixes.indices.contains(kept) else { return nil }
    let read = bytes.withUnsafeBytes { buffer -> ([JSONValue], Range<Int>)? in
      var parser = JSONParser(buffer)
      var values: [JSONValue] = []
      values.reserveCapacity(prefixes.count - 1)
      var keptRange: Range<Int>?
      do throws(JSONParser.Failure) {
        for (index, prefix) in prefixes.enumerated() {
          guard buffer.count - parser.index > prefix.count,
            UnsafeRawBufferPointer(rebasing: buffer[parser.index..<parser.index + prefix.count])
              .elementsEqual(prefix)
          else { return nil }
          parser.index += prefix.count
          if index == kept {
            let start = parser.index
            try parser.skipValue()
            keptRange = start..<parser.index
          } else {
            values.append(try parser.parseValue())
          }
        }
        try parser.expect(UInt8(ascii: "}"))
      } catch {
        return nil
      }
      guard parser.index == buffer.count, let keptRange else { return nil }
      return (values, keptRange)
    }
    guard let (values, range) = read else { return nil }
    return (values, JSONPayload(checkedBytes: bytes, range: range))
  }
}
