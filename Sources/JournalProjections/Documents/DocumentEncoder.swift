import Foundation
import JournalCore

/// A hand-written encoder for the app's documents that produces exactly the
/// bytes of Foundation's `JSONEncoder` with `.prettyPrinted`, `.sortedKeys` and
/// `.iso8601` dates, several times faster.
///
/// It reproduces Foundation's output rules (swift-foundation's `JSONWriter`):
///
/// - Keys sorted by the bytes of their UTF-8 form (`"10" < "9" < "A" < "_x" < "a" < "é"`).
///   The document's own keys are written in that order by hand; the keys of
///   `deletedLogIDs` are sorted at run time.
/// - Two spaces per level, `" : "` between key and value, and an empty array or
///   object printed as its opening bracket, a blank line, and the closing
///   bracket indented to its own level.
/// - Strings: `"`, `\` and `/` escaped with a backslash; `\b \f \n \r \t`; other
///   bytes below 0x20 as `\u00xx` (lowercase hex); everything else, 0x7F and
///   non-ASCII included, as raw UTF-8.
/// - Doubles: Swift's shortest round-trip `description` without a trailing
///   `.0` (`45`, `42.5`, `-0`, `1e-05`, `1e+16`).
/// - Dates: `YYYY-MM-DDTHH:MM:SSZ` in UTC, the fraction of a second dropped
///   toward the past.
///
/// Values outside the encoder's range — a non-finite double, or a date before
/// 1582-10-15 (where Foundation's calendar turns Julian) or after the year
/// 9999 — are handed back to Foundation, which encodes the whole document (or
/// throws its own `EncodingError`). The bytes are the same either way; only
/// the speed differs.
enum DocumentEncoder {
  /// Encodes a split.
  ///
  /// - Throws: `EncodingError` from Foundation when a weight is not finite.
  static func encode(_ split: SplitDocument) throws -> Data {
    try encode(split, capacity: 512 + 512 * split.exercises.count) { (writer) throws(OutOfRange) in
      try writer.write(split, deletedAt: nil)
    }
  }

  /// Encodes a workout.
  ///
  /// - Throws: `EncodingError` from Foundation when a number is not finite.
  static func encode(_ workout: WorkoutDocument) throws -> Data {
    try encode(workout, capacity: 1024 + 1280 * workout.logs.count) {
      (writer) throws(OutOfRange) in try writer.write(workout, deletedAt: nil)
    }
  }

  /// Encodes the full stub of a split: its keys plus `deletedAt`.
  ///
  /// - Throws: `EncodingError` from Foundation when a weight is not finite.
  static func encode(_ stub: Stub<SplitDocument>) throws -> Data {
    try encode(stub, capacity: 512 + 512 * stub.document.exercises.count) {
      (writer) throws(OutOfRange) in
      try writer.write(stub.document, deletedAt: stub.deletedAt)
    }
  }

  /// Encodes the full stub of a workout: its keys plus `deletedAt`.
  ///
  /// - Throws: `EncodingError` from Foundation when a number is not finite.
  static func encode(_ stub: Stub<WorkoutDocument>) throws -> Data {
    try encode(stub, capacity: 1024 + 1280 * stub.document.logs.count) {
      (writer) throws(OutOfRange) in
      try writer.write(stub.document, deletedAt: stub.deletedAt)
    }
  }

  /// Encodes a minimal stub.
  static func encode(_ tombstone: Tombstone) throws -> Data {
    try encode(tombstone, capacity: 128) { (writer) throws(OutOfRange) in
      try writer.write(tombstone)
    }
  }

  /// Runs `write`, or Foundation when the value is outside the fast path's range.
  private static func encode<T: Encodable>(
    _ value: T,
    capacity: Int,
    _ write: (inout DocumentWriter) throws(OutOfRange) -> Void
  ) throws -> Data {
    var writer = DocumentWriter(capacity: capacity)
    do {
      try write(&writer)
    } catch {
      return try DocumentCoder.encodeWithFoundation(value)
    }
    return Data(writer.bytes)
  }
}

/// A value the fast path does not write; Foundation encodes the document instead.
struct OutOfRange: Error {}

/// The byte buffer and pretty-printing state of ``DocumentEncoder``.
struct DocumentWriter {
  private(set) var bytes: [UInt8] = []
  /// The nesting level of the container being written.
  private var depth = 0
  /// Whether the container being written has no element yet.
  private var empty = true

  /// A writer whose buffer starts with room for about `capacity` bytes.
  init(capacity: Int = 2048) { bytes.reserveCapacity(capacity) }

