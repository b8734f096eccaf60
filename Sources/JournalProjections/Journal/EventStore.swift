import JournalCore

/// An event as stored, before upcasting and decoding.
package struct StoredEvent: Sendable, Hashable {
  package var id: String
  package var device: String
  package var sequence: UInt64
  package var milliseconds: Int64
  package var counter: UInt32
  package var stream: String
  package var type: String
  package var version: Int
  /// The payload, built from ``storedPayload`` when asked for.
  package var payload: JSONValue {
    get { storedPayload.value }
    set { storedPayload = JSONPayload(newValue) }
  }
  /// The payload as the store keeps it: the checked bytes of an event read from a log.
  package var storedPayload: JSONPayload
  /// Where it is stored, for messages: `devices/phone/000001.jsonl:12`.
  package var location: String {
    get {
      switch place {
      case .text(let text): text
      case .record(let location): location.description
      }
    }
    set { place = .text(newValue) }
  }
  /// The location, kept as the log gives it until a message needs its text.
  private var place: Place

  private enum Place: Sendable {
    case text(String)
    case record(RecordLocation)
  }

  package init(
    id: String,
    device: String,
    sequence: UInt64,
    milliseconds: Int64,
    counter: UInt32,
    stream: String,
    type: String,
    version: Int,
    payload: JSONValue,
    location: String
  ) {
    self.id = id
    self.device = device
    self.sequence = sequence
    self.milliseconds = milliseconds
    self.counter = counter
    self.stream = stream
    self.type = type
    self.version = version
    self.storedPayload = JSONPayload(payload)
    self.place = .text(location)
  }

  /// The event of a log record, with the record's location.
  init(_ record: borrowing EventRecord) {
    self.id = record.id.description
    self.device = record.device
    self.sequence = record.sequence
    self.milliseconds = record.time.milliseconds
    self.counter = record.time.counter
    self.stream = record.stream
    self.type = record.type
    self.version = record.version
    self.storedPayload = record.storedPayload
    self.place = .record(record.location)
  }

  package static func == (lhs: StoredEvent, rhs: StoredEvent) -> Bool {
    lhs.id == rhs.id && lhs.device == rhs.device && lhs.sequence == rhs.sequence
      && lhs.milliseconds == rhs.milliseconds && lhs.counter == rhs.counter
      && lhs.stream == rhs.stream && lhs.type == rhs.type && lhs.version == rhs.version
      && lhs.storedPayload == rhs.storedPayload && lhs.location == rhs.location
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(device)
    hasher.combine(sequence)
    hasher.combine(stream)
    hasher.combine(type)
    hasher.combine(storedPayload)
  }
}

/// An event to append: the store gives it its sequence and clock.
package struct EventToAppend: Sendable, Hashable {
  /// A fresh ULID.
  package var id: String
  package var stream: String
  package var type: String
  package var version: Int
  package var payload: JSONValue

  package init(id: String, stream: String, type: String, version: Int, payload: JSONValue) {
    self.id = id
    self.stream = stream
    self.type = type
    self.version = version
    self.payload = payload
  }
}

/// Where a journal keeps its events: the file-backed log, or memory in tests.
package protocol EventStore: AnyObject, Sendable {
  /// Every stored event in merge order, duplicates removed, plus notices
  /// about what was set aside on the way (torn tails, duplicates).
  func readHistory() throws -> (events: [StoredEvent], notices: [String])

  /// Appends `events` for `device` as one durable batch, each clock after
  /// `notBefore` (milliseconds, counter), and returns them as stored.
  func append(
    _ events: [EventToAppend],
    device: String,
    notBefore: (Int64, UInt32)?
  ) throws -> [StoredEvent]

  /// This store, when it is a ``PositionedEventStore``; nil otherwise (the default).
  ///
  /// Asked instead of casting the store: a cast to a protocol searches every conformance in
  /// the program the first time, a cost every command would pay at start.
  var positioned: (any PositionedEventStore)? { get }
}

extension EventStore {
  package var positioned: (any PositionedEventStore)? { nil }
}

/// Stored events in merge order: values, or the records of a log read whole, each made into
/// a stored event when asked for.
///
/// A replay decodes a log's records where they lie (``Journal`` makes no stored event of
/// them unless one needs an upcast or fails), so the history is never held as stored events.
package struct StoredEvents: RandomAccessCollection, Sendable {
  private enum Source: Sendable {
    case events([StoredEvent])
    case records(JournalHistory)
  }

  private var source: Source

  /// The events `events`, in their order.
  package init(_ events: [StoredEvent]) { source = .events(events) }

  /// The records of `history`, in its merge order.
  package init(records history: JournalHistory) { source = .records(history) }

  package var startIndex: Int { 0 }

  package var endIndex: Int {
    switch source {
    case .events(let events): events.count
    case .records(let history): history.count
    }
  }

  package subscript(position: Int) -> StoredEvent {
    switch source {
    case .events(let events): events[position]
    case .records(let history): StoredEvent(history[position])
    }
  }
}

/// Stored events read from files, with where each device's reading ended.
package struct StoredHistory: Sendable {
  /// The events in merge order, duplicates removed.
  package var events: StoredEvents
  /// What was set aside on the way (torn tails, duplicates, corrupt records).
  package var notices: [String]
  /// The end of each device's last record read; see ``DevicePosition``.
  package var positions: [String: DevicePosition]
  /// The branches of devices' histories found outside their segments (see `Fork`): a device
  /// read whole hands on their events with the rest, a device read after a position does
  /// not.
  package var forks: [Fork]

  /// Creates a history.
  package init(
    events: StoredEvents,
    notices: [String],
    positions: [String: DevicePosition],
    forks: [Fork] = []
  ) {
    self.events = events
    self.notices = notices
    self.positions = positions
    self.forks = forks
  }
}

/// A store kept in files, whose reads end at positions a later read can resume from.
package protocol PositionedEventStore: EventStore {
  /// Every event after `positions` (every event of a device without one), in merge order;
  /// see `EventLog.readHistory(after:)`.
  ///
  /// - Throws: `JournalError` of kind `positionChanged` when a position no longer names
  ///   the record it was taken at: read everything instead.
  func readHistory(after positions: [String: DevicePosition]) throws -> StoredHistory

  /// The positions of `device` before and after the last append through this store: the
  /// end of the device's last record when the writer opened, and after the batch.
  func lastAppend(device: String) -> (before: DevicePosition?, after: DevicePosition?)?
}

extension PositionedEventStore {
  package var positioned: (any PositionedEventStore)? { self }
}
