import JournalCore

/// An event decoded from a current-version payload, with the payload's metadata.
///
/// Replaying a journal decodes mostly a handful of small payloads (`{"logID":…,"reps":8,
/// "weight":62.5}`): for those types a payload in the writer's spelling is read member by
/// member in one pass (``init(writtenSpelling:payload:)``, over a ``WrittenObjectReader``),
/// with no member table and no look-up by key. Any other type or spelling — an unknown or
/// repeated member, an escape, a value of another form, a value the general decoder would
/// refuse — is read by the general decoder (``init(type:reading:)``), which takes every
/// spelling and says what is wrong. The two give the same event wherever the first gives one
/// (a seeded differential test and the payload fuzzer compare them).
struct PayloadEvent {
  var event: JournalEvent
  /// The payload's `at` (``PayloadMetadata/at``), in milliseconds.
  var at: Int64?
  /// The payload's `action` (``PayloadMetadata/action``).
  var action: String?

  init(event: JournalEvent, at: Int64?, action: String?) {
    self.event = event
    self.at = at
    self.action = action
  }

  /// The event of a current-version payload of `type`, read in one pass or, for any other
  /// type or spelling, by the general decoder.
  ///
  /// - Throws: ``PayloadError`` for an unknown type or a malformed payload.
  static func decode(type: String, payload: JSONPayload) throws(PayloadError) -> PayloadEvent {
    if let written = PayloadEvent(writtenSpelling: type, payload: payload) { return written }
    return try PayloadEvent(type: type, reading: payload)
  }

  /// The event of a payload of `type` in any spelling, by the general decoder
  /// (``JournalEvent/init(type:reader:)``).
  ///
  /// - Throws: ``PayloadError`` for an unknown type or a malformed payload.
  init(type: String, reading payload: JSONPayload) throws(PayloadError) {
    let reader = try PayloadReader(payload, type: type)
    self.init(
      event: try JournalEvent(type: type, reader: reader),
      at: reader.object[PayloadMetadata.at]?.intValue,
      action: reader.object[PayloadMetadata.action]?.stringValue
    )
  }

  /// The event of a current-version payload of `type` read in one pass; nil when the type is
  /// not one read so or the payload is not in the writer's spelling.
  init?(writtenSpelling type: String, payload: JSONPayload) {
    typealias T = JournalEvent.TypeName
    // The types in the order of how common they are in a journal.
    let shape: Shape
    switch type {
    case T.setCompleted: shape = .setCompleted
    case T.logStarted: shape = .logStarted
    case T.logCompleted: shape = .logCompleted
    case T.eventsReverted: shape = .eventsReverted
    case T.setAdjusted: shape = .setAdjusted
    case T.setAdded: shape = .setAdded
    case T.logSkipped: shape = .logSkipped
    case T.logReset: shape = .logReset
    case T.logRemoved: shape = .logRemoved
    default: return nil
    }
    guard let written = payload.withWrittenObject({ Self(shape, &$0) }) else { return nil }
    self = written
  }

  /// How the payload of each type read in one pass is read.
  private enum Shape {
    case setCompleted, logStarted, logCompleted, eventsReverted, setAdjusted, setAdded
    case logSkipped, logReset, logRemoved
  }

  /// Every member these types have; nil for any other.
  private init?(_ shape: Shape, _ reader: inout WrittenObjectReader) {
    var fields = Fields()
    while let key = reader.nextKey() {
      guard fields.read(key, from: &reader) else { return nil }
    }
    guard reader.isComplete, let event = fields.event(shape) else { return nil }
    self.init(event: event, at: fields.at, action: fields.action)
  }

  /// The members read so far.
  private struct Fields {
    var at: Int64?
    var action: String?
    var logID: String?
    var set: String?
    var reps: Int?
    var seconds: Int?
    var weight: Double?
    var events: [String]?
    var reason: String?

    /// Reads the value of `key`; false when the key is none of these, was read already, or
    /// its value is not of the one form read here.
    mutating func read(_ key: WrittenObjectReader.Key, from reader: inout WrittenObjectReader)
      -> Bool
    {
      if key == "logID" {
        guard logID == nil else { return false }
        logID = reader.string()
        return logID != nil
      } else if key == "reps" {
        guard reps == nil, let value = reader.integer().flatMap(Int.init(exactly:)) else {
          return false
        }
        reps = value
      } else if key == "weight" {
        // As `PayloadReader.optionalWeight` reads it; null is no weight.
        guard weight == nil, let value = reader.scalar() else { return false }
        if value.isNull { return true }
        guard let double = value.doubleValue, double.isFinite,
          double.magnitude <= PayloadReader.maximumWeightMagnitude
        else { return false }
        weight = double
      } else if key == "seconds" {
        guard seconds == nil, let value = reader.integer().flatMap(Int.init(exactly:)) else {
          return false
        }
        seconds = value
      } else if key == "set" {
        guard set == nil else { return false }
        set = reader.string()
        return set != nil
      } else if key == "events" {
        guard events == nil else { return false }
        events = reader.strings()
        return events != nil
      } else if key == "reason" {
        guard reason == nil else { return false }
        reason = reader.string()
        return reason != nil
      } else if key == "at" {
        guard at == nil else { return false }
        at = reader.integer()
        return at != nil
      } else if key == "action" {
        guard action == nil else { return false }
        action = reader.string()
        return action != nil
      } else {
        return false
      }
      return true
    }

    /// The event of `shape` from the members read; nil when one it needs is missing.
    func event(_ shape: Shape) -> JournalEvent? {
      if shape == .eventsReverted {
        guard let events, let reason else { return nil }
        return .eventsReverted(EventsReverted(eventIDs: events, reason: reason))
      }
      guard let logID else { return nil }
      let actuals = SetActuals(reps: reps, weight: weight, seconds: seconds)
      switch shape {
      case .setCompleted: return .setCompleted(SetCompleted(logID: logID, actuals: actuals))
      case .logStarted: return .logStarted(logID: logID)
      case .logCompleted: return .logCompleted(logID: logID)
      case .setAdjusted:
        guard let set else { return nil }
        return .setAdjusted(SetAdjusted(logID: logID, setEventID: set, actuals: actuals))
      case .setAdded: return .setAdded(logID: logID)
      case .logSkipped: return .logSkipped(logID: logID)
      case .logReset: return .logReset(logID: logID)
      case .logRemoved: return .logRemoved(logID: logID)
      case .eventsReverted: return nil
      }
    }
  }
}

extension JournalEvent {
  /// The types whose payloads in the writer's spelling are read in one pass
  /// (``PayloadEvent``), the commonest first.
  public static let onePassTypes = [
    TypeName.setCompleted, TypeName.logStarted, TypeName.logCompleted, TypeName.eventsReverted,
    TypeName.setAdjusted, TypeName.setAdded, TypeName.logSkipped, TypeName.logReset,
    TypeName.logRemoved,
  ]
}
