import Foundation
import JournalCore

/// Writes the app's document tree from a journal: `Splits/`, `Workouts/YYYY/MM/`
/// and `Stubs/`.
///
/// ```swift
/// // Bring the documents up to date: only the streams changed since the last rebuild.
/// let report = try Rebuild.run(store: store, output: projections)
/// for conflict in report.conflicts { print(conflict) }
/// ```
///
/// The rules, in short (`docs/Rebuild.md` has them in full):
/// - a document is replaced atomically (temporary file, sync, rename) and only
///   when its bytes change; files get mode 0600, folders 0700;
/// - the rebuild owns the files its manifest (`.journal-projection/`) lists, and only
///   those are rewritten with other bytes or removed; an unowned file with
///   the wanted bytes is adopted, any other is a conflict left alone;
/// - documents of quarantined streams are left exactly as they are;
/// - paths come from ids and are checked before use; symbolic links inside the
///   output folder are never followed;
/// - an incremental rebuild starts from the journal's saved state (`SavedState`): it
///   folds only the streams that changed since it last wrote the folder, each from the
///   state's file of its events;
/// - a rebuild of the whole history (`full`) replays it; the command line reads the files as
///   it folds them, so that its memory grows with the documents, not with the events.
public enum Rebuild {
  /// The name of the ownership manifest's folder in the output folder.
  public static let manifestName = ProjectionManifest.folder
  /// The lock file that keeps two rebuilds from writing the same folder.
  static let lockName = ".journal-rebuild.lock"
  /// The folders the rebuild writes documents in.
  static let documentFolders = ["Splits", "Workouts", "Stubs"]
  /// The record of the saved state an output folder was rebuilt from (``RebuildRecord``),
  /// relative to the folder.
  package static let recordPath = RebuildRecord.path
  /// The cache that earlier builds kept in the output folder; a rebuild removes it.
  static let formerCheckpoint = ".journal-checkpoint"

  /// Rebuilds the document tree of `journal` into `output`.
  ///
  /// A journal kept in files (``FileEventStore``) is rebuilt incrementally from its saved
  /// state, as ``run(store:output:progress:options:)`` does, unless `asOf` or `full` is
  /// given; then, and for any other store, its history is folded whole.
  ///
  /// - Parameters:
  ///   - journal: the journal to rebuild; its quarantined streams' documents
  ///     are left as they are.
  ///   - output: the folder to write; created (mode 0700) when missing.
  ///   - asOf: rebuild the tree as it was at this point; nil for now.
  ///   - full: fold the whole history rather than start from the saved state.
  ///   - progress: called with (documents processed, documents to process).
  ///   - options: the clock for the timings, and test seams.
  /// - Returns: what was written, removed, adopted, kept and left in conflict.
  /// - Throws: ``RebuildError`` when the folder cannot be used or a system
  ///   call fails. Documents already replaced stay replaced, none is half
  ///   written, and the next rebuild completes the work.
  /// - Complexity: a full rebuild is O(events + documents); an incremental one
  ///   O(events of the changed streams + their documents + the folders of those documents),
  ///   plus the split streams when one of them changed.
  @discardableResult
  public static func run(
    journal: Journal,
    output: URL,
    asOf: Replayer.Point? = nil,
    full: Bool = false,
    progress: ((Int, Int) -> Void)? = nil,
    options: RebuildOptions = RebuildOptions()
  ) throws -> RebuildReport {
    if !full, asOf == nil, let store = fileStore(of: journal) {
      return try run(store: store, output: output, progress: progress, options: options)
    }
    return try run(
      .held(journal.history),
      quarantined: journal.quarantined,
      output: output,
      asOf: asOf,
      progress: progress,
      options: options
    )
  }

