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
/// the streams it touches (``events(for:)``), every split's and every revert, and folds
/// them. The fold of those streams equals the fold of the whole history restricted to them,
/// because a workout's events change that workout alone and split events change splits
/// alone (``JournalEvent/foldTarget``).
///
/// It is a cache: deleting or damaging it changes how long a command takes, never what it
/// answers. Every file carries a checksum; one that does not check, a state saved by a build
/// whose fold differs (``FoldVersion/key``), or a position that no longer names its record
/// makes the state start again from a full read.
package final class SavedState: @unchecked Sendable {
  /// The folder, inside the journal folder.
  package static let folder = ".journal-state"
  /// The layout's version.
  static let format = 1
  /// How many streams a device's latest actions are remembered in.
  static let recentLimit = 16

  private let files: DocumentTreeWriter
  private let store: FileEventStore
  private let upcaster: Upcaster
  /// The head: small, read by every command.
  package private(set) var head = Head()
  /// Why the last ``open(journal:store:)`` read everything, nil when it caught up.
  package private(set) var rebuiltBecause: String?
  /// The decoded reverts, once read.
  private var revertsCache: [FoldEvent]?
  /// What this catch-up's read set aside that the head does not hold.
  private var tailNotices: [String] = []

  /// What this command's read set aside.
  ///
  /// Torn tails, sync copies, corruption, and the duplicates it met. Each read reports what it met, so a duplicate is reported by the
  /// command that first reads it.
  package var notices: [String] { tailNotices }

  /// The head file: positions, the fold's `now`, and the small read models.
  package struct Head: Codable, Equatable, Sendable {
    var format = SavedState.format
    var fold = FoldVersion.key
    /// Where each device's reading ended.
    var positions: [String: DevicePosition] = [:]
    /// The last event in merge order.
    var frontier: FoldEvent.MergeKey?
    /// The fold's `now` (milliseconds): the latest record time of an event in effect.
    var now: Int64?
    /// Stored events held.
    var events = 0
    /// The streams that are not a workout's nor the reverts': the splits', the splits'
    /// order, and any other a command must always see.
    var splits: [String] = []
    /// The live workouts still in progress, by id.
    var open: [String] = []
    /// The latest live workout (by start, then id).
    var latest: String?
    /// For each device, the streams of its latest events, newest first, with the merge key
    /// of the device's last event in each.
    var recent: [String: [RecentStream]] = [:]
    /// Streams set aside because an event of theirs cannot be read, with the reason.
    var quarantined: [String: String] = [:]
  }

  /// A stream a device acted on lately.
  package struct RecentStream: Codable, Equatable, Sendable {
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
  }

  /// Opens the saved state of the journal at `url` and brings it up to date with the files.
  ///
  /// Waits for another command holding the state to finish: the state is one per folder and
  /// device, and commands are short. Starts again from a full read when there is no state or
  /// it cannot be trusted (``rebuiltBecause`` says why).
  ///
  /// - Throws: the store's errors; a state folder that cannot be written.
  package static func open(journal url: URL, store: FileEventStore) throws -> SavedState {
    let files = DocumentTreeWriter(root: url.appendingPathComponent(folder))
    let state = SavedState(
      files: files,
      store: store,
      upcaster: try EventUpcasters.makeUpcaster()
    )
    do {
      try files.makeRoot()
      try state.locked { try state.catchUp() }
    } catch let error as RebuildError {
      throw Unavailable(reason: error.description)
    }
    return state
  }

  /// The saved state cannot be read or written here (a read-only folder, a full disk).
  package struct Unavailable: Error {
    var reason: String
  }

  /// Runs `body` holding the state's lock, so that two commands never write the state at
  /// once; what another command wrote before is read afresh.
  private func locked<T>(_ body: () throws -> T) throws -> T {
    let path = files.absolute("lock")
    let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { throw Unavailable(reason: "cannot open '\(path)'") }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      if errno == EINTR { continue }
      throw Unavailable(reason: "cannot lock '\(path)'")
    }
    revertsCache = nil
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
    tailNotices = tail.notices
    if tail.events.isEmpty, tail.positions == head.positions {
      return
    }
    do {
      try ingest(Array(tail.events), positions: tail.positions)
    } catch let failure as Untrusted {
      try rebuild(because: failure.reason)
    }
  }

  /// Starts again from every stored event.
  private func rebuild(because reason: String) throws {
    rebuiltBecause = reason
    revertsCache = nil
    tailNotices = []
    for relative in ["head", "catalogue", "streams", "ids"] {
      let path = files.absolute(relative)
      if FileManager.default.fileExists(atPath: path) {
        try FileManager.default.removeItem(atPath: path)
      }
    }
    head = Head()
    let all = try store.readHistory(after: [:])
    tailNotices = all.notices
    try ingest(Array(all.events), positions: all.positions)
  }

  /// A state that must be read again from the files, with why.
  struct Untrusted: Error {
    var reason: String
  }

  /// Folds `events` (stored events after the head's positions, in merge order) into the
  /// state, and moves the positions to `positions`.
  ///
  /// - Throws: ``Untrusted`` when the state cannot follow without a full read: a file of it
  ///   does not check, or a revert changed whether the event that set the fold's `now` counts.
  private func ingest(_ events: [StoredEvent], positions: [String: DevicePosition]) throws {
    var head = self.head
    var byStream: [String: [StoredEvent]] = [:]
    var ids: [String: [(String, String)]] = [:]
    var reverts: [StoredEvent] = []
    for event in events {
      guard Self.isStorable(event.stream) else {
        throw Untrusted(reason: "stream '\(event.stream)' cannot be named in the saved state")
      }
      byStream[event.stream, default: []].append(event)
      ids[Self.bucket(of: event.id), default: []].append((event.id, event.stream))
      if event.type == JournalEvent.TypeName.eventsReverted { reverts.append(event) }
      let key = Self.mergeKey(event)
      if head.frontier.map({ key > $0 }) ?? true { head.frontier = key }
      if !event.stream.hasPrefix("workout:"), event.stream != "history",
        !head.splits.contains(event.stream)
      {
        head.splits.append(event.stream)
      }
    }
    head.splits.sort()
    // The id index first: the reverts below find the streams of the events they name in it.
    for (bucket, entries) in ids { try addIDs(entries, to: bucket) }

    // Whether a revert among the new events changes which older events count.
    let oldReverts = try decodedReverts()
    var touched = Set(byStream.keys)
    var changed: Set<String> = []
    if !reverts.isEmpty {
      var newReverts: [FoldEvent] = []
      for revert in reverts {
        if case .success(let decoded) = Journal.decode(revert, upcaster: upcaster) {
          newReverts += decoded
        }
      }
      let allReverts = (oldReverts + newReverts).sorted { $0.precedes($1) }
      let before = Replayer.cancelledEvents(in: oldReverts)
      let after = Replayer.cancelledEvents(in: allReverts)
      changed = Set(before.keys.filter { after[$0] == nil })
      changed.formUnion(after.keys.filter { before[$0] == nil })
      for id in changed {
        guard let stream = try stream(of: id) else { continue }
        touched.insert(stream)
      }
      revertsCache = allReverts
    }

    // Each touched stream: its events merged with the new ones, in merge order, no id twice.
    var newNow = head.now
    var folded: [String: [StoredEvent]] = [:]
    for stream in touched.sorted() {
      var held = try streamEvents(stream)
      var known = Set(held.map(\.id))
      var added: [StoredEvent] = []
      for event in byStream[stream] ?? [] {
        guard known.insert(event.id).inserted else {
          // Read again (a state written over by another command), or a true duplicate.
          if !held.contains(where: {
            $0.id == event.id && $0.device == event.device && $0.sequence == event.sequence
          }) {
            tailNotices.append("\(event.location): duplicate of event \(event.id) set aside")
          }
          continue
        }
        added.append(event)
      }
      if !added.isEmpty {
        head.events += added.count
        held += added
        held.sort { Self.mergeKey($0) < Self.mergeKey($1) }
        try writeStream(stream, held)
      }
      folded[stream] = held
    }

    // The fold's `now`: the latest record time of an event in effect.
    let cancelled = Replayer.cancelledEvents(in: revertsCache ?? oldReverts)
    for event in events where cancelled[event.id] == nil {
      if newNow.map({ event.milliseconds > $0 }) ?? true { newNow = event.milliseconds }
    }
    if !changed.isEmpty {
      for stream in touched {
        for event in folded[stream] ?? [] where changed.contains(event.id) {
          // An event whose cancellation changed and that may have been the latest in
          // effect: the new `now` needs every stream, so read everything.
          if let now = head.now, event.milliseconds >= now {
            throw Untrusted(reason: "a revert changed the latest event in effect")
          }
        }
      }
    }
    head.now = newNow

    // Recent streams per device, for undo.
    for event in events where event.stream != "history" || !Self.isUndo(event) {
      let key = Self.mergeKey(event)
      var list = head.recent[event.device] ?? []
      if let index = list.firstIndex(where: { $0.stream == event.stream }) {
        if list[index].last < key { list[index].last = key }
      } else {
        list.append(RecentStream(stream: event.stream, last: key))
      }
      list.sort { $0.last > $1.last }
      if list.count > Self.recentLimit { list.removeLast(list.count - Self.recentLimit) }
      head.recent[event.device] = list
    }

    // The catalogue of the touched workouts.
    let workoutStreams = touched.filter { $0.hasPrefix("workout:") }
    if !workoutStreams.isEmpty {
      var catalogue = try loadCatalogue()
      for stream in workoutStreams {
        let id = FoldEvent.streamID(of: stream)
        var decoded: [FoldEvent] = []
        var failure: String?
        for stored in folded[stream] ?? [] {
          switch Journal.decode(stored, upcaster: upcaster) {
          case .success(let events): decoded += events
          case .failure(let error): failure = failure ?? "\(stored.location): \(error.reason)"
          }
        }
        if let failure {
          head.quarantined[stream] = failure
          catalogue[id] = nil
          continue
        }
        head.quarantined[stream] = nil
        // Reverts act before the fold: leaving the cancelled events out is folding them.
        let state = Replayer.fold(decoded.filter { cancelled[$0.storedID] == nil })
        if let workout = state.workouts[id] {
          let mark: Character =
            workout.deletedAt != nil ? "d" : workout.document.status.isResolved ? "c" : "o"
          var activity = workout.document.start
          for log in workout.document.logs {
            for entry in log.setEntries ?? [] where entry.completedAt > activity {
              activity = entry.completedAt
            }
          }
          catalogue[id] = WorkoutEntry(
            id: id,
            start: workout.document.start.milliseconds,
            activity: activity.milliseconds,
            mark: mark
          )
        } else {
          catalogue[id] = nil
        }
      }
      head.open = catalogue.values.filter { $0.mark == "o" }.map(\.id).sorted()
      head.latest =
        catalogue.values.filter { $0.mark != "d" }
        .max { ($0.start, $0.id) < ($1.start, $1.id) }?.id
      try saveCatalogue(catalogue)
    }
    head.positions = positions
    try saveHead(head)
    self.head = head
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

  // MARK: - Reading a scope

  /// The stored events of the streams `scope` needs, in merge order: every split's, every
  /// revert, and the workouts it names.
  ///
  /// A file of the state found damaged on the way makes it start again from a full read.
  func events(for scope: StateScope) throws -> [StoredEvent] {
    do {
      return try heldEvents(for: scope)
    } catch let failure as Untrusted {
      try locked { try rebuild(because: failure.reason) }
      return try heldEvents(for: scope)
    }
  }

  private func heldEvents(for scope: StateScope) throws -> [StoredEvent] {
    var streams = Set(head.splits)
    streams.insert("history")
    if scope.openWorkouts { for id in head.open { streams.insert("workout:\(id)") } }
    if scope.latestWorkout, let latest = head.latest { streams.insert("workout:\(latest)") }
    if !scope.workouts.isEmpty || scope.day != nil {
      let catalogue = try loadCatalogue()
      for reference in scope.workouts {
        let upper = reference.uppercased()
        for id in catalogue.keys where id.hasPrefix(upper) { streams.insert("workout:\(id)") }
      }
      if let day = scope.day {
        for id in Self.workouts(of: day, in: catalogue) { streams.insert("workout:\(id)") }
      }
    }
    if let device = scope.recentActionsOf {
      for recent in head.recent[device] ?? [] { streams.insert(recent.stream) }
    }
    var events: [StoredEvent] = []
    for stream in streams.sorted() { events += try streamEvents(stream) }
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
    guard let head = try? JSONDecoder().decode(Head.self, from: Data(body)) else {
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
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try write("head", Array(try encoder.encode(head)))
  }

  /// Writes `body` followed by a line with its checksum.
  private func write(_ relative: String, _ body: [UInt8]) throws {
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

  /// The events held for `stream`, in merge order; none when it has no file.
  private func streamEvents(_ stream: String) throws -> [StoredEvent] {
    let relative = Self.streamPath(stream)
    guard let bytes = try files.read(relative) else { return [] }
    guard let body = Self.checked(bytes) else {
      throw Untrusted(reason: "'\(relative)' does not match its checksum")
    }
    var events: [StoredEvent] = []
    for line in body.split(separator: UInt8(ascii: "\n")) {
      guard let event = Self.decodeEvent(line), event.stream == stream else {
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

  /// The stream of the stored event `id`, from the id index.
  private func stream(of id: String) throws -> String? {
    try loadIDs(Self.bucket(of: id))[id]
  }

  private func loadIDs(_ bucket: String) throws -> [String: String] {
    let relative = "ids/" + bucket
    guard let bytes = try files.read(relative) else { return [:] }
    guard let body = Self.checked(bytes) else {
      throw Untrusted(reason: "'\(relative)' does not match its checksum")
    }
    var ids: [String: String] = [:]
    for line in body.split(separator: UInt8(ascii: "\n")) {
      let parts = line.split(separator: UInt8(ascii: "\t"), maxSplits: 1)
      guard parts.count == 2 else { throw Untrusted(reason: "'\(relative)' is unreadable") }
      ids[String(decoding: parts[0], as: UTF8.self)] = String(decoding: parts[1], as: UTF8.self)
    }
    return ids
  }

  private func addIDs(_ entries: [(String, String)], to bucket: String) throws {
    var ids = try loadIDs(bucket)
    for (id, stream) in entries where ids[id] == nil { ids[id] = stream }
    let body = ids.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
    try write("ids/" + bucket, Array(body.utf8))
  }

  func loadCatalogue() throws -> [String: WorkoutEntry] {
    guard let bytes = try files.read("catalogue") else { return [:] }
    guard let body = Self.checked(bytes) else {
      throw Untrusted(reason: "its catalogue does not match its checksum")
    }
    var entries: [String: WorkoutEntry] = [:]
    for line in body.split(separator: UInt8(ascii: "\n")) {
      let parts = line.split(separator: UInt8(ascii: "\t"))
      guard parts.count == 4, let start = Int64(String(decoding: parts[1], as: UTF8.self)),
        let activity = Int64(String(decoding: parts[2], as: UTF8.self)),
        let mark = String(decoding: parts[3], as: UTF8.self).first, "ocd".contains(mark)
      else { throw Untrusted(reason: "its catalogue is unreadable") }
      let id = String(decoding: parts[0], as: UTF8.self)
      entries[id] = WorkoutEntry(id: id, start: start, activity: activity, mark: mark)
    }
    return entries
  }

  private func saveCatalogue(_ entries: [String: WorkoutEntry]) throws {
    let body = entries.values.sorted { $0.id < $1.id }.map { entry in
      "\(entry.id)\t\(entry.start)\t\(entry.activity)\t\(entry.mark)\n"
    }.joined()
    try write("catalogue", Array(body.utf8))
  }

  /// Every revert held, decoded, in merge order.
  private func decodedReverts() throws -> [FoldEvent] {
    if let revertsCache { return revertsCache }
    var decoded: [FoldEvent] = []
    for stored in try streamEvents("history") {
      if case .success(let events) = Journal.decode(stored, upcaster: upcaster) {
        decoded += events.filter {
          if case .eventsReverted = $0.event { true } else { false }
        }
      }
    }
    revertsCache = decoded
    return decoded
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
  /// for the usual names, and the name's bytes in hex for any other.
  static func streamPath(_ stream: String) -> String {
    let plain = stream.utf8.allSatisfy { byte in
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: ":")
    }
    if plain, !stream.isEmpty, stream.count <= 100 {
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

  static func decodeEvent(_ line: ArraySlice<UInt8>) -> StoredEvent? {
    guard let value = try? JSONValue.parse(line),
      let id = value["id"]?.stringValue, let device = value["device"]?.stringValue,
      let sequence = value["sequence"]?.intValue, let ms = value["ms"]?.intValue,
      let counter = value["lc"]?.intValue, let stream = value["stream"]?.stringValue,
      let type = value["type"]?.stringValue, let version = value["version"]?.intValue,
      let payload = value["payload"], let location = value["location"]?.stringValue,
      let lc = UInt32(exactly: counter), let storedVersion = Int(exactly: version)
    else { return nil }
    return StoredEvent(
      id: id,
      device: device,
      sequence: UInt64(bitPattern: sequence),
      milliseconds: ms,
      counter: lc,
      stream: stream,
      type: type,
      version: storedVersion,
      payload: payload,
      location: location
    )
  }
}

/// What a command needs folded: the streams it reads or writes.
///
/// Every scope holds every split and every revert; ``everything`` holds every stream.
package struct StateScope: Sendable, Hashable {
  /// Every stream: the whole history.
  package var everything = false
  /// The workouts in progress.
  package var openWorkouts = false
  /// The latest live workout.
  package var latestWorkout = false
  /// Workouts named by id or id prefix.
  package var workouts: [String] = []
  /// The streams a device acted on last, for `undo`.
  package var recentActionsOf: String?
  /// The workouts a day's snapshot reads.
  package var day: Day?

  /// A local day, and the moment after which workouts are not counted.
  package struct Day: Sendable, Hashable {
    package var start: Date
    package var end: Date
    package var horizon: Date

    package init(start: Date, end: Date, horizon: Date) {
      self.start = start
      self.end = end
      self.horizon = horizon
    }
  }

  package init(
    everything: Bool = false,
    openWorkouts: Bool = false,
    latestWorkout: Bool = false,
    workouts: [String] = [],
    recentActionsOf: String? = nil,
    day: Day? = nil
  ) {
    self.everything = everything
    self.openWorkouts = openWorkouts
    self.latestWorkout = latestWorkout
    self.workouts = workouts
    self.recentActionsOf = recentActionsOf
    self.day = day
  }

  /// The whole history.
  package static let all = StateScope(everything: true)

  /// What a command about one workout needs: the workout `reference` names, else the open
  /// ones, else the latest (corrections after the fact).
  package static func workout(_ reference: String?) -> StateScope {
    StateScope(openWorkouts: true, latestWorkout: true, workouts: reference.map { [$0] } ?? [])
  }

  /// What a command that edits splits or starts a workout needs: the splits (every scope
  /// holds them) and the open workouts.
  package static let splits = StateScope(openWorkouts: true)
}
