import Foundation
import JournalCore

/// Writes the app's document tree from a journal: `Splits/`, `Workouts/YYYY/MM/`
/// and `Stubs/`.
///
/// ```swift
/// let report = try Rebuild.run(journal: journal, output: projections)
/// for conflict in report.conflicts { print(conflict) }
/// ```
///
/// The rules, in short (`docs/Rebuild.md` has them in full):
/// - a document is replaced atomically (temporary file, sync, rename) and only
///   when its bytes change; files get mode 0600, folders 0700;
/// - the rebuild owns the files listed in `.journal-projection.json`, and only
///   those are rewritten with other bytes or removed; an unowned file with
///   the wanted bytes is adopted, any other is a conflict left alone;
/// - documents of quarantined streams are left exactly as they are;
/// - paths come from ids and are checked before use; symbolic links inside the
///   output folder are never followed;
/// - `.journal-checkpoint/` caches the folded state so that the next rebuild
///   folds only new events; it is only a cache;
/// - a rebuild of the whole history can read it as it folds it
///   (``run(streamed:output:progress:options:)``), so that its memory grows with
///   the documents, not with the events.
public enum Rebuild {
  /// The name of the ownership manifest's folder in the output folder.
  public static let manifestName = ProjectionManifest.folder
  /// The name of the checkpoint folder in the output folder.
  public static let checkpointName = Checkpoint.folder
  /// The lock file that keeps two rebuilds from writing the same folder.
  static let lockName = ".journal-rebuild.lock"
  /// The folders the rebuild writes documents in.
  static let documentFolders = ["Splits", "Workouts", "Stubs"]

  /// Rebuilds the document tree of `journal` into `output`.
  ///
  /// - Parameters:
  ///   - journal: the journal to rebuild; its quarantined streams' documents
  ///     are left as they are.
  ///   - output: the folder to write; created (mode 0700) when missing.
  ///   - asOf: rebuild the tree as it was at this point; nil for now.
  ///   - full: fold from the start, ignoring the checkpoint.
  ///   - progress: called with (documents processed, documents to process).
  ///   - options: the clock for the timings, and test seams.
  /// - Returns: what was written, removed, adopted, kept and left in conflict.
  /// - Throws: ``RebuildError`` when the folder cannot be used or a system
  ///   call fails. Documents already replaced stay replaced, none is half
  ///   written, and the next rebuild completes the work.
  /// - Complexity: a full rebuild is O(events + documents); an incremental one
  ///   O(new events + documents they touch + splits + the folders of those
  ///   documents), once the journal's ``Journal/historyDigest()`` is known.
  @discardableResult
  public static func run(
    journal: Journal,
    output: URL,
    asOf: Replayer.Point? = nil,
    full: Bool = false,
    progress: ((Int, Int) -> Void)? = nil,
    options: RebuildOptions = RebuildOptions()
  ) throws -> RebuildReport {
    try run(
      .held(journal.history, journal.historyDigest()),
      quarantined: journal.quarantined,
      output: output,
      asOf: asOf,
      full: full,
      progress: progress,
      options: options
    )
  }

  /// Whether `output` holds a checkpoint an incremental rebuild could start from; without
  /// one, every rebuild folds the whole history and can read it as it folds it
  /// (``run(streamed:output:progress:options:)``).
  public static func hasCheckpoint(in output: URL) -> Bool {
    FileManager.default.fileExists(atPath: output.appendingPathComponent(Checkpoint.headPath).path)
  }

  /// Rebuilds every document of a journal read as it is folded: a full rebuild whose memory
  /// grows with the documents, not with the history.
  ///
  /// The documents, the manifest and the checkpoint are the same bytes as
  /// ``run(journal:output:asOf:full:progress:options:)`` writes with `full` set; the
  /// history is read twice (``StreamedHistory``).
  ///
  /// - Throws: ``RebuildError``; ``StreamedHistoryChanged`` (before any document is
  ///   written) when the journal's files change between the scan and the fold.
  @discardableResult
  public static func run(
    streamed history: StreamedHistory,
    output: URL,
    progress: ((Int, Int) -> Void)? = nil,
    options: RebuildOptions = RebuildOptions()
  ) throws -> RebuildReport {
    try run(
      .streamed(history),
      quarantined: history.quarantined,
      output: output,
      asOf: nil,
      full: true,
      progress: progress,
      options: options
    )
  }