  /// Brings the document tree of the journal in `store` up to date in `output`, from the
  /// journal's saved state.
  ///
  /// Opens the saved state as a command does (reading what the devices appended since),
  /// reads in its change list the streams whose files changed since this folder was last
  /// rebuilt, folds those streams alone from their files (every split stream when one of
  /// them changed, and the streams whose documents change with time alone when their time
  /// came), and writes or removes only their documents. When the folder has no record of
  /// the state it was rebuilt from, or the record does not match the state (the state was
  /// read again from the whole history, or damaged), it folds every stream from the
  /// state's files and writes only the documents whose bytes differ
  /// (``RebuildReport/foldedEveryStreamBecause`` says why). It never replays the history,
  /// unless the saved state cannot be written here (a read-only folder): then it folds the
  /// history whole as it reads it.
  ///
  /// - Parameters:
  ///   - store: the journal's files.
  ///   - output: the folder to write; created (mode 0700) when missing.
  ///   - progress: called with (documents processed, documents to process).
  ///   - options: the clock for the timings, and test seams.
  /// - Returns: what was written, removed, adopted, kept and left in conflict.
  /// - Throws: ``RebuildError``; the store's errors.
  @discardableResult
  public static func run(
    store: FileEventStore,
    output: URL,
    progress: ((Int, Int) -> Void)? = nil,
    options: RebuildOptions = RebuildOptions()
  ) throws -> RebuildReport {
    do {
      // Brought up to date with the files where it is folded, under its lock.
      let state = try SavedState.open(journal: store.log.url, store: store, catchingUp: false)
      return try run(
        .state(state),
        quarantined: [:],
        output: output,
        asOf: nil,
        progress: progress,
        options: options
      )
    } catch is SavedState.Unavailable {
      // Thrown before any document is written: the state is read before the fold.
      return try run(
        streamed: try StreamedHistory(store: store),
        output: output,
        progress: progress,
        options: options
      )
    }
  }

  /// Rebuilds every document of a journal read as it is folded: a full rebuild whose memory
  /// grows with the documents, not with the history.
  ///
  /// The documents and the manifest are the same bytes as
  /// ``run(journal:output:asOf:full:progress:options:)`` writes with `full` set; the
  /// history is read twice (``StreamedHistory``).
  ///
  /// - Throws: ``RebuildError``; ``StreamedHistoryChanged`` (before any document is
  ///   written) when the journal's files change between the scan and the fold.
  @discardableResult
  package static func run(
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
      progress: progress,
      options: options
    )
  }

  /// The files of `journal`'s store, when it is kept in files.
  static func fileStore(of journal: Journal) -> FileEventStore? {
    if let store = journal.store as? FileEventStore { return store }
    return (journal.store as? ScopedEventStore)?.base
  }

  /// Locks `output` and runs one rebuild of `source` into it.
  private static func run(
    _ source: RebuildRun.Source,
    quarantined: [String: String],
    output: URL,
    asOf: Replayer.Point?,
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
    return try run.execute()
  }
}

/// One rebuild, from reading the folder to saving its record.
struct RebuildRun {
  /// What is folded: a history held by a journal, a history read as it is folded (full
  /// rebuilds only, without an as-of point), or the saved state's streams.
  enum Source {
    case held([FoldEvent])
    case streamed(StreamedHistory)
    case state(SavedState)
  }

  let source: Source
  /// The streams whose documents are left as they are, with why.
  var quarantined: [String: String]
  let asOf: Replayer.Point?
  let writer: DocumentTreeWriter
  let elapsed: @Sendable () -> Duration
  let progress: ((Int, Int) -> Void)?

  /// The output folder's manifest, opened under the folder's lock.
  let manifest: ProjectionManifest
  var report = RebuildReport()
  /// Every owned path by stream, when the run needs them all (every stream folded, or
  /// quarantined streams); otherwise owned paths are looked up by folder.
  var ownedByStream: [String: [String]]?

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

  /// The fold to render.
  struct Folded {
    /// The streams to render; one without a state below renders no document.
    var streams: [String]
    var splits: [String: SplitState]
    var workouts: [String: WorkoutState]
    /// Whether `streams` is every stream: the owned documents of any other are removed.
    var isComplete: Bool
    var renderNow: Date?
    /// The paths, besides the rendered ones, where a stream's documents may have been
    /// rendered before (a workout's at each start it was given).
    var formerPaths: [String: [String]] = [:]
    /// The expiry of every rendered stream, set while rendering.
    var expiries: [String: Date?] = [:]
    /// What to record in the output folder once the documents are written; nil for a
    /// replay, whose position in the saved state is not known.
    var record: RebuildRecord?
  }

