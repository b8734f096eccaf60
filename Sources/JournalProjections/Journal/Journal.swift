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
  package let store: any EventStore
  private let upcaster: Upcaster
  /// Called only with the lock held, so it need not be safe to call from several threads.
  private let idGenerator: () -> String
  /// Held by every member that reads or changes the state below (recursive: a command reads
  /// the state it changes).
  let lock = NSRecursiveLock()

  /// The readable history in merge order, upcast and decoded, without the
  /// events of quarantined streams.
  package var history: [FoldEvent] { lock.withLock { heldHistory } }
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
  package var positions: [String: DevicePosition] { lock.withLock { heldPositions } }
  private var heldPositions: [String: DevicePosition] = [:]
  /// The fold of the whole history, kept up to date by appends that add no revert.
  private var current: JournalState?
  /// Where an undo must stop looking on a journal opened on part of its history.
  ///
  /// For ``open(store:scope:newID:readOnly:)``: the merge key at or below which the undoing device's events may lie outside `history`. An undo that
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
  package init(store: any EventStore, newID: @escaping () -> String) throws {
    self.store = store
    self.upcaster = try EventUpcasters.makeUpcaster()
    self.idGenerator = newID
    try reload()
  }

  /// Reads the history again from the store.
  ///
  /// Each stored event is upcast and decoded in merge order. One that cannot be read
  /// quarantines its stream: its earlier and later events are left out, with a notice.
  public func reload() throws {
    try lock.withLock {
      let read: (events: StoredEvents, notices: [String], positions: [String: DevicePosition])
      if let positioned = store.positioned {
        let history = try positioned.readHistory(after: [:])
        read = (history.events, history.notices, history.positions)
      } else {
        let history = try store.readHistory()
        read = (StoredEvents(history.events), history.notices, [:])
      }
      var quarantined: [String: String] = [:]
      var notices = read.notices
      var history: [FoldEvent] = []
      history.reserveCapacity(read.events.count)
      for (index, decoded) in Self.decodeAll(read.events, upcaster: upcaster).enumerated() {
        switch decoded {
        case .success(let events):
          guard let stream = events.first?.stream, quarantined[stream] == nil else { continue }
          history += events
        case .failure(let failure):
          let record = read.events[index]
          guard quarantined[record.stream] == nil else { continue }
          quarantined[record.stream] = "\(record.location): \(failure.reason)"
          notices.append(
            "\(record.location): stream '\(record.stream)' quarantined: \(failure.reason)"
          )
        }
      }
      // A stream quarantined late loses its earlier events too: its documents stay as they are.
      if !quarantined.isEmpty { history.removeAll { quarantined[$0.stream] != nil } }
      heldHistory = history
      current = nil
      heldQuarantined = quarantined
      heldNotices = notices
      heldPositions = read.positions
    }
  }

  /// Every stored event upcast and decoded (``decode(_:upcaster:)``), in order.
  ///
  /// Decoding is what a full replay spends its time on, and each event decodes alone: the
  /// events are decoded in chunks on every core. ``decodeOneByOne(_:upcaster:)`` is the plain
  /// reference a test compares it with.
  static func decodeAll(
    _ stored: StoredEvents,
    upcaster: Upcaster
  ) -> [Result<[FoldEvent], DecodeFailure>] {
    Array(stored.indices).concurrentMap(chunkSize: 4_096) { index in
      decode(stored[index], upcaster: upcaster)
    }
  }

  /// ``decodeAll(_:upcaster:)`` one event after the other, on the caller's thread.
  static func decodeOneByOne(
    _ stored: StoredEvents,
    upcaster: Upcaster
  ) -> [Result<[FoldEvent], DecodeFailure>] {
    stored.map { decode($0, upcaster: upcaster) }
  }

  /// Upcasts and decodes one stored event; one stored event may become several.
  static func decode(
    _ record: StoredEvent,
    upcaster: Upcaster
  ) -> Result<[FoldEvent], DecodeFailure> {
    var events: [FoldEvent] = []
    if let failure = decode(record, upcaster: upcaster, into: &events) {
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
    into events: inout [FoldEvent]
  ) -> DecodeFailure? {
    let lifted: [(type: String, payload: JSONPayload)]
    if upcaster.currentVersions[record.type] == record.version {
      // Most events are stored at their type's current version: nothing to lift.
      lifted = [(record.type, record.storedPayload)]
    } else {
      do {
        lifted = try upcaster.upcast(
          type: record.type,
          version: record.version,
          payload: record.payload
        ).map { ($0.type, JSONPayload($0.payload)) }
      } catch {
        return DecodeFailure(reason: error.reason)
      }
    }
    let id = EventID(record.id)
    let count = events.count
    for (part, item) in lifted.enumerated() {
      do {
        let decoded = try PayloadEvent(type: item.type, reading: item.payload)
        events.append(
          FoldEvent(
            eventID: part == 0 ? id : id.part(part + 1),
            streamID: FoldEvent.streamID(of: record.stream),
            device: record.device,
            sequence: record.sequence,
            milliseconds: record.milliseconds,
            counter: record.counter,
            stream: record.stream,
            at: decoded.at.map(Date.init(milliseconds:)),
            action: decoded.action,
            event: decoded.event
          )
        )
      } catch {
        events.removeSubrange(count...)
        return DecodeFailure(reason: error.description)
      }
    }
    return nil
  }

  struct DecodeFailure: Error, Sendable, Equatable, CustomStringConvertible {
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
    for record in stored { _ = Self.decode(record, upcaster: upcaster, into: &appended) }
    heldHistory += appended
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
