import Foundation
import JournalCore

/// A small cache in the journal folder that lets `journal today` answer
/// without reading the history: the fold of the recent past, and where each
/// device's log stood when it was taken.
///
/// `journal today` needs every split, but only the workouts touched lately,
/// the newest one and any still open. After a full read the cache keeps those
/// workouts (the *recent* ones: any activity, a start or a set completed, within
/// ``window`` before the last event; and the newest live workout and the newest open one,
/// whatever their age) and, for the others, only what proves they cannot change the
/// answer: their ids, and the newest of them. The next
/// `today` reads the cache, reads each device's log only after the position
/// recorded for it, folds those new events on top, and answers, provided that
///
/// - every device's log still holds, at the recorded position, the very record
///   that was the last one folded (otherwise history changed under the cache);
/// - nothing was set aside on the way (a torn tail, a sync artefact, a corrupt
///   or unreadable record): the full read reports those;
/// - the new events sort after the last event folded, revert only new events,
///   and touch no workout that was left out of the cache;
/// - the day asked about starts within the window, and a workout in the cache
///   is newer than every workout left out (so "last trained" and "in
///   progress" come from the cache).
///
/// Otherwise the caller reads the whole history, as without a cache. The
/// answer is the same either way: the cache changes the speed, never the
/// output. A cache is written only after a read that set nothing aside and
/// quarantined no stream; it lives in `.cache/today/` (mode 0700, files 0600),
/// is local to the machine, and may be deleted at any time.
public enum TodayCache {
  /// The cache folder, relative to the journal folder.
  public static let folder = ".cache/today"
  static let stateFile = folder + "/state"
  static let outsideFile = folder + "/outside"
  static let format = 2
  /// How far before the last event a workout's activity keeps it in the cache.
  ///
  /// A local day starts at most 25 hours before any moment in it (a day that
  /// ends summer time is 25 hours long), so the day of any moment after the
  /// last event starts within this window: asked about the present, the cache
  /// answers.
  public static let window: TimeInterval = 30 * 3600

  /// A workout's place in the `liveWorkouts` order, kept for workouts left out of the cache.
  typealias WorkoutKey = JournalState.WorkoutKey

  /// The cache's state file.
  struct Contents: Equatable {
    var format = TodayCache.format
    var build = Checkpoint.buildFingerprint
    var positions: [String: DevicePosition]
    var last: FoldEvent.MergeKey?
    var now: Date?
    var eventCount: Int
    /// Workouts with activity at or after this time are all in ``workouts``.
    var windowStart: Date
    /// The newest live workout left out, and the newest open one left out.
    var newestOutside: WorkoutKey?
    var newestOpenOutside: WorkoutKey?
    /// SHA-256 of the `outside` file (the ids of the workouts left out).
    var outsideDigest: String
    var splits: [SplitState]
    var workouts: [WorkoutState]
  }

  // MARK: - Answering

  /// The answer to `journal today` from the cache, or nil when the cache
  /// cannot give it (missing, stale, or the question is outside what it
  /// holds); the caller then reads the whole journal.
  ///
  /// Brings the cache up to date when new events were folded.
  public static func snapshot(
    journalAt url: URL,
    at moment: Date,
    timeZone: TimeZone
  ) -> TodaySnapshot? {
    let files = DocumentTreeWriter(root: url)
    guard let contents = load(files) else { return nil }
    guard let (state, updated) = catchUp(contents, journalAt: url, files: files) else {
      return nil
    }
    guard answers(updated, state: state, at: moment, timeZone: timeZone) else { return nil }
    if updated != contents { try? save(updated, state: state, files: files) }
    return TodayProjection.snapshot(of: state, at: moment, timeZone: timeZone)
  }

  /// Reads and checks the state file.
  static func load(_ files: DocumentTreeWriter) -> Contents? {
    guard let bytes = try? files.read(stateFile), let body = checked(bytes),
      let contents = try? Checkpoint.decodeState(Contents.self, from: body),
      contents.format == format, contents.build == Checkpoint.buildFingerprint
    else { return nil }
    return contents
  }

