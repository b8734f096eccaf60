#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The last few long strings read, so that a string read again shares the first one's
/// storage.
///
/// The events of one workout name the same few log ids over and over: made once, each
/// repeat costs no allocation, and comparing two of them (as the fold does) is a pointer
/// comparison. Strings of up to 15 bytes are stored inline by `String` and are not kept.
public struct RecentStrings: Sendable {
  /// How many strings are kept; the oldest is replaced.
  static let capacity = 16

  /// The strings kept, each with its length and a fingerprint of its bytes (its length, its
  /// first and last eight bytes), compared before the bytes are.
  private var kept = RecentRing<Kept>(capacity: capacity)
  /// Where in the kept strings the one handed out last is: a log's events come in runs, and
  /// name it again and again.
  private var lastFound = 0

  private struct Kept: Sendable {
    var fingerprint: UInt64
    var count: Int
    var string: String
  }

  public init() {}

  /// The string whose UTF-8 is `bytes`, which must be valid UTF-8 with no escape to undo.
  public mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
    guard bytes.count > 15, let base = bytes.baseAddress else {
      return String(decoding: bytes, as: UTF8.self)
    }
    let fingerprint = Self.fingerprint(base, count: bytes.count)
    for index in kept.elements.indices where kept.elements[index].fingerprint == fingerprint {
      if Self.equal(kept.elements[index], base) {
        lastFound = index
        return kept.elements[index].string
      }
    }
    let string = String(decoding: bytes, as: UTF8.self)
    lastFound = kept.keep(Kept(fingerprint: fingerprint, count: bytes.count, string: string))
    return string
  }

  /// The kept string that the JSON string whose opening quote is at `quote` in `text`
  /// spells, with the offset of its closing quote; nil when there is none.
  ///
  /// Found by its length, without scanning for the closing quote
  /// (``stringEnd(spelling:in:at:)``), each candidate's fingerprint compared first. The
  /// string handed out last is tried first.
  public mutating func string(
    in text: UnsafeRawBufferPointer,
    quote: Int
  ) -> (string: String, end: Int)? {
    guard let base = text.baseAddress, quote >= 0, kept.elements.indices.contains(lastFound)
    else { return nil }
    // The fingerprint of the bytes for the length last tried: kept strings mostly have one
    // length (log ids).
    var tried = (length: -1, fingerprint: UInt64(0))
    if let end = Self.end(of: kept.elements[lastFound], in: text, base, quote, &tried) {
      return (kept.elements[lastFound].string, end)
    }
    for index in kept.elements.indices where index != lastFound {
      if let end = Self.end(of: kept.elements[index], in: text, base, quote, &tried) {
        lastFound = index
        return (kept.elements[index].string, end)
      }
    }
    return nil
  }

  /// Where the JSON string at `quote` closes when it spells `candidate`, its fingerprint
  /// compared first (`tried` keeps the fingerprint of the bytes for the last length).
  @inline(__always)
  private static func end(
    of candidate: Kept,
    in text: UnsafeRawBufferPointer,
    _ base: UnsafeRawPointer,
    _ quote: Int,
    _ tried: inout (length: Int, fingerprint: UInt64)
  ) -> Int? {
    // Inside the text, so that the fingerprint's words can be read.
    guard quote + 1 + candidate.count < text.count else { return nil }
    if candidate.count != tried.length {
      tried = (candidate.count, fingerprint(base + quote + 1, count: candidate.count))
    }
    guard tried.fingerprint == candidate.fingerprint else { return nil }
    return stringEnd(spelling: candidate.string, in: text, at: quote)
  }

  /// The fingerprint of `count` (more than 15) bytes at `base`.
  private static func fingerprint(_ base: UnsafeRawPointer, count: Int) -> UInt64 {
    base.loadUnaligned(as: UInt64.self)
      ^ base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) &* 31
      ^ UInt64(count)
  }

  /// Whether the `kept.count` bytes at `base` are `kept`'s.
  private static func equal(_ kept: Kept, _ base: UnsafeRawPointer) -> Bool {
    let same = kept.string.utf8.withContiguousStorageIfAvailable { text in
      guard text.count == kept.count, let start = text.baseAddress else { return false }
      return memcmp(start, base, kept.count) == 0
    }
    return same == true
  }
}
