internal import ProcessorHashing

/// SHA-256 (FIPS 180-4), written out because Linux has no system crypto module for Swift.
///
/// Feed bytes with ``update(_:)`` and call ``finalize()``, or hash a buffer in one call with
/// ``hash(_:)``. The hasher allocates once, for its partial-block buffer; whole blocks are
/// compressed straight from the caller's memory: by the processor's SHA instructions where it
/// has them (`ProcessorHashing`), else by the portable rounds below. Both give the same bits.
///
/// ```swift
/// let digest = SHA256.hash(Array("abc".utf8))
/// digest.hexString  // "ba7816bf…"
/// ```
package struct SHA256: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
    0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  private var pending: [UInt8] = []
  private var length: UInt64 = 0
  /// Whether to compress with the portable rounds even where the processor has SHA
  /// instructions (the tests compare the two).
  private var portable = false

  /// Creates a hasher with no input.
  package init() {}

  /// Creates a hasher with no input that never uses the processor's SHA instructions.
  init(portable: Bool) { self.portable = portable }

  /// Hashes `bytes` in one call.
  package static func hash(_ bytes: some Sequence<UInt8>) -> SHA256Digest {
    if let digest = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) {
      return digest
    }
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Hashes the memory in `buffer` in one call, without allocating.
  package static func hash(_ buffer: UnsafeRawBufferPointer) -> SHA256Digest {
    hash(buffer, portable: false)
  }

  /// Hashes `buffer` in one call, with the portable rounds when `portable` is true.
  static func hash(_ buffer: UnsafeRawBufferPointer, portable: Bool) -> SHA256Digest {
    var hasher = SHA256(portable: portable)
    let whole = buffer.count / 64
    if whole > 0 { hasher.compress(buffer, blocks: whole) }
    let rest = buffer.count - whole * 64
    let bitLength = UInt64(buffer.count) &* 8
    // The remaining bytes, 0x80, zeros and the 64-bit length fill one or two blocks.
    return withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
      let blocks = rest < 56 ? 1 : 2
      tail.initializeMemory(as: UInt8.self, repeating: 0)
      for index in 0..<rest { tail[index] = buffer[whole * 64 + index] }
      tail[rest] = 0x80
      for index in 0..<8 {
        tail[blocks * 64 - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(index * 8))
      }
      hasher.compress(UnsafeRawBufferPointer(rebasing: tail[0..<blocks * 64]), blocks: blocks)
      let s = hasher.state
      return SHA256Digest(words: (s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7))
    }
  }

  /// Adds `bytes` to the message.
  package mutating func update(_ bytes: some Sequence<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
    if done == nil {
      let copy = Array(bytes)
      copy.withUnsafeBytes { update($0) }
    }
  }

  /// Adds the memory in `buffer` to the message.
  package mutating func update(_ buffer: UnsafeRawBufferPointer) {
    guard !buffer.isEmpty else { return }
    length &+= UInt64(buffer.count)
    var offset = 0
    if !pending.isEmpty {
      let take = min(64 - pending.count, buffer.count)
      pending.append(contentsOf: buffer[0..<take])
      offset = take
      guard pending.count == 64 else { return }
      let block = pending
      block.withUnsafeBytes { compress($0, blocks: 1) }
      pending.removeAll(keepingCapacity: true)
    }
    let whole = (buffer.count - offset) / 64
    if whole > 0 {
      compress(
        UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + whole * 64]),
        blocks: whole
      )
      offset += whole * 64
    }
    if offset < buffer.count {
      pending.append(contentsOf: buffer[offset...])
    }
  }

  /// Pads the message and returns its digest.
  ///
  /// The hasher must not be used afterwards.
  package mutating func finalize() -> SHA256Digest {
    let bitLength = length &* 8
    var tail = pending
    tail.append(0x80)
    while tail.count % 64 != 56 { tail.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    tail.withUnsafeBytes { compress($0, blocks: $0.count / 64) }
    pending.removeAll()
    let s = state
    return SHA256Digest(words: (s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7))
  }

  // MARK: - Compression

  private mutating func compress(_ data: UnsafeRawBufferPointer, blocks: Int) {
    if !portable, let base = data.baseAddress,
      ProcessorHashing.sha256Compress(&state, blocks: base, count: blocks)
    {
      return
    }
    compressPortably(data, blocks: blocks)
  }

  private mutating func compressPortably(_ data: UnsafeRawBufferPointer, blocks: Int) {
    var (h0, h1, h2, h3, h4, h5, h6, h7) = state
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
      SHA256.roundConstants.withUnsafeBufferPointer { k in
        for block in 0..<blocks {
          let base = block * 64
          for i in 0..<16 {
            let word = data.loadUnaligned(fromByteOffset: base + i * 4, as: UInt32.self)
            w[i] = UInt32(bigEndian: word)
          }
          for i in 16..<64 {
            let x = w[i - 15]
            let y = w[i - 2]
            // σ0 = ROTR7 ^ ROTR18 ^ SHR3, σ1 = ROTR17 ^ ROTR19 ^ SHR10, rotations nested.
            let s0 = rotr(x ^ rotr(x, 11), 7) ^ (x >> 3)
            let s1 = rotr(y ^ rotr(y, 2), 17) ^ (y >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
          }
          var a = h0
          var b = h1
          var c = h2
          var d = h3
          var e = h4
          var f = h5
          var g = h6
          var h = h7
          // Eight rounds at a time, the registers' roles rotating instead of their values
          // moving from one variable to the next.
          var i = 0
          while i < 64 {
            round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
            round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
            round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
            round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
            round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
            round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
            round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
            round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
            i += 8
          }
          h0 &+= a
          h1 &+= b
          h2 &+= c
          h3 &+= d
          h4 &+= e
          h5 &+= f
          h6 &+= g
          h7 &+= h
        }
      }
    }
    state = (h0, h1, h2, h3, h4, h5, h6, h7)
  }

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]
}

