import JournalCore

/// An event decoded from a current-version payload, with the payload's metadata.
///
/// Replaying a journal decodes mostly a handful of small payloads (`{"logID":…,"reps":8,
/// "weight":62.5}`): for those types a payload in the writer's spelling is read member by
/// member in one pass (``init(writtenSpelling:payload:strings:)``, over a
/// ``WrittenObjectReader``), with no member table and no look-up by key. Any other type or
/// spelling — an unknown or repeated member, an escape, a value of another form, a value the
/// general decoder would refuse — is read by the general decoder (``init(type:reading:)``),
/// which takes every spelling and says what is wrong. The two give the same event wherever
/// the first gives one (a seeded differential test and the payload fuzzer compare them).
struct PayloadEvent {
  var event: JournalEvent
  /// The payload's `at` (``PayloadMetadata/at``), in milliseconds.
  var at: Int64?
  /// The payload's `action` (``PayloadMetadata/action``).
  var action: String?
}

// The initializers are in an extension, so that Swift makes the memberwise one, which builds
// the value in place; an initializer of the struct's own assigning the members in turn builds
// it aside and copies it out.
extension PayloadEvent {
  /// The event, moved out: ``event`` is left a case without members.
  ///
  /// Reading `event` out of a payload event about to be let go copies it (a retain and a
  /// release of each of its strings), which the optimizer does not see through.
  mutating func takeEvent() -> JournalEvent {
    var taken = JournalEvent.workoutEnded
    swap(&taken, &event)
    return taken
  }