  /// Locks `output` and runs one rebuild of `source` into it.
  private static func run(
    _ source: RebuildRun.Source,
    quarantined: [String: String],
    output: URL,
    asOf: Replayer.Point?,
    full: Bool,
    progress: ((Int, Int) -> Void)?,
    options: RebuildOptions
  ) throws -> RebuildReport {
    let writer = DocumentTreeWriter(root: output, failAfterWrites: options._failAfterWrites)
    try writer.makeRoot()
    let lock = try writer.lock(Rebuild.lockName)
    defer { writer.unlock(lock) }
    var run = RebuildRun(
      source: source,
      quarantined: quarantined,
      asOf: asOf,
      writer: writer,
      manifest: try ProjectionManifest.open(writer),
      elapsed: options.elapsed,
      progress: progress
    )
    return try run.execute(full: full)
  }
}

/// One rebuild, from reading the folder to saving the checkpoint.
struct RebuildRun {
  /// The history folded: held by a journal (with the digest of its ids), or read as it is
  /// folded (full rebuilds only, without an as-of point).
  enum Source {
    case held([FoldEvent], HistoryDigest)
    case streamed(StreamedHistory)
  }

  let source: Source
  let quarantined: [String: String]
  let asOf: Replayer.Point?
  let writer: DocumentTreeWriter
  let elapsed: @Sendable () -> Duration
  let progress: ((Int, Int) -> Void)?

  /// The output folder's manifest, opened under the folder's lock.
  let manifest: ProjectionManifest
  var report = RebuildReport()
  /// Every owned path by stream, when the run needs them all (a full fold or
  /// quarantined streams); otherwise owned paths are looked up by folder.
  var ownedByStream: [String: [String]]?
  /// The flush of the `rendering` block the run announced, before folding when it holds
  /// its history; the first document is written once it has finished.
  var announcementFlush: BackgroundValue<Result<Void, RebuildError>>?

  init(
    source: Source,
    quarantined: [String: String],
    asOf: Replayer.Point?,
    writer: DocumentTreeWriter,
    manifest: ProjectionManifest,
    elapsed: @escaping @Sendable () -> Duration,
    progress: ((Int, Int) -> Void)?
  ) {
    self.source = source
    self.quarantined = quarantined
    self.asOf = asOf
    self.writer = writer
    self.manifest = manifest
    self.elapsed = elapsed
    self.progress = progress
  }

  /// The fold to render and what to save as the next checkpoint.
  struct Folded {
    /// The states to render: every stream (full) or those that changed or
    /// crossed a grace boundary (incremental).
    var splits: [String: SplitState]
    var workouts: [String: WorkoutState]
    /// Whether `splits`/`workouts` are every stream of the state.
    var isComplete: Bool
    var renderNow: Date?
    var checkpoint: Checkpoint
    /// The live document path of a changed stream before the new events,
    /// where its owned documents may still be.
    var previousPaths: [String: String] = [:]
    /// The expiry of every rendered stream, set while rendering.
    var expiries: [String: Date?] = [:]
  }

