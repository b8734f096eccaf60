import Foundation
import JournalCore

/// A document read from the container, upgraded and checked.
enum ContainerDocument {
  case split(SplitDocument, deletedAt: Date?)
  case workout(
    WorkoutDocument,
    deletedAt: Date?,
    timeZone: String,
    cursorEntries: [String: Int]
  )
  /// A minimal stub: only the id and when it was deleted.
  case tombstone(Tombstone)
}

/// The events an import will append, decided document by document.
struct ImportPlan {
  let importer: ContainerImporter
  /// The journal before the import.
  let existing: JournalState
  let now: Date
  let newID: () -> String
  private(set) var events: [ImportedEvent] = []
  /// Stream → the container path that claimed it.
  private var claimed: [String: String] = [:]

  init(
    importer: ContainerImporter,
    existing: JournalState,
    now: Date,
    newID: @escaping () -> String
  ) {
    self.importer = importer
    self.newID = newID
    self.existing = existing
    self.now = now
  }

  /// Reads, checks and plans one file, recording the outcome in `report`.
  mutating func add(_ file: ContainerFile, to report: inout ImportReport) {
    let stream = "\(file.kind.rawValue):\(file.id)"
    if let first = claimed[stream] {
      let reason =
        file.isStub && first == file.livePath
        ? "the live document '\(first)' has the same id; the stub is ignored"
        : "same id as '\(first)'; ignored"
      return report.skipped.append(ImportReport.Item(path: file.path, reason: reason))
    }
    claimed[stream] = file.path
    let document: ContainerDocument
    let fromVersion: Int?
    do {
      (document, fromVersion) = try read(file)
    } catch {
      return report.skipped.append(ImportReport.Item(path: file.path, reason: error.reason))
    }
    switch document {
    case .tombstone(let tombstone):
      planTombstone(tombstone, file: file, report: &report)
    case .split, .workout:
      planDocument(document, file: file, fromVersion: fromVersion, report: &report)
    }
  }

  // MARK: - Deciding

  private mutating func planDocument(
    _ document: ContainerDocument,
    file: ContainerFile,
    fromVersion: Int?,
    report: inout ImportReport
  ) {
    let planned = Self.events(for: document, now: now, newID: newID)
    let simulated = Self.fold(planned, now: now)
    guard let mine = Rendered(simulated, file: file, now: now) else {
      let messages = simulated.anomalies.map(\.message).joined(separator: "; ")
      return report.skipped.append(
        ImportReport.Item(path: file.path, reason: "cannot be turned into events: \(messages)")
      )
    }
    if let theirs = Rendered(existing, file: file, now: now) {
      if theirs == mine { return report.unchanged.append(file.path) }
      if file.isStub, theirs.deletedAt == nil, mine.deletedAt != nil {
        // Deleted in the app since: the journal's live version must be the stub's document.
        let live = Rendered(Self.fold(planned.dropLast(), now: now), file: file, now: now)
        if live?.bytes == theirs.bytes, let deletion = planned.last {
          events.append(deletion)
          return report.deleted.append(file.path)
        }
      }
      let reason: String
      if theirs.deletedAt != nil, mine.deletedAt == nil {
        reason = "deleted in the journal; not imported again"
      } else {
        reason =
          "differs from the journal's version, which is kept: "
          + Self.firstDifference(mine.bytes, theirs.bytes, "the file", "the journal")
      }
      return report.conflicts.append(ImportReport.Item(path: file.path, reason: reason))
    }
    let expected = Self.expectedBytes(document, now: now)
    if let expected, expected != mine.bytes {
      report.inexact.append(
        ImportReport.Item(
          path: file.path,
          reason: Self.firstDifference(expected, mine.bytes, "the file", "the journal")
        )
      )
    } else if !simulated.anomalies.isEmpty {
      let messages = simulated.anomalies.map(\.message).joined(separator: "; ")
      report.inexact.append(ImportReport.Item(path: file.path, reason: messages))
    }
    if let fromVersion {
      let kind = file.kind
      let current = DocumentUpgrades.currentVersion(of: kind)
      if fromVersion < current {
        report.upgraded.append(
          ImportReport.Item(path: file.path, reason: "schema v\(fromVersion) → v\(current)")
        )
      }
    }
    events += planned
    report.imported.append(file.path)
  }