  /// The event of a current-version payload of `type`, read in one pass or, for any other
  /// type or spelling, by the general decoder.
  ///
  /// Log ids share the storage of the same ids read lately in `strings`.
  ///
  /// A payload the read left unchecked (`trust` says so of its `type` at its stored
  /// `version`; see `PayloadTrust`) is read in the writer's spelling only, which accepts
  /// nothing but JSON: the general decoder expects checked bytes. `trust` is asked only then:
  /// passed rather than captured by a closure, it is not copied (a retain and a release, on
  /// one object shared by every core's decoding) for every event.
  ///
  /// - Throws: ``PayloadError`` for an unknown type or a malformed payload, or an unchecked
  ///   payload in another spelling.
  static func decode(
    type: String,
    payload: JSONPayload,
    strings: inout RecentStrings,
    trust: PayloadTrust? = nil,
    version: Int? = nil
  ) throws(PayloadError) -> PayloadEvent {
    if let written = written(type, payload: payload, strings: &strings) { return written }
    if let version, let trust, trust(type, version) {
      throw PayloadError(
        type: type,
        message: "payload read unchecked is not in the writer's spelling; to be read again"
      )
    }
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
  ///
  /// Log ids share the storage of the same ids read lately in `strings`.
  init?(writtenSpelling type: String, payload: JSONPayload, strings: inout RecentStrings) {
    guard let written = Self.written(type, payload: payload, strings: &strings) else { return nil }
    self = written
  }

  /// ``init(writtenSpelling:payload:strings:)``, returned rather than initialized: a failable
  /// initializer made its value, then copied it out (a retain of each string of the event,
  /// and a release as the first was let go).
  private static func written(
    _ type: String,
    payload: JSONPayload,
    strings: inout RecentStrings
  ) -> PayloadEvent? {
    // By identity first: a type read from a record is an inline small string when it has
    // fifteen bytes or fewer, bit for bit the constant's.
    let shapes = Shape.byType
    guard
      let shape =
        (shapes.first { $0.type.isIdentical(to: type) } ?? shapes.first { $0.type == type })?
        .shape
    else { return nil }
    return payload.withWrittenObject { reader in read(shape, &reader, &strings) }
  }

  /// How the payload of each type read in one pass is read; the commonest types first, as
  /// they are looked for in this order.
  fileprivate enum Shape: CaseIterable {
    case setCompleted, logStarted, logCompleted, eventsReverted, workoutStarted, metricsRecorded
    case setAdjusted, setAdded, logSkipped, logReset, logRemoved

    /// Every shape with its type, looked for in this order.
    static let byType = allCases.map { (type: $0.type, shape: $0) }

    /// The event type read with this shape.
    var type: String {
      typealias T = JournalEvent.TypeName
      return switch self {
      case .setCompleted: T.setCompleted
      case .logStarted: T.logStarted
      case .logCompleted: T.logCompleted
      case .eventsReverted: T.eventsReverted
      case .workoutStarted: T.workoutStarted
      case .metricsRecorded: T.metricsRecorded
      case .setAdjusted: T.setAdjusted
      case .setAdded: T.setAdded
      case .logSkipped: T.logSkipped
      case .logReset: T.logReset
      case .logRemoved: T.logRemoved
      }
    }
  }

  private static func read(
    _ shape: Shape,
    _ reader: inout WrittenObjectReader,
    _ strings: inout RecentStrings
  ) -> PayloadEvent? {
    var metadata = Metadata()
    let event: JournalEvent?
    switch shape {
    case .workoutStarted: event = Self.workoutStarted(&reader, &metadata, &strings)
    case .metricsRecorded: event = Self.metricsRecorded(&reader, &metadata)
    default:
      var fields = Fields()
      // The members the writer puts first (`logID`, then a set's `reps` and `weight`) are
      // matched where they are expected, without reading each key and trying it against
      // every member's name; the loop reads whatever else there is, the end included.
      if reader.nextKey(is: "logID") {
        guard fields.readLogID(&reader, &strings) else { return nil }
        if reader.nextKey(is: "reps") {
          guard fields.readReps(&reader) else { return nil }
        }
        if reader.nextKey(is: "weight") {
          guard fields.readWeight(&reader) else { return nil }
        }
      }
      while let key = reader.nextKey() {
        guard
          fields.read(key, from: &reader, &strings) || metadata.read(key, from: &reader)
        else {
          return nil
        }
      }
      event = fields.event(shape)
    }
    guard reader.isComplete, let event else { return nil }
    return PayloadEvent(event: event, at: metadata.at, action: metadata.action)
  }

  /// The members any payload may carry besides its type's (``PayloadMetadata``).
  private struct Metadata {
    var at: Int64?
    var action: String?

    /// Reads the value of `key`; false when the key is not one of these, was read already,
    /// or its value is not of the one form read here.
    mutating func read(
      _ key: WrittenObjectReader.Key,
      from reader: inout WrittenObjectReader
    )
      -> Bool
    {
      if key == "at" { return once(&at, reader.integer()) }
      if key == "action" { return once(&action, reader.string()) }
      return false
    }
  }

  /// The members of the set, log and revert events.
  private struct Fields {
    var logID: String?
    var set: String?
    var reps: Int?
    var seconds: Int?
    /// A weight, or nil inside when the payload's weight is null.
    var weight: Double??
    var events: [String]?
    var reason: String?

    /// Reads the value of `key`; false when the key is none of these, was read already, or
    /// its value is not of the one form read here.
    mutating func read(
      _ key: WrittenObjectReader.Key,
      from reader: inout WrittenObjectReader,
      _ strings: inout RecentStrings
    ) -> Bool {
      if key == "logID" { return readLogID(&reader, &strings) }
      if key == "reps" { return readReps(&reader) }
      if key == "weight" { return readWeight(&reader) }
      if key == "seconds" { return once(&seconds, reader.int()) }
      if key == "set" { return once(&set, reader.string()) }
      if key == "events" { return once(&events, reader.strings()) }
      if key == "reason" { return once(&reason, reader.string()) }
      return false
    }

    /// Reads `logID`, `reps` or `weight`, the members the writer puts first: by key in
    /// ``read(_:from:_:)``, or where they are expected (`WrittenObjectReader.nextKey(is:)`).
    mutating func readLogID(
      _ reader: inout WrittenObjectReader,
      _ strings: inout RecentStrings
    ) -> Bool {
      once(&logID, reader.string(sharing: &strings))
    }

    mutating func readReps(_ reader: inout WrittenObjectReader) -> Bool {
      once(&reps, reader.int())
    }

    mutating func readWeight(_ reader: inout WrittenObjectReader) -> Bool {
      once(&weight, reader.optionalWeight())
    }

    /// The event of `shape` from the members read; nil when one it needs is missing.
    ///
    /// The strings are taken (moved) into the event: copied, each would cost a retain, and a
    /// release when the fields are let go.
    mutating func event(_ shape: Shape) -> JournalEvent? {
      if shape == .eventsReverted {
        guard let events = events.take(), let reason = reason.take() else { return nil }
        return .eventsReverted(EventsReverted(eventIDs: events, reason: reason))
      }
      guard let logID = logID.take() else { return nil }
      let actuals = SetActuals(reps: reps, weight: weight ?? nil, seconds: seconds)
      switch shape {
      case .setCompleted: return .setCompleted(SetCompleted(logID: logID, actuals: actuals))
      case .logStarted: return .logStarted(logID: logID)
      case .logCompleted: return .logCompleted(logID: logID)
      case .setAdjusted:
        guard let set = set.take() else { return nil }
        return .setAdjusted(SetAdjusted(logID: logID, setEventID: set, actuals: actuals))
      case .setAdded: return .setAdded(logID: logID)
      case .logSkipped: return .logSkipped(logID: logID)
      case .logReset: return .logReset(logID: logID)
      case .logRemoved: return .logRemoved(logID: logID)
      case .eventsReverted, .workoutStarted, .metricsRecorded: return nil
      }
    }
  }

  /// A workout's start: its settings and every exercise's plan; nil when a member is missing,
  /// unknown, repeated or of another form (null included: the general decoder reads it).
  private static func workoutStarted(
    _ reader: inout WrittenObjectReader,
    _ metadata: inout Metadata,
    _ strings: inout RecentStrings
  ) -> JournalEvent? {
    var (splitID, splitName, timeZone): (String?, String?, String?)
    var (restSeconds, autoAdvance, targetHeartRate): (Int?, Bool?, Int?)
    var logs: [LogPlan]?
    while let key = reader.nextKey() {
      let read: Bool
      if key == "logs" {
        // Room for eight exercises at once: grown from empty, a workout of five was
        // allocated four times over.
        read = once(&logs, reader.objects(reserving: 8) { logPlan(&$0, &strings) })
      } else if key == "timeZone" {
        read = once(&timeZone, reader.string())
      } else if key == "splitID" {
        read = once(&splitID, reader.string())
      } else if key == "splitName" {
        read = once(&splitName, reader.string())
      } else if key == "restSeconds" {
        read = once(&restSeconds, reader.int())
      } else if key == "autoAdvance" {
        read = once(&autoAdvance, reader.bool())
      } else if key == "targetHeartRate" {
        read = once(&targetHeartRate, reader.int())
      } else {
        read = metadata.read(key, from: &reader)
      }
      guard read else { return nil }
    }
    guard let timeZone, let logs else { return nil }
    return .workoutStarted(
      WorkoutStarted(
        splitID: splitID,
        splitName: splitName,
        timeZone: timeZone,
        restSeconds: restSeconds,
        autoAdvance: autoAdvance,
        targetHeartRate: targetHeartRate,
        logs: logs
      )
    )
  }

  /// One exercise of a workout's start (``LogPlan``).
  private static func logPlan(
    _ reader: inout WrittenObjectReader,
    _ strings: inout RecentStrings
  ) -> LogPlan? {
    var (logID, name, libraryName, notes): (String?, String?, String?, String?)
    var (order, sets, reps, durationSeconds): (Int?, Int?, Int?, Int?)
    var weight: Double?
    var loadType: LoadType?
    var machineSettings: [MachineSetting]?
    while let key = reader.nextKey() {
      let read: Bool
      if key == "logID" {
        read = once(&logID, reader.string(sharing: &strings, new: true))
      } else if key == "name" {
        // An exercise's name is mostly its library name, written before it: one string.
        read = once(&name, reader.string(reusing: libraryName))
      } else if key == "order" {
        read = once(&order, reader.int())
      } else if key == "sets" {
        read = once(&sets, reader.int())
      } else if key == "reps" {
        read = once(&reps, reader.int())
      } else if key == "weight" {
        read = once(&weight, reader.optionalWeight() ?? nil)
      } else if key == "loadType" {
        read = once(&loadType, reader.int().flatMap(LoadType.init(rawValue:)))
      } else if key == "durationSeconds" {
        read = once(&durationSeconds, reader.int())
      } else if key == "libraryName" {
        read = once(&libraryName, reader.string(reusing: name))
      } else if key == "machineSettings" {
        read = once(&machineSettings, reader.objects(machineSetting))
      } else if key == "notes" {
        read = once(&notes, reader.string())
      } else {
        read = false
      }
      guard read else { return nil }
    }
    guard let logID, let order, let name, let sets, let reps, let weight, let loadType else {
      return nil
    }
    let plan = ExercisePlan(
      name: name,
      sets: sets,
      reps: reps,
      weight: weight,
      loadType: loadType,
      durationSeconds: durationSeconds ?? 0,
      machineSettings: machineSettings,
      libraryName: libraryName
    )
    return LogPlan(logID: logID, order: order, plan: plan, notes: notes)
  }

  /// One `{name, value}` machine setting.
  private static func machineSetting(_ reader: inout WrittenObjectReader) -> MachineSetting? {
    var (name, value): (String?, String?)
    while let key = reader.nextKey() {
      let read: Bool
      if key == "name" {
        read = once(&name, reader.string())
      } else if key == "value" {
        read = once(&value, reader.string())
      } else {
        read = false
      }
      guard read else { return nil }
    }
    guard let name, let value else { return nil }
    return MachineSetting(name: name, value: value)
  }

  /// What a device measured during a workout.
  private static func metricsRecorded(
    _ reader: inout WrittenObjectReader,
    _ metadata: inout Metadata
  ) -> JournalEvent? {
    var (activeEnergyKcal, avgHeartRate, maxHeartRate): (Double?, Double?, Double?)
    var (minHeartRate, totalVolume): (Double?, Double?)
    var hrZoneSeconds: [Double]?
    var healthKitWorkoutUUID: String?
    var source: MetricSource?
    while let key = reader.nextKey() {
      let read: Bool
      if key == "activeEnergyKcal" {
        read = once(&activeEnergyKcal, reader.number())
      } else if key == "avgHeartRate" {
        read = once(&avgHeartRate, reader.number())
      } else if key == "maxHeartRate" {
        read = once(&maxHeartRate, reader.number())
      } else if key == "minHeartRate" {
        read = once(&minHeartRate, reader.number())
      } else if key == "hrZoneSeconds" {
        read = once(&hrZoneSeconds, reader.numbers())
      } else if key == "healthKitWorkoutUUID" {
        read = once(&healthKitWorkoutUUID, reader.string())
      } else if key == "source" {
        read = once(&source, reader.string().flatMap(MetricSource.init(rawValue:)))
      } else if key == "totalVolume" {
        read = once(&totalVolume, reader.number())
      } else {
        read = metadata.read(key, from: &reader)
      }
      guard read else { return nil }
    }
    guard let source else { return nil }
    return .metricsRecorded(
      MetricsRecorded(
        activeEnergyKcal: activeEnergyKcal,
        avgHeartRate: avgHeartRate,
        maxHeartRate: maxHeartRate,
        minHeartRate: minHeartRate,
        hrZoneSeconds: hrZoneSeconds,
        healthKitWorkoutUUID: healthKitWorkoutUUID,
        source: source,
        totalVolume: totalVolume
      )
    )
  }
}

/// Keeps `value` in `field` when the field is not set yet; whether it did (false for a
/// value that did not read, or a member read twice).
private func once<Value>(_ field: inout Value?, _ value: Value?) -> Bool {
  guard field == nil, let value else { return false }
  field = value
  return true
}

extension WrittenObjectReader {
  /// The value as an array of objects, each read by `read` to its end; nil for anything
  /// else, or when `read` gives nil for one.
  ///
  /// Here rather than in JournalCore, so that the array is made by code specialized for
  /// `Element`.
  fileprivate mutating func objects<Element>(
    reserving capacity: Int = 0,
    _ read: (inout WrittenObjectReader) -> Element?
  ) -> [Element]? {
    var elements: [Element] = []
    elements.reserveCapacity(capacity)
    let complete = forEachObject { reader in
      guard let element = read(&reader) else { return false }
      elements.append(element)
      return true
    }
    return complete ? elements : nil
  }