  /// Reads the events after the cached positions and folds them onto the
  /// cached state; nil when they cannot be folded there.
  static func catchUp(
    _ contents: Contents,
    journalAt url: URL,
    files: DocumentTreeWriter
  ) -> (JournalState, Contents)? {
    guard let log = try? EventLog(at: url),
      let tail = try? log.readHistory(after: contents.positions),
      tail.notices.isEmpty, tail.duplicates.isEmpty, tail.errors.isEmpty,
      let upcaster = try? EventUpcasters.makeUpcaster()
    else { return nil }
    var events: [FoldEvent] = []
    for record in tail.records {
      guard
        case .success(let decoded) = Journal.decode(
          FileEventStore.stored(record),
          upcaster: upcaster
        )
      else { return nil }
      events += decoded
    }
    if let last = contents.last, let first = events.first, first.mergeKey <= last { return nil }
    let ids = Set(events.map(\.storedID))
    for event in events {
      if case .eventsReverted(let revert) = event.event,
        revert.eventIDs.contains(where: { !ids.contains($0) })
      {
        return nil
      }
    }

    var state = JournalState()
    state.now = contents.now
    state.eventCount = contents.eventCount
    for split in contents.splits { state.splits[split.document.id] = split }
    for workout in contents.workouts { state.workouts[workout.document.id] = workout }
    let touched = Set(
      events.filter { $0.stream.hasPrefix("workout:") }.map(\.streamID)
    ).filter { state.workouts[$0] == nil }
    if !touched.isEmpty {
      guard let outside = try? files.read(outsideFile),
        SHA256Digest.hex(outside) == contents.outsideDigest
      else { return nil }
      let listed = Set(String(decoding: outside, as: UTF8.self).split(separator: "\n"))
      if touched.contains(where: { listed.contains(Substring($0)) }) { return nil }
    }
    guard !events.isEmpty else { return (state, contents) }
    state = Replayer.fold(events, startingFrom: state)

    var updated = contents
    updated.positions = contents.positions.merging(tail.positions) { $1 }
    updated.last = events.last?.mergeKey
    updated.now = state.now
    if let now = state.now { updated.windowStart = max(contents.windowStart, now - window) }
    updated.eventCount = state.eventCount
    updated.splits = state.splits.values.sorted { $0.document.id < $1.document.id }
    updated.workouts = state.workouts.values.sorted { $0.document.id < $1.document.id }
    return (state, updated)
  }

  /// Whether the cached state gives the same snapshot as the whole state for
  /// the day containing `moment`.
  static func answers(
    _ contents: Contents,
    state: JournalState,
    at moment: Date,
    timeZone: TimeZone
  ) -> Bool {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let dayStart = calendar.startOfDay(for: moment)
    guard let dayEnd = calendar.date(byAdding: .day, value: 1, to: dayStart),
      dayStart >= contents.windowStart
    else { return false }
    // The snapshot looks at live workouts started before the day ends: the
    // newest of them, and the newest open one, must be in the cache.
    let live = state.liveWorkouts
    if let outside = contents.newestOutside {
      guard let trained = live.last(where: { $0.document.start < dayEnd }),
        WorkoutKey(trained) > outside
      else { return false }
    }
    if let outside = contents.newestOpenOutside {
      guard
        let open = live.last(where: {
          $0.document.start <= dayEnd && !$0.document.status.isResolved
        }),
        WorkoutKey(open) > outside
      else { return false }
    }
    return true
  }

  // MARK: - Writing