  private mutating func planTombstone(
    _ tombstone: Tombstone,
    file: ContainerFile,
    report: inout ImportReport
  ) {
    let deletedAt: Date??
    switch file.kind {
    case .split: deletedAt = existing.splits[file.id].map(\.deletedAt)
    case .workout: deletedAt = existing.workouts[file.id].map(\.deletedAt)
    }
    switch deletedAt {
    case nil:
      report.skipped.append(
        ImportReport.Item(
          path: file.path,
          reason: "minimal stub without the deleted document: nothing to import"
        )
      )
    case .some(.some):
      report.unchanged.append(file.path)
    case .some(.none):
      let stream = "\(file.kind.rawValue):\(file.id)"
      let event: JournalEvent = file.kind == .split ? .splitDeleted : .workoutDeleted
      events.append(
        ImportedEvent(id: newID(), stream: stream, event: event, at: tombstone.deletedAt)
      )
      report.deleted.append(file.path)
    }
  }

  // MARK: - Events and their fold

  static func events(
    for document: ContainerDocument,
    now: Date,
    newID: @escaping () -> String
  ) -> [ImportedEvent] {
    switch document {
    case .split(let split, let deletedAt):
      EventReconstruction.events(for: split, deletedAt: deletedAt, newID: newID)
    case .workout(let workout, let deletedAt, let timeZone, let cursorEntries):
      EventReconstruction.events(
        for: workout,
        timeZone: timeZone,
        cursorEntries: cursorEntries,
        deletedAt: deletedAt,
        now: now,
        newID: newID
      )
    case .tombstone:
      []
    }
  }

  /// Folds `events` alone, recorded at `now`.
  static func fold(_ events: some Collection<ImportedEvent>, now: Date) -> JournalState {
    var state = JournalState()
    for (offset, imported) in events.enumerated() {
      state.apply(
        FoldEvent(
          id: imported.id,
          device: "import",
          sequence: UInt64(offset + 1),
          milliseconds: now.milliseconds,
          counter: UInt32(truncatingIfNeeded: offset),
          stream: imported.stream,
          at: imported.at,
          event: imported.event
        )
      )
    }
    return state
  }

  /// The bytes the journal should write for the document (for a stub, for
  /// its document): the file's, upgraded, with deleted-log tombstones past
  /// their grace pruned as the journal and the app prune them.
  static func expectedBytes(_ document: ContainerDocument, now: Date) -> Data? {
    switch document {
    case .split(let split, _):
      return try? DocumentCoder.encode(split)
    case .workout(var workout, _, _, _):
      if let deleted = workout.deletedLogIDs {
        let grace = WorkoutDocument.deletedLogGrace
        let kept = deleted.filter { now.timeIntervalSince($0.value) <= grace }
        if kept.count != deleted.count { workout.deletedLogIDs = kept.isEmpty ? nil : kept }
      }
      return try? DocumentCoder.encode(workout)
    case .tombstone:
      return nil
    }
  }

  /// A document as a state renders it, stub or live.
  struct Rendered: Equatable {
    var bytes: Data
    var deletedAt: Date?

    init?(_ state: JournalState, file: ContainerFile, now: Date) {
      switch file.kind {
      case .split:
        guard let split = state.splits[file.id] else { return nil }
        deletedAt = split.deletedAt
        bytes = (try? DocumentCoder.encode(split.document)) ?? Data()
      case .workout:
        guard let workout = state.workouts[file.id] else { return nil }
        deletedAt = workout.deletedAt
        bytes = (try? DocumentCoder.encode(workout.renderedDocument(now: now))) ?? Data()
      }
    }
  }

  /// The first line where two encodings differ, for the report.
  static func firstDifference(_ a: Data, _ b: Data, _ aName: String, _ bName: String) -> String {
    let left = String(decoding: a, as: UTF8.self).split(
      separator: "\n",
      omittingEmptySubsequences: false
    )
    let right = String(decoding: b, as: UTF8.self).split(
      separator: "\n",
      omittingEmptySubsequences: false
    )
    // A trailing comma only says a line is not its object's last: compare without it.
    func line(_ lines: [Substring], _ index: Int) -> String {
      guard index < lines.count else { return "<end>" }
      let text = lines[index].trimmingCharacters(in: .whitespaces)
      return text.hasSuffix(",") ? String(text.dropLast()) : text
    }
    for index in 0..<max(left.count, right.count) {
      let l = line(left, index)
      let r = line(right, index)
      if l != r { return "line \(index + 1): \(aName) has '\(l)', \(bName) '\(r)'" }
    }
    return "same lines, different bytes"
  }
}

extension Error {
  /// The reason to report for a file that could not be imported.
  var reason: String {
    switch self {
    case let error as DocumentError: error.reason
    case let error as DocumentUpgrades.Failure: error.reason
    case let error as JournalError: error.message
    case let error as ImportFailure: error.reason
    default: "\(self)"
    }
  }
}

/// Why one file is not imported.
struct ImportFailure: Error {
  var reason: String
}
