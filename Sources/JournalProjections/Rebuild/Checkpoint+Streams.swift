import Foundation
import JournalCore

// The checkpoint's stream files: one fold state (`SplitState` or
// `WorkoutState`) as compact JSON, written and read with JournalCore's own
// JSON code (`CanonicalJSONWriter`, members written in key order straight
// into bytes, and `JSONPayload` to read the checked bytes back member by
// member) rather than Foundation's coders, which cost most of an incremental
// rebuild's processor time.
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
  /// Writes the state as its stream file's JSON.
  ///
  /// - Throws: ``JournalError`` when a number is not finite.
  func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError)
  /// Reads what ``writeCheckpoint(to:)`` wrote; throws when a field is missing or has the
  /// wrong type.
  init(checkpoint reader: PayloadReader) throws(PayloadError)
}

extension Checkpoint {
  /// The bytes of a stream file.
  ///
  /// - Throws: ``JournalError`` when a number is not finite (JSON cannot hold it).
  static func encodeState(_ state: some CheckpointStream) throws -> [UInt8] {
    // Written straight into bytes, members in key order: no tree of dictionaries to
    // build, hash and sort.
    var writer = CanonicalJSONWriter(capacity: 8_192)
    try state.writeCheckpoint(to: &writer)
    return writer.bytes
  }

  /// A stream file made from a state: its bytes and their ``Checkpoint/digest(_:)``, as the
  /// index lists it.
  struct StreamFile: Sendable {
    let bytes: [UInt8]
    let digest: String

    /// Encodes `state` and hashes the bytes.
    ///
    /// - Throws: what ``Checkpoint/encodeState(_:)`` throws.
    init(of state: some CheckpointStream) throws {
      bytes = try Checkpoint.encodeState(state)
      digest = Checkpoint.digest(bytes)
    }
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

extension CanonicalJSONWriter {
  /// A date as the bits of its `timeIntervalSinceReferenceDate`.
  mutating func value(date: Date) {
    value(Int64(bitPattern: date.timeIntervalSinceReferenceDate.bitPattern))
  }

  /// A date member; nothing when `date` is nil.
  mutating func member(_ key: StaticString, date: Date?) {
    guard let date else { return }
    self.key(key)
    value(date: date)
  }

  /// Machine settings as events hold them (`JSONValue(machineSettings:)`).
  mutating func member(_ key: StaticString, machineSettings: [MachineSetting]?) throws(JournalError)
  {
    guard let machineSettings else { return }
    self.key(key)
    try value(JSONValue(machineSettings: machineSettings))
  }

