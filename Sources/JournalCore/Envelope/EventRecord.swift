/// One stored event: a line of a device's segment file, decoded.
///
/// See `docs/OnDiskFormat.md` for the bytes. Records are produced by ``DeviceWriter`` and by
/// the readers of ``EventLog``; they are values and do not keep their file open.
public struct EventRecord: Sendable, Hashable {
  /// The event's unique id.
  public var id: ULID
  /// The device that wrote the record (the folder it is stored in).
  public var device: String
  /// The record's number in its device's log: 1, 2, 3… with no gaps, across segments.
  public var sequence: UInt64
  /// The hybrid clock reading when it was written; the merge order's first key.
  public var time: HybridTime
  /// The stream, such as `workout:<ULID>`.
  public var stream: String
  /// The stable event type string.
  public var type: String
  /// The payload's schema version.
  public var version: Int
  /// The payload object, as stored.
  ///
  /// Built from the stored bytes when asked for: reading a journal keeps the checked bytes.
  public var payload: JSONValue {
    get { storedPayload.value }
    set { storedPayload = JSONPayload(newValue) }
  }
  /// The payload object: the checked bytes of a record read from a log, else the value.
  package var storedPayload: JSONPayload
  /// The SHA-256 of the previous record's line of the same device (``SHA256Digest/zero`` for
  /// the first).
  package var previousHash: SHA256Digest
  /// The SHA-256 of this record's line without its newline: the next record's
  /// ``previousHash``.
  ///
  /// Set on records a ``DeviceWriter`` appends and on those ``EventLog/verify()`` checks;
  /// nil on records read by ``EventLog/readHistory()`` and ``EventLog/readDevice(_:)``,
  /// which check checksums, not the hash chain (a `DevicePosition` holds the hash of a
  /// device's last record read). Derived from the line, it is not part of equality.
  package var hash: SHA256Digest?
  /// Where the record is stored.
  package var location: RecordLocation

  /// Creates a record value; records are normally read or written, not made by hand.
  package init(
    id: ULID,
    device: String,
    sequence: UInt64,
    time: HybridTime,
    stream: String,
    type: String,
    version: Int,
    payload: JSONValue,
    previousHash: SHA256Digest,
    hash: SHA256Digest?,
    location: RecordLocation
  ) {
    self.init(
      id: id,
      device: device,
      sequence: sequence,
      time: time,
      stream: stream,
      type: type,
      version: version,
      storedPayload: JSONPayload(payload),
      previousHash: previousHash,
      hash: hash,
      location: location
    )
  }

  /// Creates a record value with its payload as stored.
  package init(
    id: ULID,
    device: String,
    sequence: UInt64,
    time: HybridTime,
    stream: String,
    type: String,
    version: Int,
    storedPayload: JSONPayload,
    previousHash: SHA256Digest,
    hash: SHA256Digest?,
    location: RecordLocation
  ) {
    self.id = id
    self.device = device
    self.sequence = sequence
    self.time = time
    self.stream = stream
    self.type = type
    self.version = version
    self.storedPayload = storedPayload
    self.previousHash = previousHash
    self.hash = hash
    self.location = location
  }
}

/// The place of a record: a file relative to the journal folder and a 1-based line.
package struct RecordLocation: Sendable, Hashable, CustomStringConvertible {
  /// The segment file, relative to the journal folder, such as `devices/phone/000001.jsonl`.
  package var file: String
  /// The 1-based line number in ``file``.
  package var line: Int

  /// Creates a location.
  package init(file: String, line: Int) {
    self.file = file
    self.line = line
  }

  package var description: String { "\(file):\(line)" }
}

extension EventRecord {
  /// Records are equal when every field but the hash is: the hash is derived from the line
  /// and only some records carry it.
  public static func == (lhs: EventRecord, rhs: EventRecord) -> Bool {
    lhs.id == rhs.id && lhs.device == rhs.device && lhs.sequence == rhs.sequence
      && lhs.time == rhs.time && lhs.stream == rhs.stream && lhs.type == rhs.type
      && lhs.version == rhs.version && lhs.storedPayload == rhs.storedPayload
      && lhs.previousHash == rhs.previousHash && lhs.location == rhs.location
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(device)
    hasher.combine(sequence)
    hasher.combine(previousHash)
    hasher.combine(storedPayload)
  }
}