  // MARK: Containers

  /// Opens an object or array; returns the state to give back to ``close(_:_:)``.
  mutating func open(_ bracket: UInt8) -> Bool {
    bytes.append(bracket)
    depth += 1
    defer { empty = true }
    return empty
  }

  mutating func close(_ bracket: UInt8, _ outer: Bool) {
    if empty { bytes.append(.newline) }
    depth -= 1
    bytes.append(.newline)
    indent()
    bytes.append(bracket)
    empty = outer
  }

  /// Starts an element: a newline (after a comma unless first) and the indentation.
  mutating func element() {
    if !empty { bytes.append(.comma) }
    bytes.append(.newline)
    empty = false
    indent()
  }

  /// Starts a member: ``element()``, then the quoted key and `" : "`.
  mutating func key(_ name: StaticString) {
    element()
    bytes.append(.quote)
    name.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(.quote)
    separator()
  }

  /// `" : "` between a key and its value.
  mutating func separator() {
    bytes.append(.space)
    bytes.append(.colon)
    bytes.append(.space)
  }

  private mutating func indent() {
    let spaces = depth * 2
    if spaces <= DocumentWriter.spaces.count {
      bytes.append(contentsOf: DocumentWriter.spaces[..<spaces])
    } else {
      bytes.append(contentsOf: repeatElement(UInt8.space, count: spaces))
    }
  }

  private static let spaces = [UInt8](repeating: .space, count: 32)

  // MARK: Scalars

  mutating func string(_ value: String) {
    bytes.append(.quote)
    var value = value
    value.withUTF8 { utf8 in
      var mark = 0
      for index in utf8.indices {
        let byte = utf8[index]
        if byte >= 0x20 && byte != .quote && byte != .backslash && byte != .slash { continue }
        if mark < index {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
        }
        escape(byte)
        mark = index + 1
      }
      if mark < utf8.count {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
      }
    }
    bytes.append(.quote)
  }

  private mutating func escape(_ byte: UInt8) {
    bytes.append(.backslash)
    switch byte {
    case .quote, .backslash, .slash: bytes.append(byte)
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    case .newline: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    default:
      let hex: [UInt8] = Array("0123456789abcdef".utf8)
      bytes.append(contentsOf: [
        UInt8(ascii: "u"), .zero, .zero, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
      ])
    }
  }

  mutating func int(_ value: Int) {
    appendDecimal(value, to: &bytes)
  }

