import Foundation
import JournalCore

/// The journal folder on disk as an `EventStore`: each device appends to its
/// own segments; reading merges every device.
public final class FileEventStore: PositionedEventStore, @unchecked Sendable {
  public let log: EventLog
  private let options: DeviceWriter.Options
  private let lock = NSLock()
  private var repairNotices: [String] = []
  private var appendPositions: [String: (before: DevicePosition?, after: DevicePosition?)] = [:]

  /// Opens the journal at `url`.
  ///
  /// - Parameters:
  ///   - url: the journal folder.
  ///   - options: how appends write (durability, clock); durable by default.
  /// - Throws: `JournalError` when the folder is not a journal.
  public init(url: URL, options: DeviceWriter.Options = DeviceWriter.Options()) throws {
    self.log = try EventLog(at: url)
    self.options = options
  }

  /// The store of `log`: tests open one over a log whose system calls fail on demand.
  package init(log: EventLog, options: DeviceWriter.Options = DeviceWriter.Options()) {
    self.log = log
    self.options = options
  }

  /// The repairs made when a writer opened (torn tails set aside), each reported once.
  public func takeRepairNotices() -> [String] {
    lock.withLock {
      defer { repairNotices = [] }
      return repairNotices
    }
  }

  package func readHistory() throws -> (events: [StoredEvent], notices: [String]) {
    let history = try readHistory(after: [:])
    return (Array(history.events), history.notices)
  }

  package func readHistory(after positions: [String: DevicePosition]) throws -> StoredHistory {
    let history = try log.readHistory(after: positions)
    let notices = Self.notices(history.notices, history.duplicates, history.errors)
    return StoredHistory(
      events: StoredEvents(records: history),
      notices: notices,
      positions: history.positions,
      forks: history.forks
    )
  }

  /// What reading set aside, as the journal lists it: recovery notices, then duplicates,
  /// then devices stopped by corruption.
  static func notices(
    _ notices: [RecoveryNotice],
    _ duplicates: [JournalHistory.Duplicate],
    _ errors: [JournalError]
  ) -> [String] {
    notices.map(\.description) + duplicates.map(\.description) + errors.map(\.description)
  }

  package func lastAppend(device: String) -> (before: DevicePosition?, after: DevicePosition?)? {
    lock.withLock { appendPositions[device] }
  }

  package func append(
    _ events: [EventToAppend],
    device: String,
    notBefore: (Int64, UInt32)?
  ) throws -> [StoredEvent] {
    let batch = try events.map { try $0.newEvent() }
    let writer = try log.openWriter(device: device, options: options)
    defer { writer.close() }
    let repaired = writer.recoveryNotices.map(\.description)
    if !repaired.isEmpty { lock.withLock { repairNotices += repaired } }
    let time = notBefore.map { HybridTime(milliseconds: $0.0, counter: $0.1) }
    let before = writer.position
    lock.withLock { appendPositions[device] = nil }
    let records = try writer.append(batch, notBefore: time)
    let after = writer.position
    lock.withLock { appendPositions[device] = (before, after) }
    return records.map(Self.stored)
  }

  package static func stored(_ record: EventRecord) -> StoredEvent {
    StoredEvent(record)
  }
}

extension EventToAppend {
  /// The log's form of this event.
  ///
  /// - Throws: ``JournalError`` when the id is not a ULID.
  package func newEvent() throws -> NewEvent {
    guard let ulid = ULID(id) else {
      throw JournalError(.invalidEvent, "event id '\(id)' is not a ULID")
    }
    return NewEvent(stream: stream, type: type, version: version, payload: payload, id: ulid)
  }
}
