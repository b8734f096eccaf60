import Foundation
import JournalCore

/// A journal: its history read through the upcasters, the folded state, and
/// the write path that validates a command before appending its events.
///
/// ```swift
/// let journal = try Journal(store: store)
/// let appended = try journal.execute(
///   .completeSet(workout: nil, exercise: "Squat", SetActuals(reps: 5, weight: 100)),
///   device: "phone", at: nil, now: Date())
/// let squat = journal.state().workouts.values.first
/// ```
///
/// A journal may be shared between tasks and threads: every read and write of its state
/// holds its lock, so appends from several tasks are validated and stored one at a time.
public final class Journal: @unchecked Sendable {
  public let store: any EventStore
  private let upcaster: Upcaster
  /// Called only with the lock held, so it need not be safe to call from several threads.
  private let idGenerator: () -> String
  /// Held by every member that reads or changes the state below (recursive: a command reads
  /// the state it changes).
  let lock = NSRecursiveLock()

  /// The readable history in merge order, upcast and decoded, without the
  /// events of quarantined streams.
  public var history: [FoldEvent] { lock.withLock { heldHistory } }
  private var heldHistory: [FoldEvent] = []
  /// Streams whose events this build cannot read, with the reason.
  ///
  /// Their documents are left exactly as they are.
  public var quarantined: [String: String] { lock.withLock { heldQuarantined } }
  private var heldQuarantined: [String: String] = [:]
  /// What reading set aside: torn tails, duplicates, unreadable events.
  public var notices: [String] { lock.withLock { heldNotices } }
  private var heldNotices: [String] = []
  /// Where the history read ends on each device, moved by appends through this journal.
  ///
  /// `EventLog.readHistory(after:)` resumes from them. Empty for stores without files (not
  /// a ``PositionedEventStore``); a device appended to by another writer since the read
  /// has none.
  public var positions: [String: DevicePosition] { lock.withLock { heldPositions } }
  private var heldPositions: [String: DevicePosition] = [:]
  /// The fold of the whole history, kept up to date by appends that add no revert.
  private var current: JournalState?
  /// The digest of `history`'s ids, kept up to date by appends once computed.
  private var digest: HistoryDigest?
  /// Where an undo must stop looking on a journal opened on part of its history.
  ///
  /// For ``open(store:scope:newID:)``: the merge key at or below which the undoing device's events may lie outside `history`. An undo that
  /// reaches it throws ``ScopeTooNarrow``.
  var undoHorizon: FoldEvent.MergeKey?
  /// For a journal opened on part of its history: the fold's `now` over the whole history,
  /// which decides the documents' grace periods as it would after a full replay.
  var wholeHistoryNow: Date?

  /// Opens a journal on `store` and reads its history.
  ///
  /// - Parameters:
  ///   - store: where the events are kept.
  ///   - newID: makes fresh ULIDs for events and new ids.
  /// - Throws: the store's errors; an invalid upcaster registry.
  public init(store: any EventStore, newID: @escaping () -> String) throws {
    self.store = store
    self.upcaster = try EventUpcasters.makeUpcaster()
    self.idGenerator = newID
    try reload()
  }

  /// Reads the history again from the store.
  ///
  /// A log's payloads of the types read in the writer's spelling are checked by decoding
  /// them, not also as they are read (``PayloadTrust``). When one does not decode so,
  /// everything is read again with every payload checked, and only that read is used.
  public func reload() throws {
    try lock.withLock { try reloadHoldingTheLock() }
  }