  mutating func execute(full: Bool) throws -> RebuildReport {
    let interrupted = manifest.isInterrupted
    // A run that writes nothing does not wait for its announcement's flush on the way;
    // it still ends before the run does, so that no flush outlives it.
    defer { _ = announcementFlush?.value }
    // Temporary files live next to what they replace: the manifest's log and
    // the checkpoint head at every run, documents only after an interruption,
    // the manifest's shards when they are next written.
    report.cleanedTemporaryFiles = try writer.removeTemporaryFiles(
      in: ["", Checkpoint.folder, ProjectionManifest.folder],
      recursive: false
    )
    if interrupted {
      report.cleanedTemporaryFiles += try writer.removeTemporaryFiles(
        in: Rebuild.documentFolders,
        recursive: true
      )
    }

    var started = elapsed()
    var folded: Folded
    switch source {
    case .streamed(let history):
      precondition(full && asOf == nil, "a streamed history is only folded whole")
      folded = try foldFromStart(history)
      // Its position is known once it is folded.
      announcementFlush = try manifest.announce(
        ProjectionManifest.Rendering(history: folded.checkpoint.prefixDigest, asOf: nil)
      )
    case .held(let history, let digest):
      let prefix = Replayer.prefix(history, upTo: asOf)
      // Announced before folding, so that its flush runs while this thread folds and
      // renders (`docs/Rebuild.md`, "Interrupted rebuilds").
      var asOfTime: Date?
      if case .time(let date) = asOf { asOfTime = date }
      announcementFlush = try manifest.announce(
        ProjectionManifest.Rendering(
          history: digest.prefix(prefix.count, of: history).description,
          asOf: asOfTime
        )
      )
      if full {
        folded = foldFromStart(history, digest, prefix)
      } else if interrupted {
        report.checkpointIgnoredBecause = "the last rebuild was interrupted"
        folded = foldFromStart(history, digest, prefix)
      } else {
        switch foldFromCheckpoint(history, digest, prefix) {
        case .success(let value):
          folded = value
          report.mode = .incremental
        case .failure(let failure):
          if failure.reason != Self.noCheckpoint {
            report.checkpointIgnoredBecause = failure.reason
          }
          folded = foldFromStart(history, digest, prefix)
        }
      }
    }
    report.timings.fold = seconds(since: started)
    report.anomalyCount = folded.checkpoint.anomalyCount

    let plan = try planChanges(&folded)
    // An incremental run encodes and writes its few checkpoint files, all but the head, on
    // another thread while this one writes the documents, mostly waiting for flushes; the
    // head names the manifest as committed, so it comes last. Only when a checkpoint is
    // saved (no conflict). A full run saves state by state, after the documents, so as not
    // to hold every stream file at once (B8).
    let saving =
      folded.isComplete || !report.conflicts.isEmpty
      ? nil
      : BackgroundValue { [folded, root = writer.root] in
        Result {
          try Self.saveFiles(folded, into: DocumentTreeWriter(root: URL(fileURLWithPath: root)))
        }
      }
    do {
      try write(plan)
    } catch {
      // Nothing may write into the folder once its lock is let go.
      _ = saving?.value
      throw error
    }

    started = elapsed()
    if let saving {
      try saveHead(saving.value.get())
    } else {
      try saveCheckpoint(folded)
    }
    report.timings.checkpoint += seconds(since: started)

    report.notices = manifest.notices + report.notices
    report.written.sort()
    report.removed.sort()
    report.adopted.sort()
    report.keptQuarantined.sort()
    report.conflicts.sort { $0.path < $1.path }
    return report
  }

  func seconds(since start: Duration) -> Double {
    let duration = elapsed() - start
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }

  // MARK: - Folding

  /// The `now` documents are rendered at: the fold's, moved to an as-of time
  /// later than it, as ``Replayer/fold(_:upTo:startingFrom:observe:)`` does.
  static func renderNow(_ now: Date?, _ point: Replayer.Point?) -> Date? {
    if case .time(let date) = point, let now, date > now { return date }
    return now
  }

  mutating func foldFromStart(
    _ history: [FoldEvent],
    _ digest: HistoryDigest,
    _ prefix: ArraySlice<FoldEvent>
  ) -> Folded {
    // Fold up to the prefix's last event rather than to an as-of time, so the
    // state's `now` is the fold's own, as a checkpoint must keep it.
    let state: JournalState
    switch (asOf, prefix.last) {
    case (.time, let last?): state = Replayer.fold(history, upTo: .event(last.id))
    case (.time, nil): state = JournalState()
    default: state = Replayer.fold(history, upTo: asOf)
    }
    return folded(
      state,
      count: prefix.count,
      lastID: prefix.last?.id ?? "",
      digest: digest.prefix(prefix.count, of: history)
    )
  }

  /// Folds a streamed history whole, computing the digest of its ids as it goes.
  mutating func foldFromStart(_ history: StreamedHistory) throws -> Folded {
    var fold = Replayer.Fold(cancelled: history.cancelled)
    var digest = HistoryDigest()
    var last: EventID?
    try history.forEachEvent { event in
      fold.apply(event)
      digest.append(event.eventID)
      last = event.eventID
    }
    return folded(fold.state, count: digest.count, lastID: last?.description ?? "", digest: digest)
  }

