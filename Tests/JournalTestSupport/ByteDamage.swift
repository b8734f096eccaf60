import JournalCore

extension Array where Element == UInt8 {
  /// Replaces, inserts or removes one byte at a place drawn from `random`, a new byte drawn
  /// from `alphabet`: the damage the decoders' seeded tests make to good input.
  package mutating func damageOneByte(from alphabet: [UInt8], using random: inout SplitMix64) {
    guard !isEmpty else { return }
    let place = Int(random.next() % UInt64(count))
    let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
    switch random.next() % 3 {
    case 0: self[place] = byte
    case 1: insert(byte, at: place)
    default: remove(at: place)
    }
  }
}
