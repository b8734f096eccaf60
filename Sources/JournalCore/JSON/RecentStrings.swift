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

  /// The strings kept, each with a fingerprint of its bytes (its length, its first and last
  /// eight bytes), compared before the bytes are.
  private var kept = RecentRing<(fingerprint: UInt64, string: String)>(capacity: capacity)

  public init() {}

  /// The string whose UTF-8 is `bytes`, which must be valid UTF-8 with no escape to undo.
  public mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
    guard bytes.count > 15, let base = bytes.baseAddress else {
      return String(decoding: bytes, as: UTF8.self)
    }
    let fingerprint =
      base.loadUnaligned(as: UInt64.self)
      ^ base.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self) &* 31
      ^ UInt64(bytes.count)
    for index in kept.elements.indices where kept.elements[index].fingerprint == fingerprint {
      let same = kept.elements[index].string.utf8.withContiguousStorageIfAvailable { text in
        guard text.count == bytes.count, let start = text.baseAddress else { return false }
        return memcmp(start, base, bytes.count) == 0
      }
      if same == true { return kept.elements[index].string }
    }
    let string = String(decoding: bytes, as: UTF8.self)
    kept.keep((fingerprint, string))
    return string
  }
}
