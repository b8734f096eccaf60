#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Encoding

/// The bytes every record line ends with before its checksum digits: `,"crc":"`.
let checksumPrefix: [UInt8] = Array(#","crc":""#.utf8)
/// The length of a line's checksum suffix `,"crc":"xxxxxxxx"}`.
let checksumSuffixLength = 18

/// The length of `,"prev":"<64 hex digits>"`, which comes before the checksum suffix.
let previousHashMemberLength = 74

/// A record line being written: its bytes (with the newline) and the decoded record.
struct EncodedRecord {
  var line: [UInt8]
  var record: EventRecord
}

extension EventRecord {
  /// Encodes a record line in the canonical key order, with its checksum and newline.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidValue`` when the payload
  ///   holds a number JSON cannot represent.
  static func encode(
    id: ULID,
    device: String,
    sequence: UInt64,
    time: HybridTime,
    event: NewEvent,
    previousHash: SHA256Digest,
    location: RecordLocation
  ) throws(JournalError) -> EncodedRecord {
    var line: [UInt8] = []
    let record = try encode(
      id: id,
      device: device,
      sequence: sequence,
      time: time,
      event: event,
      previousHash: previousHash,
      location: location,
      appendingTo: &line
    )
    return EncodedRecord(line: line, record: record)
  }

  /// Encodes a record line, appending it (newline included) to `line`.
  ///
  /// A batch is encoded into one buffer. On failure `line` may hold part of the record.
  /// `merging` lists the heads of a device's branches the record merges (a heal, see
  /// ``Fork``): written as the `merge` member, between `data` and `prev`.
  static func encode(
    id: ULID,
    device: String,
    sequence: UInt64,
    time: HybridTime,
    event: NewEvent,
    previousHash: SHA256Digest,
    location: RecordLocation,
    merging: [SHA256Digest] = [],
    appendingTo line: inout [UInt8]
  ) throws(JournalError) -> EventRecord {
    let start = line.count
    // Room for the envelope (about 240 bytes with a typical stream) and a typical payload;
    // a batch's buffer doubles, as appending would grow it.
    if line.capacity < start + 448 { line.reserveCapacity(max(start + 448, 2 * line.capacity)) }
    line.appendASCII(#"{"id":""#)
    id.appendText(to: &line)
    line.appendASCII(#"","dev":"#)
    appendJSONString(device, to: &line)
    line.appendASCII(#","seq":"#)
    appendDecimal(sequence, to: &line)
    line.appendASCII(#","ms":"#)
    appendDecimal(time.milliseconds, to: &line)
    line.appendASCII(#","lc":"#)
    appendDecimal(time.counter, to: &line)
    line.appendASCII(#","stream":"#)
    appendJSONString(event.stream, to: &line)
    line.appendASCII(#","type":"#)
    appendJSONString(event.type, to: &line)
    line.appendASCII(#","v":"#)
    appendDecimal(event.version, to: &line)
    line.appendASCII(#","data":"#)
    try event.payload.serialize(into: &line)
    if !merging.isEmpty {
      line.appendASCII(#","merge":["#)
      for (index, head) in merging.enumerated() {
        line.appendASCII(index == 0 ? "\"" : ",\"")
        head.appendHex(to: &line)
        line.append(UInt8(ascii: "\""))
      }
      line.append(UInt8(ascii: "]"))
    }
    line.appendASCII(#","prev":""#)
    previousHash.appendHex(to: &line)
    line.append(UInt8(ascii: "\""))
    let crc = line.withUnsafeBytes {
      CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[start...]))
    }
    line.append(contentsOf: checksumPrefix)
    appendHex(crc, to: &line)
    line.appendASCII(#""}"#)
    let hash = line.withUnsafeBytes { SHA256.hash(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    line.append(UInt8(ascii: "\n"))
    return EventRecord(
      id: id,
      device: device,
      sequence: sequence,
      time: time,
      stream: event.stream,
      type: event.type,
      version: event.version,
      payload: event.payload,
      previousHash: previousHash,
      hash: hash,
      location: location
    )
  }
}

// MARK: - Decoding

/// The bytes that start a record's `prev` member as the writer spells it.
let previousHashPrefix: [UInt8] = Array(#","prev":""#.utf8)

/// The bytes that start a record's `merge` member as the writer spells it.
let mergeMemberPrefix: [UInt8] = Array(#""merge":"#.utf8)

extension EventRecord {
  /// The branch heads a record line names in its `merge` member (a heal, see ``Fork``).
  ///
  /// Nil when it has none, a failure when the member is not an array of 64-hex-digit
  /// hashes. The line's checksum must have been checked.
  static func mergedHeads(
    line: UnsafeRawBufferPointer
  ) -> Result<[SHA256Digest], RecordFailure>? {
    // Nearly every line has none. A line spelled as the writer spells it has `merge` just
    // before `,"prev":"…"`, or ends its `data` object there: then nothing is looked for.
    let prev = line.count - checksumSuffixLength - previousHashMemberLength
    if prev > 0, line[prev - 1] == UInt8(ascii: "}"),
      previousHashPrefix.indices.allSatisfy({ line[prev + $0] == previousHashPrefix[$0] })
    {
      return nil
    }
    guard contains(line, mergeMemberPrefix) else { return nil }
    guard case .object(let members)? = try? JSONValue.parse(line) else {
      return .failure(RecordFailure(cause: "malformed JSON"))
    }
    guard let member = members["merge"] else { return nil }
    guard case .array(let values) = member, !values.isEmpty else {
      return .failure(RecordFailure(cause: "'merge' is not a list of record hashes"))
    }
    var heads: [SHA256Digest] = []
    for value in values {
      guard let text = value.stringValue, let head = SHA256Digest(hexString: text) else {
        return .failure(RecordFailure(cause: "'merge' is not a list of record hashes"))
      }
      heads.append(head)
    }
    return .success(heads)
  }

  /// Whether `bytes` holds `needle` somewhere.
  private static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, bytes.count >= needle.count, let base = bytes.baseAddress
    else { return false }
    var start = 0
    while start + needle.count <= bytes.count {
      guard let found = memchr(base + start, Int32(first), bytes.count - needle.count + 1 - start)
      else { return false }
      let offset = base.distance(to: UnsafeRawPointer(found))
      if needle.indices.allSatisfy({ bytes[offset + $0] == needle[$0] }) { return true }
      start = offset + 1
    }
    return false
  }
}

/// Why a stored line could not be used.
struct RecordFailure: Error, Equatable {
  var cause: String
}

extension EventRecord {
  /// Decodes one line (without its newline): checks the checksum, then the envelope.
  ///
  /// Keys may come in any order and unknown keys are ignored; only the checksum must be the
  /// last 18 bytes. A line longer than ``Segment/maximumLineLength`` is refused unread.
  /// The line's SHA-256 (``EventRecord/hash``) is computed only when `hashing`.
  static func decode(
    line: UnsafeRawBufferPointer,
    location: RecordLocation,
    hashing: Bool = false
  ) throws(RecordFailure) -> EventRecord {
    var strings = RecordStrings()
    return try decode(line: line, location: location, hashing: hashing, strings: &strings)
  }

  /// Decodes one line, reusing the strings of earlier records in `strings`.
  static func decode(
    line: UnsafeRawBufferPointer,
    location: RecordLocation,
    hashing: Bool = false,
    strings: inout RecordStrings
  ) throws(RecordFailure) -> EventRecord {
    guard !line.isEmpty else { throw RecordFailure(cause: "empty line") }
    guard line.count <= Segment.maximumLineLength else {
      throw RecordFailure(
        cause: "line of \(line.count) bytes is longer than a record may be "
          + "(\(Segment.maximumLineLength) bytes); not decoded"
      )
    }
    try verifyChecksum(line)
    var parser = JSONParser(line, keyRanges: strings.takeKeyRanges())
    defer { strings.keyRanges = parser.keyRanges }
    var record: EventRecord
    do {
      record = try decodeEnvelope(&parser, line: line, location: location, strings: &strings)
    } catch let failure as JSONParser.Failure {
      throw RecordFailure(cause: "malformed JSON at byte \(failure.offset): \(failure.reason)")
    } catch let failure as RecordFailure {
      throw failure
    } catch {
      throw RecordFailure(cause: "\(error)")
    }
    if hashing { record.hash = SHA256.hash(line) }
    return record
  }

  /// Checks the `,"crc":"xxxxxxxx"}` suffix against the CRC32C of the bytes before it.
  static func verifyChecksum(_ line: UnsafeRawBufferPointer) throws(RecordFailure) {
    let count = line.count
    guard count > checksumSuffixLength else { throw RecordFailure(cause: "missing checksum") }
    let suffixStart = count - checksumSuffixLength
    for (offset, byte) in checksumPrefix.enumerated() where line[suffixStart + offset] != byte {
      throw RecordFailure(cause: "missing checksum")
    }
    guard line[count - 2] == UInt8(ascii: "\""), line[count - 1] == UInt8(ascii: "}") else {
      throw RecordFailure(cause: "missing checksum")
    }
    guard let stored = hexWord(line, at: suffixStart + checksumPrefix.count) else {
      throw RecordFailure(cause: "malformed checksum")
    }
    let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: line[0..<suffixStart]))
    guard stored == computed else {
      throw RecordFailure(
        cause: "checksum mismatch (stored \(hex8(stored)), computed \(hex8(computed)))"
      )
    }
  }

  private static func decodeEnvelope(
    _ parser: inout JSONParser,
    line: UnsafeRawBufferPointer,
    location: RecordLocation,
    strings: inout RecordStrings
  ) throws -> EventRecord {
    var id: ULID?
    var device: String?
    var sequence: UInt64?
    var milliseconds: Int64?
    var counter: UInt32?
    var stream: String?
    var type: String?
    var version: Int?
    var payload: JSONPayload?
    var previousHash: SHA256Digest?
    var seenKeys: UInt16 = 0
    var otherKeys: Set<String> = []

    try parser.expect(UInt8(ascii: "{"))
    var done = false
    while !done {
      parser.skipWhitespace()
      guard parser.peek() == UInt8(ascii: "\"") else {
        throw parser.fail("expected a string key, found \(parser.describeByte())")
      }
      // Envelope keys are matched on their bytes, without making strings.
      let key: EnvelopeKey?
      if let range = parser.parsePlainString() {
        let bytes = UnsafeRawBufferPointer(rebasing: line[range])
        key = EnvelopeKey(bytes)
        if key == nil, !otherKeys.insert(String(decoding: bytes, as: UTF8.self)).inserted {
          throw RecordFailure(cause: "duplicate key '\(String(decoding: bytes, as: UTF8.self))'")
        }
      } else {
        let text = try parser.parseString()
        var copy = text
        key = copy.withUTF8 { EnvelopeKey(UnsafeRawBufferPointer($0)) }
        if key == nil, !otherKeys.insert(text).inserted {
          throw RecordFailure(cause: "duplicate key '\(text)'")
        }
      }
      if let key {
        let bit: UInt16 = 1 << key.rawValue
        guard seenKeys & bit == 0 else { throw RecordFailure(cause: "duplicate key '\(key)'") }
        seenKeys |= bit
      }
      parser.skipWhitespace()
      try parser.expect(UInt8(ascii: ":"))
      parser.skipWhitespace()
      switch key {
      case .id:
        // Read straight from the bytes when plain; an escaped string is read as text.
        let parsed =
          if let range = parser.parsePlainString() {
            ULID(utf8: UnsafeRawBufferPointer(rebasing: line[range]))
          } else {
            try parser.parseValue().stringValue.flatMap { ULID($0) }
          }
        guard let parsed else { throw RecordFailure(cause: "'id' is not a ULID") }
        id = parsed
      case .prev:
        let digest =
          if let range = parser.parsePlainString() {
            SHA256Digest(hexUTF8: UnsafeRawBufferPointer(rebasing: line[range]))
          } else {
            try parser.parseValue().stringValue.flatMap { SHA256Digest(hexString: $0) }
          }
        guard let digest else {
          throw RecordFailure(cause: "'prev' is not 64 lowercase hex digits")
        }
        previousHash = digest
      case .dev:
        // Checked once per name: the next record usually repeats it (and shares its storage).
        guard let text = try parseText(&parser, line: line, cache: &strings.device),
          text == strings.checkedDevice || EventLog.isValidDeviceName(text)
        else { throw RecordFailure(cause: "'dev' is not a device name") }
        strings.checkedDevice = text
        device = text
      case .stream:
        guard let text = try parseText(&parser, line: line, cache: &strings.stream), !text.isEmpty
        else { throw RecordFailure(cause: "'stream' is not a non-empty string") }
        stream = text
      case .type:
        guard let text = try parseText(&parser, line: line, cache: &strings.type), !text.isEmpty
        else { throw RecordFailure(cause: "'type' is not a non-empty string") }
        type = text
      case .seq:
        guard case .int(let number) = try parseInteger(&parser), number >= 1 else {
          throw RecordFailure(cause: "'seq' is not a positive integer")
        }
        sequence = UInt64(number)
      case .ms:
        guard case .int(let number) = try parseInteger(&parser) else {
          throw RecordFailure(cause: "'ms' is not an integer")
        }
        milliseconds = number
      case .lc:
        guard case .int(let number) = try parseInteger(&parser),
          let fitting = UInt32(exactly: number)
        else { throw RecordFailure(cause: "'lc' is not a 32-bit unsigned integer") }
        counter = fitting
      case .v:
        guard case .int(let number) = try parseInteger(&parser), number >= 1,
          let fitting = Int(exactly: number)
        else { throw RecordFailure(cause: "'v' is not a positive integer") }
        version = fitting
      case .data:
        // Checked now, kept as bytes: the payload is parsed when something reads it.
        let start = parser.index
        try parser.skipValue()
        guard line[start] == UInt8(ascii: "{") else {
          throw RecordFailure(cause: "'data' is not an object")
        }
        payload = strings.payload(line, start..<parser.index)
      case .crc, nil:
        // "crc" was checked on the raw bytes; unknown keys are for future versions.
        try parser.skipValue()
      }
      parser.skipWhitespace()
      try endMember(&parser, done: &done)
    }
    guard parser.index == line.count else {
      throw parser.fail("unexpected \(parser.describeByte()) after the record")
    }
    guard let id, let device, let sequence, let milliseconds, let counter, let stream, let type,
      let version, let payload, let previousHash
    else {
      let required = ["id", "dev", "seq", "ms", "lc", "stream", "type", "v", "data", "prev"]
      let missing = required.filter { key in
        envelopeKeys.firstIndex(of: key).map { seenKeys & (1 << $0) == 0 } ?? true
      }
      throw RecordFailure(cause: "missing key '\(missing.first ?? "?")'")
    }
    return EventRecord(
      id: id,
      device: device,
      sequence: sequence,
      time: HybridTime(milliseconds: milliseconds, counter: counter),
      stream: stream,
      type: type,
      version: version,
      storedPayload: payload,
      previousHash: previousHash,
      hash: nil,
      location: location
    )
  }
}

/// An envelope number: a plain integer read directly, anything else as the parser reads it.
private func parseInteger(_ parser: inout JSONParser) throws(JSONParser.Failure) -> JSONValue {
  if let number = parser.parsePlainInteger() { return .int(number) }
  return try parser.parseValue()
}

/// Moves past the `,` or `}` after an object member; sets `done` at the `}`.
private func endMember(_ parser: inout JSONParser, done: inout Bool) throws {
  switch parser.peek() {
  case UInt8(ascii: ","): parser.index += 1
  case UInt8(ascii: "}"):
    parser.index += 1
    done = true
  default: throw parser.fail("expected ',' or '}', found \(parser.describeByte())")
  }
}

/// The keys of the envelope; a key's bit in the set of keys seen is `1 << index`.
private let envelopeKeys = [
  "id", "dev", "seq", "ms", "lc", "stream", "type", "v", "data", "prev", "crc",
]

/// An envelope key, recognised from its bytes.
private enum EnvelopeKey: Int, CustomStringConvertible {
  case id, dev, seq, ms, lc, stream, type, v, data, prev, crc

  /// The key whose bytes are `bytes`, nil for any other key.
  ///
  /// The bytes are packed little-endian into a word (every key is at most 8 bytes) and
  /// compared with each key's word, written out here: "id" is 0x6469. A wrong word leaves
  /// its key unrecognised, and every record then fails to decode for a missing key.
  init?(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count <= 8 else { return nil }
    var word: UInt64 = 0
    for index in 0..<bytes.count { word |= UInt64(bytes[index]) << (8 * UInt64(index)) }
    switch (bytes.count, word) {
    case (2, 0x6469): self = .id
    case (3, 0x76_6564): self = .dev
    case (3, 0x71_6573): self = .seq
    case (2, 0x736D): self = .ms
    case (2, 0x636C): self = .lc
    case (6, 0x6D61_6572_7473): self = .stream
    case (4, 0x6570_7974): self = .type
    case (1, 0x76): self = .v
    case (4, 0x6174_6164): self = .data
    case (4, 0x7665_7270): self = .prev
    case (3, 0x63_7263): self = .crc
    default: return nil
    }
  }

  var description: String { envelopeKeys[rawValue] }
}

/// The stream, type and device of the last record decoded: the next record usually repeats
/// them, and then shares their storage instead of allocating its own strings.
struct RecordStrings {
  var device = ""
  var stream = ""
  var type = ""
  /// The last device name found valid.
  var checkedDevice: String?
  /// The payload check's buffer of key offsets (``JSONParser/keyRanges``), kept from line to
  /// line so that it is allocated once.
  var keyRanges: [Int] = []

  /// Whether payloads are left in their lines: each record's payload is then a placeholder,
  /// its range in the line is ``leftPayload``, and the caller puts the bytes of a run of
  /// records in one array (``OpenSegment``); else each payload is copied into its own.
  var leavesPayloads = false
  /// The range in its line of the payload of the last record decoded, when payloads are
  /// left in their lines.
  var leftPayload: Range<Int>?

  /// ``keyRanges``, moved out.
  mutating func takeKeyRanges() -> [Int] {
    var taken: [Int] = []
    swap(&taken, &keyRanges)
    return taken
  }

  /// The payload in `range` of `line`: its own copy, or a placeholder whose range is kept.
  mutating func payload(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> JSONPayload {
    guard leavesPayloads else { return JSONPayload(checkedBytes: Array(line[range])) }
    leftPayload = range
    return JSONPayload(.null)
  }
}

/// A string value, or nil when the value is not a string.
///
/// A plain ASCII string equal to `cache` gives `cache` itself; others replace it. The cache
/// holds only plain strings, so a string spelling it is found by its length (most lines
/// repeat the line before's device and stream).
private func parseText(
  _ parser: inout JSONParser,
  line: UnsafeRawBufferPointer,
  cache: inout String
) throws -> String? {
  if parser.skipString(spelling: cache) { return cache }
  guard let range = parser.parsePlainString() else { return try parser.parseValue().stringValue }
  let bytes = UnsafeRawBufferPointer(rebasing: line[range])
  guard let base = bytes.baseAddress, cache.utf8.count == bytes.count else {
    let text = String(decoding: bytes, as: UTF8.self)
    cache = text
    return text
  }
  let same = cache.utf8.withContiguousStorageIfAvailable { cached in
    cached.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? false
  }
  if same == true { return cache }
  let text = String(decoding: bytes, as: UTF8.self)
  cache = text
  return text
}

/// Eight lowercase hex digits.
func hex8(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: false)
  return String(repeating: "0", count: 8 - digits.count) + digits
}