  private func reloadHoldingTheLock() throws {
    var (stored, storeNotices, positions, trust) = try readStore(trusting: true)
    var quarantined: [String: String] = [:]
    var history: [FoldEvent] = []
    let decoded = Self.decodeCurrent(&stored, upcaster: upcaster, trust: trust)
    if decoded == nil, stored.isEmpty {
      // A log's records were let go as they were decoded, and one did not decode: read them
      // again, checked, for the chunks, which say which stream to quarantine.
      (stored, storeNotices, positions, trust) = try readStore(trusting: false)
    }
    var notices = storeNotices
    if let decoded {
      history = decoded
    } else {
      // Decode in chunks on every core; then, in order, quarantine the streams that failed.
      var chunks = Self.decodeChunks(stored, upcaster: upcaster, trust: trust)
      if trust != nil, !chunks.allSatisfy(\.failures.isEmpty) {
        // A failure may be a payload left unchecked: only a checked read says what to do.
        (stored, storeNotices, positions, trust) = try readStore(trusting: false)
        notices = storeNotices
        chunks = Self.decodeChunks(stored, upcaster: upcaster)
      }
      if chunks.allSatisfy(\.failures.isEmpty) {
        history.reserveCapacity(chunks.reduce(0) { $0 + $1.events.count })
        // Each chunk is let go once copied, so the history is not held twice.
        for index in chunks.indices {
          history += chunks[index].events
          chunks[index].events = []
        }
      } else {
        history.reserveCapacity(stored.count)
        Self.sift(chunks, of: stored, quarantined: &quarantined, notices: &notices) {
          history += $0
        }
      }
    }
    // A stream quarantined late loses its earlier events too: its documents stay as they are.
    if !quarantined.isEmpty { history.removeAll { quarantined[$0.stream] != nil } }
    self.heldHistory = history
    self.current = nil
    self.digest = nil
    self.heldQuarantined = quarantined
    self.heldNotices = notices
    self.heldPositions = positions
  }

  /// Every stored event, what reading set aside, where each device's reading ended, and
  /// which payloads were left unchecked: when `trusting`, those of the types read in the
  /// writer's spelling at their current versions, if the store reads files.
  private func readStore(
    trusting: Bool
  ) throws -> (StoredEvents, [String], [String: DevicePosition], PayloadTrust?) {
    if let positioned = store.positioned {
      let trust = trusting ? Self.writtenSpellingTrust(upcaster) : nil
      var read = try positioned.readHistory(after: [:], trustingPayloads: trust)
      // Moved out, so that the records are held once and can be let go as they are decoded.
      let events = read.events
      read.events = StoredEvents([])
      return (events, read.notices, read.positions, trust)
    }
    let read = try store.readHistory()
    return (StoredEvents(read.events), read.notices, [:], nil)
  }

  /// The payloads decoding checks by itself: those of the types read in the writer's
  /// spelling (``PayloadEvent``), at their current versions.
  static func writtenSpellingTrust(_ upcaster: Upcaster) -> PayloadTrust {
    let current = upcaster.currentVersions
    let types = Set(JournalEvent.onePassTypes)
    return { type, version in types.contains(type) && current[type] == version }
  }

  /// The events decoded from a run of stored events.
  struct DecodedChunk: Sendable {
    /// The index in the stored events of the chunk's first.
    var first: Int
    /// The decoded events of every stored event that decoded.
    var events: [FoldEvent] = []
    /// For each stored event, the end of its events in ``events``.
    var ends: [Int] = []
    /// Why stored events failed, by their offset in the chunk.
    var failures: [Int: DecodeFailure] = [:]
  }

  /// The events of `stored` when every one is at its type's current version and decodes:
  /// one event each, decoded on every core straight into place; nil otherwise (then
  /// ``decodeChunks(_:upcaster:trust:size:)`` decodes them, and says which failed).
  ///
  /// A log's records are decoded from their fields, no stored event made, and let go a run
  /// at a time as they are decoded: `stored` is then empty afterwards, whether they all
  /// decoded or not.
  ///
  /// The payloads `trust` names were not checked as they were read: each must decode in the
  /// writer's spelling, or nil is returned.
  static func decodeCurrent(
    _ stored: inout StoredEvents,
    upcaster: Upcaster,
    trust: PayloadTrust? = nil
  ) -> [FoldEvent]? {
    // Checked first, as a journal that needs upcasting would otherwise be decoded twice.
    let currentVersions = upcaster.currentVersions
    guard stored.allSatisfy(typeAndVersion: { currentVersions[$0] == $1 }) else { return nil }
    if var records = stored.takeRecords() {
      return records.consumeIfAll(state: DecodeCache(trust: trust)) { record, event, cache in
        do {
          event.initialize(to: try foldEvent(taking: &record.pointee, cache: &cache))
          return true
        } catch {
          return false
        }
      }
    }
    let events = stored
    let start = DecodeCache(trust: trust)
    return [FoldEvent](concurrentlyMaking: events.count, state: start) { index, cache in
      try? currentEvent(events[index], cache: &cache)
    }
  }

