import Foundation
import JournalCore

// The checkpoint's stream files: one fold state (`SplitState` or
// `WorkoutState`) as compact JSON, written and read with JournalCore's own
// JSON code (`JSONValue.serialized()`, and `JSONPayload` to read the checked
// bytes back member by member) rather than Foundation's
// coders, which cost most of an incremental rebuild's processor time.
//
// The form (`docs/Rebuild.md`, "Stream files"): an object per struct, keys as
// the struct's properties, a nil optional left out; integers as JSON
// integers; doubles always with a fraction or an exponent (`45.0`), so `-0.0`
// and every other finite value read back exactly; dates as the bits of their
// `timeIntervalSinceReferenceDate`, as a signed 64-bit integer, because the
// grace rules compare exact times; enums by their raw value. A set entry, the
// most numerous value, is an array `[completedAt, reps, weight, seconds]` with
// null for nil. Keys are sorted and there is no whitespace, so equal states
// give equal bytes.

/// A fold state kept in a checkpoint stream file.
protocol CheckpointStream {
  /// The state as the JSON value of its stream file.
  var checkpointValue: JSONValue { get }
  /// Reads ``checkpointValue``; throws when a field is missing or has the wrong type.
  init(checkpoint reader: PayloadReader) throws(PayloadError)
}

extension Checkpoint {
  /// The bytes of a stream file.
  ///
  /// - Throws: ``JournalError`` when a number is not finite (JSON cannot hold it).
  static func encodeState(_ state: some CheckpointStream) throws -> [UInt8] {
    try state.checkpointValue.serialized()
  }

  /// Parses ``encodeState(_:)``.
  ///
  /// - Throws: ``JournalError`` for bytes that are not JSON, ``PayloadError``
  ///   for JSON that is not a state.
  static func decodeState<T: CheckpointStream>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    // Read from the checked bytes: no dictionary tree is built.
    try T(checkpoint: PayloadReader(JSONPayload(checking: bytes), type: "checkpoint stream"))
  }
}

// MARK: - Values

extension JSONValue {
  /// A date as the bits of its `timeIntervalSinceReferenceDate`.
  init(checkpoint date: Date) {
    self = .int(Int64(bitPattern: date.timeIntervalSinceReferenceDate.bitPattern))
  }
}

extension Date {
  /// Reads ``JSONValue/init(checkpoint:)``.
  init(checkpointBits bits: Int64) {
    self.init(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: bits)))
  }
}

extension PayloadReader {
  func date(_ key: String) throws(PayloadError) -> Date {
    guard let date = try optionalDate(key) else {
      throw PayloadError(type: type, message: "field '\(key)' must be a date's bits")
    }
    return date
  }

  func optionalDate(_ key: String) throws(PayloadError) -> Date? {
    guard let bits = try optionalInt64(key) else { return nil }
    return Date(checkpointBits: bits)
  }

  fileprivate func raw<T: RawRepresentable>(_ key: String, as _: T.Type) throws(PayloadError) -> T
  where T.RawValue == String {
    guard let value = T(rawValue: try string(key)) else {
      throw PayloadError(type: type, message: "field '\(key)' has an unknown value")
    }
    return value
  }
}

/// Builds a stream file's object (or the today cache's); nil values are left out.
struct StreamObject {
  var members = [String: JSONValue](minimumCapacity: 20)

  var value: JSONValue { .object(members) }

  mutating func set(_ key: String, _ value: String?) {
    if let value { members[key] = .string(value) }
  }

  mutating func set(_ key: String, _ value: Int?) {
    if let value { members[key] = .int(Int64(value)) }
  }

  mutating func set(_ key: String, _ value: Double?) {
    if let value { members[key] = .double(value) }
  }

  mutating func set(_ key: String, _ value: Bool?) {
    if let value { members[key] = .bool(value) }
  }

  mutating func set(_ key: String, _ value: Date?) {
    if let value { members[key] = JSONValue(checkpoint: value) }
  }

  mutating func set(_ key: String, _ value: JSONValue?) {
    if let value { members[key] = value }
  }
}

// MARK: - Splits

