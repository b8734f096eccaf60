import Foundation
import JournalCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The saved state of one journal folder on this device: what every command opens instead
/// of replaying the whole history (docs/OnDiskFormat.md, "The saved state").
///
/// It holds each stream's events, indexed by stream, with where each device's reading ended,
/// and the read models that let a command find the streams it needs without reading the
/// others: the catalogue of workouts (start, open or closed, deleted), the open workouts, the
/// latest one, and the streams each device acted on last. Opening it reads only what the
/// devices appended after its positions (``catchUp()``); a command then loads the events of
/// the streams it touches and every split's (``events(for:)``), and folds them. Each stream's
/// file also holds the reverts that concern its events, so the fold of those streams equals
/// the fold of the whole history restricted to them: a workout's events change that workout
/// alone and split events change splits alone (``JournalEvent/foldTarget``).
///
/// It is a cache: deleting or damaging it changes how long a command takes, never what it
/// answers. Every file carries a checksum; one that does not check, a state saved by a build
/// whose fold differs (``FoldVersion/key``), or a position that no longer names its record
/// makes the state start again from a full read.
package final class SavedState: @unchecked Sendable {
  /// The folder, inside the journal folder.
  package static let folder = ".journal-state"
  /// The layout's version.
  static let format = 6
  /// How many streams a device's latest actions are remembered in.
  static let recentLimit = 16
  /// How many of the most recently active workouts the head lists.
  static let activeLimit = 32

  let files: DocumentTreeWriter
  /// The same files as its parts write them: through the journal's system calls.
  let stateFiles: StateFolder
  private let store: FileEventStore
  let upcaster: Upcaster
  /// Whether this state may only be read (``open(journal:store:readOnly:)``).
  private(set) var readOnly = false
  /// The head: small, read by every command.
  package private(set) var head = Head()
  /// Why the last ``open(journal:store:)`` read everything, nil when it caught up.
  package private(set) var rebuiltBecause: String?
  /// What this catch-up's read set aside that the head does not hold.
  private var tailNotices: [String] = []
  /// The reverts this build cannot decode, once read (``undecodableRevertRecords()``).
  ///
  /// Every slice holds them; forgotten when the list of their buckets changes.
  var undecodableRecords: [StoredEvent]?

  /// What this command's read set aside.
  ///
  /// Torn tails, sync copies, corruption, and the duplicates it met. Each read reports what it met, so a duplicate is reported by the
  /// command that first reads it.
  package var notices: [String] { tailNotices }

  /// The head file: positions, the fold's `now`, and the small read models.
  package struct Head: Equatable, Sendable {
    var format = SavedState.format
    var fold = FoldVersion.key
    /// Where each device's reading ended.
    var positions: [String: DevicePosition] = [:]
    /// The branches of forked devices folded in (`<device> <head>`, sorted): a read after the
    /// positions does not hand on a branch's records, so a fork that appears, or a copy
    /// that changes, makes the state read everything again.
    var branches: [String] = []
    /// The last event in merge order.
    var frontier: FoldEvent.MergeKey?
    /// The fold's `now` (milliseconds): the latest record time of an event in effect.
    var now: Int64?
    /// The streams that are not a workout's nor the reverts': the splits', the splits'
    /// order, and any other a command must always see.
    var splits: [String] = []
    /// The live workouts still in progress, by id.
    var open: [String] = []
    /// The latest live workout (by start, then id).
    var latest: String?
    /// When the latest live workout started (milliseconds).
    var latestStart: Int64?
    /// The most recently active live workouts, the most recent first (``activeLimit``).
    var active: [WorkoutEntry] = []
    /// The latest activity of a live workout not in ``active``; nil when none was left out.
    var activeFloor: Int64?
    /// For each device, the streams of its latest events, newest first, with the merge key
    /// of the device's last event in each.
    var recent: [String: [RecentStream]] = [:]
    /// Streams set aside because an event of theirs cannot be read, with the reason.
    var quarantined: [String: String] = [:]
  }

  /// A stream a device acted on lately.
  package struct RecentStream: Equatable, Sendable {
    var stream: String
    var last: FoldEvent.MergeKey
  }

  /// A workout as the catalogue lists it.
  struct WorkoutEntry: Equatable, Sendable {
    var id: String
    var start: Int64
    /// The latest of its start and its sets' completion times.
    var activity: Int64
    /// `o` in progress, `c` resolved, `d` deleted.
    var mark: Character
  }

  private init(files: DocumentTreeWriter, store: FileEventStore, upcaster: Upcaster) {
    self.files = files
    self.store = store
    self.upcaster = upcaster
    stateFiles = StateFolder(files, io: store.log.fileIO)
  }

  /// Opens the saved state of the journal at `url` and brings it up to date with the files.
  ///
  /// Waits for another command holding the state to finish: the state is one per folder and
  /// device, and commands are short. Starts again from a full read when there is no state or
  /// it cannot be trusted (``rebuiltBecause`` says why).
  ///
  /// - Parameters:
  ///   - url: the journal folder.
  ///   - store: its store.
  ///   - readOnly: write nothing: a state that is missing, damaged or behind the files
  ///     throws ``Unavailable`` instead of being brought up to date.
  ///   - catchingUp: bring the state up to date with the files; a caller that holds the
  ///     state's lock for what it reads next (``locked(_:)``) passes false and calls
  ///     ``catchUp(unavailableOnFailure:)`` there, so that the state is read once.
  /// - Returns: the state, up to date with the files unless `catchingUp` is false.
  /// - Throws: the store's errors; ``Unavailable`` when the state folder cannot be used.
  package static func open(
    journal url: URL,
    store: FileEventStore,
    readOnly: Bool = false,
    catchingUp: Bool = true
  ) throws -> SavedState {
    let files = DocumentTreeWriter(root: url.appendingPathComponent(folder))
    let state = SavedState(
      files: files,
      store: store,
      upcaster: try EventUpcasters.makeUpcaster()
    )
    state.readOnly = readOnly
    do {
      if !readOnly { try files.makeRoot() }
    } catch let error as RebuildError {
      throw Unavailable(reason: error.description)
    }
    guard catchingUp else { return state }
    if readOnly {
      try state.catchUp(unavailableOnFailure: true)
    } else {
      try state.locked { try state.catchUp(unavailableOnFailure: true) }
    }
    return state
  }

  /// ``catchUp()``, where a state that cannot be written throws ``Unavailable``.
  func catchUp(unavailableOnFailure: Bool) throws {
    do {
      try catchUp()
    } catch let error as RebuildError where unavailableOnFailure {
      throw Unavailable(reason: error.description)
    }
  }

  /// The saved state cannot be read or written here (a read-only folder, a full disk).
  package struct Unavailable: Error {
    var reason: String
  }

  /// Runs `body` holding the state's lock, so that two commands never write the state at
  /// once; what another command wrote before is read afresh.
  func locked<T>(_ body: () throws -> T) throws -> T {
    let path = files.absolute("lock")
    let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { throw Unavailable(reason: "cannot open '\(path)'") }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      if errno == EINTR { continue }
      throw Unavailable(reason: "cannot lock '\(path)'")
    }
    return try body()
  }

  // MARK: - Catching up

  /// Reads what the devices appended after the head's positions and folds it in; reads
  /// everything instead when the head is missing, damaged, of another fold, or a position no
  /// longer names its record.
  func catchUp() throws {
    guard let loaded = loadHead() else { return try rebuild(because: "there is no saved state") }
    if case .failure(let reason) = loaded { return try rebuild(because: reason.reason) }
    guard case .success(let head) = loaded else { return }
    self.head = head
    let tail: StoredHistory
    do {
      tail = try store.readHistory(after: head.positions)
    } catch let error as JournalError where error.kind == .positionChanged {
      return try rebuild(because: "a file changed under it: \(error.message)")
    }
    guard Self.branches(of: tail.forks) == head.branches else {
      return try rebuild(because: "a fork of a device's history arrived or changed")
    }
    // A fork already folded in was reported by the command that first read it.
    let known = Set(tail.forks.map(\.description))
    tailNotices = tail.notices.filter { !known.contains($0) }
    if tail.events.isEmpty, tail.positions == head.positions {
      return
    }
    if readOnly { throw Unavailable(reason: "the devices appended since it was saved") }
    do {
      try ingest(Array(tail.events), positions: tail.positions)
    } catch let failure as Untrusted {
      try rebuild(because: failure.reason)
    }
  }

  /// Starts again from every stored event.
  func rebuild(because reason: String) throws {
    if readOnly { throw Unavailable(reason: reason) }
    rebuiltBecause = reason
    tailNotices = []
    undecodableRecords = nil
    for relative in [
      "head", "catalogue", "streams", "ids", "named", "reverts", "exercises", "splits",
      ReportIndex.folder, Ends.folder, Dues.file,
    ] {
      let path = files.absolute(relative)
      if FileManager.default.fileExists(atPath: path) {
        try FileManager.default.removeItem(atPath: path)
      }
    }
    head = Head()
    try ChangeList.start(in: files)
    let all = try store.readHistory(after: [:])
    tailNotices = all.notices
    head.branches = Self.branches(of: all.forks)
    try ingest(Array(all.events), positions: all.positions, rebuilding: true)
  }

  /// The branches of `forks` as the head lists them.
  static func branches(of forks: [Fork]) -> [String] {
    Set(forks.map { "\($0.device) \($0.head.hexString)" }).sorted()
  }

  /// A state that must be read again from the files, with why.
  struct Untrusted: Error {
    var reason: String
  }

  /// Folds `events` (stored events after the head's positions, in merge order) into the
  /// state, and moves the positions to `positions`.
  ///
  /// Each event goes to its stream's file. A revert goes to the file of every stream whose
  /// events it names, directly or through the reverts it names, so that a stream's file holds
  /// every event that decides its fold. A revert that names an event not seen yet is put in
  /// that event's stream when the event arrives.
  ///
  /// - Throws: ``Untrusted`` when the state cannot follow without a full read: a file of it
  ///   does not check, or a revert changed whether the event that set the fold's `now` counts.
  ///
  /// The exercise index is brought up to date at once when `rebuilding`, which folds every
  /// workout anyway; else the touched workouts are listed for the next read of it
  /// (``refreshExercises()``), so that a write does not pay for records nobody asked for.
  private func ingest(
    _ events: [StoredEvent],
    positions: [String: DevicePosition],
    rebuilding: Bool = false
  ) throws {
    var head = self.head
    var streamsOf = BucketedMap(files: stateFiles, folder: "ids")
    var namedBy = BucketedMap(files: stateFiles, folder: "named")
    var revertRecords: [String: StoredEvent] = [:]
    var additions: [String: [StoredEvent]] = [:]
    // (event id, stream it was just put in): whose namers must follow it there.
    var placed: [(String, String)] = []
    var reverts: [StoredEvent] = []
    for event in events {
      guard Self.isStorable(event.stream) else {
        throw Untrusted(reason: "stream '\(event.stream)' cannot be named in the saved state")
      }
      let key = Self.mergeKey(event)
      if head.frontier.map({ key > $0 }) ?? true { head.frontier = key }
      if event.type == JournalEvent.TypeName.eventsReverted {
        reverts.append(event)
        continue
      }
      if !event.stream.hasPrefix("workout:"), !head.splits.contains(event.stream) {
        head.splits.append(event.stream)
      }
      if try streamsOf.values(of: event.id).isEmpty {
        try streamsOf.set(event.id, [event.stream])
      }
      additions[event.stream, default: []].append(event)
      placed.append((event.id, event.stream))
    }
    head.splits.sort()
    for revert in reverts {
      revertRecords[revert.id] = revert
      var placements: [String] = []
      for named in namedIDs(revert) {
        try namedBy.add(named, revert.id)
        for stream in try streamsOf.values(of: named) where !placements.contains(stream) {
          placements.append(stream)
        }
      }
      try streamsOf.set(revert.id, placements)
      for stream in placements {
        additions[stream, default: []].append(revert)
        placed.append((revert.id, stream))
      }
    }
    var ends = Ends(self)
    try storeReverts(reverts, ends: &ends)
    // Reverts that named an event before it arrived follow it into its stream.
    while let (id, stream) = placed.popLast() {
      for namer in try namedBy.values(of: id) {
        var placements = try streamsOf.values(of: namer)
        guard !placements.contains(stream) else { continue }
        guard let record = try revertRecords[namer] ?? loadRevert(namer) else { continue }
        revertRecords[namer] = record
        placements.append(stream)
        try streamsOf.set(namer, placements)
        additions[stream, default: []].append(record)
        placed.append((namer, stream))
      }
    }
    try streamsOf.save()
    try namedBy.save()

    // Each touched stream: its events merged with the new ones, in merge order, no id twice.
    // The latest record time of the events that came into effect, and those of the events
    // that went out of it, decide the fold's `now`, the latest record time in effect.
    var cameIn: Int64?
    var wentOut: [Int64] = []
    // The catalogue's entry of each touched workout: nil when it is not listed (never
    // started, its start undone, or quarantined).
    var listed: [String: WorkoutEntry?] = [:]
    // When rebuilding, each touched workout's part of each exercise, and the year (UTC) it
    // started.
    var exercises: [String: [String: ExerciseIndex.Entry]] = [:]
    var years: [String: Int] = [:]
    var dues = try Dues.load(stateFiles)
    for stream in additions.keys.sorted() {
      let old = try streamEvents(stream)
      var held = old
      var known = Set(held.map(\.id))
      var added: [StoredEvent] = []
      for event in additions[stream] ?? [] {
        guard known.insert(event.id).inserted else {
          if let copy = held.first(where: { $0.id == event.id })
            ?? added.first(where: { $0.id == event.id })
          {
            try Self.checkMetAgain(event, holding: copy)
          }
          tailNotices.append("\(event.location): duplicate of event \(event.id) set aside")
          continue
        }
        added.append(event)
      }
      guard !added.isEmpty else { continue }
      held += added
      held.sort { Self.mergeKey($0) < Self.mergeKey($1) }
      if !rebuilding { try ChangeList.append([stream], in: files) }
      try writeStream(stream, held)
      try ends.move(
        Self.streamPath(stream),
        from: old.last?.milliseconds,
        to: held.last?.milliseconds
      )

      var decoded: [FoldEvent] = []
      var failures: [String] = []
      // Whether a revert it holds cannot be decoded either: its slice then leaves out every
      // revert (``slice(_:)``), and differs from this fold.
      var undecodable = false
      for stored in held {
        if let failure = Journal.decode(stored, upcaster: upcaster, into: &decoded) {
          undecodable = true
          if stored.stream == stream { failures.append("\(stored.location): \(failure.reason)") }
        }
      }
      // The reverts held before decide what counted before: the same decoded events, less
      // the added ones.
      let addedIDs = Set(added.map(\.id))
      let before = Replayer.cancelledEvents(
        in: decoded.filter { !addedIDs.contains($0.storedID) }
      )
      let after = Replayer.cancelledEvents(in: decoded)
      if !failures.isEmpty {
        // A quarantined stream's events are not in the history a full replay folds: none of
        // them sets `now`.
        for event in old where before[event.id] == nil { wentOut.append(event.milliseconds) }
      } else {
        for event in old where (before[event.id] == nil) != (after[event.id] == nil) {
          if after[event.id] == nil {
            cameIn = max(cameIn ?? event.milliseconds, event.milliseconds)
          } else {
            wentOut.append(event.milliseconds)
          }
        }
        for event in added where after[event.id] == nil {
          cameIn = max(cameIn ?? event.milliseconds, event.milliseconds)
        }
      }
      if stream.hasPrefix("workout:") {
        let id = FoldEvent.streamID(of: stream)
        if let failure = failures.first {
          head.quarantined[stream] = failure
          listed[id] = .some(nil)
          exercises[id] = [:]
          dues.set(Self.streamPath(stream), nil)
        } else {
          head.quarantined[stream] = nil
          let state = Replayer.fold(decoded)
          dues.set(Self.streamPath(stream), undecodable ? .max : Self.due(of: state))
          listed[id] = .some(Self.entry(of: id, in: state))
          if rebuilding {
            (exercises[id], years[id]) = Self.exerciseParts(of: id, in: state, history: decoded)
          }
        }
      }
    }
    // A revert that names nothing known is in no stream, and counts for `now` alone.
    for revert in reverts where try streamsOf.values(of: revert.id).isEmpty {
      cameIn = max(cameIn ?? revert.milliseconds, revert.milliseconds)
    }
    // An event that went out of effect may have set `now`; then only a later one that came in
    // tells the new `now` without every stream. (A revert is recorded after the events it
    // names, so an undo of the latest event brings in a later one: the revert itself.)
    if let now = head.now, wentOut.contains(where: { $0 >= now }), (cameIn ?? .min) < now {
      throw Untrusted(reason: "a revert changed the latest event in effect")
    }
    if let cameIn, head.now.map({ cameIn > $0 }) ?? true { head.now = cameIn }

    // Recent streams per device, for undo: the streams of its events, and those its reverts
    // (but undo's, which undo passes over) went to.
    for event in events {
      let streams: [String]
      if event.type == JournalEvent.TypeName.eventsReverted {
        if Self.isUndo(event) { continue }
        streams = try streamsOf.values(of: event.id)
      } else {
        streams = [event.stream]
      }
      let key = Self.mergeKey(event)
      var list = head.recent[event.device] ?? []
      for stream in streams {
        if let index = list.firstIndex(where: { $0.stream == stream }) {
          if list[index].last < key { list[index].last = key }
        } else {
          list.append(RecentStream(stream: stream, last: key))
        }
      }
      list.sort { $0.last > $1.last }
      if list.count > Self.recentLimit { list.removeLast(list.count - Self.recentLimit) }
      head.recent[event.device] = list
    }

    try updateCatalogue(listed, head: &head)
    if rebuilding {
      try ExerciseIndex.update(exercises, years: years, files: stateFiles)
    } else if !listed.isEmpty {
      let held = try loadDirty()
      let dirty = held.union(listed.keys)
      if dirty != held {
        try write("exercises/dirty", Array(dirty.sorted().joined(separator: "\n").utf8))
      }
    }
    if additions.keys.contains(where: { !$0.hasPrefix("workout:") }) {
      try saveLiveSplits(head.splits)
      // The splits' slice as ``forEachSlice(_:)`` folds it.
      dues.set("splits", Self.due(of: Replayer.fold(try slice(head.splits))))
    }
    try ends.save()
    try dues.save(stateFiles)
    head.positions = positions
    try saveHead(head)
    self.head = head
  }

  /// A workout's part of each exercise (by key), and the year (UTC) it started.
  static func exerciseParts(
    of id: String,
    in state: JournalState,
    history: [FoldEvent]
  ) -> ([String: ExerciseIndex.Entry], Int?) {
    let start = state.workouts[id]?.document.start
    return (
      ExerciseIndex.entries(in: state, history: history),
      start.map { utc.component(.year, from: $0) }
    )
  }

  /// The workouts whose streams changed since the exercise index was brought up to date.
  private func loadDirty() throws -> Set<String> {
    guard let bytes = try files.read("exercises/dirty") else { return [] }
    guard let body = Self.checked(bytes) else {
      throw Untrusted(reason: "'exercises/dirty' does not match its checksum")
    }
    return Set(
      body.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    )
  }

  /// Runs `read` on the exercise index brought up to date with the workouts changed since it
  /// was (each folded alone, from its stream's file), and keeps the index so brought up to
  /// date only when `read` answers.
  ///
  /// - Throws: what `read` throws; ``Untrusted`` when a file of the state is damaged;
  ///   ``Unavailable`` when the state may only be read and is behind.
  func readingExercises<T>(_ read: (any StateFiles) throws -> T) throws -> T {
    guard !(try loadDirty()).isEmpty else { return try read(stateFiles) }
    if readOnly { throw Unavailable(reason: "its exercise index is behind") }
    return try locked {
      let dirty = try loadDirty()
      let staged = StagedFiles(over: stateFiles)
      var exercises: [String: [String: ExerciseIndex.Entry]] = [:]
      var years: [String: Int] = [:]
      for id in dirty.sorted() {
        let stream = "workout:\(id)"
        var decoded: [FoldEvent] = []
        var quarantined = false
        for stored in try streamEvents(stream) {
          if Journal.decode(stored, upcaster: upcaster, into: &decoded) != nil,
            stored.stream == stream
          {
            quarantined = true
          }
        }
        if quarantined {
          exercises[id] = [:]
        } else {
          (exercises[id], years[id]) = Self.exerciseParts(
            of: id,
            in: Replayer.fold(decoded),
            history: decoded
          )
        }
      }
      try ExerciseIndex.update(exercises, years: years, files: staged)
      try staged.remove("exercises/dirty")
      let answer = try read(staged)
      try staged.commit()
      return answer
    }
  }

  /// Writes the documents of the live splits, in their order, folded from `streams` (every
  /// stream that is not a workout's): what reads that only name things need of the splits.
  private func saveLiveSplits(_ streams: [String]) throws {
    var events: [StoredEvent] = []
    var seen: Set<String> = []
    for stream in streams {
      for event in try streamEvents(stream) where seen.insert(event.id).inserted {
        events.append(event)
      }
    }
    events.sort { Self.mergeKey($0) < Self.mergeKey($1) }
    var decoded: [FoldEvent] = []
    for stored in events { _ = Journal.decode(stored, upcaster: upcaster, into: &decoded) }
    let documents = Replayer.fold(decoded).liveSplits.map(\.document)
    try write("splits", Array(try DocumentCoder.encode(documents)))
  }

  /// The documents of the live splits, in their order.
  func liveSplits() throws -> [SplitDocument] {
    guard let bytes = try files.read("splits") else { return [] }
    guard let body = Self.checked(bytes) else {
      throw Untrusted(reason: "'splits' does not match its checksum")
    }
    do {
      return try DocumentCoder.decode([SplitDocument].self, from: Data(body), file: "splits")
    } catch {
      throw Untrusted(reason: "'splits' is unreadable")
    }
  }

  /// The calendar a workout's year is read in.
  static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar
  }()

  /// The catalogue's entry of workout `id`, from `state` (the fold of its stream's events
  /// and the reverts that concern them); nil when the fold has no such workout.
  static func entry(of id: String, in state: JournalState) -> WorkoutEntry? {
    guard let workout = state.workouts[id] else { return nil }
    let mark: Character =
      workout.deletedAt != nil ? "d" : workout.document.status.isResolved ? "c" : "o"
    var activity = workout.document.start
    for log in workout.document.logs {
      for entry in log.setEntries ?? [] where entry.completedAt > activity {
        activity = entry.completedAt
      }
    }
    return WorkoutEntry(
      id: id,
      start: workout.document.start.milliseconds,
      activity: activity.milliseconds,
      mark: mark
    )
  }

  /// Writes the entries that changed into the catalogue's buckets, and keeps the head's
  /// open workouts, latest workout and most recently active workouts in step.
  private func updateCatalogue(_ listed: [String: WorkoutEntry?], head: inout Head) throws {
    guard !listed.isEmpty else { return }
    var catalogue = BucketedMap(files: stateFiles, folder: "catalogue")
    var latestLost = false
    for (id, entry) in listed.sorted(by: { $0.key < $1.key }) {
      let old = try catalogue.values(of: id)
      let new = entry.map { [String($0.start), String($0.activity), String($0.mark)] } ?? []
      guard old != new else { continue }
      try catalogue.set(id, new)
      head.open.removeAll { $0 == id }
      head.active.removeAll { $0.id == id }
      guard let entry, entry.mark != "d" else {
        if head.latest == id { latestLost = true }
        continue
      }
      if entry.mark == "o" { head.open.append(id) }
      head.active.append(entry)
      if head.latest == id, entry.start != head.latestStart {
        latestLost = true
      } else if head.latestStart.map({ ($0, head.latest ?? "") < (entry.start, id) }) ?? true {
        (head.latest, head.latestStart) = (id, entry.start)
      }
    }
    head.open.sort()
    head.active.sort { ($0.activity, $1.id) > ($1.activity, $0.id) }
    // Every live workout more recently active than the floor is in `active`.
    if head.active.count > Self.activeLimit {
      let cut = head.active[Self.activeLimit...].map(\.activity).max() ?? .min
      head.activeFloor = max(head.activeFloor ?? cut, cut)
      head.active.removeLast(head.active.count - Self.activeLimit)
    }
    try catalogue.save()
    if latestLost {
      // The latest workout was deleted or moved: the new latest needs the whole catalogue.
      let latest = try loadCatalogue().values.filter { $0.mark != "d" }
        .max { ($0.start, $0.id) < ($1.start, $1.id) }
      (head.latest, head.latestStart) = (latest?.id, latest?.start)
    }
  }

  /// The ids a stored revert names, as the fold reads them; none when it does not decode.
  func namedIDs(_ revert: StoredEvent) -> [String] {
    let decoded = (try? Journal.decode(revert, upcaster: upcaster).get()) ?? []
    return decoded.flatMap { event -> [String] in
      if case .eventsReverted(let reverted) = event.event { return reverted.eventIDs }
      return []
    }
  }

  /// Keeps the records of `reverts` by id (`reverts/<bucket>`), for the streams whose events
  /// arrive after them.
  private func storeReverts(_ reverts: [StoredEvent], ends: inout Ends) throws {
    let byBucket = Dictionary(grouping: reverts) { Self.bucket(of: $0.id) }
    for (bucket, records) in byBucket {
      let old = try heldReverts(bucket)
      var held = old
      for record in records {
        if let copy = held.first(where: { $0.id == record.id }) {
          try Self.checkMetAgain(record, holding: copy)
        } else {
          held.append(record)
        }
      }
      guard held.count > old.count else { continue }
      var body: [UInt8] = []
      for record in held { body += try Self.encodeEvent(record) + [UInt8(ascii: "\n")] }
      try write("reverts/" + bucket, body)
      try noteEnds(ofReverts: bucket, old: old, held: held, in: &ends)
    }
  }

  /// Checks a record met again where `copy`, a record of its id, is held: a true duplicate
  /// that sorts after the copy is set aside, as in a full read, which keeps the copy first in
  /// merge order.
  ///
  /// - Throws: ``Untrusted`` for the very record met again (an earlier update wrote it and
  ///   stopped before the head moved past it, a failed write or a crash, so what derives
  ///   from it may be missing), and for a copy that sorts first (it changes when the event
  ///   happened, which only a full read can follow).
  private static func checkMetAgain(_ record: StoredEvent, holding copy: StoredEvent) throws {
    if copy.device == record.device && copy.sequence == record.sequence {
      throw Untrusted(reason: "an earlier update of it stopped part-way")
    }
    if mergeKey(record) < mergeKey(copy) {
      throw Untrusted(reason: "event \(record.id) was delivered again in a copy that sorts first")
    }
  }

  private func loadRevert(_ id: String) throws -> StoredEvent? {
    try heldReverts(Self.bucket(of: id)).first { $0.id == id }
  }

  func heldReverts(_ bucket: String) throws -> [StoredEvent] {
    let relative = "reverts/" + bucket
    guard let bytes = try files.read(relative) else { return [] }
    guard let body = Self.checked(bytes) else {
      throw Untrusted(reason: "'\(relative)' does not match its checksum")
    }
    return try Self.lines(of: body).map { line in
      guard let event = Self.decodeEvent(bytes[line]) else {
        throw Untrusted(reason: "'\(relative)' holds an unreadable event")
      }
      return event
    }
  }

  /// Folds events this process just appended: moves the device's position when nothing
  /// else was appended to it since the state's, else leaves them to the next catch-up.
  func appended(_ events: [StoredEvent], device: String) {
    guard let moved = store.lastAppend(device: device), let after = moved.after else { return }
    do {
      try locked {
        // Another command may have moved the state on since this one opened it.
        guard case .success(let current)? = loadHead(), current.positions[device] == moved.before
        else { return }
        head = current
        var positions = head.positions
        positions[device] = after
        try ingest(events, positions: positions)
      }
    } catch {
      // The next command reads everything again: the state is only a cache.
      try? files.remove("head")
    }
  }

  /// Makes the next command start again from a full read: a file of the state was found
  /// damaged.
  func distrust() {
    guard !readOnly else { return }
    try? locked { try files.remove("head") }
  }

  // MARK: - Reading a scope

  /// The stored events of the streams `scope` needs, in merge order: the splits' when it
  /// asks for them, the workouts it names, and the reverts that concern those.
  ///
  /// A file of the state found damaged on the way makes it start again from a full read.
  func events(for scope: StateScope) throws -> [StoredEvent] {
    try rebuildingIfDamaged { try heldEvents(for: scope) }
  }

  /// The documents of the live splits, in their order, as ``liveSplits()`` reads them; a
  /// damaged file makes the state start again from a full read, as ``events(for:)`` does.
  func liveSplitsRebuildingIfDamaged() throws -> [SplitDocument] {
    try rebuildingIfDamaged { try liveSplits() }
  }

  /// What `read` answers; when it finds a file of the state damaged, the state starts again
  /// from a full read and `read` answers from that (a state that may only be read throws
  /// ``Unavailable`` instead).
  private func rebuildingIfDamaged<T>(_ read: () throws -> T) throws -> T {
    do {
      return try read()
    } catch let failure as Untrusted {
      if readOnly { throw Unavailable(reason: failure.reason) }
      try locked { try rebuild(because: failure.reason) }
      return try read()
    }
  }

  private func heldEvents(for scope: StateScope) throws -> [StoredEvent] {
    var streams = scope.splits ? Set(head.splits) : []
    if scope.openWorkouts { for id in head.open { streams.insert("workout:\(id)") } }
    if scope.latestWorkout, let latest = head.latest { streams.insert("workout:\(latest)") }
    // A whole id names its stream; a prefix is looked up in the catalogue.
    for reference in scope.workouts.map({ $0.uppercased() }) {
      guard !StateScope.isWholeID(reference) else {
        streams.insert("workout:\(reference)")
        continue
      }
      for id in try catalogueIDs(prefix: reference) { streams.insert("workout:\(id)") }
    }
    if let day = scope.day {
      // For a day later than the floor of the most recently active workouts, those hold
      // every workout active that day; the open ones and the latest are in the head.
      let recent = head.activeFloor.map { $0 < day.start.milliseconds } ?? true
      if recent {
        let active = Dictionary(head.active.map { ($0.id, $0) }) { first, _ in first }
        for id in Self.workouts(of: day, in: active) { streams.insert("workout:\(id)") }
        for id in head.open { streams.insert("workout:\(id)") }
        if let latest = head.latest, let start = head.latestStart,
          start < day.end.milliseconds
        {
          streams.insert("workout:\(latest)")
        } else {
          for id in Self.workouts(of: day, in: try loadCatalogue()) {
            streams.insert("workout:\(id)")
          }
        }
      } else {
        for id in Self.workouts(of: day, in: try loadCatalogue()) {
          streams.insert("workout:\(id)")
        }
      }
    }
    if let device = scope.recentActionsOf {
      for recent in head.recent[device] ?? [] { streams.insert(recent.stream) }
    }
    // A revert is in the file of every stream it concerns: each is read once. Those this
    // build cannot read are in every scope, to quarantine their stream as a full read does.
    var events = try undecodableRevertRecords()
    var seen = Set(events.map(\.id))
    for stream in streams.sorted() {
      for event in try streamEvents(stream) where seen.insert(event.id).inserted {
        events.append(event)
      }
    }
    events.sort { Self.mergeKey($0) < Self.mergeKey($1) }
    return events
  }

  /// The workouts a day's snapshot can read (``TodayProjection``): the live ones started by
  /// the horizon that started that day or were active since it began, every open one, and
  /// the newest started before the day ended.
  static func workouts(of day: StateScope.Day, in catalogue: [String: WorkoutEntry]) -> [String] {
    let start = day.start.milliseconds
    let end = day.end.milliseconds
    let horizon = day.horizon.milliseconds
    var found: [String] = []
    var last: WorkoutEntry?
    for entry in catalogue.values where entry.mark != "d" && entry.start <= horizon {
      if entry.mark == "o" || entry.activity >= start && entry.start < end {
        found.append(entry.id)
      }
      if entry.start < end, last.map({ ($0.start, $0.id) < (entry.start, entry.id) }) ?? true {
        last = entry
      }
    }
    if let last { found.append(last.id) }
    return found
  }

  /// The merge key below which `device`'s events are not all in ``events(for:)``'s
  /// `recentActionsOf` scope: nil when every event of the device is.
  func recentHorizon(of device: String) -> FoldEvent.MergeKey? {
    guard let list = head.recent[device], list.count >= Self.recentLimit else { return nil }
    return list.last?.last
  }

  // MARK: - Files

  private func loadHead() -> Result<Head, Untrusted>? {
    guard let bytes = try? files.read("head") else { return nil }
    guard let body = Self.checked(bytes) else {
      return .failure(Untrusted(reason: "its head does not match its checksum"))
    }
    guard let head = Head(lines: body) else {
      return .failure(Untrusted(reason: "its head is unreadable"))
    }
    guard head.format == Self.format else {
      return .failure(Untrusted(reason: "it has another layout"))
    }
    guard head.fold == FoldVersion.key else {
      return .failure(Untrusted(reason: "it was saved by a build whose fold differs"))
    }
    return .success(head)
  }

  private func saveHead(_ head: Head) throws {
    try write("head", head.encoded())
  }

  /// Writes `body` followed by a line with its checksum.
  private func write(_ relative: String, _ body: [UInt8]) throws {
    try Self.write(stateFiles, relative, body)
  }

  /// Writes `body` and its checksum line to `relative` at once (``StateFolder``).
  static func write(_ files: any StateFiles, _ relative: String, _ body: [UInt8]) throws {
    var bytes = body
    if bytes.last != UInt8(ascii: "\n"), !bytes.isEmpty { bytes.append(UInt8(ascii: "\n")) }
    bytes += Array("checksum \(XXH64.hex(bytes))\n".utf8)
    try files.writeAtomically(relative, bytes, durable: false)
  }

  /// The body of a file written by ``write(_:_:)``, nil when its checksum does not match.
  static func checked(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
    guard bytes.last == UInt8(ascii: "\n") else { return nil }
    let withoutNewline = bytes.dropLast()
    guard
      let start = withoutNewline.lastIndex(of: UInt8(ascii: "\n")).map({ $0 + 1 }) ?? 0
        as Int?
    else { return nil }
    let line = String(decoding: bytes[start..<withoutNewline.endIndex], as: UTF8.self)
    let body = Array(bytes[..<start])
    guard line == "checksum \(XXH64.hex(body))" else { return nil }
    return bytes[..<start]
  }

  /// The byte ranges of the lines of `body`, a file's bytes before its checksum line; empty
  /// lines are left out.
  static func lines(of body: ArraySlice<UInt8>) -> [Range<Int>] {
    body.withUnsafeBytes { buffer in
      segmentLines(buffer).compactMap { line in
        line.range.isEmpty
          ? nil : line.range.lowerBound + body.startIndex..<line.range.upperBound + body.startIndex
      }
    }
  }

  /// The events held for `stream`, in merge order; none when it has no file.
  func streamEvents(_ stream: String) throws -> [StoredEvent] {
    let relative = Self.streamPath(stream)
    guard let bytes = try files.read(relative) else { return [] }
    guard let body = Self.checked(bytes) else {
      throw Untrusted(reason: "'\(relative)' does not match its checksum")
    }
    var events: [StoredEvent] = []
    for line in Self.lines(of: body) {
      guard let event = Self.decodeEvent(bytes[line]),
        event.stream == stream || event.type == JournalEvent.TypeName.eventsReverted
      else {
        throw Untrusted(reason: "'\(relative)' holds an unreadable event")
      }
      events.append(event)
    }
    return events
  }

  private func writeStream(_ stream: String, _ events: [StoredEvent]) throws {
    var body: [UInt8] = []
    for event in events {
      body += try Self.encodeEvent(event)
      body.append(UInt8(ascii: "\n"))
    }
    try write(Self.streamPath(stream), body)
  }

  /// A map from ids to lists of strings kept in bucket files (`<folder>/<bucket>`, one
  /// `id<TAB>value<TAB>value…` line an id): buckets are read when first asked and written
  /// by ``save()`` when changed.
  struct BucketedMap {
    let files: any StateFiles
    let folder: String
    private var buckets: [String: [String: [String]]] = [:]
    private var changed: Set<String> = []

    init(files: any StateFiles, folder: String) {
      self.files = files
      self.folder = folder
    }

    mutating func values(of id: String) throws -> [String] {
      try bucket(of: id)[id] ?? []
    }

    mutating func set(_ id: String, _ values: [String]) throws {
      let name = SavedState.bucket(of: id)
      _ = try bucket(of: id)
      buckets[name, default: [:]][id] = values
      changed.insert(name)
    }

    /// Adds `value` to the values of `id` unless it is there.
    mutating func add(_ id: String, _ value: String) throws {
      var values = try values(of: id)
      guard !values.contains(value) else { return }
      values.append(value)
      try set(id, values)
    }

    /// Every id of the bucket `name`, with its values.
    mutating func all(inBucket name: String) throws -> [String: [String]] {
      try bucket(named: name)
    }

    private mutating func bucket(of id: String) throws -> [String: [String]] {
      try bucket(named: SavedState.bucket(of: id))
    }

    private mutating func bucket(named name: String) throws -> [String: [String]] {
      if let loaded = buckets[name] { return loaded }
      let relative = folder + "/" + name
      var entries: [String: [String]] = [:]
      if let bytes = try files.read(relative) {
        guard let body = SavedState.checked(bytes) else {
          throw Untrusted(reason: "'\(relative)' does not match its checksum")
        }
        for line in body.split(separator: UInt8(ascii: "\n")) {
          let parts = line.split(
            separator: UInt8(ascii: "\t"),
            omittingEmptySubsequences: false
          ).map { String(decoding: $0, as: UTF8.self) }
          guard let id = parts.first, !id.isEmpty else {
            throw Untrusted(reason: "'\(relative)' is unreadable")
          }
          entries[id] = parts.dropFirst().filter { !$0.isEmpty }
        }
      }
      buckets[name] = entries
      return entries
    }

    /// Writes the buckets that changed.
    func save() throws {
      for name in changed.sorted() {
        let entries = buckets[name] ?? [:]
        let body = entries.sorted { $0.key < $1.key }.map { id, values in
          ([id] + values).joined(separator: "\t") + "\n"
        }.joined()
        try SavedState.write(files, folder + "/" + name, Array(body.utf8))
      }
    }
  }

  /// Every workout of the catalogue (`catalogue/<bucket>`), by id.
  func loadCatalogue() throws -> [String: WorkoutEntry] {
    let folder = files.absolute("catalogue")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var entries: [String: WorkoutEntry] = [:]
    for name in names.sorted() where !name.hasPrefix(".") {
      for (id, entry) in try catalogueBucket(name) { entries[id] = entry }
    }
    return entries
  }

  /// The ids of the workouts whose id starts with `prefix` (uppercase).
  func catalogueIDs(prefix: String) throws -> [String] {
    let bucket = Self.bucket(of: prefix)
    let entries =
      prefix.utf8.count >= 4 && bucket != "other"
      ? try catalogueBucket(bucket) : try loadCatalogue()
    return entries.keys.filter { $0.hasPrefix(prefix) }
  }

  /// The workouts of one catalogue bucket.
  func catalogueBucket(_ name: String) throws -> [String: WorkoutEntry] {
    var map = BucketedMap(files: stateFiles, folder: "catalogue")
    var entries: [String: WorkoutEntry] = [:]
    // A workout no longer listed (its start undone, or quarantined) keeps an empty line.
    for (id, values) in try map.all(inBucket: name) where !values.isEmpty {
      guard let entry = Self.catalogueEntry(id: id, values) else {
        throw Untrusted(reason: "its catalogue is unreadable")
      }
      entries[id] = entry
    }
    return entries
  }

  /// A catalogue entry from its values: start, activity, mark.
  static func catalogueEntry(id: String, _ values: [String]) -> WorkoutEntry? {
    guard values.count == 3, let start = integer(Array(values[0].utf8)[...]),
      let activity = integer(Array(values[1].utf8)[...]), values[2].count == 1,
      let mark = values[2].first, "ocd".contains(mark)
    else { return nil }
    return WorkoutEntry(id: id, start: start, activity: activity, mark: mark)
  }

  /// A decimal integer, perhaps negative, nothing else.
  static func integer(_ digits: ArraySlice<UInt8>) -> Int64? {
    var rest = digits
    let negative = rest.first == UInt8(ascii: "-")
    if negative { rest = rest.dropFirst() }
    guard !rest.isEmpty, rest.count <= 18 else { return nil }
    var value: Int64 = 0
    for digit in rest {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
      value = value * 10 + Int64(digit - UInt8(ascii: "0"))
    }
    return negative ? -value : value
  }

  // MARK: - Encoding

  static func mergeKey(_ event: StoredEvent) -> FoldEvent.MergeKey {
    FoldEvent.MergeKey(
      milliseconds: event.milliseconds,
      counter: event.counter,
      device: event.device,
      sequence: event.sequence
    )
  }

  private static func isUndo(_ event: StoredEvent) -> Bool {
    event.type == JournalEvent.TypeName.eventsReverted
      && event.payload["reason"]?.stringValue == RevertReason.undo
  }

  /// Whether `stream` can be written in a file name and the id index: no tab, no newline.
  static func isStorable(_ stream: String) -> Bool {
    !stream.utf8.contains { $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") }
  }

  /// The file of `stream`: `streams/workout-<id>`, `streams/split-<id>`, `streams/history`
  /// for the usual names, and `streams/x-` then the name's bytes in hex for any other (and for
  /// a name starting `x:`, which would read as such).
  static func streamPath(_ stream: String) -> String {
    let plain = stream.utf8.allSatisfy { byte in
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: ":")
    }
    if plain, !stream.isEmpty, stream.count <= 100, !stream.hasPrefix("x:") {
      return "streams/" + stream.replacingOccurrences(of: ":", with: "-")
    }
    return "streams/x-" + stream.utf8.map { String(format: "%02x", $0) }.joined()
  }

  /// The id index bucket of `id`: its first four characters, about three days of ULIDs.
  static func bucket(of id: String) -> String {
    let prefix = id.utf8.prefix(4)
    let plain =
      prefix.count == 4
      && prefix.allSatisfy { byte in
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      }
    return plain ? String(decoding: prefix, as: UTF8.self) : "other"
  }

  static func encodeEvent(_ event: StoredEvent) throws -> [UInt8] {
    let value: JSONValue = .object([
      "id": .string(event.id),
      "device": .string(event.device),
      "sequence": .int(Int64(bitPattern: event.sequence)),
      "ms": .int(event.milliseconds),
      "lc": .int(Int64(event.counter)),
      "stream": .string(event.stream),
      "type": .string(event.type),
      "version": .int(Int64(event.version)),
      "payload": event.payload,
      "location": .string(event.location),
    ])
    return try value.serialized()
  }

  /// The event of a state line (``encodeEvent(_:)``); its payload is kept as the line's
  /// bytes, read once by the payload reader.
  ///
  /// A line as ``encodeEvent(_:)`` spells it is read member by member in that order
  /// (``JSONPayload/canonicalMembers(of:prefixes:keeping:)``); any other spelling by the
  /// general reader, ``decodeEventReadingMembers(_:)``, which tests compare it with.
  static func decodeEvent(_ line: ArraySlice<UInt8>) -> StoredEvent? {
    let bytes = Array(line)
    guard
      let (values, payload) = JSONPayload.canonicalMembers(
        of: bytes,
        prefixes: linePrefixes,
        keeping: linePayload
      )
    else { return decodeEventReadingMembers(bytes) }
    return storedEvent(values, payload)
  }

  /// The event of a state line spelled any way: its members read into a dictionary.
  static func decodeEventReadingMembers(_ bytes: [UInt8]) -> StoredEvent? {
    guard let (members, payload) = JSONPayload.members(of: bytes, keeping: "payload") else {
      return nil
    }
    return storedEvent(lineKeys.filter { $0 != "payload" }.map { members[$0] }, payload)
  }

  /// The members of a state line, in the order ``encodeEvent(_:)`` writes them (sorted).
  static let lineKeys = [
    "device", "id", "lc", "location", "ms", "payload", "sequence", "stream", "type", "version",
  ]
  static let linePrefixes = JSONPayload.canonicalPrefixes(lineKeys)
  static let linePayload = 5

  /// The event of a state line's members but its payload, in the order of ``lineKeys``.
  private static func storedEvent(_ values: [JSONValue?], _ payload: JSONPayload) -> StoredEvent? {
    guard values.count == 9,
      let device = values[0]?.stringValue, let id = values[1]?.stringValue,
      let counter = values[2]?.intValue, let location = values[3]?.stringValue,
      let ms = values[4]?.intValue, let sequence = values[5]?.intValue,
      let stream = values[6]?.stringValue, let type = values[7]?.stringValue,
      let version = values[8]?.intValue,
      let lc = UInt32(exactly: counter), let storedVersion = Int(exactly: version)
    else { return nil }
    var event = StoredEvent(
      id: id,
      device: device,
      sequence: UInt64(bitPattern: sequence),
      milliseconds: ms,
      counter: lc,
      stream: stream,
      type: type,
      version: storedVersion,
      payload: .null,
      location: location
    )
    event.storedPayload = payload
    return event
  }
}

