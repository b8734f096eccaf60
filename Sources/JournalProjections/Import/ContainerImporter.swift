import Foundation
import JournalCore

/// Imports an app container (`Splits/`, `Workouts/YYYY/MM/`, `Stubs/`) into a
/// journal: each document, at any schema version the app ever wrote, is
/// upgraded on its raw JSON (`DocumentUpgrades`) and turned into the events
/// that fold back into it.
///
/// ```swift
/// let report = try ContainerImporter(device: "import")
///   .importContainer(at: URL(fileURLWithPath: "iCloud Drive/Workouts"), into: journal)
/// for item in report.skipped { print(item) }  // "Workouts/2026/01/01J….json: …"
/// ```
///
/// Rules (see `docs/Import.md`):
/// - **Whole documents only.** A file that cannot be read, is not valid at its
///   version, is newer than this build reads (splits > 3, workouts > 5), sits
///   at a path that does not match its id or its month, or carries an id that
///   is not a ULID is reported in ``ImportReport/skipped`` and contributes no
///   event. All events of one import are appended as one durable batch.
/// - **Idempotent.** A document whose id the journal already has is compared
///   with the journal's version: identical → unchanged, nothing appended;
///   different → a conflict, reported, and the journal keeps its version. A
///   stub whose document the journal still has live (and identical) appends
///   the deletion. Re-importing a container therefore appends nothing.
/// - **Exact or reported.** Before anything is appended, each document's
///   events are folded on their own and the result encoded: a document the
///   journal cannot reproduce byte for byte is still imported, and listed in
///   ``ImportReport/inexact`` with the first difference.
public struct ContainerImporter: Sendable {
  /// The device the events are appended as.
  public var device: String
  /// The time zone to file workouts under when it puts them in the month
  /// folder they came from; else UTC, else the nearest whole-hour offset.
  public var preferredTimeZone: TimeZone?
  /// Plan and report without appending.
  public var dryRun: Bool
  /// Larger files are reported, not read.
  public var maximumFileSize: Int

  public init(
    device: String = "import",
    preferredTimeZone: TimeZone? = nil,
    dryRun: Bool = false,
    maximumFileSize: Int = 16 << 20
  ) {
    self.device = device
    self.preferredTimeZone = preferredTimeZone
    self.dryRun = dryRun
    self.maximumFileSize = maximumFileSize
  }

  /// Imports the container at `url` into `journal`.
  ///
  /// - Parameters:
  ///   - url: the container folder.
  ///   - journal: the journal to append to.
  ///   - now: the caller's clock: "now" for the 30-day grace of deleted-log
  ///     tombstones when documents are compared (the journal's latest event
  ///     time when that is later).
  /// - Returns: what happened to every document.
  /// - Throws: ``ContainerImportError`` when `url` is not a container; the
  ///   store's errors when appending fails (nothing is appended then).
  public func importContainer(
    at url: URL,
    into journal: Journal,
    now: Date = Date()
  ) throws
    -> ImportReport
  {
    let scan = try ContainerScan(root: url)
    let state = journal.state()
    let clock = max(now, state.now ?? now)
    var report = ImportReport()
    report.skipped = scan.skipped
    report.isDryRun = dryRun
    var plan = ImportPlan(importer: self, existing: state, now: clock, newID: journal.newID)
    // Live documents first, so a stub of the same id defers to them.
    let ordered = scan.files.filter { !$0.isStub } + scan.files.filter(\.isStub)
    for file in ordered { plan.add(file, to: &report) }
    if !dryRun {
      report.appendedEvents = try journal.appendImported(plan.events, device: device)
    }
    return report
  }

  // MARK: - Ids

  /// Whether `id` is a canonical ULID: 26 Crockford base32 characters.
  ///
  /// Ids become file names in the documents the journal writes, so nothing else
  /// (separators, `..`, NUL) ever reaches a path.
  public static func isValidID(_ id: String) -> Bool { ULID(id) != nil }

  // MARK: - Time zones

  /// The time-zone identifier that files a workout starting at `start` under
  /// `Workouts/YYYY/MM`: `preferred` when it does, else `UTC`, else the
  /// smallest whole-hour offset (`GMT+0100`, `GMT-0100`, … up to ±14 h).
  ///
  /// - Returns: nil when no zone on Earth puts `start` in that month.
  public static func timeZoneIdentifier(
    start: Date,
    year: Int,
    month: Int,
    preferred: TimeZone? = nil
  ) -> String? {
    var candidates: [String] = []
    if let preferred { candidates.append(preferred.identifier) }
    candidates.append("UTC")
    for hours in 1...14 {
      candidates.append("GMT+" + twoDigits(hours) + "00")
      if hours <= 12 { candidates.append("GMT-" + twoDigits(hours) + "00") }
    }
    var calendar = Calendar(identifier: .gregorian)
    for identifier in candidates {
      guard let zone = TimeZone(identifier: identifier) else { continue }
      calendar.timeZone = zone
      let parts = calendar.dateComponents([.year, .month], from: start)
      if parts.year == year, parts.month == month { return identifier }
    }
    return nil
  }

  private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