  /// The one event of a stored event at its type's current version.
  private static func currentEvent(
    _ record: StoredEvent,
    cache: inout DecodeCache
  ) throws(PayloadError) -> FoldEvent {
    try foldEvent(
      record,
      id: EventID(record.id),
      cache: &cache,
      type: record.type,
      payload: record.storedPayload,
      version: record.version
    )
  }

  /// Walks decoded chunks in stored order, applying the quarantine rule.
  ///
  /// The events of a stream quarantined so far are skipped, and a stored event that failed
  /// quarantines its stream, with a notice. `keep` gets the events of every other stored
  /// event, in order.
  ///
  /// A stream quarantined late has had earlier events kept: the caller removes them.
  static func sift(
    _ chunks: [DecodedChunk],
    of stored: StoredEvents,
    quarantined: inout [String: String],
    notices: inout [String],
    keep: (ArraySlice<FoldEvent>) -> Void
  ) {
    for chunk in chunks {
      var start = 0
      for (offset, end) in chunk.ends.enumerated() {
        let record = stored[chunk.first + offset]
        defer { start = end }
        if !quarantined.isEmpty, quarantined[record.stream] != nil { continue }
        if let failure = chunk.failures[offset] {
          quarantined[record.stream] = "\(record.location): \(failure.reason)"
          notices.append(
            "\(record.location): stream '\(record.stream)' quarantined: \(failure.reason)"
          )
        } else {
          keep(chunk.events[start..<end])
        }
      }
    }
  }

  /// Decodes `stored` in chunks of `size` events, on every core.
  ///
  /// The payloads `trust` names were not checked as they were read: one that does not decode
  /// in the writer's spelling fails.
  static func decodeChunks(
    _ stored: StoredEvents,
    upcaster: Upcaster,
    trust: PayloadTrust? = nil,
    size: Int = 16_384
  ) -> [DecodedChunk] {
    let count = (stored.count + size - 1) / size
    return Array(0..<count).concurrentMap(chunkSize: 1) { index in
      var chunk = DecodedChunk(first: index * size)
      let range = chunk.first..<min(stored.count, chunk.first + size)
      chunk.events.reserveCapacity(range.count)
      chunk.ends.reserveCapacity(range.count)
      var cache = DecodeCache(trust: trust)
      for position in range {
        if let failure = decode(
          stored[position],
          upcaster: upcaster,
          into: &chunk.events,
          cache: &cache
        ) {
          chunk.failures[position - chunk.first] = failure
        }
        chunk.ends.append(chunk.events.count)
      }
      return chunk
    }
  }

  /// Upcasts and decodes one stored event; one stored event may become several.
  static func decode(
    _ record: StoredEvent,
    upcaster: Upcaster
  ) -> Result<[FoldEvent], DecodeFailure> {
    var events: [FoldEvent] = []
    var cache = DecodeCache()
    if let failure = decode(record, upcaster: upcaster, into: &events, cache: &cache) {
      return .failure(failure)
    }
    return .success(events)
  }

