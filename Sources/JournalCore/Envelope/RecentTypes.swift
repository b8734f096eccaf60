/// The event types read lately, so that a type read again is the string made the first time.
///
/// A line's type differs from the line before's more often than not (a set, then the end of
/// its log, then the next log's start), and making the string again cost about 150
/// instructions, an allocation too for a type longer than 15 bytes. A type handed out again
/// is also the very string the trust's cache of answers (``RecentTypeAnswers``) compares by
/// identity first. Types of up to 16 bytes are kept, compared as two words.
struct RecentTypes {
  /// How many types are kept.
  ///
  /// The oldest is replaced: more than the types a journal usually mixes in a stretch of
  /// lines.
  static let capacity = 8

  private var kept = RecentRing<(key: Key, name: String)>(capacity: capacity)
  /// The index of the type found last, looked at first: a type often comes several lines
  /// in a row (a log's sets).
  private var last = 0

  /// A type's length and bytes, as two little-endian words (a word's first bytes are its
  /// low bits), zero past its end, and the masks of its bytes in them.
  private struct Key: Equatable {
    var count: Int
    var words: (UInt64, UInt64)
    var masks: (UInt64, UInt64)

    init(_ bytes: UnsafeRawBufferPointer) {
      precondition(bytes.count <= 16, "a key holds 16 bytes")
      count = bytes.count
      var raw: (UInt64, UInt64) = (0, 0)
      withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: bytes) }
      words = (UInt64(littleEndian: raw.0), UInt64(littleEndian: raw.1))
      masks =
        count >= 8
        ? (~0, count == 16 ? ~0 : 1 << UInt64(8 * (count - 8)) - 1)
        : (1 << UInt64(8 * count) - 1, 0)
    }

    static func == (a: Key, b: Key) -> Bool {
      a.count == b.count && a.words.0 == b.words.0 && a.words.1 == b.words.1
    }

    /// Whether the 16 bytes `first` and `second` (little-endian words) start with the key's.
    @inline(__always)
    func starts(_ first: UInt64, _ second: UInt64) -> Bool {
      first & masks.0 == words.0 && second & masks.1 == words.1
    }
  }

  /// The kept type spelled by the JSON string whose opening quote is at `start` in `line`,
  /// and the index after its closing quote; nil when none is.
  ///
  /// The types kept were read as plain strings (``JSONParser/parsePlainString()``): none holds
  /// a quote, so one whose length puts a quote after it and whose bytes are the string's is
  /// the string, found without scanning for its end.
  mutating func spelled(in line: UnsafeRawBufferPointer, at start: Int) -> (String, Int)? {
    let quote = UInt8(ascii: "\"")
    guard start + 17 < line.count, line[start] == quote, let base = line.baseAddress else {
      return nil
    }
    let first = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start + 1, as: UInt64.self))
    let second = UInt64(
      littleEndian: base.loadUnaligned(fromByteOffset: start + 9, as: UInt64.self)
    )
    func matches(_ key: Key) -> Bool {
      key.starts(first, second) && line[start + 1 + key.count] == quote
    }
    if last < kept.elements.count, matches(kept.elements[last].key) {
      return (kept.elements[last].name, start + 2 + kept.elements[last].key.count)
    }
    for index in kept.elements.indices where matches(kept.elements[index].key) {
      last = index
      return (kept.elements[index].name, start + 2 + kept.elements[index].key.count)
    }
    return nil
  }

  /// The string whose UTF-8 is `bytes`, which must be valid UTF-8 with no escape to undo.
  mutating func type(_ bytes: UnsafeRawBufferPointer) -> String {
    guard bytes.count <= 16 else { return String(decoding: bytes, as: UTF8.self) }
    let key = Key(bytes)
    if let known = kept.elements.first(where: { $0.key == key }) { return known.name }
    let name = String(decoding: bytes, as: UTF8.self)
    kept.keep((key, name))
    return name
  }
}