  mutating func execute() throws -> RebuildReport {
    let interrupted = manifest.isInterrupted
    // Temporary files live next to what they replace: the manifest's log at every run,
    // documents only after an interruption, the manifest's shards when they are next
    // written.
    report.cleanedTemporaryFiles = try writer.removeTemporaryFiles(
      in: ["", ProjectionManifest.folder],
      recursive: false
    )
    if interrupted {
      report.cleanedTemporaryFiles += try writer.removeTemporaryFiles(
        in: Rebuild.documentFolders,
        recursive: true
      )
    }
    try removeFormerCheckpoint()

    let started = elapsed()
    var folded: Folded
    switch source {
    case .streamed(let history):
      precondition(asOf == nil, "a streamed history is only folded whole")
      var fold = Replayer.Fold(cancelled: history.cancelled)
      var count = 0
      try history.forEachEvent { event in
        fold.apply(event)
        count += 1
      }
      folded = replayed(fold.state, count: count)
    case .held(let history):
      folded = replayed(Replayer.fold(history, upTo: asOf), count: Self.count(history, asOf))
    case .state(let state):
      folded = try foldStreams(of: state)
    }
    report.timings.fold = seconds(since: started)
    report.quarantined = quarantined

    let plan = try planChanges(&folded)
    try write(plan)
    try saveRecord(folded)

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

  /// How many events of `history` a fold up to `point` reads.
  static func count(_ history: [FoldEvent], _ point: Replayer.Point?) -> Int {
    Replayer.prefix(history, upTo: point).count
  }

  /// A whole fold's result: every stream to render.
  mutating func replayed(_ state: JournalState, count: Int) -> Folded {
    report.mode = .full
    report.eventsFolded = count
    report.anomalyCount = state.anomalies.count
    return Folded(
      streams: state.splits.keys.map { "split:\($0)" }
        + state.workouts.keys.map { "workout:\($0)" },
      splits: state.splits,
      workouts: state.workouts,
      isComplete: true,
      renderNow: state.now
    )
  }

  /// Removes the checkpoint folder earlier builds kept: nothing reads it any more.
  private func removeFormerCheckpoint() throws {
    guard try writer.entry(Rebuild.formerCheckpoint) == .folder else { return }
    do {
      try FileManager.default.removeItem(atPath: writer.absolute(Rebuild.formerCheckpoint))
    } catch {
      throw RebuildError(.io, path: Rebuild.formerCheckpoint, "cannot remove: \(error)")
    }
  }

  // MARK: - The record

  /// Saves what the folder was rebuilt from, when the documents match it: not after a
  /// conflict (a document left alone does not), nor after a replay.
  mutating func saveRecord(_ folded: Folded) throws {
    let started = elapsed()
    defer { report.timings.record += seconds(since: started) }
    guard var record = folded.record, report.conflicts.isEmpty else {
      if try writer.entry(RebuildRecord.path) == .file { try writer.remove(RebuildRecord.path) }
      return
    }
    for stream in folded.streams {
      guard let expiry = folded.expiries[stream] ?? nil else {
        record.expiring[stream] = nil
        continue
      }
      record.expiring[stream] = expiry.milliseconds
    }
    // In place, not renamed over: on ext4 a rename over a file forces its data out, which
    // costs as much as a flush. A torn record fails its checksum.
    try writer.writeInPlace(RebuildRecord.path, record.encoded())
  }

  /// The record of the last rebuild of this folder; nil with why when there is none to
  /// start from.
  func loadRecord() -> Result<RebuildRecord, Refold> {
    guard !manifest.isInterrupted else { return .failure("the last rebuild was interrupted") }
    guard (try? writer.entry(RebuildRecord.path)) == .file,
      let bytes = try? writer.read(RebuildRecord.path)
    else { return .failure(Refold(Self.noRecord)) }
    guard let record = RebuildRecord(bytes) else {
      return .failure("its record of the saved state is damaged")
    }
    return .success(record)
  }

  static let noRecord = "no record of the saved state it was rebuilt from"

  /// Why a rebuild from the saved state folds every stream.
  struct Refold: Error, ExpressibleByStringLiteral {
    var reason: String
    init(_ reason: String) { self.reason = reason }
    init(stringLiteral value: String) { reason = value }
  }
}
