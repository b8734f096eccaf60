// MARK: - Parsing

extension JSONValue {
  /// Parses strict JSON (RFC 8259) from UTF-8 bytes.
  ///
  /// Numbers with neither a fraction nor an exponent that fit in `Int64` become ``int(_:)``;
  /// every other number becomes ``double(_:)``, correctly rounded (so `-0` is the integer 0
  /// and `-0.0` the double). Any value may be at the top level, surrounded by optional
  /// whitespace.
  ///
  /// Rejected: trailing commas, leading zeros, `NaN`/`Infinity`, numbers too large for a
  /// `Double`, unescaped control characters, invalid UTF-8, unpaired surrogate escapes,
  /// duplicate keys in one object, and nesting deeper than 512 arrays or objects.
  ///
  /// - Parameter bytes: The UTF-8 text; `[UInt8]`, `Data`, `ArraySlice<UInt8>`…
  /// - Returns: The value.
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/malformedJSON``, whose message
  ///   names the byte offset (0-based) of the problem.
  public static func parse(_ bytes: some Collection<UInt8>) throws -> JSONValue {
    if let result = try bytes.withContiguousStorageIfAvailable({ buffer in
      try parse(UnsafeRawBufferPointer(buffer))
    }) {
      return result
    }
    return try Array(bytes).withUnsafeBytes { try parse($0) }
  }

  /// Parses strict JSON (RFC 8259) from the UTF-8 bytes in `buffer`.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/malformedJSON``.
  public static func parse(_ buffer: UnsafeRawBufferPointer) throws -> JSONValue {
    var parser = JSONParser(buffer)
    do {
      return try parser.parseDocument()
    } catch {
      throw JournalError(.malformedJSON, "byte \(error.offset): \(error.reason)")
    }
  }

  /// Parses strict JSON (RFC 8259) from a string.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/malformedJSON``.
  public static func parse(_ text: String) throws -> JSONValue {
    var text = text
    return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0)) }
  }
}