  /// Upcasts and decodes one stored event, appending it to `events`.
  ///
  /// One stored event may become several. On failure nothing is appended.
  static func decode(
    _ record: StoredEvent,
    upcaster: Upcaster,
    into events: inout [FoldEvent],
    cache: inout DecodeCache
  ) -> DecodeFailure? {
    // Most events are stored at their type's current version: nothing to lift.
    if upcaster.currentVersions[record.type] == record.version {
      do {
        events.append(try currentEvent(record, cache: &cache))
        return nil
      } catch {
        return DecodeFailure(reason: error.description)
      }
    }
    let lifted: [(type: String, payload: JSONValue)]
    do {
      lifted = try upcaster.upcast(
        type: record.type,
        version: record.version,
        payload: record.payload
      )
    } catch {
      return DecodeFailure(reason: error.reason)
    }
    let id = EventID(record.id)
    let count = events.count
    for (part, item) in lifted.enumerated() {
      do {
        events.append(
          try foldEvent(
            record,
            id: part == 0 ? id : id.part(part + 1),
            cache: &cache,
            type: item.type,
            payload: JSONPayload(item.payload),
            version: nil
          )
        )
      } catch {
        events.removeSubrange(count...)
        return DecodeFailure(reason: error.description)
      }
    }
    return nil
  }

  /// The event `id` (the stored event's or one of its parts') of a stored event, decoded from
  /// its current-version `payload`.
  private static func foldEvent(
    _ record: StoredEvent,
    id: EventID,
    cache: inout DecodeCache,
    type: String,
    payload: JSONPayload,
    version: Int?
  ) throws(PayloadError) -> FoldEvent {
    try foldEvent(
      id: id,
      device: record.device,
      sequence: record.sequence,
      milliseconds: record.milliseconds,
      counter: record.counter,
      stream: record.stream,
      cache: &cache,
      type: type,
      payload: payload,
      version: version
    )
  }

  /// The one event of a record at its type's current version, taking the members it keeps
  /// from the record (which is let go afterwards).
  ///
  /// The record is passed `inout`: read through a pointer, each member handed on would be
  /// copied first (a retain and a release), in case the callee changed the memory; moved
  /// out, the stream costs no retain now and no release when the record goes.
  private static func foldEvent(
    taking record: inout EventRecord,
    cache: inout DecodeCache
  ) throws(PayloadError) -> FoldEvent {
    var stream = ""
    swap(&stream, &record.stream)
    return try foldEvent(
      id: EventID(record.id),
      device: record.device,
      sequence: record.sequence,
      milliseconds: record.time.milliseconds,
      counter: record.time.counter,
      stream: stream,
      cache: &cache,
      type: record.type,
      payload: record.storedPayload,
      version: record.version
    )
  }

  /// The event `id`, from its fields: a log's record is decoded without making a stored event
  /// of it.
  ///
  /// `version` is the stored version of a payload read from a record, nil for one an
  /// upcaster made: a payload read unchecked (``DecodeCache/trust``) must be in the writer's
  /// spelling.
  private static func foldEvent(
    id: EventID,
    device: String,
    sequence: UInt64,
    milliseconds: Int64,
    counter: UInt32,
    stream: String,
    cache: inout DecodeCache,
    type: String,
    payload: JSONPayload,
    version: Int?
  ) throws(PayloadError) -> FoldEvent {
    var decoded = try PayloadEvent.decode(
      type: type,
      payload: payload,
      strings: &cache.strings,
      trust: cache.trust,
      version: version
    )
    return FoldEvent(
      eventID: id,
      streamID: cache.streamID(of: stream),
      device: device,
      sequence: sequence,
      milliseconds: milliseconds,
      counter: counter,
      stream: stream,
      at: decoded.at.map(Date.init(milliseconds:)),
      action: decoded.action,
      event: decoded.takeEvent()
    )
  }

  /// What decoding a run of events remembers, so that the strings its events repeat share
  /// one copy: the stream id of the last stream (events of one stream come in runs), and the
  /// log ids read lately.
  struct DecodeCache {
    private var stream = ""
    private var id = ""
    var strings = RecentStrings()
    /// The payloads the read left unchecked.
    let trust: PayloadTrust?

    init(trust: PayloadTrust? = nil) { self.trust = trust }