  /// A full fold's result: every stream to render, and the checkpoint after `count` events.
  mutating func folded(
    _ state: JournalState,
    count: Int,
    lastID: String,
    digest: HistoryDigest
  ) -> Folded {
    report.mode = .full
    let renderNow = Self.renderNow(state.now, asOf)
    report.eventsFolded = count
    var checkpoint = Checkpoint()
    checkpoint.position = count
    checkpoint.lastID = lastID
    checkpoint.prefixDigest = digest.description
    checkpoint.now = state.now
    checkpoint.renderedNow = renderNow
    checkpoint.eventCount = state.eventCount
    checkpoint.anomalyCount = state.anomalies.count
    checkpoint.quarantined = quarantined.keys.sorted()
    return Folded(
      splits: state.splits,
      workouts: state.workouts,
      isComplete: true,
      renderNow: renderNow,
      checkpoint: checkpoint
    )
  }

  static let noCheckpoint = "no checkpoint"

  /// Folds the events after the checkpoint onto its state, or says why the
  /// checkpoint cannot be used.
  mutating func foldFromCheckpoint(
    _ history: [FoldEvent],
    _ digest: HistoryDigest,
    _ prefix: ArraySlice<FoldEvent>
  ) -> Result<Folded, Checkpoint.Failure> {
    var checkpoint: Checkpoint
    switch loadHead() {
    case .success(let value): checkpoint = value
    case .failure(let failure): return .failure(failure)
    }
    let head = checkpoint
    guard head.build == Checkpoint.buildFingerprint else {
      return .failure("the checkpoint was written by another build")
    }
    guard head.manifestDigest == manifest.openedIdentity else {
      return .failure("the checkpoint does not match the manifest")
    }
    guard head.quarantined == quarantined.keys.sorted() else {
      return .failure("the quarantined streams changed")
    }
    let position = prefix.startIndex + head.position
    guard head.position <= prefix.count,
      head.position == 0 ? head.lastID.isEmpty : prefix[position - 1].id == head.lastID,
      digest.prefix(position, of: history).description == head.prefixDigest
    else { return .failure("the history before the checkpoint changed") }
    let suffix = prefix[position...]
    let suffixIDs = Set(suffix.map(\.id))
    for event in suffix {
      if case .eventsReverted(let revert) = event.event,
        revert.eventIDs.contains(where: { !suffixIDs.contains($0) })
      {
        return .failure("a new revert names an event before the checkpoint")
      }
    }

    // Every split when a new event is not a workout's (creating a split reads
    // the others' orders; a workout's events read only that workout's state),
    // the workouts the new events name; then fold.
    var state = JournalState()
    let needsSplits = suffix.contains { !$0.stream.hasPrefix("workout:") }
    do {
      for (stream, entry) in head.splits where needsSplits {
        state.splits[String(stream.dropFirst(6))] = try loadStream(SplitState.self, stream, entry)
      }
      for stream in Set(suffix.map(\.stream)) where stream.hasPrefix("workout:") {
        guard let entry = try Self.workoutEntry(stream, &checkpoint, in: writer) else { continue }
        state.workouts[String(stream.dropFirst(8))] = try loadStream(
          WorkoutState.self,
          stream,
          entry
        )
      }
    } catch let failure as Checkpoint.Failure {
      return .failure(failure)
    } catch {
      return .failure("a checkpoint stream file is unreadable")
    }
    state.now = head.now
    state.eventCount = head.eventCount
    let before = state
    state = Replayer.fold(Array(suffix), startingFrom: state)
    let renderNow = Self.renderNow(state.now, asOf)
    if let rendered = head.renderedNow, renderNow.map({ $0 < rendered }) ?? true {
      return .failure("the checkpoint was rendered at a later time")
    }
    report.eventsFolded = suffix.count

    checkpoint.position = prefix.count
    checkpoint.lastID = prefix.last?.id ?? ""
    checkpoint.prefixDigest = digest.prefix(prefix.count, of: history).description
    checkpoint.now = state.now
    checkpoint.renderedNow = renderNow
    checkpoint.eventCount = state.eventCount
    checkpoint.anomalyCount = head.anomalyCount + state.anomalies.count

    // Render what changed, and what the passing of time changes.
    var splits = state.splits.filter { before.splits[$0.key] != $0.value }
    var workouts = state.workouts.filter { before.workouts[$0.key] != $0.value }
    var previousPaths: [String: String] = [:]
    for id in splits.keys {
      if let old = before.splits[id] {
        previousPaths["split:\(id)"] = DocumentPath.split(id: old.document.id)
      }
    }
    for id in workouts.keys {
      if let old = before.workouts[id] { previousPaths["workout:\(id)"] = old.path }
    }
    let now = renderNow ?? Date(timeIntervalSince1970: 0)
    do {
      for (stream, entry) in head.splits where Checkpoint.isDue(entry.expiry, at: now) {
        let id = String(stream.dropFirst(6))
        splits[id] = try state.splits[id] ?? loadStream(SplitState.self, stream, entry)
      }
      for (stream, expiry) in head.expiring where Checkpoint.isDue(expiry, at: now) {
        let id = String(stream.dropFirst(8))
        guard state.workouts[id] == nil else {
          workouts[id] = state.workouts[id]
          continue
        }
        guard let entry = try Self.workoutEntry(stream, &checkpoint, in: writer) else {
          throw Checkpoint.Failure("a checkpoint stream file is missing or corrupt")
        }
        workouts[id] = try loadStream(WorkoutState.self, stream, entry)
      }
    } catch let failure as Checkpoint.Failure {
      return .failure(failure)
    } catch {
      return .failure("a checkpoint stream file is unreadable")
    }
    return .success(
      Folded(
        splits: splits,
        workouts: workouts,
        isComplete: false,
        renderNow: renderNow,
        checkpoint: checkpoint,
        previousPaths: previousPaths
      )
    )
  }

