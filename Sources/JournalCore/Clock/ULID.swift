/// A universally unique lexicographically sortable identifier.
///
/// 128 bits: a 48-bit Unix time in milliseconds followed by 80 bits of randomness, written as
/// 26 characters of Crockford base32 (`0-9A-Z` without `I L O U`), uppercase. The string order
/// is the time order, then the random order.
///
/// ```swift
/// let id = ULID("01ARZ3NDEKTSV4RRFFQ69G5FAV")
/// id?.milliseconds  // 1469922850259
/// ```
public struct ULID: Sendable, Hashable, Comparable, CustomStringConvertible,
  LosslessStringConvertible
{
  /// The time (48 bits) and the 16 high bits of the randomness.
  public let high: UInt64
  /// The 64 low bits of the randomness.
  public let low: UInt64

  /// Creates an identifier from its two 64-bit halves.
  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// Creates an identifier from a time and 80 bits of randomness.
  ///
  /// - Parameters:
  ///   - milliseconds: The Unix time in milliseconds; only the low 48 bits are kept.
  ///   - randomHigh: The 16 high bits of the randomness.
  ///   - randomLow: The 64 low bits of the randomness.
  public init(milliseconds: UInt64, randomHigh: UInt16, randomLow: UInt64) {
    high = (milliseconds & 0xFFFF_FFFF_FFFF) << 16 | UInt64(randomHigh)
    low = randomLow
  }

  /// Parses the canonical form.
  ///
  /// The canonical form is exactly 26 uppercase Crockford base32 characters whose first
  /// character is at most `7`. Returns nil for anything else.
  public init?(_ description: String) {
    var text = description
    guard let id = text.withUTF8({ ULID(utf8: UnsafeRawBufferPointer($0)) }) else { return nil }
    self = id
  }

  /// Parses the canonical form from ASCII bytes.
  public init?(utf8 description: UnsafeRawBufferPointer) {
    guard description.count == 26, let text = description.baseAddress else { return nil }
    // A byte outside the alphabet sets a bit above the five of a digit in `invalid`.
    var invalid: UInt8 = 0
    let (high, low) = ULID.decodeTable.withUnsafeBufferPointer { table in
      func digit(_ index: Int) -> UInt64 {
        let value = table[Int(text.load(fromByteOffset: index, as: UInt8.self))]
        invalid |= value
        return UInt64(value & 0x1F)
      }
      // Digit `i` holds bits `5 * (25 - i)` and up of the 128 (as ``writeText(into:)``
      // writes them): the first thirteen fall in `high`, the last twelve in `low`, and the
      // one between in both; no digit waits for the number to be shifted along.
      var high: UInt64 = 0
      for index in 0..<13 { high = high << 5 | digit(index) }
      let middle = digit(13)
      var low: UInt64 = 0
      for index in 14..<26 { low = low << 5 | digit(index) }
      return (high << 1 | middle >> 4, middle << 60 | low)
    }
    // The first digit carries the top three bits of 128: at most 7.
    guard invalid & ~0x1F == 0, description[0] <= UInt8(ascii: "7") else { return nil }
    self.init(high: high, low: low)
  }

  /// The Unix time in milliseconds.
  public var milliseconds: UInt64 { high >> 16 }

  public var description: String {
    String(unsafeUninitializedCapacity: 26) { characters in
      writeText(into: characters)
      return 26
    }
  }

  /// Appends the 26 characters of ``description`` to `output`, without making a string.
  func appendText(to output: inout [UInt8]) {
    output.appendBytes(count: 26) { writeText(into: $0) }
  }

  /// Writes the 26 characters of ``description`` into the first 26 bytes of `characters`,
  /// without making a string.
  ///
  /// Character `i` is bits `5 * (25 - i)` and up of the 128, written in pairs from a table:
  /// the last six pairs come from `low` alone, the first six from `high` alone, and the one
  /// between from both, so that no pair waits for the 128-bit number to be shifted along.
  public func writeText(into characters: UnsafeMutableBufferPointer<UInt8>) {
    precondition(characters.count >= 26, "a ULID takes 26 characters")
    guard let out = characters.baseAddress else { return }
    let (high, low) = (high, low)
    // Two characters at a time, from ten bits: characters 2j and 2j + 1 hold bits
    // 5 * (24 - 2j) and up; the pair at bit 60 takes four bits from `low` and six from
    // `high`, and the first pair's top bits are past the 128 (zero).
    ULID.pairs.withUnsafeBufferPointer { pairs in
      func write(_ bits: UInt64, at offset: Int) {
        let pair = pairs[Int(truncatingIfNeeded: bits) & 0x3FF]
        UnsafeMutableRawPointer(out).storeBytes(
          of: pair.littleEndian,
          toByteOffset: offset,
          as: UInt16.self
        )
      }
      write(high >> 56, at: 0)
      write(high >> 46, at: 2)
      write(high >> 36, at: 4)
      write(high >> 26, at: 6)
      write(high >> 16, at: 8)
      write(high >> 6, at: 10)
      write(low >> 60 | high << 4, at: 12)
      write(low >> 50, at: 14)
      write(low >> 40, at: 16)
      write(low >> 30, at: 18)
      write(low >> 20, at: 20)
      write(low >> 10, at: 22)
      write(low, at: 24)
    }
  }

  /// The two characters of each ten-bit value, the first in the low byte: ``writeText(into:)``
  /// writes a ULID thirteen pairs at a time rather than a character at a time.
  private static let pairs: [UInt16] = (0..<1024).map { value in
    UInt16(alphabet[value >> 5]) | UInt16(alphabet[value & 0x1F]) << 8
  }

  public static func < (lhs: ULID, rhs: ULID) -> Bool {
    (lhs.high, lhs.low) < (rhs.high, rhs.low)
  }

  /// The value (0…31) of the digit `byte` spells, nil when it is not one of the alphabet's.
  public static func digitValue(of byte: UInt8) -> UInt8? {
    let value = decodeTable[Int(byte)]
    return value == 0xFF ? nil : value
  }

  private static let alphabet: [UInt8] = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

  /// Each byte's digit value, 0xFF for bytes outside the alphabet.
  private static let decodeTable: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
    return table
  }()
}

/// Makes ``ULID``s that increase strictly, even within one millisecond.
///
/// The randomness comes from an injected generator, so a seeded generator gives the same
/// identifiers on every run. When asked for a time at or before the previous identifier's time
/// (several ids in one millisecond, or a clock that stepped back), the generator keeps the
/// previous time and adds one to the previous randomness.
public struct ULIDGenerator: Sendable {
  private var random: any RandomNumberGenerator & Sendable
  private var last: ULID?

  /// Creates a generator drawing randomness from `random`.
  public init(random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
    self.random = random
  }

  /// Returns an identifier greater than every one returned before.
  ///
  /// - Parameter milliseconds: The Unix time in milliseconds to stamp, usually "now".
  /// - Returns: A new identifier.
  public mutating func next(milliseconds: Int64) -> ULID {
    let time = UInt64(max(0, milliseconds))
    if let last, time <= last.milliseconds {
      let (low, carry) = last.low.addingReportingOverflow(1)
      let (high, _) = last.high.addingReportingOverflow(carry ? 1 : 0)
      let next = ULID(high: high, low: low)
      self.last = next
      return next
    }
    let next = ULID(
      milliseconds: time,
      randomHigh: UInt16(truncatingIfNeeded: random.next()),
      randomLow: random.next()
    )
    last = next
    return next
  }

  /// Makes every later identifier greater than `id`, such as the last one stored.
  public mutating func observe(_ id: ULID) {
    if let last, last >= id { return }
    last = id
  }
}
