import Foundation
import JournalCore

/// An event ready to be folded: where it came from, when, and what it says.
public struct FoldEvent: Sendable, Hashable {
  /// The event id, held as a value (``EventID``): its text is ``id``.
  var eventID: EventID
  public var device: String
  package var sequence: UInt64
  /// The hybrid clock: wall milliseconds and the logical counter (``counter``).
  package var milliseconds: Int64
  public var stream: String { didSet { streamID = Self.streamID(of: stream) } }
  /// When the action happened: the payload's `at`, else the record's time.
  ///
  /// Differs from the record time when an action is back-dated.
  public var at: Date
  /// The id of the first event of the command that appended this one, when the
  /// command appended several: undo cancels them together.
  package var action: String?
  package var event: JournalEvent
  // The small members come after `event`, in the bytes its enum leaves at its end: declared
  // anywhere else they would take a word of their own.
  /// The last byte of ``streamID`` (0 when it is empty), kept so that a fold in parts picks
  /// a workout's part without reading the id's storage (``Replayer/Fold``).
  private(set) var streamTail: UInt8
  /// The hybrid clock's logical counter.
  package var counter: UInt32

  /// The event id's text (a ULID, or `<ULID>#<part>` for a part of an upcast event).
  public var id: String {
    get { eventID.description }
    set { eventID = EventID(newValue) }
  }

  /// When the event was recorded, from its clock.
  package var recordedAt: Date { Date(milliseconds: milliseconds) }

  /// The action this event belongs to: its `action`, else itself.
  package var actionID: String { action ?? id }

  /// The id of the stored event this one came from (upcasting may split one stored event into
  /// several, numbered `<id>#2`, `<id>#3`…), as text.
  ///
  /// Reverts name stored ids, so they cancel every part.
  package var storedID: String { eventID.stored.description }

  /// The id after the stream's prefix: `workout:01J…` → `01J…`.
  ///
  /// Kept with the event, as ``storedID`` is; a run of events of one stream shares one copy.
  package private(set) var streamID: String { didSet { streamTail = Self.lastByte(of: streamID) } }

  static func streamID(of stream: String) -> String { stream.split(atASCII: ":")?.after ?? stream }

  /// The last byte of `text`'s UTF-8, 0 when it is empty: read in place, since the
  /// collection's `last` walks `String.UTF8View`'s indices.
  static func lastByte(of text: String) -> UInt8 {
    let last = text.utf8.withContiguousStorageIfAvailable { $0.last ?? 0 }
    return last ?? text.utf8.last ?? 0
  }

  /// An event's place in the journal's merge order: (`ms`, `lc`, device, sequence).
  package struct MergeKey: Sendable, Hashable, Codable, Comparable {
    package var milliseconds: Int64
    package var counter: UInt32
    package var device: String
    package var sequence: UInt64

    package static func < (a: MergeKey, b: MergeKey) -> Bool {
      if a.milliseconds != b.milliseconds { return a.milliseconds < b.milliseconds }
      if a.counter != b.counter { return a.counter < b.counter }
      if a.device != b.device { return a.device < b.device }
      return a.sequence < b.sequence
    }
  }

  /// This event's place in the merge order.
  package var mergeKey: MergeKey {
    MergeKey(milliseconds: milliseconds, counter: counter, device: device, sequence: sequence)
  }

  /// Whether this event sorts before `other` in the journal's merge order.
  package func precedes(_ other: FoldEvent) -> Bool { mergeKey < other.mergeKey }
}

// The initializers delegate to the memberwise one, which Swift makes because the struct
// declares none: a struct's own initializer assigning its members one by one builds the
// value aside and copies it out (ten retains and releases for this one), the memberwise
// initializer builds it in place.
extension FoldEvent {
  package init(
    id: String,
    device: String,
    sequence: UInt64,
    milliseconds: Int64,
    counter: UInt32 = 0,
    stream: String,
    at: Date? = nil,
    action: String? = nil,
    event: JournalEvent
  ) {
    self.init(
      eventID: EventID(id),
      streamID: Self.streamID(of: stream),
      device: device,
      sequence: sequence,
      milliseconds: milliseconds,
      counter: counter,
      stream: stream,
      at: at,
      action: action,
      event: event
    )
  }

  /// An event whose stream id the caller has already derived from `stream`
  /// (``streamID(of:)``).
  init(
    eventID: EventID,
    streamID: String,
    device: String,
    sequence: UInt64,
    milliseconds: Int64,
    counter: UInt32,
    stream: String,
    at: Date?,
    action: String?,
    event: JournalEvent
  ) {
    self.init(
      eventID: eventID,
      device: device,
      sequence: sequence,
      milliseconds: milliseconds,
      stream: stream,
      at: at ?? Date(milliseconds: milliseconds),
      action: action,
      event: event,
      streamTail: Self.lastByte(of: streamID),
      counter: counter,
      streamID: streamID
    )
  }
}

/// Reserved payload keys shared by every event type.
package enum PayloadMetadata {
  /// Milliseconds since 1970 when the action happened, if not the record time.
  package static let at = "at"
  /// The id of the first event of a multi-event command.
  package static let action = "action"

  /// Adds the metadata to a payload object.
  package static func adding(at: Date?, action: String?, to payload: JSONValue) -> JSONValue {
    guard case .object(var object) = payload else { return payload }
    if let at { object[Self.at] = .int(at.milliseconds) }
    if let action { object[Self.action] = .string(action) }
    return .object(object)
  }
}

extension Date {
  /// The date `milliseconds` after 1970-01-01T00:00:00Z.
  public init(milliseconds: Int64) {
    self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Whole milliseconds since 1970, rounded down.
  public var milliseconds: Int64 {
    Int64((timeIntervalSince1970 * 1000).rounded(.down))
  }
}

extension String {
  /// The text before and after the first `separator`, as splitting at `firstIndex(of:)`
  /// gives it, but searching the bytes when the string is ASCII (ids and stream names
  /// always are), where bytes and characters meet at the same places.
  ///
  /// The fold asks for every event's stream id and stored id, and a `Character` search breaks
  /// graphemes.
  func split(atASCII separator: Unicode.Scalar) -> (before: String, after: String)? {
    precondition(separator.isASCII)
    let byte = UInt8(truncatingIfNeeded: separator.value)
    let scanned = utf8.withContiguousStorageIfAvailable { bytes -> ASCIISplit in
      guard bytes.isASCII else { return .notASCII }
      guard let first = bytes.firstIndex(of: byte) else { return .absent }
      return .found(
        String(decoding: UnsafeBufferPointer(rebasing: bytes[..<first]), as: UTF8.self),
        String(decoding: UnsafeBufferPointer(rebasing: bytes[(first + 1)...]), as: UTF8.self)
      )
    }
    switch scanned {
    case .found(let before, let after): return (before, after)
    case .absent: return nil
    case .notASCII, nil: break
    }
    guard let index = firstIndex(of: Character(separator)) else { return nil }
    return (String(self[..<index]), String(self[self.index(after: index)...]))
  }
}

/// What scanning an ASCII string's bytes for a separator found.
private enum ASCIISplit {
  case found(String, String)
  case absent
  case notASCII
}

extension UnsafeBufferPointer<UInt8> {
  /// Whether every byte is below 0x80, tested eight at a time.
  var isASCII: Bool {
    guard let base = baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    var seen: UInt64 = 0
    var offset = 0
    while offset + 8 <= count {
      seen |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    while offset < count {
      seen |= UInt64(base[offset])
      offset += 1
    }
    return seen & 0x8080_8080_8080_8080 == 0
  }
}