  /// The value as an `Int`, as ``PayloadReader/int(_:)`` reads one written plainly.
  fileprivate mutating func int() -> Int? { integer().flatMap(Int.init(exactly:)) }

  /// The value when `true` or `false`.
  fileprivate mutating func bool() -> Bool? { scalar()?.boolValue }

  /// The value as a finite number, as ``PayloadReader/optionalDouble(_:)`` reads one.
  fileprivate mutating func number() -> Double? { scalar().flatMap(PayloadReader.number) }

  /// The value as an array of finite numbers, as ``PayloadReader/optionalDoubles(_:)`` reads
  /// one.
  fileprivate mutating func numbers() -> [Double]? {
    guard let values = scalars() else { return nil }
    var numbers: [Double] = []
    numbers.reserveCapacity(values.count)
    for value in values {
      guard let number = PayloadReader.number(value) else { return nil }
      numbers.append(number)
    }
    return numbers
  }

  /// The value as a weight, or nil inside for null, as ``PayloadReader/optionalWeight(_:)``
  /// reads it.
  fileprivate mutating func optionalWeight() -> Double?? {
    guard let value = scalar() else { return nil }
    if value.isNull { return .some(nil) }
    guard let weight = PayloadReader.number(value), PayloadReader.isWeight(weight) else {
      return nil
    }
    return weight
  }
}

extension JournalEvent {
  /// The types whose payloads in the writer's spelling are read in one pass
  /// (``PayloadEvent``), the commonest first.
  public static let onePassTypes = PayloadEvent.Shape.allCases.map(\.type)
}
