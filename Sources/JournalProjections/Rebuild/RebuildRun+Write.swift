import Foundation
import JournalCore

// Rendering the folded streams, planning what changes on disk, making the
// changes, and saving the manifest.

extension RebuildRun {
  /// A change to make on disk, decided before any is made.
  enum Change {
    case write(path: String, bytes: [UInt8], digest: String)
    case remove(path: String)
  }

  /// The changes to make on disk, and how many streams were rendered to find them (for
  /// progress).
  struct Plan {
    var changes: [Change]
    var streams: Int
  }

  /// Renders the folded streams and decides what changes on disk; conflicts are in the
  /// report once it returns.
  mutating func planChanges(_ folded: inout Folded) throws -> Plan {
    let blocked = Set(quarantined.keys)
    if folded.isComplete || !quarantined.isEmpty { ownedByStream = try manifest.pathsByStream() }
    try reportQuarantined()
    if manifest.isInterrupted { try settlePending() }

    let streams = Set(folded.streams).subtracting(blocked).sorted()
    let total = streams.count * 2
    let renderNow = folded.renderNow ?? Date(timeIntervalSince1970: 0)
    var changes: [Change] = []
    var rendered: Set<String> = []

    for (index, stream) in streams.enumerated() {
      var started = elapsed()
      var single = JournalState()
      single.now = folded.renderNow
      // A stream without a state (a workout whose start was undone) renders nothing: its
      // owned documents are removed.
      var expiry: Date?
      if stream.hasPrefix("split:"), let split = folded.splits[String(stream.dropFirst(6))] {
        single.splits[String(stream.dropFirst(6))] = split
        expiry = Self.expiry(of: split, renderedAt: renderNow)
      } else if stream.hasPrefix("workout:"),
        let workout = folded.workouts[String(stream.dropFirst(8))]
      {
        single.workouts[String(stream.dropFirst(8))] = workout
        expiry = Self.expiry(of: workout, renderedAt: renderNow)
      }
      folded.expiries[stream] = .some(expiry)
      let tree: [String: Data]
      do {
        tree = try single.documentTree()
      } catch {
        throw RebuildError(.encoding, path: stream, "cannot encode its documents: \(error)")
      }
      report.timings.encode += seconds(since: started)
      started = elapsed()
      for path in tree.keys.sorted() where !blocked.contains(RelativePath.stream(of: path) ?? "") {
        try plan(path, Array(tree[path] ?? Data()), &changes)
      }
      for path in try ownedPaths(of: stream, folded, tree) where tree[path] == nil {
        try planRemoval(path, &changes)
      }
      rendered.insert(stream)
      report.timings.write += seconds(since: started)
      progress?(index + 1, total)
    }

    let started = elapsed()
    if folded.isComplete {
      for (stream, paths) in (ownedByStream ?? [:]).sorted(by: { $0.key < $1.key })
      where !rendered.contains(stream) && !blocked.contains(stream) {
        for path in paths.sorted() { try planRemoval(path, &changes) }
      }
    }
    report.timings.write += seconds(since: started)
    return Plan(changes: changes, streams: streams.count)
  }

  /// Makes the planned changes and commits them to the manifest.
  mutating func write(_ plan: Plan) throws {
    let started = elapsed()
    let (notify, rendering, changing) = (progress, plan.streams, plan.changes.count)
    try apply(plan.changes) { done in
      notify?(rendering + done * rendering / changing, rendering * 2)
    }
    report.timings.write += seconds(since: started)
  }

  /// The paths the rebuild owns of `stream`: from the list of all when the
  /// run has it, else from the folders where its documents are or were.
  private func ownedPaths(
    of stream: String,
    _ folded: Folded,
    _ tree: [String: Data]
  ) throws -> [String] {
    if let ownedByStream { return ownedByStream[stream] ?? [] }
    var live = Array(tree.keys).map { $0.hasPrefix("Stubs/") ? String($0.dropFirst(6)) : $0 }
    if stream.hasPrefix("split:") {
      live.append(DocumentPath.split(id: String(stream.dropFirst(6))))
    }
    live += folded.formerPaths[stream] ?? []
    if stream.hasPrefix("split:"), let split = folded.splits[String(stream.dropFirst(6))] {
      live.append(DocumentPath.split(id: split.document.id))
    } else if let workout = folded.workouts[String(stream.dropFirst(8))] {
      live.append(workout.path)
    }
    return try manifest.paths(of: stream, inFoldersOf: live + live.map(DocumentPath.stub(of:)))
  }

  // MARK: - Planning

  private mutating func plan(_ path: String, _ bytes: [UInt8], _ changes: inout [Change]) throws {
    guard RelativePath.isSafe(path) else {
      return conflict(path, "unsafe path made from an id; not written")
    }
    if let obstacle = try writer.obstacle(to: path) { return conflict(path, obstacle) }
    let digest = ProjectionManifest.digest(bytes)
    let disk = try writer.read(path)
    if disk == bytes {
      report.unchangedCount += 1
      if try manifest.owned(path) == nil { report.adopted.append(path) }
      try manifest.set(path, digest)
      return
    }
    if let disk, try !manifest.owns(path, bytes: disk) {
      return conflict(
        path,
        try manifest.owned(path) == nil
          ? "exists and is not the rebuild's; left alone"
          : "changed since the last rebuild; left alone"
      )
    }
    changes.append(.write(path: path, bytes: bytes, digest: digest))
  }