extension SplitState: CheckpointStream {
  var checkpointValue: JSONValue {
    var object = StreamObject()
    object.set("document", document.checkpointValue)
    object.set("isStarter", isStarter)
    object.set("deletedAt", deletedAt)
    return object.value
  }

  init(checkpoint reader: PayloadReader) throws(PayloadError) {
    self.init(
      document: try SplitDocument(checkpoint: reader.object("document")),
      isStarter: try reader.bool("isStarter"),
      deletedAt: try reader.optionalDate("deletedAt")
    )
  }
}

extension SplitDocument {
  fileprivate var checkpointValue: JSONValue {
    var object = StreamObject()
    object.set("schemaVersion", schemaVersion)
    object.set("id", id)
    object.set("name", name)
    object.set("color", color)
    object.set("systemImage", systemImage)
    object.set("order", order)
    object.set("createdAt", createdAt)
    object.set("updatedAt", updatedAt)
    object.set("exercises", .array(exercises.map(\.checkpointValue)))
    object.set("activityType", activityType)
    object.set("restSeconds", restSeconds)
    object.set("autoAdvance", autoAdvance)
    object.set("targetHeartRate", targetHeartRate)
    return object.value
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    var exercises: [ExerciseDocument] = []
    for exercise in try reader.objects("exercises") {
      exercises.append(try ExerciseDocument(checkpoint: exercise))
    }
    self.init(
      schemaVersion: try reader.int("schemaVersion"),
      id: try reader.string("id"),
      name: try reader.string("name"),
      color: try reader.string("color"),
      systemImage: try reader.string("systemImage"),
      order: try reader.int("order"),
      createdAt: try reader.date("createdAt"),
      updatedAt: try reader.date("updatedAt"),
      exercises: exercises,
      activityType: try reader.optionalInt("activityType"),
      restSeconds: try reader.optionalInt("restSeconds"),
      autoAdvance: try reader.optionalBool("autoAdvance"),
      targetHeartRate: try reader.optionalInt("targetHeartRate")
    )
  }
}

extension ExerciseDocument {
  fileprivate var checkpointValue: JSONValue {
    var object = StreamObject()
    object.set("id", id)
    object.set("name", name)
    object.set("order", order)
    object.set("sets", sets)
    object.set("reps", reps)
    object.set("weight", weight)
    object.set("loadType", loadType.rawValue)
    object.set("durationSeconds", durationSeconds)
    object.set("machineSettings", machineSettings.map(JSONValue.init(machineSettings:)))
    object.set("libraryName", libraryName)
    return object.value
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    self.init(
      id: try reader.string("id"),
      name: try reader.string("name"),
      order: try reader.int("order"),
      sets: try reader.int("sets"),
      reps: try reader.int("reps"),
      weight: try reader.double("weight"),
      loadType: try reader.loadType("loadType"),
      durationSeconds: try reader.int("durationSeconds"),
      machineSettings: try reader.optionalMachineSettings("machineSettings"),
      libraryName: try reader.optionalString("libraryName")
    )
  }
}

// MARK: - Workouts

extension WorkoutState: CheckpointStream {
  var checkpointValue: JSONValue {
    var object = StreamObject()
    object.set("document", document.checkpointValue)
    object.set("timeZone", timeZone.identifier)
    object.set("deletedAt", deletedAt)
    object.set("provenance", .object(provenance.mapValues { .array($0.map(\.checkpointValue)) }))
    object.set("recordedVolume", recordedVolume)
    return object.value
  }

  init(checkpoint reader: PayloadReader) throws(PayloadError) {
    let identifier = try reader.string("timeZone")
    guard let zone = TimeZone(identifier: identifier) else {
      throw PayloadError(type: reader.type, message: "unknown time zone '\(identifier)'")
    }
    let provenance = try reader.object("provenance")
    var entries: [String: [EntryProvenance]] = [:]
    for log in provenance.object.keys {
      var list: [EntryProvenance] = []
      for entry in try provenance.objects(log) {
        list.append(try EntryProvenance(checkpoint: entry))
      }
      entries[log] = list
    }
    self.init(
      document: try WorkoutDocument(checkpoint: reader.object("document")),
      timeZone: zone,
      deletedAt: try reader.optionalDate("deletedAt"),
      provenance: entries,
      recordedVolume: try reader.optionalDouble("recordedVolume")
    )
  }
}

