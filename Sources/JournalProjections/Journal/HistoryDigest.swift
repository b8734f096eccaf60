import Foundation
import JournalCore

/// An order-sensitive digest of a history's event ids: what a ``StreamedHistory`` checks
/// that its second read of the files gives the records its scan read.
///
/// Each event contributes a 128-bit term computed from its id and its index;
/// the digest is the sum of the terms (modulo 2^64 in each of two lanes) and
/// the count. An event changed, inserted, removed or moved changes it (ids and
/// indexes both enter every term). It detects accident, such as a segment a sync
/// service rewrote between the two reads; it is not a cryptographic commitment.
///
/// ```swift
/// var digest = HistoryDigest()
/// for event in history { digest.append(event.eventID) }
/// ```
struct HistoryDigest: Sendable, Hashable, CustomStringConvertible {
  /// How many events the digest covers.
  private(set) var count = 0
  private var first: UInt64 = 0
  private var second: UInt64 = 0

  /// The digest of no events.
  init() {}

  /// The digest of `events`' ids, in order.
  init(_ events: some Sequence<FoldEvent>) {
    append(contentsOf: events)
  }

  /// Adds the next event's id.
  mutating func append(_ id: String) {
    var text = id
    add(text.withUTF8 { Self.term($0, at: count) })
  }

  /// Adds the next event's id.
  mutating func append(_ id: EventID) {
    add(Self.term(id, at: count))
  }

  private mutating func add(_ term: (UInt64, UInt64)) {
    let (a, b) = term
    first &+= a
    second &+= b
    count += 1
  }

  /// Adds the next events' ids.
  mutating func append(contentsOf events: some Sequence<FoldEvent>) {
    for event in events { append(event.eventID) }
  }

  /// `count-first-second`, in hex for the lanes.
  var description: String {
    "\(count)-\(Self.hex(first))-\(Self.hex(second))"
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The term of `id` at `index`: that of its text, written on the stack when the id is held
  /// as a value.
  private static func term(_ id: EventID, at index: Int) -> (UInt64, UInt64) {
    id.withText { term($0, at: index) }
  }

  /// The term of the id whose text is `text` at `index`: two FNV-style passes over its bytes
  /// with different seeds and multipliers, each finished by MurmurHash3's mixer.
  private static func term(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt64, UInt64) {
    let a = 0xcbf2_9ce4_8422_2325 ^ Murmur3.mix(UInt64(truncatingIfNeeded: index))
    let b =
      0x6c62_272e_07bb_0142
      ^ Murmur3.mix(UInt64(truncatingIfNeeded: index) &+ 0x9e37_79b9_7f4a_7c15)
    let (x, y) = passes(text, a, b)
    return (Murmur3.mix(x ^ UInt64(text.count)), Murmur3.mix(y &+ UInt64(text.count)))
  }

  /// The two FNV-style passes over `bytes`, from seeds `a` and `b`.
  private static func passes(
    _ bytes: UnsafeBufferPointer<UInt8>,
    _ a: UInt64,
    _ b: UInt64
  ) -> (UInt64, UInt64) {
    var (a, b) = (a, b)
    for byte in bytes {
      a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      b = (b ^ UInt64(byte)) &* 0xff51_afd7_ed55_8ccd
    }
    return (a, b)
  }
}