  mutating func bool(_ value: Bool) {
    let text: StaticString = value ? "true" : "false"
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// 2^53: up to here whole doubles print as integers; beyond, with an exponent.
  private static let largestPlainInteger: Double = 9_007_199_254_740_992

  mutating func double(_ value: Double) throws(OutOfRange) {
    guard value.isFinite else { throw OutOfRange() }
    if value.magnitude <= DocumentWriter.largestPlainInteger, value.rounded(.towardZero) == value {
      if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
      appendDecimal(UInt64(value.magnitude), to: &bytes)
    } else {
      bytes.append(contentsOf: value.description.utf8)
    }
  }

  /// Seconds from 1970 of 1582-10-15T00:00:00Z, the first day of the Gregorian calendar.
  private static let firstGregorianSecond: Double = -12_219_292_800
  /// Seconds from 1970 of 10000-01-01T00:00:00Z.
  private static let endOfYear9999: Double = 253_402_300_800
  private static let referenceDateOffset: Double = 978_307_200

  mutating func date(_ value: Date) throws(OutOfRange) {
    let seconds =
      value.timeIntervalSinceReferenceDate.rounded(.down) + DocumentWriter.referenceDateOffset
    guard seconds >= DocumentWriter.firstGregorianSecond, seconds < DocumentWriter.endOfYear9999
    else { throw OutOfRange() }
    let whole = Int(seconds)
    let (days, second) = whole.quotientAndRemainder(dividingBy: 86_400)
    let (dayIndex, secondOfDay) = second < 0 ? (days - 1, second + 86_400) : (days, second)
    let (year, month, day) = DocumentWriter.civil(fromDays: dayIndex)
    bytes.append(.quote)
    twoDigits(year / 100)
    twoDigits(year % 100)
    bytes.append(UInt8(ascii: "-"))
    twoDigits(month)
    bytes.append(UInt8(ascii: "-"))
    twoDigits(day)
    bytes.append(UInt8(ascii: "T"))
    twoDigits(secondOfDay / 3600)
    bytes.append(.colon)
    twoDigits(secondOfDay / 60 % 60)
    bytes.append(.colon)
    twoDigits(secondOfDay % 60)
    bytes.append(UInt8(ascii: "Z"))
    bytes.append(.quote)
  }

  private mutating func twoDigits(_ value: Int) {
    bytes.append(.zero + UInt8(truncatingIfNeeded: value / 10))
    bytes.append(.zero + UInt8(truncatingIfNeeded: value % 10))
  }

  /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard
  /// Hinnant's `civil_from_days`).
  static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

// MARK: - The documents, keys in UTF-8 byte order

extension DocumentWriter {
  mutating func write(_ split: SplitDocument, deletedAt: Date?) throws(OutOfRange) {
    let outer = open(.openBrace)
    if let activityType = split.activityType {
      key("activityType")
      int(activityType)
    }
    if let autoAdvance = split.autoAdvance {
      key("autoAdvance")
      bool(autoAdvance)
    }
    key("color")
    string(split.color)
    key("createdAt")
    try date(split.createdAt)
    if let deletedAt {
      key("deletedAt")
      try date(deletedAt)
    }
    key("exercises")
    let list = open(.openBracket)
    for exercise in split.exercises {
      element()
      try write(exercise)
    }
    close(.closeBracket, list)
    key("id")
    string(split.id)
    key("name")
    string(split.name)
    key("order")
    int(split.order)
    if let restSeconds = split.restSeconds {
      key("restSeconds")
      int(restSeconds)
    }
    key("schemaVersion")
    int(split.schemaVersion)
    key("systemImage")
    string(split.systemImage)
    if let targetHeartRate = split.targetHeartRate {
      key("targetHeartRate")
      int(targetHeartRate)
    }
    key("updatedAt")
    try date(split.updatedAt)
    close(.closeBrace, outer)
  }

  mutating func write(_ exercise: ExerciseDocument) throws(OutOfRange) {
    let outer = open(.openBrace)
    key("durationSeconds")
    int(exercise.durationSeconds)
    key("id")
    string(exercise.id)
    if let libraryName = exercise.libraryName {
      key("libraryName")
      string(libraryName)
    }
    key("loadType")
    int(exercise.loadType.rawValue)
    if let machineSettings = exercise.machineSettings {
      key("machineSettings")
      write(machineSettings)
    }
    key("name")
    string(exercise.name)
    key("order")
    int(exercise.order)
    key("reps")
    int(exercise.reps)
    key("sets")
    int(exercise.sets)
    key("weight")
    try double(exercise.weight)
    close(.closeBrace, outer)
  }

  mutating func write(_ settings: [MachineSetting]) {
    let list = open(.openBracket)
    for setting in settings {
      element()
      let outer = open(.openBrace)
      key("name")
      string(setting.name)
      key("value")
      string(setting.value)
      close(.closeBrace, outer)
    }
    close(.closeBracket, list)
  }

  mutating func write(_ workout: WorkoutDocument, deletedAt: Date?) throws(OutOfRange) {
    let outer = open(.openBrace)
    if let autoAdvance = workout.autoAdvance {
      key("autoAdvance")
      bool(autoAdvance)
    }
    key("createdAt")
    try date(workout.createdAt)
    if let deletedAt {
      key("deletedAt")
      try date(deletedAt)
    }
    if let deletedLogIDs = workout.deletedLogIDs {
      key("deletedLogIDs")
      try write(deletedLogIDs)
    }
    if let end = workout.end {
      key("end")
      try date(end)
    }
    key("id")
    string(workout.id)
    key("logs")
    let list = open(.openBracket)
    for log in workout.logs {
      element()
      try write(log)
    }
    close(.closeBracket, list)
    if let metrics = workout.metrics {
      key("metrics")
      try write(metrics)
    }
    if let restSeconds = workout.restSeconds {
      key("restSeconds")
      int(restSeconds)
    }
    key("schemaVersion")
    int(workout.schemaVersion)
    if let splitID = workout.splitID {
      key("splitID")
      string(splitID)
    }
    if let splitName = workout.splitName {
      key("splitName")
      string(splitName)
    }
    key("start")
    try date(workout.start)
    key("status")
    string(workout.status.rawValue)
    if let targetHeartRate = workout.targetHeartRate {
      key("targetHeartRate")
      int(targetHeartRate)
    }
    key("updatedAt")
    try date(workout.updatedAt)
    close(.closeBrace, outer)
  }

  /// A string-keyed dictionary: the only object whose keys are sorted at run time.
  mutating func write(_ dates: [String: Date]) throws(OutOfRange) {
    let outer = open(.openBrace)
    let keys = dates.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    for name in keys {
      element()
      string(name)
      separator()
      // The key comes from the dictionary, so the value is there.
      try date(dates[name] ?? .distantPast)
    }
    close(.closeBrace, outer)
  }

  mutating func write(_ log: WorkoutLogDocument) throws(OutOfRange) {
    let outer = open(.openBrace)
    if let completedAt = log.completedAt {
      key("completedAt")
      try date(completedAt)
    }
    key("currentStateIndex")
    int(log.currentStateIndex)
    key("date")
    try date(log.date)
    key("durationSeconds")
    int(log.durationSeconds)
    key("exerciseName")
    string(log.exerciseName)
    key("id")
    string(log.id)
    if let libraryName = log.libraryName {
      key("libraryName")
      string(libraryName)
    }
    key("loadType")
    int(log.loadType.rawValue)
    if let machineSettings = log.machineSettings {
      key("machineSettings")
      write(machineSettings)
    }
    if let notes = log.notes {
      key("notes")
      string(notes)
    }
    key("order")
    int(log.order)
    key("reps")
    int(log.reps)
    if let setEntries = log.setEntries {
      key("setEntries")
      let list = open(.openBracket)
      for entry in setEntries {
        element()
        try write(entry)
      }
      close(.closeBracket, list)
    }
    key("sets")
    int(log.sets)
    if let startedAt = log.startedAt {
      key("startedAt")
      try date(startedAt)
    }
    key("status")
    string(log.status.rawValue)
    if let updatedAt = log.updatedAt {
      key("updatedAt")
      try date(updatedAt)
    }
    key("weight")
    try double(log.weight)
    close(.closeBrace, outer)
  }

  mutating func write(_ entry: SetEntry) throws(OutOfRange) {
    let outer = open(.openBrace)
    key("completedAt")
    try date(entry.completedAt)
    if let reps = entry.reps {
      key("reps")
      int(reps)
    }
    if let seconds = entry.seconds {
      key("seconds")
      int(seconds)
    }
    if let weight = entry.weight {
      key("weight")
      try double(weight)
    }
    close(.closeBrace, outer)
  }

  mutating func write(_ metrics: WorkoutMetrics) throws(OutOfRange) {
    let outer = open(.openBrace)
    if let activeEnergyKcal = metrics.activeEnergyKcal {
      key("activeEnergyKcal")
      try double(activeEnergyKcal)
    }
    if let avgHeartRate = metrics.avgHeartRate {
      key("avgHeartRate")
      try double(avgHeartRate)
    }
    if let healthKitWorkoutUUID = metrics.healthKitWorkoutUUID {
      key("healthKitWorkoutUUID")
      string(healthKitWorkoutUUID)
    }
    if let hrZoneSeconds = metrics.hrZoneSeconds {
      key("hrZoneSeconds")
      let list = open(.openBracket)
      for seconds in hrZoneSeconds {
        element()
        try double(seconds)
      }
      close(.closeBracket, list)
    }
    if let maxHeartRate = metrics.maxHeartRate {
      key("maxHeartRate")
      try double(maxHeartRate)
    }
    if let minHeartRate = metrics.minHeartRate {
      key("minHeartRate")
      try double(minHeartRate)
    }
    key("recordedAt")
    try date(metrics.recordedAt)
    key("source")
    string(metrics.source.rawValue)
    if let totalVolume = metrics.totalVolume {
      key("totalVolume")
      try double(totalVolume)
    }
    close(.closeBrace, outer)
  }

  mutating func write(_ tombstone: Tombstone) throws(OutOfRange) {
    let outer = open(.openBrace)
    key("deletedAt")
    try date(tombstone.deletedAt)
    key("id")
    string(tombstone.id)
    if let kind = tombstone.kind {
      key("kind")
      string(kind)
    }
    close(.closeBrace, outer)
  }
}

extension UInt8 {
  fileprivate static let newline = UInt8(ascii: "\n")
  fileprivate static let space = UInt8(ascii: " ")
  fileprivate static let quote = UInt8(ascii: "\"")
  fileprivate static let backslash = UInt8(ascii: "\\")
  fileprivate static let slash = UInt8(ascii: "/")
  fileprivate static let colon = UInt8(ascii: ":")
  fileprivate static let comma = UInt8(ascii: ",")
  fileprivate static let zero = UInt8(ascii: "0")
  fileprivate static let openBrace = UInt8(ascii: "{")
  fileprivate static let closeBrace = UInt8(ascii: "}")
  fileprivate static let openBracket = UInt8(ascii: "[")
  fileprivate static let closeBracket = UInt8(ascii: "]")
}