extension EntryProvenance {
  fileprivate var checkpointValue: JSONValue {
    var object = StreamObject()
    object.set("kind", kind.rawValue)
    object.set("key", key)
    object.set("eventID", eventID)
    object.set("device", device)
    object.set("original", original.checkpointValue)
    object.set("adjustments", .array(adjustments.map(JSONValue.string)))
    return object.value
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    self.init(
      kind: try reader.raw("kind", as: Kind.self),
      key: try reader.string("key"),
      eventID: try reader.string("eventID"),
      device: try reader.string("device"),
      original: try SetEntry(checkpoint: reader["original"], in: reader),
      adjustments: try reader.strings("adjustments")
    )
  }
}

extension WorkoutDocument {
  fileprivate var checkpointValue: JSONValue {
    var object = StreamObject()
    object.set("schemaVersion", schemaVersion)
    object.set("id", id)
    object.set("splitID", splitID)
    object.set("splitName", splitName)
    object.set("start", start)
    object.set("end", end)
    object.set("status", status.rawValue)
    object.set("createdAt", createdAt)
    object.set("updatedAt", updatedAt)
    object.set("logs", .array(logs.map(\.checkpointValue)))
    object.set("metrics", metrics?.checkpointValue)
    object.set(
      "deletedLogIDs",
      deletedLogIDs.map { .object($0.mapValues(JSONValue.init(checkpoint:))) }
    )
    object.set("restSeconds", restSeconds)
    object.set("autoAdvance", autoAdvance)
    object.set("targetHeartRate", targetHeartRate)
    return object.value
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    var logs: [WorkoutLogDocument] = []
    for log in try reader.objects("logs") { logs.append(try WorkoutLogDocument(checkpoint: log)) }
    var deletedLogIDs: [String: Date]?
    if reader.has("deletedLogIDs") {
      let deleted = try reader.object("deletedLogIDs")
      var dates: [String: Date] = [:]
      for id in deleted.object.keys { dates[id] = try deleted.date(id) }
      deletedLogIDs = dates
    }
    self.init(
      schemaVersion: try reader.int("schemaVersion"),
      id: try reader.string("id"),
      splitID: try reader.optionalString("splitID"),
      splitName: try reader.optionalString("splitName"),
      start: try reader.date("start"),
      end: try reader.optionalDate("end"),
      status: try reader.raw("status", as: WorkoutStatus.self),
      createdAt: try reader.date("createdAt"),
      updatedAt: try reader.date("updatedAt"),
      logs: logs,
      metrics: reader.has("metrics")
        ? try WorkoutMetrics(checkpoint: reader.object("metrics")) : nil,
      deletedLogIDs: deletedLogIDs,
      restSeconds: try reader.optionalInt("restSeconds"),
      autoAdvance: try reader.optionalBool("autoAdvance"),
      targetHeartRate: try reader.optionalInt("targetHeartRate")
    )
  }
}

