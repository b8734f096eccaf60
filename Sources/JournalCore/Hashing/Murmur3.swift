/// MurmurHash3's 64-bit finalizer (`fmix64`): every bit of a word reaches every bit of the
/// result, in five cheap steps.
///
/// Not a hash of bytes: it spreads one word's bits, for the history digest's lanes.
package enum Murmur3 {
  /// `fmix64(value)`.
  @inlinable
  package static func mix(_ value: UInt64) -> UInt64 {
    var x = value
    x ^= x >> 33
    x &*= 0xFF51_AFD7_ED55_8CCD
    x ^= x >> 33
    x &*= 0xC4CE_B9FE_1A85_EC53
    x ^= x >> 33
    return x
  }
}
