/// A set of event ids that only grows: for finding, among a great many ids, the few that
/// occur twice.
///
/// A `Dictionary` or `Set` of ULIDs hashes each id with SipHash; remembering every id of a
/// million-event history that way was about 40 % of merging it. Here both halves of an id
/// are mixed with MurmurHash3's finalizer and a seed drawn for each table (so no fixed
/// set of ids makes every probe collide), and slots are probed linearly in one flat array
/// sized from the expected count.
struct ULIDTable {
  /// The ids, at the slot their hash picks or after it; the zero id marks an empty slot.
  private var slots: [ULID]
  /// Whether the zero id itself was inserted (its slot would read as empty).
  private var holdsZero = false
  private let seed: UInt64
  /// How many ids it holds.
  private(set) var count = 0

  /// An empty table with room for about `expected` ids before it grows.
  init(expected: Int, seed: UInt64) {
    var capacity = 16
    while capacity < expected * 2 { capacity <<= 1 }
    slots = [ULID](repeating: ULID(high: 0, low: 0), count: capacity)
    self.seed = seed
  }

  /// An empty table with room for about `expected` ids, its seed drawn from the system's
  /// generator.
  init(expected: Int) {
    var random = SystemRandomNumberGenerator()
    self.init(expected: expected, seed: random.next())
  }

  /// A table holding `ids`, its seed drawn from the system's generator.
  init(_ ids: some Collection<ULID>) {
    self.init(expected: ids.count)
    for id in ids { _ = insert(id) }
  }

  /// The hash of `id` under `seed`; its low bits are free for the caller (``insert(_:)`` uses
  /// the high ones).
  static func hash(_ id: ULID, seed: UInt64) -> UInt64 {
    Murmur3.mix(id.low ^ seed ^ (id.high &* 0x9E37_79B9_7F4A_7C15))
  }

  /// Whether it holds no id.
  var isEmpty: Bool { count == 0 }

  /// Adds `id`; false when it was already there.
  mutating func insert(_ id: ULID) -> Bool {
    if id.high == 0, id.low == 0 {
      guard !holdsZero else { return false }
      holdsZero = true
      count += 1
      return true
    }
    if (count + 1) * 10 > slots.count * 7 { grow() }
    let inserted = slots.withUnsafeMutableBufferPointer { slots in
      Self.insert(id, into: slots, seed: seed)
    }
    if inserted { count += 1 }
    return inserted
  }

  /// Forgets every id, keeping the slots.
  mutating func removeAll() {
    guard count > 0 else { return }
    slots.withUnsafeMutableBufferPointer { $0.update(repeating: ULID(high: 0, low: 0)) }
    holdsZero = false
    count = 0
  }

  /// Whether `id` was inserted.
  func contains(_ id: ULID) -> Bool {
    if id.high == 0, id.low == 0 { return holdsZero }
    return slots.withUnsafeBufferPointer { Self.probe(id, in: $0, seed: seed).found }
  }

  private static func insert(
    _ id: ULID,
    into slots: UnsafeMutableBufferPointer<ULID>,
    seed: UInt64
  ) -> Bool {
    let (slot, found) = probe(id, in: UnsafeBufferPointer(slots), seed: seed)
    if !found { slots[slot] = id }
    return !found
  }

  /// The slot holding `id`, or the empty slot where it would go.
  private static func probe(
    _ id: ULID,
    in slots: UnsafeBufferPointer<ULID>,
    seed: UInt64
  ) -> (slot: Int, found: Bool) {
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash(id, seed: seed) >> 32) & mask
    while true {
      let held = slots[slot]
      if held.high == 0, held.low == 0 { return (slot, false) }
      if held == id { return (slot, true) }
      slot = (slot + 1) & mask
    }
  }

  /// Doubles the slots and puts every id back.
  private mutating func grow() {
    let old = slots
    slots = [ULID](repeating: ULID(high: 0, low: 0), count: old.count * 2)
    slots.withUnsafeMutableBufferPointer { slots in
      for id in old where id.high != 0 || id.low != 0 {
        _ = Self.insert(id, into: slots, seed: seed)
      }
    }
  }
}