  func loadHead() -> Result<Checkpoint, Checkpoint.Failure> {
    do {
      guard try writer.entry(Checkpoint.folder) == .folder,
        try writer.entry(Checkpoint.headPath) == .file,
        let bytes = try writer.read(Checkpoint.headPath)
      else { return .failure(Checkpoint.Failure(Self.noCheckpoint)) }
      return Checkpoint.decodeHead(bytes)
    } catch {
      return .failure("the checkpoint is unreadable")
    }
  }

  /// The index entry of a workout stream, reading its bucket once; nil when
  /// the checkpoint has no such stream.
  static func workoutEntry(
    _ stream: String,
    _ checkpoint: inout Checkpoint,
    in writer: DocumentTreeWriter
  ) throws -> Checkpoint.StreamEntry? {
    let bucket = Checkpoint.bucket(of: stream)
    if checkpoint.loadedBuckets[bucket] == nil {
      guard let digest = try bucketDigest(bucket, &checkpoint, in: writer) else {
        checkpoint.loadedBuckets[bucket] = [:]
        return nil
      }
      guard let bytes = try writer.read(Checkpoint.bucketPath(bucket)),
        Checkpoint.digest(bytes) == digest, let entries = Checkpoint.decodeBucket(bytes)
      else { throw Checkpoint.Failure("a checkpoint index file is missing or corrupt") }
      checkpoint.loadedBuckets[bucket] = entries
    }
    return checkpoint.loadedBuckets[bucket]?[stream]
  }

  /// The digest of an index bucket's file from its page, reading the page
  /// once; nil when the checkpoint has no such bucket.
  static func bucketDigest(
    _ bucket: String,
    _ checkpoint: inout Checkpoint,
    in writer: DocumentTreeWriter
  ) throws -> String? {
    let page = Checkpoint.page(of: bucket)
    if checkpoint.loadedPages[page] == nil {
      guard let digest = checkpoint.pages[page] else {
        checkpoint.loadedPages[page] = [:]
        return nil
      }
      guard let bytes = try writer.read(Checkpoint.pagePath(page)),
        Checkpoint.digest(bytes) == digest, let buckets = Checkpoint.decodePage(bytes)
      else { throw Checkpoint.Failure("a checkpoint index file is missing or corrupt") }
      checkpoint.loadedPages[page] = buckets
    }
    return checkpoint.loadedPages[page]?[bucket]
  }

  func loadStream<T: CheckpointStream>(
    _ type: T.Type,
    _ stream: String,
    _ entry: Checkpoint.StreamEntry
  )
    throws -> T
  {
    guard let path = Checkpoint.streamPath(stream), let bytes = try writer.read(path),
      Checkpoint.digest(bytes) == entry.digest
    else { throw Checkpoint.Failure("a checkpoint stream file is missing or corrupt") }
    return try Checkpoint.decodeState(type, from: bytes)
  }
}