  private mutating func planRemoval(_ path: String, _ changes: inout [Change]) throws {
    guard RelativePath.isSafe(path) else {
      report.notices.append("\(ProjectionManifest.folder): unsafe path '\(path)' dropped")
      return
    }
    if let obstacle = try writer.obstacle(to: path) { return conflict(path, obstacle) }
    guard let disk = try writer.read(path) else {
      try manifest.set(path, nil)
      return
    }
    guard try manifest.owns(path, bytes: disk) else {
      return conflict(path, "changed since the last rebuild; not removed")
    }
    changes.append(.remove(path: path))
  }

  private mutating func conflict(_ path: String, _ reason: String) {
    report.conflicts.append(RebuildReport.Conflict(path: path, reason: reason))
  }

  /// After an interrupted rebuild: a file with the bytes it was about to write (named by
  /// the `pending` block of its log) is the rebuild's own.
  private mutating func settlePending() throws {
    for (path, digest) in manifest.pending.sorted(by: { $0.key < $1.key })
    where RelativePath.isSafe(path) {
      guard try writer.obstacle(to: path) == nil, let disk = try writer.read(path) else { continue }
      if ProjectionManifest.matches(disk, digest) { try manifest.set(path, digest) }
    }
    manifest.clearPending()
    if ownedByStream != nil { ownedByStream = try manifest.pathsByStream() }
  }

  // MARK: - Changing the disk

  /// Makes `changes`: first a `pending` block naming every write is flushed to the
  /// manifest's log, so that an interruption leaves files the next rebuild recognises as
  /// its own; then the documents; then the log records what was done.
  private mutating func apply(_ changes: [Change], progress: (Int) -> Void) throws {
    if !changes.isEmpty {
      try manifest.announce(
        changes.compactMap { change in
          guard case .write(let path, _, let digest) = change else { return nil }
          return (path, digest)
        }
      )
      for (index, change) in changes.enumerated() {
        switch change {
        case .write(let path, let bytes, let digest):
          try writer.writeAtomically(path, bytes)
          try manifest.set(path, digest)
          report.written.append(path)
        case .remove(let path):
          try writer.remove(path)
          try manifest.set(path, nil)
          report.removed.append(path)
        }
        progress(index + 1)
      }
      try writer.syncFolders()
    }
    try manifest.commit()
  }

  // MARK: - Quarantine

  /// Lists the documents of quarantined streams present on disk; they are
  /// never written or removed.
  private mutating func reportQuarantined() throws {
    var workoutFiles: [String]?
    for stream in quarantined.keys.sorted() {
      var candidates = Set(ownedByStream?[stream] ?? [])
      guard let colon = stream.firstIndex(of: ":") else { continue }
      let id = String(stream[stream.index(after: colon)...])
      guard RelativePath.isSafe(id + ".json") else { continue }
      if stream.hasPrefix("split:") {
        let path = DocumentPath.split(id: id)
        candidates.formUnion([path, DocumentPath.stub(of: path)])
      } else if stream.hasPrefix("workout:") {
        if workoutFiles == nil {
          workoutFiles = try writer.files(under: "Workouts") + writer.files(under: "Stubs/Workouts")
        }
        candidates.formUnion(
          (workoutFiles ?? []).filter { RelativePath.fileName(of: $0) == id + ".json" }
        )
      }
      for path in candidates.sorted() where RelativePath.isSafe(path) {
        if try writer.obstacle(to: path) == nil, try writer.entry(path) == .file {
          report.keptQuarantined.append(path)
        }
      }
    }
  }

  // MARK: - Time

  /// How early a document changing with time alone is rendered again: rather early than
  /// late.
  static let expirySlack: TimeInterval = 1

  /// When the rendering of `split` next changes with time alone, if ever: its stub's grace
  /// ending.
  static func expiry(of split: SplitState, renderedAt now: Date) -> Date? {
    guard let deletedAt = split.deletedAt, !split.isStarter else { return nil }
    return boundary(deletedAt, grace: JournalState.stubGrace, now: now)
  }

  /// When the rendering of `workout` next changes with time alone, if ever:
  /// its stub's grace ending or a deleted log's tombstone expiring.
  static func expiry(of workout: WorkoutState, renderedAt now: Date) -> Date? {
    var candidates: [Date] = []
    if let deletedAt = workout.deletedAt,
      let end = boundary(deletedAt, grace: JournalState.stubGrace, now: now)
    {
      candidates.append(end)
    }
    for deleted in (workout.document.deletedLogIDs ?? [:]).values {
      if let end = boundary(deleted, grace: WorkoutDocument.deletedLogGrace, now: now) {
        candidates.append(end)
      }
    }
    return candidates.min()
  }

  /// `start + grace` when it is still ahead of `now` (within the slack).
  private static func boundary(_ start: Date, grace: TimeInterval, now: Date) -> Date? {
    now.timeIntervalSince(start) <= grace + expirySlack ? start + grace : nil
  }

  /// Whether a document with `expiry` must be rendered again at `now`.
  static func isDue(_ expiry: Date, at now: Date?) -> Bool {
    (now ?? Date(timeIntervalSince1970: 0)) >= expiry - expirySlack
  }
}