extension WorkoutLogDocument {
  fileprivate var checkpointValue: JSONValue {
    var object = StreamObject()
    object.set("id", id)
    object.set("exerciseName", exerciseName)
    object.set("order", order)
    object.set("sets", sets)
    object.set("reps", reps)
    object.set("weight", weight)
    object.set("loadType", loadType.rawValue)
    object.set("durationSeconds", durationSeconds)
    object.set("currentStateIndex", currentStateIndex)
    object.set("status", status.rawValue)
    object.set("notes", notes)
    object.set("date", date)
    object.set("machineSettings", machineSettings.map(JSONValue.init(machineSettings:)))
    object.set("startedAt", startedAt)
    object.set("completedAt", completedAt)
    object.set("setEntries", setEntries.map { .array($0.map(\.checkpointValue)) })
    object.set("updatedAt", updatedAt)
    object.set("libraryName", libraryName)
    return object.value
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    var setEntries: [SetEntry]?
    if let entries = reader.object["setEntries"] {
      guard let array = entries.elements else {
        throw PayloadError(type: reader.type, message: "field 'setEntries' must be an array")
      }
      var list: [SetEntry] = []
      list.reserveCapacity(array.count)
      for entry in array { list.append(try SetEntry(checkpoint: entry.value, in: reader)) }
      setEntries = list
    }
    self.init(
      id: try reader.string("id"),
      exerciseName: try reader.string("exerciseName"),
      order: try reader.int("order"),
      sets: try reader.int("sets"),
      reps: try reader.int("reps"),
      weight: try reader.double("weight"),
      loadType: try reader.loadType("loadType"),
      durationSeconds: try reader.int("durationSeconds"),
      currentStateIndex: try reader.int("currentStateIndex"),
      status: try reader.raw("status", as: WorkoutStatus.self),
      notes: try reader.optionalString("notes"),
      date: try reader.date("date"),
      machineSettings: try reader.optionalMachineSettings("machineSettings"),
      startedAt: try reader.optionalDate("startedAt"),
      completedAt: try reader.optionalDate("completedAt"),
      setEntries: setEntries,
      updatedAt: try reader.optionalDate("updatedAt"),
      libraryName: try reader.optionalString("libraryName")
    )
  }
}

extension SetEntry {
  /// `[completedAt, reps, weight, seconds]`, null for nil: the most numerous
  /// value of a stream file (each set and each set's original), so written
  /// without keys.
  fileprivate var checkpointValue: JSONValue {
    .array([
      JSONValue(checkpoint: completedAt),
      reps.map { .int(Int64($0)) } ?? .null,
      weight.map(JSONValue.double) ?? .null,
      seconds.map { .int(Int64($0)) } ?? .null,
    ])
  }

  /// Reads ``checkpointValue``, found in the object `reader` reads.
  fileprivate init(checkpoint value: JSONValue?, in reader: PayloadReader) throws(PayloadError) {
    let failure = PayloadError(
      type: reader.type,
      message: "a set entry must be [completedAt, reps, weight, seconds]"
    )
    guard let parts = value?.arrayValue, parts.count == 4, let bits = parts[0].intValue else {
      throw failure
    }
    func integer(_ part: JSONValue) throws(PayloadError) -> Int? {
      if part.isNull { return nil }
      guard let value = part.intValue.flatMap({ Int(exactly: $0) }) else { throw failure }
      return value
    }
    var weight: Double?
    if !parts[2].isNull {
      guard let value = parts[2].doubleValue, value.isFinite else { throw failure }
      weight = value
    }
    self.init(
      reps: try integer(parts[1]),
      weight: weight,
      seconds: try integer(parts[3]),
      completedAt: Date(checkpointBits: bits)
    )
  }
}

extension WorkoutMetrics {
  fileprivate var checkpointValue: JSONValue {
    var object = StreamObject()
    object.set("activeEnergyKcal", activeEnergyKcal)
    object.set("avgHeartRate", avgHeartRate)
    object.set("maxHeartRate", maxHeartRate)
    object.set("minHeartRate", minHeartRate)
    object.set("totalVolume", totalVolume)
    object.set("hrZoneSeconds", hrZoneSeconds.map { .array($0.map(JSONValue.double)) })
    object.set("healthKitWorkoutUUID", healthKitWorkoutUUID)
    object.set("source", source.rawValue)
    object.set("recordedAt", recordedAt)
    return object.value
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    self.init(
      activeEnergyKcal: try reader.optionalDouble("activeEnergyKcal"),
      avgHeartRate: try reader.optionalDouble("avgHeartRate"),
      maxHeartRate: try reader.optionalDouble("maxHeartRate"),
      minHeartRate: try reader.optionalDouble("minHeartRate"),
      totalVolume: try reader.optionalDouble("totalVolume"),
      hrZoneSeconds: try reader.optionalDoubles("hrZoneSeconds"),
      healthKitWorkoutUUID: try reader.optionalString("healthKitWorkoutUUID"),
      source: try reader.raw("source", as: MetricSource.self),
      recordedAt: try reader.date("recordedAt")
    )
  }
}
