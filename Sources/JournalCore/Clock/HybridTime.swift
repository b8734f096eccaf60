/// A hybrid logical clock reading: milliseconds plus a logical counter.
///
/// Readings order by ``milliseconds``, then by ``counter``. Stored as the `ms` and `lc` keys
/// of a record.
public struct HybridTime: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The physical component: Unix time in milliseconds, never less than the writer's previous
  /// reading or any reading it has observed.
  public var milliseconds: Int64
  /// The logical component: orders readings that share ``milliseconds``.
  public var counter: UInt32

  /// Creates a reading.
  public init(milliseconds: Int64, counter: UInt32 = 0) {
    self.milliseconds = milliseconds
    self.counter = counter
  }

  /// The earliest reading, before every real one.
  public static let zero = HybridTime(milliseconds: 0)

  // Written out: the tuple comparison was a call of the standard library's generic
  // function for every comparison of the merge.
  @inlinable
  public static func < (lhs: HybridTime, rhs: HybridTime) -> Bool {
    lhs.milliseconds != rhs.milliseconds
      ? lhs.milliseconds < rhs.milliseconds : lhs.counter < rhs.counter
  }

  public var description: String { "\(milliseconds).\(counter)" }
}

/// A hybrid logical clock (Kulkarni et al., 2014): readings that follow the wall clock but
/// never go backwards.
///
/// Each ``tick(wall:notBefore:)`` returns a reading strictly greater than the previous one and
/// than any reading passed as `notBefore`, so a device's records keep their order when its
/// clock steps back, and a writer that has seen another device's events can sort after them.
///
/// ```swift
/// var clock = HybridLogicalClock()
/// clock.tick(wall: 1_000)  // 1000.0
/// clock.tick(wall: 900)    // 1000.1: the wall clock stepped back
/// clock.tick(wall: 1_200)  // 1200.0
/// ```
struct HybridLogicalClock: Sendable, Hashable {
  /// The last reading returned (or the starting point).
  private(set) var last: HybridTime

  /// Creates a clock whose readings will all be after `last`.
  init(last: HybridTime = .zero) { self.last = last }

  /// Returns the next reading.
  ///
  /// - Parameters:
  ///   - wall: The wall clock now, in Unix milliseconds.
  ///   - notBefore: A reading the result must follow, such as the latest event observed from
  ///     another device.
  /// - Returns: The wall time with counter 0 when the wall clock is ahead of everything seen;
  ///   otherwise the latest reading seen with its counter plus one.
  mutating func tick(wall: Int64, notBefore: HybridTime? = nil) -> HybridTime {
    let base = max(last, notBefore ?? .zero)
    let next: HybridTime
    if wall > base.milliseconds {
      next = HybridTime(milliseconds: wall)
    } else if base.counter == UInt32.max {
      next = HybridTime(milliseconds: base.milliseconds + 1)
    } else {
      next = HybridTime(milliseconds: base.milliseconds, counter: base.counter + 1)
    }
    last = next
    return next
  }

  /// Moves the clock to at least `time` without producing a reading.
  mutating func observe(_ time: HybridTime) {
    last = max(last, time)
  }
}
