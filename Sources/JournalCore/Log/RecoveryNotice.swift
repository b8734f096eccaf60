/// A repair or an incomplete file met while opening or reading a device, reported once.
///
/// Notices are not errors: nothing acknowledged was lost. They tell the user what happened,
/// for example that a torn last record, written when the app was killed, was moved aside.
public struct RecoveryNotice: Sendable, Hashable, CustomStringConvertible {
  /// What happened.
  public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// A writer cut a torn tail off its segment and kept the bytes in a side file.
    public static let tornTailSetAside = Kind(rawValue: "tornTailSetAside")
    /// A reader met a torn tail (maybe a file still being written or synced) and did not
    /// read it; the file was left as it was.
    public static let tornTailNotRead = Kind(rawValue: "tornTailNotRead")
    /// A reader met a copy or placeholder a file-sync service left (`000003 2.jsonl`,
    /// `.000003.jsonl.icloud`, a conflicted copy…) and did not read it.
    public static let syncArtefactIgnored = Kind(rawValue: "syncArtefactIgnored")
    /// A reader met a gap in a device's segment numbers (a device folder that arrived
    /// before its earlier segments) and read the device only up to the gap.
    public static let segmentNotArrived = Kind(rawValue: "segmentNotArrived")
    /// A reader met a branch of a device's history in a copy a file-sync service left (see
    /// ``Fork``) and read it with the rest; the device's next append heals it.
    public static let forkRead = Kind(rawValue: "forkRead")
  }

  /// What happened.
  public var kind: Kind
  /// The segment, relative to the journal folder.
  public var file: String
  /// The 1-based line where the torn tail starts; 0 for a notice about a whole file.
  public var line: Int
  /// How many bytes the torn tail holds; 0 for a notice about a whole file.
  public var byteCount: Int
  /// The side file now holding the bytes, relative to the journal folder, for
  /// ``Kind/tornTailSetAside``.
  public var sideFile: String?
  /// Why the tail was rejected, such as `partial line (no newline)`.
  public var cause: String

  /// Creates a notice.
  public init(
    kind: Kind,
    file: String,
    line: Int,
    byteCount: Int,
    sideFile: String?,
    cause: String
  ) {
    self.kind = kind
    self.file = file
    self.line = line
    self.byteCount = byteCount
    self.sideFile = sideFile
    self.cause = cause
  }

  /// The notice of a fork read: its ``Fork/description`` as the cause.
  init(fork: Fork) {
    self.init(
      kind: .forkRead,
      file: fork.file,
      line: 0,
      byteCount: 0,
      sideFile: nil,
      cause: String(fork.description.dropFirst(fork.file.count + ": note: ".count))
    )
  }

  public var description: String {
    if kind == .syncArtefactIgnored || kind == .segmentNotArrived || kind == .forkRead {
      return "\(file): note: \(cause)"
    }
    let what =
      if let sideFile {
        "torn tail of \(byteCount) bytes set aside in '\(sideFile)'"
      } else {
        "torn tail of \(byteCount) bytes not read"
      }
    return "\(file):\(line): note: \(what): \(cause)"
  }
}