@inline(__always)
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

/// One SHA-256 round on the working variables named in their order for this round:
/// `d` gains T1 and `h` becomes T1 + T2 (FIPS 180-4, 6.2.2), `kw` being K[t] + W[t].
@inline(__always)
private func round(
  _ a: UInt32,
  _ b: UInt32,
  _ c: UInt32,
  _ d: inout UInt32,
  _ e: UInt32,
  _ f: UInt32,
  _ g: UInt32,
  _ h: inout UInt32,
  _ kw: UInt32
) {
  // Σ1(e) = ROTR6(e) ^ ROTR11(e) ^ ROTR25(e) and Σ0(a) = ROTR2(a) ^ ROTR13(a) ^ ROTR22(a),
  // each written with nested rotations so that no copy of `e` or `a` is kept.
  let sigma1 = rotr(e ^ rotr(e ^ rotr(e, 14), 5), 6)
  let sigma0 = rotr(a ^ rotr(a ^ rotr(a, 9), 11), 2)
  let t1 = h &+ sigma1 &+ (g ^ (e & (f ^ g))) &+ kw
  let t2 = sigma0 &+ ((a & b) | (c & (a | b)))
  d &+= t1
  h = t1 &+ t2
}

/// A 32-byte SHA-256 digest, written as 64 lowercase hexadecimal digits.
package struct SHA256Digest: Sendable, Hashable, CustomStringConvertible {
  private var w0, w1, w2, w3, w4, w5, w6, w7: UInt32

  /// The digest of nothing but zeros: the `prev` of a device's first record.
  package static let zero = SHA256Digest(words: (0, 0, 0, 0, 0, 0, 0, 0))

  init(words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)) {
    (w0, w1, w2, w3, w4, w5, w6, w7) = words
  }

  /// Parses 64 lowercase hexadecimal digits; nil for anything else.
  package init?(hexString: some StringProtocol) {
    var text = String(hexString)
    guard let digest = text.withUTF8({ SHA256Digest(hexUTF8: UnsafeRawBufferPointer($0)) }) else {
      return nil
    }
    self = digest
  }

  /// Parses 64 lowercase hexadecimal digits from ASCII bytes.
  init?(hexUTF8 bytes: UnsafeRawBufferPointer) {
    // The eight words one after another, each read inline: no loop over a tuple.
    guard bytes.count == 64,
      let w0 = hexWord(bytes, at: 0), let w1 = hexWord(bytes, at: 8),
      let w2 = hexWord(bytes, at: 16), let w3 = hexWord(bytes, at: 24),
      let w4 = hexWord(bytes, at: 32), let w5 = hexWord(bytes, at: 40),
      let w6 = hexWord(bytes, at: 48), let w7 = hexWord(bytes, at: 56)
    else { return nil }
    self.init(words: (w0, w1, w2, w3, w4, w5, w6, w7))
  }

  /// The 32 bytes of the digest, most significant first.
  package var bytes: [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(32)
    for word in [w0, w1, w2, w3, w4, w5, w6, w7] {
      result.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) })
    }
    return result
  }

  /// The 64 lowercase hexadecimal digits of the digest.
  package var hexString: String { String(decoding: hexBytes, as: UTF8.self) }

  package var description: String { hexString }

  /// The ASCII bytes of ``hexString``.
  var hexBytes: [UInt8] {
    [UInt8](unsafeUninitializedCapacity: 64) { buffer, initialized in
      writeHex(into: buffer)
      initialized = 64
    }
  }

  /// Appends the 64 bytes of ``hexBytes`` to `output`, without an array of their own.
  func appendHex(to output: inout [UInt8]) {
    output.appendBytes(count: 64) { writeHex(into: $0) }
  }

  /// Writes the 64 hex digits into the first 64 bytes of `buffer`.
  private func writeHex(into buffer: UnsafeMutableBufferPointer<UInt8>) {
    let raw = UnsafeMutableRawBufferPointer(buffer)
    raw.storeBytes(of: hexDigitsOf(w0), toByteOffset: 0, as: UInt64.self)
    raw.storeBytes(of: hexDigitsOf(w1), toByteOffset: 8, as: UInt64.self)
    raw.storeBytes(of: hexDigitsOf(w2), toByteOffset: 16, as: UInt64.self)
    raw.storeBytes(of: hexDigitsOf(w3), toByteOffset: 24, as: UInt64.self)
    raw.storeBytes(of: hexDigitsOf(w4), toByteOffset: 32, as: UInt64.self)
    raw.storeBytes(of: hexDigitsOf(w5), toByteOffset: 40, as: UInt64.self)
    raw.storeBytes(of: hexDigitsOf(w6), toByteOffset: 48, as: UInt64.self)
    raw.storeBytes(of: hexDigitsOf(w7), toByteOffset: 56, as: UInt64.self)
  }
}

