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
    var crc = UInt64(register)
    var index = 0
    let count = buffer.count
    while count - index >= 8 {
      crc = _mm_crc32_u64(crc, base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      index += 8
    }
    var narrow = UInt32(truncatingIfNeeded: crc)
    while index < count {
      narrow = _mm_crc32_u8(narrow, base.load(fromByteOffset: index, as: UInt8.self))
      index += 1
    }
    return narrow
    #else
    return nil
    #endif
  }
}
