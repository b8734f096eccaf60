/// What an import did with each document of the container.
///
/// Paths are relative to the container (`Workouts/2026/01/01J….json`).
/// Reasons are for people and are not API.
public struct ImportReport: Sendable, Hashable {
  /// A path and why it is listed.
  public struct Item: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
  }

  /// Documents (and full stubs) new to the journal, now in it.
  public var imported: [String] = []
  /// Stubs of documents the journal had live: their deletion was appended.
  public var deleted: [String] = []
  /// Documents the journal already has exactly as the container does.
  public var unchanged: [String] = []
  /// Imported documents written at an older schema version: from which.
  public var upgraded: [Item] = []
  /// Imported documents the journal cannot reproduce byte for byte, and
  /// the first difference between the file (upgraded) and the journal's document.
  public var inexact: [Item] = []
  /// Documents that differ from the journal's version of the same id: the
  /// journal keeps its own, nothing is appended for them.
  public var conflicts: [Item] = []
  /// Files not imported: unreadable, invalid, newer than this build, misplaced.
  public var skipped: [Item] = []
  /// How many events were appended (0 for a dry run or nothing new).
  public var appendedEvents = 0
  /// Whether the events were only planned, not appended.
  public var isDryRun = false

  public init() {}

  /// Whether every document was imported, found unchanged or deleted as its stub says.
  public var isClean: Bool { conflicts.isEmpty && skipped.isEmpty && inexact.isEmpty }
}
