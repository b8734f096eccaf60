internal import ProcessorHashing

/// CRC-32C (Castagnoli), the per-record checksum of the journal format.
///
/// Reflected polynomial `0x82F63B78`, initial value and final XOR `0xFFFFFFFF`, as in iSCSI
/// and ext4. `CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283`. Computed by the
/// processor's `crc32` instruction where it has one (`ProcessorHashing`), else table-driven,
/// eight bytes at a time ("slicing-by-8"). Both give the same bits.
package struct CRC32C: Sendable, Hashable {
  /// The checksum of the bytes fed so far.
  package private(set) var value: UInt32 = 0
  /// Whether to use the tables even where the processor has a CRC-32C instruction (the tests
  /// compare the two).
  private var portable = false

  /// Creates a checksum of no bytes.
  package init() {}

  /// Creates a checksum of no bytes that never uses the processor's CRC-32C instruction.
  init(portable: Bool) { self.portable = portable }

  /// Checksums are equal when their values are, however they were computed.
  package static func == (lhs: CRC32C, rhs: CRC32C) -> Bool { lhs.value == rhs.value }

  package func hash(into hasher: inout Hasher) { hasher.combine(value) }

  /// The checksum of `bytes`.
  package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc = CRC32C()
    crc.update(bytes)
    return crc.value
  }

  /// The checksum of the memory in `buffer`.
  package static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
    var crc = CRC32C()
    crc.update(buffer)
    return crc.value
  }

  /// Adds `bytes` to the checksum.
  package mutating func update(_ bytes: some Sequence<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
    if done == nil {
      let copy = Array(bytes)
      copy.withUnsafeBytes { update($0) }
    }
  }

  /// Adds the memory in `buffer` to the checksum.
  package mutating func update(_ buffer: UnsafeRawBufferPointer) {
    if !portable, let crc = ProcessorHashing.crc32c(~value, buffer) {
      value = ~crc
      return
    }
    var crc = ~value
    CRC32C.tables.withUnsafeBufferPointer { t in
      var index = 0
      let count = buffer.count
      while count - index >= 8 {
        let low =
          crc
          ^ (UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8
            | UInt32(buffer[index + 2]) << 16 | UInt32(buffer[index + 3]) << 24)
        let b4 = Int(buffer[index + 4])
        let b5 = Int(buffer[index + 5])
        let b6 = Int(buffer[index + 6])
        let b7 = Int(buffer[index + 7])
        crc =
          t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
          ^ t[3 * 256 + b4] ^ t[2 * 256 + b5] ^ t[1 * 256 + b6] ^ t[b7]
        index += 8
      }
      while index < count {
        crc = t[Int((crc ^ UInt32(buffer[index])) & 0xFF)] ^ (crc >> 8)
        index += 1
      }
    }
    value = ~crc
  }

  /// Eight 256-entry tables: table 0 is the byte-at-a-time table, table k advances k bytes.
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
      tables[byte] = crc
    }
    for byte in 0..<256 {
      for slice in 1..<8 {
        let previous = tables[(slice - 1) * 256 + byte]
        tables[slice * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
      }
    }
    return tables
  }()
}
