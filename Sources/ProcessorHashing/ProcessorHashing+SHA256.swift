#if X86_HASHING_INSTRUCTIONS
internal import _Builtin_intrinsics.intel
#endif

extension ProcessorHashing {
  /// The eight words of a SHA-256 state, `a` to `h` (FIPS 180-4, 6.2).
  public typealias SHA256State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

  /// Runs the SHA-256 compression function on `count` whole 64-byte blocks at `blocks`,
  /// updating `state`, with the processor's SHA instructions.
  ///
  /// - Returns: `false`, leaving `state` as it was, when ``hasSHA256`` is false.
  @inline(never)
  public static func sha256Compress(
    _ state: inout SHA256State,
    blocks: UnsafeRawPointer,
    count: Int
  ) -> Bool {
    #if X86_HASHING_INSTRUCTIONS
    guard hasSHA256 else { return false }
    // `sha256rnds2` keeps the state as two vectors, ABEF and CDGH, the first-named word in the
    // highest lane; it runs two rounds with the two message-plus-constant words in the low
    // lanes of its third operand.
    var abef = Words(state.5, state.4, state.1, state.0)
    var cdgh = Words(state.7, state.6, state.3, state.2)
    // Message words are big-endian: reverse the bytes of each 32-bit lane.
    let bigEndian = vector(Words(0x0001_0203, 0x0405_0607, 0x0809_0a0b, 0x0c0d_0e0f))
    roundConstants.withUnsafeBytes { constants in
      for block in 0..<count {
        let start = blocks + block * 64
        let (startABEF, startCDGH) = (abef, cdgh)
        // The last four groups of four message words; group g is words 4g…4g+3.
        var (w0, w1, w2, w3) = (Words(), Words(), Words(), Words())
        for group in 0..<16 {
          let w: Words
          if group < 4 {
            let loaded = start.loadUnaligned(fromByteOffset: group * 16, as: Words.self)
            w = words(_mm_shuffle_epi8(vector(loaded), bigEndian))
          } else {
            // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], four at a time: msg1 adds
            // the σ0 terms to group g-4, the words t-7 straddle groups g-2 and g-1, msg2 adds
            // the σ1 terms (it needs the words just made for the last two).
            let partial = words(_mm_sha256msg1_epu32(vector(w0), vector(w1)))
            let sevenBack = Words(w2[1], w2[2], w2[3], w3[0])
            w = words(_mm_sha256msg2_epu32(vector(partial &+ sevenBack), vector(w3)))
          }
          (w0, w1, w2, w3) = (w1, w2, w3, w)
          let kw = w &+ constants.load(fromByteOffset: group * 16, as: Words.self)
          cdgh = words(_mm_sha256rnds2_epu32(vector(cdgh), vector(abef), vector(kw)))
          let high = Words(kw[2], kw[3], kw[2], kw[3])
          abef = words(_mm_sha256rnds2_epu32(vector(abef), vector(cdgh), vector(high)))
        }
        abef &+= startABEF
        cdgh &+= startCDGH
      }
    }
    state = (abef[3], abef[2], cdgh[3], cdgh[2], abef[1], abef[0], cdgh[1], cdgh[0])
    return true
    #else
    return false
    #endif
  }
}

#if X86_HASHING_INSTRUCTIONS
private typealias Words = SIMD4<UInt32>

@inline(__always)
private func vector(_ words: Words) -> __m128i { unsafeBitCast(words, to: __m128i.self) }

@inline(__always)
private func words(_ vector: __m128i) -> Words { unsafeBitCast(vector, to: Words.self) }

/// K[0…63] of FIPS 180-4, 4.2.2, four to a vector.
private let roundConstants: [Words] = [
  Words(0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5),
  Words(0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5),
  Words(0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3),
  Words(0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174),
  Words(0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc),
  Words(0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da),
  Words(0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7),
  Words(0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967),
  Words(0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13),
  Words(0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85),
  Words(0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3),
  Words(0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070),
  Words(0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5),
  Words(0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3),
  Words(0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208),
  Words(0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2),
]
#endif