/// Appends the eight lowercase hex digits of `word`, most significant first.
func appendHex(_ word: UInt32, to output: inout [UInt8]) {
  output.appendBytes(count: 8) {
    UnsafeMutableRawBufferPointer($0).storeBytes(of: hexDigitsOf(word), as: UInt64.self)
  }
}

/// The eight lowercase hex digits of `word`, most significant first, as the bytes of a word
/// to store as it is in memory.
///
/// Each nibble is spread into a byte of its own, then turned into ASCII without a branch or a
/// table: `'0' + n`, plus 39 more (`'a' - '0' - 10`) where `n + 6` reaches 16.
@inline(__always)
private func hexDigitsOf(_ word: UInt32) -> UInt64 {
  var x = UInt64(word)
  x = ((x & 0xFFFF_0000) << 16) | (x & 0xFFFF)
  x = ((x & 0x0000_FF00_0000_FF00) << 8) | (x & 0x0000_00FF_0000_00FF)
  x = ((x & 0x00F0_00F0_00F0_00F0) << 4) | (x & 0x000F_000F_000F_000F)
  let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
  let ascii = x &+ 0x3030_3030_3030_3030 &+ letters &* 39
  // The first digit is in the top byte: memory order puts it first on a big-endian machine.
  return ascii.bigEndian
}

/// The lowercase hexadecimal digits, as ASCII bytes.
let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

/// The eight lowercase hex digits at `offset` in `bytes` as a number (the first digit most
/// significant), or nil when any of them is not a lowercase hex digit.
///
/// All eight at once in a word: every byte below 0x80 lets `byte + (0x80 - k)` stay within
/// its byte, so its top bit says exactly whether `byte >= k`.
@inline(__always)
func hexWord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32? {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let tops: UInt64 = 0x8080_8080_8080_8080
  let v = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  guard v & tops == 0 else { return nil }
  func atLeast(_ k: UInt64) -> UInt64 { (v &+ (0x80 &- k) &* ones) & tops }
  let digits = atLeast(0x30) & ~atLeast(0x3A)
  let letters = atLeast(0x61) & ~atLeast(0x67)
  guard digits | letters == tops else { return nil }
  // '0'…'9' are 0x30…0x39 and 'a'…'f' are 0x61…0x66: the low nibble, plus 9 for a letter.
  let nibbles = (v & 0x0F0F_0F0F_0F0F_0F0F) &+ (letters >> 7) &* 9
  // The first digit is the lowest byte: swap, then pack the nibbles pairwise.
  var x = nibbles.byteSwapped
  x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF
  x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF
  x = (x | x >> 16) & 0x0000_0000_FFFF_FFFF
  return UInt32(truncatingIfNeeded: x)
}