/// What a command needs folded: the streams it reads or writes.
///
/// A journal opened with a scope (``Journal/open(store:scope:newID:readOnly:)``) reads the events of
/// those streams from the saved state beside the journal, not the whole history. Each stream
/// comes with the reverts that concern it; ``all`` holds every stream.
///
/// ```swift
/// // Record a set on the watch: only the open workouts are read.
/// let journal = try Journal.open(store: store, scope: .workout(nil), newID: ids.next)
/// try journal.execute(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 8)),
///                     device: "watch", now: Date())
/// ```
public struct StateScope: Sendable, Hashable {
  /// Every stream: the whole history.
  public var everything = false
  /// The workouts in progress.
  public var openWorkouts = false
  /// The latest live workout.
  public var latestWorkout = false
  /// Workouts named by id or id prefix.
  public var workouts: [String] = []
  /// The streams a device acted on last, for `undo`.
  public var recentActionsOf: String?
  /// The workouts a day's snapshot reads.
  public var day: Day?
  /// Whether the scope holds the splits.
  ///
  /// Every split, the splits' order and every other stream that is not a workout's: what
  /// editing splits, starting a workout, finding things by name and naming the next split
  /// need. A command about workouts it names by id leaves them out.
  public var splits = true

  /// A local day, and the moment after which workouts are not counted.
  ///
  /// ``TodayProjection/scope(at:timeZone:)`` makes one.
  public struct Day: Sendable, Hashable {
    public var start: Date
    public var end: Date
    public var horizon: Date