  /// An object whose keys are known only at run time, written in key order.
  mutating func object<Value>(
    _ members: [String: Value],
    _ write: (inout CanonicalJSONWriter, Value) throws(JournalError) -> Void
  ) throws(JournalError) {
    beginObject()
    for key in members.keys.sorted(by: CanonicalJSONWriter.precedes) {
      self.key(key)
      // The key was just listed: it is there.
      if let value = members[key] { try write(&self, value) }
    }
    endObject()
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

// MARK: - Splits

extension SplitState: CheckpointStream {
  func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginObject()
    writer.member("deletedAt", date: deletedAt)
    writer.key("document")
    try document.writeCheckpoint(to: &writer)
    writer.member("isStarter", isStarter)
    writer.endObject()
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
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginObject()
    writer.member("activityType", activityType)
    writer.member("autoAdvance", autoAdvance)
    writer.member("color", color)
    writer.member("createdAt", date: createdAt)
    writer.key("exercises")
    writer.beginArray()
    for exercise in exercises { try exercise.writeCheckpoint(to: &writer) }
    writer.endArray()
    writer.member("id", id)
    writer.member("name", name)
    writer.member("order", order)
    writer.member("restSeconds", restSeconds)
    writer.member("schemaVersion", schemaVersion)
    writer.member("systemImage", systemImage)
    writer.member("targetHeartRate", targetHeartRate)
    writer.member("updatedAt", date: updatedAt)
    writer.endObject()
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
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginObject()
    writer.member("durationSeconds", durationSeconds)
    writer.member("id", id)
    writer.member("libraryName", libraryName)
    writer.member("loadType", loadType.rawValue)
    try writer.member("machineSettings", machineSettings: machineSettings)
    writer.member("name", name)
    writer.member("order", order)
    writer.member("reps", reps)
    writer.member("sets", sets)
    try writer.member("weight", weight)
    writer.endObject()
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
  func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginObject()
    writer.member("deletedAt", date: deletedAt)
    writer.key("document")
    try document.writeCheckpoint(to: &writer)
    writer.key("provenance")
    try writer.object(provenance) { writer, entries throws(JournalError) in
      writer.beginArray()
      for entry in entries { try entry.writeCheckpoint(to: &writer) }
      writer.endArray()
    }
    try writer.member("recordedVolume", recordedVolume)
    writer.member("timeZone", timeZone.identifier)
    writer.endObject()
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
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginObject()
    writer.key("adjustments")
    writer.beginArray()
    for adjustment in adjustments { writer.value(adjustment) }
    writer.endArray()
    writer.member("device", device)
    writer.member("eventID", eventID)
    writer.member("key", key)
    writer.member("kind", kind.rawValue)
    writer.key("original")
    try original.writeCheckpoint(to: &writer)
    writer.member("startedAt", date: startedAt)
    writer.endObject()
  }

  fileprivate init(checkpoint reader: PayloadReader) throws(PayloadError) {
    let eventID = try reader.string("eventID")
    let key = try reader.string("key")
    // The key is made from the event id and the filled set's number (``key``): read back,
    // the number is taken from the key, and a key the source would not make is refused.
    let number = key == eventID ? 0 : key.split(separator: "/").last.flatMap { Int($0) } ?? 0
    self.init(
      kind: try reader.raw("kind", as: Kind.self),
      event: EventID(eventID),
      filled: max(0, number),
      device: try reader.string("device"),
      original: try SetEntry(checkpoint: reader["original"], in: reader),
      adjustments: try reader.strings("adjustments"),
      startedAt: try reader.optionalDate("startedAt")
    )
    guard self.key == key else {
      throw PayloadError(
        type: reader.type,
        message: "source key '\(key)' is neither its event id nor '<event id>/<n>'"
      )
    }
  }
}

extension WorkoutDocument {
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginObject()
    writer.member("autoAdvance", autoAdvance)
    writer.member("createdAt", date: createdAt)
    if let deletedLogIDs {
      writer.key("deletedLogIDs")
      try writer.object(deletedLogIDs) { writer, date throws(JournalError) in
        writer.value(date: date)
      }
    }
    writer.member("end", date: end)
    writer.member("id", id)
    writer.key("logs")
    writer.beginArray()
    for log in logs { try log.writeCheckpoint(to: &writer) }
    writer.endArray()
    if let metrics {
      writer.key("metrics")
      try metrics.writeCheckpoint(to: &writer)
    }
    writer.member("restSeconds", restSeconds)
    writer.member("schemaVersion", schemaVersion)
    writer.member("splitID", splitID)
    writer.member("splitName", splitName)
    writer.member("start", date: start)
    writer.member("status", status.rawValue)
    writer.member("targetHeartRate", targetHeartRate)
    writer.member("updatedAt", date: updatedAt)
    writer.endObject()
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
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginObject()
    writer.member("completedAt", date: completedAt)
    writer.member("currentStateIndex", currentStateIndex)
    writer.member("date", date: date)
    writer.member("durationSeconds", durationSeconds)
    writer.member("exerciseName", exerciseName)
    writer.member("id", id)
    writer.member("libraryName", libraryName)
    writer.member("loadType", loadType.rawValue)
    try writer.member("machineSettings", machineSettings: machineSettings)
    writer.member("notes", notes)
    writer.member("order", order)
    writer.member("reps", reps)
    if let setEntries {
      writer.key("setEntries")
      writer.beginArray()
      for entry in setEntries { try entry.writeCheckpoint(to: &writer) }
      writer.endArray()
    }
    writer.member("sets", sets)
    writer.member("startedAt", date: startedAt)
    writer.member("status", status.rawValue)
    writer.member("updatedAt", date: updatedAt)
    try writer.member("weight", weight)
    writer.endObject()
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
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginArray()
    writer.value(date: completedAt)
    if let reps { writer.value(reps) } else { writer.null() }
    if let weight { try writer.value(weight) } else { writer.null() }
    if let seconds { writer.value(seconds) } else { writer.null() }
    writer.endArray()
  }

  /// Reads what ``writeCheckpoint(to:)`` wrote, found in the object `reader` reads.
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
  fileprivate func writeCheckpoint(to writer: inout CanonicalJSONWriter) throws(JournalError) {
    writer.beginObject()
    try writer.member("activeEnergyKcal", activeEnergyKcal)
    try writer.member("avgHeartRate", avgHeartRate)
    writer.member("healthKitWorkoutUUID", healthKitWorkoutUUID)
    if let hrZoneSeconds {
      writer.key("hrZoneSeconds")
      writer.beginArray()
      for seconds in hrZoneSeconds { try writer.value(seconds) }
      writer.endArray()
    }
    try writer.member("maxHeartRate", maxHeartRate)
    try writer.member("minHeartRate", minHeartRate)
    writer.member("recordedAt", date: recordedAt)
    writer.member("source", source.rawValue)
    try writer.member("totalVolume", totalVolume)
    writer.endObject()
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
