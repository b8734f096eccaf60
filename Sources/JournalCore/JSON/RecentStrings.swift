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

  /// The kept string whose bytes start at `start` in `text` and are followed by a quote,
  /// with the quote's offset; nil when there is none.
  ///
  /// Found by its length, without scanning for the closing quote: a JSON string whose
  /// content is a kept string's bytes is that string (kept strings hold no quote, backslash
  /// or control character). The string handed out last is tried first.
  public mutating func string(
    in text: UnsafeRawBufferPointer,
    at start: Int
  ) -> (string: String, quote: Int)? {
    guard let base = text.baseAddress, kept.elements.indices.contains(lastFound) else {
      return nil
    }
    guard start >= 0 else { return nil }
    // The fingerprint of the bytes for the length last tried: kept strings mostly have one
    // length (log ids).
    var (length, fingerprint) = (-1, UInt64(0))
    func matches(_ candidate: Kept) -> Int? {
      let quote = start &+ candidate.count
      guard quote < text.count, text[quote] == UInt8(ascii: "\"") else { return nil }
      if candidate.count != length {
        length = candidate.count
        fingerprint = Self.fingerprint(base + start, count: length)
      }
      guard fingerprint == candidate.fingerprint, Self.equal(candidate, base + start) else {
        return nil
      }
      return quote
    }
    if let quote = matches(kept.elements[lastFound]) {
      return (kept.elements[lastFound].string, quote)
    }
    for index in kept.elements.indices where index != lastFound {
      if let quote = matches(kept.elements[index]) {
        lastFound = index
        return (kept.elements[index].string, quote)
      }
    }
    return nil
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