    /// A day from `start` to `end`, counting workouts started by `horizon`.
    public init(start: Date, end: Date, horizon: Date) {
      self.start = start
      self.end = end
      self.horizon = horizon
    }
  }

  /// A scope of the given streams.
  public init(
    everything: Bool = false,
    openWorkouts: Bool = false,
    latestWorkout: Bool = false,
    workouts: [String] = [],
    recentActionsOf: String? = nil,
    day: Day? = nil,
    splits: Bool = true
  ) {
    self.everything = everything
    self.openWorkouts = openWorkouts
    self.latestWorkout = latestWorkout
    self.workouts = workouts
    self.recentActionsOf = recentActionsOf
    self.day = day
    self.splits = splits
  }

  /// The whole history.
  public static let all = StateScope(everything: true)

  /// What a command about one workout needs: the workout `reference` names, else the open
  /// ones, else the latest (corrections after the fact).
  ///
  /// The splits are held only when `reference` may name a workout by its split's name, that
  /// is when it is not a whole id.
  public static func workout(_ reference: String?) -> StateScope {
    StateScope(
      openWorkouts: true,
      latestWorkout: true,
      workouts: reference.map { [$0] } ?? [],
      splits: reference.map { !isWholeID($0) } ?? false
    )
  }

  /// Whether `reference` is spelt as a whole id (26 characters of the ids' alphabet), so
  /// that it names a workout by id, or a name spelt like one.
  public static func isWholeID(_ reference: String) -> Bool {
    reference.utf8.count == 26
      && reference.uppercased().utf8.allSatisfy { ULID.digitValue(of: $0) != nil }
  }

  /// What a command that edits splits or starts a workout needs: the splits and the open
  /// workouts.
  public static let splits = StateScope(openWorkouts: true)
}