    mutating func streamID(of stream: String) -> String {
      if stream != self.stream {
        self.stream = stream
        id = FoldEvent.streamID(of: stream)
      }
      return id
    }
  }

  struct DecodeFailure: Error, Sendable, CustomStringConvertible {
    var reason: String

    /// The reason alone, as the quarantine notice shows it.
    var description: String { reason }
  }

  /// The state folded up to `point` (all of history when nil).
  public func state(upTo point: Replayer.Point? = nil) -> JournalState {
    lock.withLock { stateHoldingTheLock(upTo: point) }
  }

  private func stateHoldingTheLock(upTo point: Replayer.Point?) -> JournalState {
    if point != nil { return Replayer.fold(history, upTo: point) }
    if let current { return current }
    var folded = Replayer.fold(history)
    if let wholeHistoryNow, folded.now.map({ wholeHistoryNow > $0 }) ?? true {
      folded.now = wholeHistoryNow
    }
    current = folded
    return folded
  }

  /// The digest of ``history``'s event ids: computed on first use, then kept
  /// up to date by appends, so a rebuild proves its checkpoint's prefix of
  /// history unchanged without reading all of it.
  public func historyDigest() -> HistoryDigest {
    lock.lock()
    defer { lock.unlock() }
    if let digest { return digest }
    let computed = HistoryDigest(history)
    digest = computed
    return computed
  }

  /// Validates `command` against the current state and appends its events
  /// as one durable batch.
  ///
  /// - Parameters:
  ///   - command: what to do.
  ///   - device: the device appending.
  ///   - at: when the action happened; nil means `now`.
  ///   - now: the caller's clock.
  /// - Returns: the appended events, decoded.
  /// - Throws: ``CommandError`` when refused (nothing is appended); store errors.
  @discardableResult
  public func execute(
    _ command: JournalCommand,
    device: String,
    at: Date? = nil,
    now: Date
  ) throws -> [FoldEvent] {
    try lock.withLock {
      var validator = CommandValidator(
        state: state(),
        at: at ?? now,
        now: now,
        newID: idGenerator
      )
      let pending = try validator.events(for: command)
      return try append(pending, device: device, at: at)
    }
  }

  /// Appends already validated events as one action.
  func append(_ pending: [PendingEvent], device: String, at: Date?) throws -> [FoldEvent] {
    lock.lock()
    defer { lock.unlock() }
    guard !pending.isEmpty else { return [] }
    let ids = pending.map { _ in idGenerator() }
    let action = pending.count > 1 ? ids.first : nil
    let toAppend = zip(ids, pending).map { id, event in
      EventToAppend(
        id: id,
        stream: event.stream,
        type: event.event.typeName,
        version: JournalEvent.currentVersions[event.event.typeName] ?? 1,
        payload: PayloadMetadata.adding(
          at: at,
          action: id == action ? nil : action,
          to: event.event.payload
        )
      )
    }
    let last = history.last.map { ($0.milliseconds, $0.counter) }
    let stored = try store.append(toAppend, device: device, notBefore: last)
    // The device's position moves with the append only if nothing else was appended to it
    // since the history was read.
    if let positioned = store.positioned,
      let moved = positioned.lastAppend(device: device), moved.before == heldPositions[device]
    {
      heldPositions[device] = moved.after
    } else {
      heldPositions[device] = nil
    }
    var appended: [FoldEvent] = []
    var cache = DecodeCache()
    for record in stored {
      _ = Self.decode(record, upcaster: upcaster, into: &appended, cache: &cache)
    }
    heldHistory += appended
    digest?.append(contentsOf: appended)
    // New events sort after everything folded, so they fold on top, unless a
    // revert changes which earlier events count.
    if var state = current,
      !appended.contains(where: { if case .eventsReverted = $0.event { true } else { false } })
    {
      for event in appended { state.apply(event) }
      current = state
    } else {
      current = nil
    }
    return appended
  }

  /// A fresh id.
  public func newID() -> String { lock.withLock { idGenerator() } }
}
