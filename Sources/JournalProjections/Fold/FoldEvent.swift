import Foundation
import JournalCore

/// An event ready to be folded: where it came from, when, and what it says.
public struct FoldEvent: Sendable, Hashable {
  /// The event id (a ULID).
  public var id: String
  public var device: String
  public var sequence: UInt64
  /// The hybrid clock: wall milliseconds and the logical counter.
  public var milliseconds: Int64
  public var counter: UInt32
  public var stream: String
  /// When the action happened: the payload's `at`, else the record's time.
  ///
  /// Differs from the record time when an action is back-dated.
  public var at: Date
  /// The id of the first event of the command that appended this one, when the
  /// command appended several: undo cancels them together.
  public var action: String?
  public var event: JournalEvent

  public init(
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
    self.id = id
    self.device = device
    self.sequence = sequence
    self.milliseconds = milliseconds
    self.counter = counter
    self.stream = stream
    self.at = at ?? Date(milliseconds: milliseconds)
    self.action = action
    self.event = event
  }

  /// When the event was recorded, from its clock.
  public var recordedAt: Date { Date(milliseconds: milliseconds) }

  /// The action this event belongs to: its `action`, else itself.
  public var actionID: String { action ?? id }

  /// The id of the stored event this one came from (upcasting may split one stored event into
  /// several, numbered `<id>#2`, `<id>#3`…).
  ///
  /// Reverts name stored ids, so they cancel every part.
  public var storedID: String {
    guard let hash = id.firstIndex(ofASCII: "#") else { return id }
    return String(id[..<hash])
  }

  /// The id after the stream's prefix: `workout:01J…` → `01J…`.
  public var streamID: String {
    guard let colon = stream.firstIndex(ofASCII: ":") else { return stream }
    return String(stream[stream.index(after: colon)...])
  }

  /// An event's place in the journal's merge order: (`ms`, `lc`, device, sequence).
  public struct MergeKey: Sendable, Hashable, Codable, Comparable {
    public var milliseconds: Int64
    public var counter: UInt32
    public var device: String
    public var sequence: UInt64

    public static func < (a: MergeKey, b: MergeKey) -> Bool {
      if a.milliseconds != b.milliseconds { return a.milliseconds < b.milliseconds }
      if a.counter != b.counter { return a.counter < b.counter }
      if a.device != b.device { return a.device < b.device }
      return a.sequence < b.sequence
    }
  }

  /// This event's place in the merge order.
  public var mergeKey: MergeKey {
    MergeKey(milliseconds: milliseconds, counter: counter, device: device, sequence: sequence)
  }

  /// Whether this event sorts before `other` in the journal's merge order.
  public func precedes(_ other: FoldEvent) -> Bool { mergeKey < other.mergeKey }
}

/// Reserved payload keys shared by every event type.
public enum PayloadMetadata {
  /// Milliseconds since 1970 when the action happened, if not the record time.
  public static let at = "at"
  /// The id of the first event of a multi-event command.
  public static let action = "action"

  /// Adds the metadata to a payload object.
  public static func adding(at: Date?, action: String?, to payload: JSONValue) -> JSONValue {
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
  /// The index of the first `separator`, as `firstIndex(of:)` finds it, but searching the
  /// bytes when the string is ASCII (ids and stream names always are), where bytes and
  /// characters meet at the same indices.
  ///
  /// The fold asks for every event's stream and stored id: the `Character` search, which
  /// breaks graphemes, was a fifth of a replay's instructions.
  func firstIndex(ofASCII separator: Unicode.Scalar) -> String.Index? {
    let byte = UInt8(truncatingIfNeeded: separator.value)
    guard separator.isASCII, utf8.allSatisfy({ $0 < 0x80 }) else {
      return firstIndex(of: Character(separator))
    }
    return utf8.firstIndex(of: byte)
  }
}
