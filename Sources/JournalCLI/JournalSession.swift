import Foundation
import JournalCore
import JournalProjections

/// A journal opened for one command: the store, the folded history, the
/// device writing, and the wall clock read once.
struct JournalSession {
  let journal: Journal
  let store: FileEventStore
  let device: String
  /// The wall clock at the start of the command.
  let now: Date
  /// `--at`, when the action is back-dated.
  let at: Date?

  /// Opens the journal named by the invocation for a command that needs `scope`: from the
  /// saved state, folding only those streams, unless the scope is the whole history or the
  /// command reads history as of a point (`--as-of`, when `asOfNamesAPoint`).
  init(_ invocation: Invocation, scope: StateScope = .all, asOfNamesAPoint: Bool = true) throws {
    let url = try Self.journalURL(invocation)
    let now = try invocation.now()
    // `$WORKOUT_NOW` is the clock the records are stamped with too (the hybrid clock still
    // never goes back).
    var options = DeviceWriter.Options()
    options.adopt = invocation.arguments.flag("adopt")
    if invocation.environment["WORKOUT_NOW"] != nil {
      let milliseconds = now.milliseconds
      options.wallClock = { milliseconds }
    }
    let store = try FileEventStore(url: url, options: options)
    let generator = IDSource(now: now)
    self.store = store
    let scope = asOfNamesAPoint && invocation.arguments.value("as-of") != nil ? .all : scope
    self.journal = try Journal.open(store: store, scope: scope, newID: generator.next)
    self.device = try Self.device(invocation)
    self.now = now
    self.at = try invocation.arguments.value("at").map { try TimeParser.parse($0, now: now) }
    for notice in journal.notices { invocation.console.error("warning: \(notice)") }
    if invocation.keepsJournalsUntilExit { ProcessLifetime.keep(journal) }
  }

  /// The journal folder named by the invocation, checked to hold a journal.
  static func journalURL(_ invocation: Invocation) throws -> URL {
    let url = invocation.journalURL
    guard
      FileManager.default.fileExists(
        atPath: url.appendingPathComponent(EventLog.markerFileName).path
      )
    else {
      throw CommandError(
        "no journal at '\(url.path)'",
        hint: "create one with 'journal init', or pass --journal DIR (or set WORKOUT_JOURNAL)"
      )
    }
    return url
  }

  /// The device: `--device`, else `$WORKOUT_DEVICE`, else `cli`.
  static func device(_ invocation: Invocation) throws -> String {
    let name =
      invocation.arguments.value("device") ?? invocation.environment["WORKOUT_DEVICE"] ?? "cli"
    guard EventLog.isValidDeviceName(name) else {
      throw UsageError("invalid device name '\(name)': use 1–64 of a-z, 0-9, '.', '_', '-'")
    }
    return name
  }

  /// Validates and appends `command`; prints what the repair of a torn tail did.
  @discardableResult
  func execute(_ command: JournalCommand, console: Console) throws -> [FoldEvent] {
    let events = try journal.execute(command, device: device, at: at, now: now)
    for notice in store.takeRepairNotices() { console.error("notice: \(notice)") }
    return events
  }

  /// The state after everything.
  func state() -> JournalState { journal.state() }
}

/// Fresh ULIDs from the wall clock and the system's randomness.
final class IDSource: @unchecked Sendable {
  private var generator = ULIDGenerator()
  private let lock = NSLock()
  private let milliseconds: Int64

  init(now: Date) { milliseconds = now.milliseconds }

  func next() -> String {
    lock.withLock { generator.next(milliseconds: milliseconds).description }
  }
}
