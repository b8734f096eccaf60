/// XXH64, the 64-bit xxHash of Yann Collet: a fast checksum with good dispersion, not a
/// cryptographic hash.
///
/// Used where bytes only need checking against accidental change — a torn, stale or
/// damaged cache file, a document edited since it was written — and SHA-256 would cost
/// dozens of times as much: the saved state's files and the ownership manifest
/// (`docs/Rebuild.md`). Written from the specification
/// (`xxhash_spec.md`, "XXH64 algorithm description"); test vectors come from the reference
/// implementation.
package enum XXH64 {
  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  /// The hash of `bytes` with `seed`.
  package static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
    bytes.withUnsafeBytes { hash($0, seed: seed) }
  }

  /// The hash of `buffer` with `seed`.
  package static func hash(_ buffer: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    let count = buffer.count
    var offset = 0
    var h: UInt64
    if count >= 32 {
      var v1 = seed &+ prime1 &+ prime2
      var v2 = seed &+ prime2
      var v3 = seed
      var v4 = seed &- prime1
      while offset + 32 <= count {
        v1 = round(v1, word(buffer, offset))
        v2 = round(v2, word(buffer, offset + 8))
        v3 = round(v3, word(buffer, offset + 16))
        v4 = round(v4, word(buffer, offset + 24))
        offset += 32
      }
      h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
      h = merge(h, v1)
      h = merge(h, v2)
      h = merge(h, v3)
      h = merge(h, v4)
    } else {
      h = seed &+ prime5
    }
    h &+= UInt64(count)
    while offset + 8 <= count {
      h ^= round(0, word(buffer, offset))
      h = rotl(h, 27) &* prime1 &+ prime4
      offset += 8
    }
    if offset + 4 <= count {
      let half = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
      h ^= UInt64(half) &* prime1
      h = rotl(h, 23) &* prime2 &+ prime3
      offset += 4
    }
    while offset < count {
      h ^= UInt64(buffer[offset]) &* prime5
      h = rotl(h, 11) &* prime1
      offset += 1
    }
    h ^= h >> 33
    h &*= prime2
    h ^= h >> 29
    h &*= prime3
    h ^= h >> 32
    return h
  }

  /// The hash of `bytes` as 16 lowercase hexadecimal digits.
  package static func hex(_ bytes: [UInt8]) -> String {
    let digits = String(hash(bytes), radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  @inline(__always)
  private static func word(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  @inline(__always)
  private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotl(accumulator &+ input &* prime2, 31) &* prime1
  }

  @inline(__always)
  private static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
    (accumulator ^ round(0, value)) &* prime1 &+ prime4
  }

  @inline(__always)
  private static func rotl(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &<< n) | (x &>> (64 &- n)) }
}
