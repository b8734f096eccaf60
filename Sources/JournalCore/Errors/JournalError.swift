/// The one error type thrown by `JournalCore`.
///
/// An error has a ``Kind`` to match on, an optional location (a file relative to the journal
/// folder and a 1-based line) and a human-readable message. Its `description` reads like a
/// compiler diagnostic:
///
/// ```text
/// devices/phone/000003.jsonl:1842: error: checksum mismatch
/// ```
///
/// > Note: The message and description text are not API; match on ``kind`` instead.
public struct JournalError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A category of error.
  ///
  /// New kinds may be added without breaking clients that `switch`.
  public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// Bytes that are not strict JSON (RFC 8259).
    public static let malformedJSON = Kind(rawValue: "malformedJSON")
    /// A value that cannot be stored, such as a NaN or infinite number.
    public static let invalidValue = Kind(rawValue: "invalidValue")
    /// A device name outside `[a-z0-9._-]{1,64}` or starting with a dot.
    public static let invalidDeviceName = Kind(rawValue: "invalidDeviceName")
    /// An event to append that breaks the envelope rules (empty type, payload not an object…).
    public static let invalidEvent = Kind(rawValue: "invalidEvent")
    /// A folder that is not a journal, or a journal written by a newer format version.
    public static let notAJournal = Kind(rawValue: "notAJournal")
    /// A stored record that fails its checksum or cannot be decoded, before the tail.
    public static let corruptRecord = Kind(rawValue: "corruptRecord")
    /// Another writer holds the device's lock longer than the allowed wait.
    public static let deviceLocked = Kind(rawValue: "deviceLocked")
    /// A writer that was closed, or that failed in a way that requires reopening it.
    public static let writerClosed = Kind(rawValue: "writerClosed")
    /// A file or folder the journal will not use: a symbolic link (never followed out of the
    /// journal), a folder where a segment should be, a file larger than a segment can be.
    public static let refusedFile = Kind(rawValue: "refusedFile")
    /// A journal folder that others than its owner may write to; fix with `chmod 700`.
    public static let unsafePermissions = Kind(rawValue: "unsafePermissions")
    /// A device position that no longer names the record it was taken at.
    ///
    /// Its segment is missing, shorter, or holds other bytes there. Read the whole history instead.
    public static let positionChanged = Kind(rawValue: "positionChanged")
    /// The device's files hold records this machine did not write and its local note of
    /// what it wrote does not know: another machine may be writing as the same device (see
    /// ``DeviceWriter/Options/adopt``).
    public static let secondWriter = Kind(rawValue: "secondWriter")
    /// An operating-system call failed (disk full, I/O error, permission denied…).
    public static let io = Kind(rawValue: "io")
  }

  /// What went wrong, for matching.
  public var kind: Kind
  /// The file concerned, relative to the journal folder when inside it.
  public var file: String?
  /// The 1-based line in ``file``, when the error concerns one record.
  public var line: Int?
  /// A lowercase message; user values appear in single quotes.
  public var message: String

  /// Creates an error.
  public init(_ kind: Kind, file: String? = nil, line: Int? = nil, _ message: String) {
    self.kind = kind
    self.file = file
    self.line = line
    self.message = message
  }

  public var description: String {
    switch (file, line) {
    case (let file?, let line?): "\(file):\(line): error: \(message)"
    case (let file?, nil): "\(file): error: \(message)"
    default: "error: \(message)"
    }
  }
}
