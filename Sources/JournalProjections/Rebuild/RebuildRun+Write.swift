import Foundation
import JournalCore

// Rendering the folded streams, planning what changes on disk, making the
// changes, and saving the manifest and the checkpoint.

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
    if !manifest.pending.isEmpty || !manifest.renderings.isEmpty { try settlePending() }

    var streams =
      folded.splits.keys.map { "split:\($0)" } + folded.workouts.keys.map { "workout:\($0)" }
    streams = streams.filter { !blocked.contains($0) }.sorted()
    let total = streams.count * 2
    let renderNow = folded.renderNow ?? Date(timeIntervalSince1970: 0)
    var changes: [Change] = []
    var rendered: Set<String> = []

    for (index, stream) in streams.enumerated() {
      var started = elapsed()
      var single = JournalState()
      single.now = folded.renderNow
      let expiry: Date?
      if stream.hasPrefix("split:"), let split = folded.splits[String(stream.dropFirst(6))] {
        single.splits[String(stream.dropFirst(6))] = split
        expiry = Checkpoint.expiry(of: split, renderedAt: renderNow)
      } else if let workout = folded.workouts[String(stream.dropFirst(8))] {
        single.workouts[String(stream.dropFirst(8))] = workout
        expiry = Checkpoint.expiry(of: workout, renderedAt: renderNow)
      } else {
        continue
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
    if let previous = folded.previousPaths[stream] { live.append(previous) }
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

  /// After an interrupted rebuild: a file with the bytes it was about to write
  /// is the rebuild's own.
  ///
  /// Those bytes are the documents of the position a `rendering` block names, rendered
  /// again, or are named by a `pending` block of format 2; only files whose bytes differ
  /// from the ones the manifest lists are read.
  private mutating func settlePending() throws {
    var expected = manifest.pending.sorted(by: { $0.key < $1.key })
    for rendering in manifest.renderings {
      guard let tree = try documents(at: rendering) else {
        report.notices.append(
          "\(ProjectionManifest.logPath): the interrupted rebuild's history "
            + "(\(rendering.events) events) is no longer the start of the journal's; "
            + "a document it wrote that differs from the wanted one is a conflict"
        )
        continue
      }
      for (path, bytes) in tree.sorted(by: { $0.key < $1.key }) {
        let digest = ProjectionManifest.digest(Array(bytes))
        if try manifest.owned(path) != digest { expected.append((path, digest)) }
      }
    }
    for (path, digest) in expected where RelativePath.isSafe(path) {
      guard try writer.obstacle(to: path) == nil, let disk = try writer.read(path) else { continue }
      if ProjectionManifest.matches(disk, digest) { try manifest.set(path, digest) }
    }
    manifest.clearPending()
    if ownedByStream != nil { ownedByStream = try manifest.pathsByStream() }
  }

  /// The documents of the position `rendering` names: the state after its events, as
  /// of its time; nil when the history does not start with those events any more.
  private func documents(at rendering: ProjectionManifest.Rendering) throws -> [String: Data]? {
    let count = rendering.events
    let events: [FoldEvent]
    switch source {
    case .held(let history, let digest):
      guard count <= history.count,
        digest.prefix(count, of: history).description == rendering.history
      else { return nil }
      events = Array(history[..<count])
    case .streamed(let history):
      // Read once more, keeping the position's events: only after an interruption.
      var kept: [FoldEvent] = []
      var digest = HistoryDigest()
      try history.forEachEvent { event in
        guard kept.count < count else { return }
        kept.append(event)
        digest.append(event.eventID)
      }
      guard digest.description == rendering.history else { return nil }
      events = kept
    }
    var state = Replayer.fold(events)
    state.now = Self.renderNow(state.now, rendering.asOf.map { .time($0) })
    do {
      return try state.documentTree()
    } catch {
      throw RebuildError(.encoding, path: ProjectionManifest.logPath, "cannot render: \(error)")
    }
  }

  // MARK: - Changing the disk

  /// Makes `changes`: first the flush of the `rendering` block, which names the
  /// position rendered, must have finished, so an interruption leaves files the
  /// next rebuild recognises as its own; then the documents; then the log records
  /// what was done.
  private mutating func apply(_ changes: [Change], progress: (Int) -> Void) throws {
    if !changes.isEmpty {
      guard let announcementFlush else {
        preconditionFailure("execute announces the position before any change is planned")
      }
      try announcementFlush.value.get()
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

  // MARK: - Checkpoint

  /// Saves the rendered streams' files, the index buckets that list them,
  /// the index pages that list those, and the head.
  ///
  /// Nothing here is synced: every file is checked by digest when read back,
  /// and the head names the manifest, whose `rendering` block was synced before any
  /// document was written.
  ///
  /// After a conflict the head is removed instead: the documents left alone
  /// do not match the state, and only a full rebuild would check them again.
  ///
  /// - Parameter folded: the states rendered by this run, and the checkpoint they start
  ///   from.
  /// - Throws: ``RebuildError`` when a checkpoint file cannot be written or removed.
  mutating func saveCheckpoint(_ folded: Folded) throws {
    guard report.conflicts.isEmpty else { return try writer.remove(Checkpoint.headPath) }
    try saveHead(Self.saveFiles(folded, into: writer))
  }

  /// What writing the checkpoint's files but its head came to.
  enum SavedFiles: Sendable {
    /// The checkpoint whose head is to be written, once the manifest is committed.
    case saved(Checkpoint)
    /// No checkpoint can be saved, for the reason given in the notice.
    case abandoned(notice: String)
  }

  /// Writes the head of `files`, naming the manifest as committed, or removes the head
  /// when the checkpoint was abandoned.
  mutating func saveHead(_ files: SavedFiles) throws {
    switch files {
    case .abandoned(let notice):
      report.notices.append(notice)
      try writer.remove(Checkpoint.headPath)
    case .saved(var checkpoint):
      checkpoint.manifestDigest = manifest.identity
      // In place like the other checkpoint files: a torn head fails its checksum.
      try writer.writeInPlace(Checkpoint.headPath, checkpoint.encodedHead())
    }
  }

  /// Writes the checkpoint's files but its head: stream files, buckets and pages.
  ///
  /// Uses nothing of the run but its arguments, so that an incremental run can do it on
  /// another thread, with a writer of its own.
  static func saveFiles(_ folded: Folded, into writer: DocumentTreeWriter) throws -> SavedFiles {
    var checkpoint = folded.checkpoint
    var states: [(String, any CheckpointStream)] = folded.splits.map {
      ("split:\($0.key)", $0.value)
    }
    states += folded.workouts.map { ("workout:\($0.key)", $0.value) }
    if folded.isComplete {
      checkpoint.splits = [:]
      checkpoint.expiring = [:]
      checkpoint.pages = [:]
      checkpoint.loadedPages = [:]
      checkpoint.loadedBuckets = [:]
    }
    var changedBuckets: Set<String> = []
    var expectedStreams: Set<String> = []
    for (stream, state) in states.sorted(by: { $0.0 < $1.0 }) {
      guard let path = Checkpoint.streamPath(stream) else {
        return .abandoned(notice: "checkpoint not saved: stream '\(stream)' cannot name a file")
      }
      expectedStreams.insert(RelativePath.fileName(of: path))
      let file: Checkpoint.StreamFile
      do {
        file = try Checkpoint.StreamFile(of: state)
      } catch {
        return .abandoned(notice: "checkpoint not saved: \(error)")
      }
      if try writer.read(path) != file.bytes { try writer.writeInPlace(path, file.bytes) }
      let expiry = folded.expiries[stream] ?? nil
      let entry = Checkpoint.StreamEntry(digest: file.digest, expiry: expiry)
      if stream.hasPrefix("split:") {
        checkpoint.splits[stream] = entry
        continue
      }
      let bucket = Checkpoint.bucket(of: stream)
      if !folded.isComplete {
        do {
          _ = try workoutEntry(stream, &checkpoint, in: writer)
        } catch {
          // An unreadable bucket: start it afresh, losing its other streams.
          return .abandoned(notice: "checkpoint not saved: \(error)")
        }
      }
      checkpoint.loadedBuckets[bucket, default: [:]][stream] = entry
      checkpoint.expiring[stream] = expiry
      changedBuckets.insert(bucket)
    }
    // A bucket's page was read with it (``workoutEntry(_:_:in:)``), or is new.
    var changedPages: Set<String> = []
    for bucket in changedBuckets.sorted() {
      let bytes = Checkpoint.encodeBucket(checkpoint.loadedBuckets[bucket] ?? [:])
      try writer.writeInPlace(Checkpoint.bucketPath(bucket), bytes)
      let page = Checkpoint.page(of: bucket)
      checkpoint.loadedPages[page, default: [:]][bucket] = Checkpoint.digest(bytes)
      changedPages.insert(page)
    }
    for page in changedPages.sorted() {
      let bytes = Checkpoint.encodePage(checkpoint.loadedPages[page] ?? [:])
      try writer.writeInPlace(Checkpoint.pagePath(page), bytes)
      checkpoint.pages[page] = Checkpoint.digest(bytes)
    }
    if folded.isComplete {
      for (folder, expected) in [
        (Checkpoint.streamsFolder, expectedStreams),
        (
          Checkpoint.indexFolder,
          changedBuckets.union(
            changedPages.map { RelativePath.fileName(of: Checkpoint.pagePath($0)) }
          )
        ),
      ] where try writer.entry(folder) == .folder {
        for name in try writer.contents(of: folder) where !expected.contains(name) {
          try writer.remove(folder + "/" + name)
        }
      }
    }
    return .saved(checkpoint)
  }

}