  /// Writes the cache for `journal` after a full read.
  ///
  /// Does nothing when the read set something aside, a stream is quarantined,
  /// or the store keeps no positions. Errors are ignored: the cache is only a
  /// cache.
  public static func save(_ journal: Journal, journalAt url: URL) {
    guard journal.notices.isEmpty, journal.quarantined.isEmpty, !journal.positions.isEmpty
    else { return }
    let state = journal.state()
    let anchor = state.now ?? Date(timeIntervalSinceReferenceDate: 0)
    let contents = Contents(
      positions: journal.positions,
      last: journal.history.last?.mergeKey,
      now: state.now,
      eventCount: state.eventCount,
      windowStart: anchor - window,
      newestOutside: nil,
      newestOpenOutside: nil,
      outsideDigest: "",
      splits: state.splits.values.sorted { $0.document.id < $1.document.id },
      workouts: []
    )
    let files = DocumentTreeWriter(root: url)
    try? save(contents, state: state, files: files)
  }

  /// Writes `contents` with `state`'s workouts split into kept and left out.
  static func save(_ contents: Contents, state: JournalState, files: DocumentTreeWriter) throws {
    var contents = contents
    var kept: [WorkoutState] = []
    var outside: [String] = []
    // The newest live workout and the newest open one are what `today` reports as trained
    // last and in progress: kept whatever their age, so that a cache whose last event is a
    // revert (an undo of the day's only workout) still answers.
    let newest = state.latestLiveWorkout.map(WorkoutKey.init)
    let newestOpen = state.workouts.values.lazy
      .filter { $0.deletedAt == nil && !$0.document.status.isResolved }
      .max(by: JournalState.startsBefore).map(WorkoutKey.init)
    for workout in state.workouts.values {
      let key = WorkoutKey(workout)
      if activity(of: workout) >= contents.windowStart || key == newest || key == newestOpen {
        kept.append(workout)
        continue
      }
      outside.append(workout.document.id)
      guard workout.deletedAt == nil else { continue }
      if contents.newestOutside.map({ key > $0 }) ?? true { contents.newestOutside = key }
      if !workout.document.status.isResolved,
        contents.newestOpenOutside.map({ key > $0 }) ?? true
      {
        contents.newestOpenOutside = key
      }
    }
    contents.workouts = kept.sorted { $0.document.id < $1.document.id }
    if !outside.isEmpty || contents.outsideDigest.isEmpty {
      // Workouts left out before stay left out: add the new ones to the list.
      var listed = Set<String>()
      if !contents.outsideDigest.isEmpty {
        guard let previous = try files.read(outsideFile),
          SHA256Digest.hex(previous) == contents.outsideDigest
        else { return }
        listed = Set(
          String(decoding: previous, as: UTF8.self).split(separator: "\n").map(String.init)
        )
      }
      listed.formUnion(outside)
      let bytes = Array(listed.sorted().map { $0 + "\n" }.joined().utf8)
      try files.writeAtomically(outsideFile, bytes, durable: false)
      contents.outsideDigest = SHA256Digest.hex(bytes)
    }
    var bytes = try Checkpoint.encodeState(contents)
    bytes += Array("\n\(SHA256Digest.hex(bytes))\n".utf8)
    try files.writeAtomically(stateFile, bytes, durable: false)
  }

  /// The latest of a workout's start and its sets' completion times.
  static func activity(of workout: WorkoutState) -> Date {
    var latest = workout.document.start
    for log in workout.document.logs {
      for entry in log.setEntries ?? [] where entry.completedAt > latest {
        latest = entry.completedAt
      }
    }
    return latest
  }

  /// The body of a state file whose last line is the SHA-256 of the rest.
  static func checked(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count > 66, bytes.last == UInt8(ascii: "\n"),
      bytes[bytes.count - 66] == UInt8(ascii: "\n")
    else { return nil }
    let body = Array(bytes[..<(bytes.count - 66)])
    let digest = String(decoding: bytes[(bytes.count - 65)..<(bytes.count - 1)], as: UTF8.self)
    return SHA256Digest.hex(body) == digest ? body : nil
  }
}

// MARK: - The state file's form

// The state file is written with the checkpoint's stream-file code
// (`Checkpoint+Streams.swift`): the same JSON form, the splits and workouts as their
// stream files hold them.

