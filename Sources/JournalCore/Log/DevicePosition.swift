/// The end of the last record read from a device: where a later read can resume.
///
/// A position names the boundary record (the last one read) by its segment, the byte offset
/// just past its newline, its 1-based line and its sequence, and proves that record is
/// still the same bytes with its line length and the SHA-256 of its line (without the
/// newline): the value the device's next record stores as its `prev` link. Through the
/// `prev` links, that hash commits to every earlier record of the device.
///
/// ``EventLog/readHistory(after:)`` reads only what follows a position, after checking that
/// the boundary record is unchanged; ``JournalHistory/positions`` gives the positions a read
/// ended at, and ``DeviceWriter/position`` the end of a writer's last append.
///
/// Positions encode as JSON objects with the hash as 64 lowercase hex digits:
///
/// ```json
/// {"segment":3,"offset":81234,"line":310,"sequence":2410,"length":271,"hash":"9f…"}
/// ```
package struct DevicePosition: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The segment number holding the boundary record (`3` for `000003.jsonl`).
  package var segment: Int
  /// The byte offset in that segment just past the boundary record's newline.
  package var offset: Int
  /// The boundary record's 1-based line in its segment.
  package var line: Int
  /// The boundary record's sequence number.
  package var sequence: UInt64
  /// The boundary record's line length in bytes, without its newline.
  package var length: Int
  /// The SHA-256 of the boundary record's line without its newline.
  package var hash: SHA256Digest

  /// Creates a position.
  package init(
    segment: Int,
    offset: Int,
    line: Int,
    sequence: UInt64,
    length: Int,
    hash: SHA256Digest
  ) {
    self.segment = segment
    self.offset = offset
    self.line = line
    self.sequence = sequence
    self.length = length
    self.hash = hash
  }

  /// The end of `record`, read from `line` of segment `segment`, whose bytes are `buffer`.
  init(segment: Int, line: SegmentLine, record: EventRecord, in buffer: UnsafeRawBufferPointer) {
    self.init(
      segment: segment,
      offset: line.range.upperBound + 1,
      line: line.number,
      sequence: record.sequence,
      length: line.range.count,
      hash: SHA256.hash(UnsafeRawBufferPointer(rebasing: buffer[line.range]))
    )
  }

  package var description: String {
    "\(Segment.fileName(segment)):\(line) (seq \(sequence), byte \(offset), \(hash))"
  }

  private enum CodingKeys: String, CodingKey {
    case segment, offset, line, sequence, length, hash
  }

  /// Decodes a position, refusing numbers out of range and a malformed hash.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    segment = try container.decode(Int.self, forKey: .segment)
    offset = try container.decode(Int.self, forKey: .offset)
    line = try container.decode(Int.self, forKey: .line)
    sequence = try container.decode(UInt64.self, forKey: .sequence)
    length = try container.decode(Int.self, forKey: .length)
    let text = try container.decode(String.self, forKey: .hash)
    guard let digest = SHA256Digest(hexString: text) else {
      throw DecodingError.dataCorruptedError(
        forKey: .hash,
        in: container,
        debugDescription: "not 64 lowercase hex digits"
      )
    }
    hash = digest
    guard (1...Segment.maximumNumber).contains(segment), line >= 1, sequence >= 1,
      (1...Segment.maximumLineLength).contains(length), offset > length,
      offset <= Segment.maximumFileSize
    else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "bad position")
      )
    }
  }

  /// Encodes the position; the hash as 64 lowercase hex digits.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(segment, forKey: .segment)
    try container.encode(offset, forKey: .offset)
    try container.encode(line, forKey: .line)
    try container.encode(sequence, forKey: .sequence)
    try container.encode(length, forKey: .length)
    try container.encode(hash.description, forKey: .hash)
  }
}
