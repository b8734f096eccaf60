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

  /// A fingerprint of each kept string's bytes (its length, its first and last eight
  /// bytes), compared before the bytes are.
  private var fingerprints: [UInt64] = []
  private var strings: [String] = []
  private var next = 0

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
    for index in fingerprints.indices where fingerprints[index] == fingerprint {
      let same = strings[index].utf8.withContiguousStorageIfAvailable { kept in
        guard kept.count == bytes.count, let start = kept.baseAddress else { return false }
        return memcmp(start, base, bytes.count) == 0
      }
      if same == true { return strings[index] }
    }
    let string = String(decoding: bytes, as: UTF8.self)
    if strings.count < Self.capacity {
      fingerprints.append(fingerprint)
      strings.append(string)
    } else {
      fingerprints[next] = fingerprint
      strings[next] = string
      next = (next + 1) % Self.capacity
    }
    return string
  }
}
