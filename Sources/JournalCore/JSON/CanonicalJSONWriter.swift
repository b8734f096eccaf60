/// Writes JSON in the canonical form of ``JSONValue/serialized()`` straight into bytes,
/// without building a ``JSONValue`` tree first.
///
/// For values whose shape the caller knows (the checkpoint's stream files): the caller
/// writes each object's members in the order of their keys' UTF-8 bytes, as the canonical
/// form sorts them (checked in debug builds), and leaves out what it would not write.
/// Commas are placed by the writer.
///
/// ```swift
/// var writer = CanonicalJSONWriter()
/// writer.beginObject()
/// writer.member("id", "W1")
/// writer.key("sets")
/// writer.beginArray()
/// writer.value(5)
/// writer.endArray()
/// writer.endObject()
/// // {"id":"W1","sets":[5]}
/// ```
public struct CanonicalJSONWriter {
  /// The bytes written so far.
  public private(set) var bytes: [UInt8] = []
  /// Whether the next key or value follows another one at the same level.
  private var needsComma = false
  #if DEBUG
  /// The last key written at each open object (checks the order).
  private var keys: [[UInt8]] = []
  #endif

  public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

  // MARK: - Structure

  public mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
    #if DEBUG
    keys.append([])
    #endif
  }

  public mutating func endObject() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
    #if DEBUG
    keys.removeLast()
    #endif
  }

  public mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
  }

  public mutating func endArray() {
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes a member's key; its value comes next.
  public mutating func key(_ key: StaticString) {
    key.withUTF8Buffer { writeKey($0) }
  }

  /// Writes a member's key known only at run time (the caller sorts such keys with
  /// ``precedes(_:_:)``); its value comes next.
  public mutating func key(_ key: String) {
    var key = key
    key.withUTF8 { writeKey($0) }
  }

  /// Whether `a` sorts before `b` as object keys do: by their UTF-8 bytes.
  public static func precedes(_ a: String, _ b: String) -> Bool { utf8Precedes(a, b) }

  private mutating func writeKey(_ utf8: UnsafeBufferPointer<UInt8>) {
    #if DEBUG
    if let last = keys.last {
      assert(
        last.isEmpty || last.lexicographicallyPrecedes(utf8),
        "keys out of order: \(String(decoding: utf8, as: UTF8.self))"
      )
      keys[keys.count - 1] = Array(utf8)
    }
    #endif
    separate()
    appendJSONString(utf8: utf8, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }

  // MARK: - Values

  public mutating func null() {
    separate()
    bytes.append(contentsOf: "null".utf8)
    needsComma = true
  }

  public mutating func value(_ value: Bool) {
    separate()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
    needsComma = true
  }

  // Integers as concrete types: a generic `BinaryInteger` is not specialised across
  // modules, and its arithmetic through witness tables costs ten times as much.
  public mutating func value(_ value: Int64) {
    separate()
    appendDecimal(value, to: &bytes)
    needsComma = true
  }

  public mutating func value(_ value: Int) { self.value(Int64(value)) }

  /// Writes a double as ``JSONValue/double(_:)`` is written.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidValue`` for a NaN or
  ///   infinite number, which JSON cannot represent.
  public mutating func value(_ value: Double) throws(JournalError) {
    separate()
    try appendDouble(value, to: &bytes)
    needsComma = true
  }

  public mutating func value(_ value: String) {
    separate()
    appendJSONString(value, to: &bytes)
    needsComma = true
  }

  /// Writes a value built as a tree, in the same canonical form.
  ///
  /// - Throws: ``JournalError`` for a NaN or infinite number in it.
  public mutating func value(_ value: JSONValue) throws(JournalError) {
    separate()
    try value.serialize(into: &bytes)
    needsComma = true
  }

  // MARK: - Members

  /// A string member; nothing when `value` is nil.
  public mutating func member(_ key: StaticString, _ value: String?) {
    guard let value else { return }
    self.key(key)
    self.value(value)
  }

  /// An integer member; nothing when `value` is nil.
  public mutating func member(_ key: StaticString, _ value: Int?) {
    member(key, value.map(Int64.init))
  }

  /// An integer member; nothing when `value` is nil.
  public mutating func member(_ key: StaticString, _ value: Int64?) {
    guard let value else { return }
    self.key(key)
    self.value(value)
  }

  /// A Boolean member; nothing when `value` is nil.
  public mutating func member(_ key: StaticString, _ value: Bool?) {
    guard let value else { return }
    self.key(key)
    self.value(value)
  }

  /// A double member; nothing when `value` is nil.
  ///
  /// - Throws: ``JournalError`` for a NaN or infinite number.
  public mutating func member(_ key: StaticString, _ value: Double?) throws(JournalError) {
    guard let value else { return }
    self.key(key)
    try self.value(value)
  }
}
