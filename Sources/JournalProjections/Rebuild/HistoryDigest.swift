import Foundation
import JournalCore

/// An order-sensitive digest of a history's event ids, whose value for any
/// prefix of the history can be had in time proportional to the shorter of
/// the prefix and the rest.
///
/// Each event contributes a 128-bit term computed from its id and its index;
/// the digest is the sum of the terms (modulo 2^64 in each of two lanes) and
/// the count. Appending adds a term; the digest of a prefix is the sum of its
/// terms, or the whole digest minus the terms after it. An event changed,
/// inserted or removed before the end of the prefix changes its digest (ids
/// and indexes both enter every term).
///
/// It detects accidental change, such as a late sync merging an event in
/// the middle. It is not a cryptographic commitment: the checkpoint it
/// protects is a cache in a folder whose writer could change the documents
/// directly anyway.
///
/// ```swift
/// var digest = HistoryDigest(journal.history)
/// let before = digest.prefix(10, of: journal.history)
/// ```
public struct HistoryDigest: Sendable, Hashable, CustomStringConvertible {
  /// How many events the digest covers.
  public private(set) var count = 0
  private var first: UInt64 = 0
  private var second: UInt64 = 0

  /// The digest of no events.
  public init() {}

  /// The digest of `events`' ids, in order.
  public init(_ events: some Sequence<FoldEvent>) {
    append(contentsOf: events)
  }

  /// The digest of `events`' ids, in order: a long history is summed in
  /// chunks on every core (the terms' sum does not depend on their order).
  ///
  /// - Complexity: O(events), computed once per opened journal.
  public init(_ events: [FoldEvent]) {
    let size = 1 << 16
    guard events.count > size else {
      append(contentsOf: events)
      return
    }
    let sums = Sums()
    DispatchQueue.concurrentPerform(iterations: (events.count + size - 1) / size) { chunk in
      var a: UInt64 = 0
      var b: UInt64 = 0
      for index in chunk * size..<min(events.count, chunk * size + size) {
        let (x, y) = Self.term(events[index].eventID, at: index)
        a &+= x
        b &+= y
      }
      sums.add(a, b)
    }
    (first, second) = sums.values
    count = events.count
  }

  /// The chunks' sums, added under a lock.
  private final class Sums: @unchecked Sendable {
    private let lock = NSLock()
    private var first: UInt64 = 0
    private var second: UInt64 = 0

    func add(_ a: UInt64, _ b: UInt64) {
      lock.withLock {
        first &+= a
        second &+= b
      }
    }

    var values: (UInt64, UInt64) { lock.withLock { (first, second) } }
  }

  /// Adds the next event's id.
  public mutating func append(_ id: String) {
    var text = id
    add(text.withUTF8 { Self.term($0, at: count) })
  }

  /// Adds the next event's id.
  public mutating func append(_ id: EventID) {
    add(Self.term(id, at: count))
  }

  private mutating func add(_ term: (UInt64, UInt64)) {
    let (a, b) = term
    first &+= a
    second &+= b
    count += 1
  }

  /// Adds the next events' ids.
  public mutating func append(contentsOf events: some Sequence<FoldEvent>) {
    for event in events { append(event.eventID) }
  }

  /// The digest of the first `length` events of `history`, the history this
  /// digest covers (when it is not, the prefix is hashed in full).
  ///
  /// - Complexity: O(min(length, count - length)).
  public func prefix(_ length: Int, of history: some RandomAccessCollection<FoldEvent>) -> Self {
    guard history.count == count, length > count - length else {
      return HistoryDigest(history.prefix(max(length, 0)))
    }
    var result = self
    var index = length
    for event in history.dropFirst(length) {
      let (a, b) = Self.term(event.eventID, at: index)
      result.first &-= a
      result.second &-= b
      index += 1
    }
    result.count = length
    return result
  }

  /// `count-first-second`, in hex for the lanes.
  public var description: String {
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