extension TodayCache.Contents: CheckpointStream {
  func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginObject()
    writer.member("build", build)
    writer.member("eventCount", eventCount)
    writer.member("format", format)
    if let last {
      writer.key("last")
      last.writeCheckpoint(to: &writer)
    }
    if let newestOpenOutside {
      writer.key("newestOpenOutside")
      newestOpenOutside.writeCheckpoint(to: &writer)
    }
    if let newestOutside {
      writer.key("newestOutside")
      newestOutside.writeCheckpoint(to: &writer)
    }
    writer.member("now", date: now)
    writer.member("outsideDigest", outsideDigest)
    writer.key("positions")
    try writer.object(positions) { writer, position throws(JournalError) in
      position.writeCheckpoint(to: &writer)
    }
    writer.key("splits")
    writer.beginArray()
    for split in splits { try split.writeCheckpoint(to: &writer) }
    writer.endArray()
    writer.member("windowStart", date: windowStart)
    writer.key("workouts")
    writer.beginArray()
    for workout in workouts { try workout.writeCheckpoint(to: &writer) }
    writer.endArray()
    writer.endObject()
  }

  init(checkpoint reader: PayloadReader) throws(PayloadError) {
    let positionsReader = try reader.object("positions")
    var positions: [String: DevicePosition] = [:]
    for device in positionsReader.object.keys {
      positions[device] = try DevicePosition(checkpoint: positionsReader.object(device))
    }
    self.init(
      format: try reader.int("format"),
      build: try reader.string("build"),
      positions: positions,
      last: reader.has("last") ? try FoldEvent.MergeKey(checkpoint: reader.object("last")) : nil,
      now: try reader.optionalDate("now"),
      eventCount: try reader.int("eventCount"),
      windowStart: try reader.date("windowStart"),
      newestOutside: reader.has("newestOutside")
        ? try TodayCache.WorkoutKey(checkpoint: reader.object("newestOutside")) : nil,
      newestOpenOutside: reader.has("newestOpenOutside")
        ? try TodayCache.WorkoutKey(checkpoint: reader.object("newestOpenOutside")) : nil,
      outsideDigest: try reader.string("outsideDigest"),
      splits: try reader.objects("splits").map { reader throws(PayloadError) in
        try SplitState(checkpoint: reader)
      },
      workouts: try reader.objects("workouts").map { reader throws(PayloadError) in
        try WorkoutState(checkpoint: reader)
      }
    )
  }
}

extension TodayCache.WorkoutKey {
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) {
    writer.beginObject()
    writer.member("id", id)
    writer.member("start", date: start)
    writer.endObject()
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    self.init(start: try reader.date("start"), id: try reader.string("id"))
  }
}

extension FoldEvent.MergeKey {
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) {
    writer.beginObject()
    writer.member("counter", Int(counter))
    writer.member("device", device)
    writer.member("milliseconds", milliseconds)
    writer.member("sequence", Int64(bitPattern: sequence))
    writer.endObject()
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    guard let milliseconds = try reader.optionalInt64("milliseconds"),
      let counter = UInt32(exactly: try reader.int("counter")),
      let sequence = try reader.optionalInt64("sequence")
    else { throw PayloadError(type: reader.type, message: "field 'last' is not a merge key") }
    self.init(
      milliseconds: milliseconds,
      counter: counter,
      device: try reader.string("device"),
      sequence: UInt64(bitPattern: sequence)
    )
  }
}

extension DevicePosition {
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) {
    writer.beginObject()
    writer.member("hash", hash.description)
    writer.member("length", length)
    writer.member("line", line)
    writer.member("offset", offset)
    writer.member("segment", segment)
    writer.member("sequence", Int64(bitPattern: sequence))
    writer.endObject()
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    guard let sequence = try reader.optionalInt64("sequence"),
      let hash = SHA256Digest(hexString: try reader.string("hash"))
    else { throw PayloadError(type: reader.type, message: "field 'positions' is not a position") }
    self.init(
      segment: try reader.int("segment"),
      offset: try reader.int("offset"),
      line: try reader.int("line"),
      sequence: UInt64(bitPattern: sequence),
      length: try reader.int("length"),
      hash: hash
    )
  }
}
