#if X86_HASHING_INSTRUCTIONS
internal import _Builtin_intrinsics.intel
#endif

extension ProcessorHashing {
  /// Feeds `buffer` to a CRC-32C register with the processor's `crc32` instruction.
  ///
  /// `register` is the running value without the final inversion, as a table-driven
  /// implementation keeps it (`CRC32C` inverts before and after).
  ///
  /// - Returns: The new register, or nil when ``hasCRC32C`` is false.
  @inline(never)
  public static func crc32c(_ register: UInt32, _ buffer: UnsafeRawBufferPointer) -> UInt32? {
    #if X86_HASHING_INSTRUCTIONS
    guard hasCRC32C else { return nil }
    guard let base = buffer.baseAddress else { return register }
    func word(_ offset: Int) -> UInt64 {
      base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    var crc = UInt64(register)
    var index = 0
    let count = buffer.count
    // Four words a step, the indices without overflow checks (`index` never passes `count`),
    // so that the loop's own work does not outweigh the `crc32` it feeds.
    while count &- index >= 32 {
      crc = _mm_crc32_u64(crc, word(index))
      crc = _mm_crc32_u64(crc, word(index &+ 8))
      crc = _mm_crc32_u64(crc, word(index &+ 16))
      crc = _mm_crc32_u64(crc, word(index &+ 24))
      index &+= 32
    }
    while count &- index >= 8 {
      crc = _mm_crc32_u64(crc, word(index))
      index &+= 8
    }
    var narrow = UInt32(truncatingIfNeeded: crc)
    if count &- index >= 4 {
      narrow = _mm_crc32_u32(narrow, base.loadUnaligned(fromByteOffset: index, as: UInt32.self))
      index &+= 4
    }
    if count &- index >= 2 {
      narrow = _mm_crc32_u16(narrow, base.loadUnaligned(fromByteOffset: index, as: UInt16.self))
      index &+= 2
    }
    if index < count {
      narrow = _mm_crc32_u8(narrow, base.load(fromByteOffset: index, as: UInt8.self))
    }
    return narrow
    #else
    return nil
    #endif
  }
}
