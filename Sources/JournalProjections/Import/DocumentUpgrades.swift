import Foundation
import JournalCore

/// The upgrade steps that lift an app document written at an older schema
/// version to the current one, on the raw JSON.
///
/// Like the event upcasters, each step is a pure function on the raw value,
/// never on today's Swift types, and steps apply one version at a time
/// (v1→v2→v3…). A step never invents what the old file did not say, with two
/// documented exceptions that make the upgraded form representable by events:
/// set entries synthesised from the progress cursor (workout v3→v4) and the
/// per-log `updatedAt` (workout v4→v5).
///
/// Splits (current version 3):
/// - v1→v2: exercises lose `category` and the weight-reminder fields
///   (`weightReminder`, `weightReminderWeeks`); `machineSettings` is optional,
///   so nothing is added.
/// - v2→v3: exercise `weight` Int → Double.
///
/// Workouts (current version 5):
/// - v1→v2: `metrics` appears (optional): nothing to change.
/// - v2→v3: each log loses the derived `completed` flag. When it disagrees
///   with `status`, the status wins: the flag was derived from it.
/// - v3→v4: log `weight` Int → Double; `setEntries` appear. A log's progress
///   cursor (`currentStateIndex`, the only record of done sets before actuals
///   existed) becomes that many plan-default entries, as the fold turns a
///   cursor-only `set.completed` into one: at `completedAt` for a completed
///   log (which is also filled up to `sets`, as completing does), else at
///   `startedAt`, else at the log's `date`. A not-started log keeps no
///   progress (its status wins over a stray cursor); `sets` grows to the
///   cursor if the cursor ran past it.
/// - v4→v5: a log without `updatedAt` gets the latest of its `startedAt`,
///   `completedAt` and entry times; a started log with none of them (skipped
///   when the workout ended) gets the workout's `end`, else its `updatedAt`;
///   a log never touched keeps none. `deletedLogIDs` starts absent.
enum DocumentUpgrades {
  /// The kinds of document the container holds.
  enum Kind: String, Sendable, Hashable {
    case split
    case workout
  }

  /// The current schema version of `kind`.
  static func currentVersion(of kind: Kind) -> Int {
    switch kind {
    case .split: SplitDocument.currentSchemaVersion
    case .workout: WorkoutDocument.currentSchemaVersion
    }
  }

  /// What an upgrade did, beyond the document itself.
  struct Result: Sendable {
    /// The document at the current version.
    var document: JSONValue
    /// The version the file was written at.
    var fromVersion: Int
    /// Per log id, how many leading set entries were synthesised from a
    /// legacy progress cursor (workouts written before v4).
    var cursorEntries: [String: Int]
  }

  /// An upgrade that cannot proceed: the reason, for the import report.
  struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    var reason: String

    init(reason: String) { self.reason = reason }

    var description: String { reason }
  }

  /// Lifts `document` from its `schemaVersion` to the current version of `kind`,
  /// one step at a time.
  ///
  /// - Throws: ``Failure`` for a missing or unknown `schemaVersion`, a version
  ///   newer than this build reads, or a document that is not an object.
  static func upgrade(_ document: JSONValue, kind: Kind) throws(Failure) -> Result {
    guard case .object = document else { throw Failure(reason: "document is not a JSON object") }
    guard let raw = document["schemaVersion"] else {
      throw Failure(reason: "missing field 'schemaVersion'")
    }
    guard let version = raw.intValue.flatMap({ Int(exactly: $0) }) else {
      throw Failure(reason: "'schemaVersion' must be an integer")
    }
    let current = currentVersion(of: kind)
    guard version <= current else {
      throw Failure(
        reason:
          "schema version \(version) is newer than this build reads (\(kind.rawValue) \(current))"
      )
    }
    guard version >= 1 else { throw Failure(reason: "unknown schema version \(version)") }
    var value = document
    var cursorEntries: [String: Int] = [:]
    for from in version..<current {
      switch (kind, from) {
      case (.split, 1): value = mapExercises(value, dropSplitV1Fields)
      case (.split, 2): value = mapExercises(value, doubleWeight)
      case (.workout, 1): break
      case (.workout, 2): value = mapLogs(value) { removing("completed", from: $0) }
      case (.workout, 3): value = workoutV3ToV4(value, cursorEntries: &cursorEntries)
      case (.workout, 4):
        let fallback = value["end"] ?? value["updatedAt"]
        value = mapLogs(value) { stampLogUpdatedAt($0, fallback: fallback) }
      default: throw Failure(reason: "no upgrade step for \(kind.rawValue) v\(from)")
      }
      value = setting("schemaVersion", .int(Int64(from + 1)), in: value)
    }
    return Result(document: value, fromVersion: version, cursorEntries: cursorEntries)
  }

  // MARK: - Steps

  static func dropSplitV1Fields(_ exercise: JSONValue) -> JSONValue {
    removing("category", "weightReminder", "weightReminderWeeks", from: exercise)
  }

  static func doubleWeight(_ value: JSONValue) -> JSONValue {
    guard let weight = value["weight"]?.doubleValue else { return value }
    return setting("weight", .double(weight), in: value)
  }

  /// Weights become doubles; the progress cursor becomes plan-default entries.
  static func workoutV3ToV4(_ workout: JSONValue, cursorEntries: inout [String: Int]) -> JSONValue {
    guard case .object(var object) = workout, let logs = object["logs"]?.arrayValue else {
      return workout
    }
    object["logs"] = .array(
      logs.map { raw in
        let log = doubleWeight(raw)
        guard case .object(var fields) = log, fields["setEntries"] == nil else { return log }
        let status = fields["status"]?.stringValue
        let cursor = max(Int(fields["currentStateIndex"]?.intValue ?? 0), 0)
        let sets = Int(fields["sets"]?.intValue ?? 0)
        if status == WorkoutStatus.notStarted.rawValue {
          if fields["currentStateIndex"] != nil { fields["currentStateIndex"] = .int(0) }
          return .object(fields)
        }
        let isCompleted = status == WorkoutStatus.completed.rawValue
        let count = isCompleted ? max(cursor, sets) : cursor
        if cursor > sets { fields["sets"] = .int(Int64(cursor)) }
        guard count > 0 else { return .object(fields) }
        let at =
          (isCompleted ? fields["completedAt"] : fields["startedAt"]) ?? fields["date"] ?? .null
        fields["setEntries"] = .array(Array(repeating: planEntry(fields, at: at), count: count))
        fields["currentStateIndex"] = .int(Int64(count))
        if let id = fields["id"]?.stringValue { cursorEntries[id] = cursor }
        return .object(fields)
      }
    )
    return .object(object)
  }

  /// The entry a set gets when done as planned, by the log's load type.
  static func planEntry(_ log: [String: JSONValue], at: JSONValue) -> JSONValue {
    var entry: [String: JSONValue] = ["completedAt": at]
    switch log["loadType"]?.intValue.flatMap({ LoadType(rawValue: Int($0)) }) {
    case .weight?:
      entry["reps"] = log["reps"]
      entry["weight"] = log["weight"]
    case .none?:
      entry["reps"] = log["reps"]
    case .duration?:
      entry["seconds"] = log["durationSeconds"]
    case nil:
      break
    }
    return .object(entry)
  }

  /// Gives a log without `updatedAt` the latest of its dates; a log with
  /// none that is not untouched (skipped by ending the workout) gets
  /// `fallback`, the workout's `end` or `updatedAt`.
  static func stampLogUpdatedAt(_ log: JSONValue, fallback: JSONValue?) -> JSONValue {
    guard case .object(var fields) = log, fields["updatedAt"] == nil else { return log }
    var dates: [String] = []
    for key in ["startedAt", "completedAt"] {
      if let date = fields[key]?.stringValue { dates.append(date) }
    }
    for entry in fields["setEntries"]?.arrayValue ?? [] {
      if let date = entry["completedAt"]?.stringValue { dates.append(date) }
    }
    let latest = dates.compactMap { text in parseDate(text).map { (text, $0) } }
      .max { $0.1 < $1.1 }
    if let latest {
      fields["updatedAt"] = .string(latest.0)
    } else if fields["status"]?.stringValue != WorkoutStatus.notStarted.rawValue, let fallback {
      fields["updatedAt"] = fallback
    }
    return .object(fields)
  }

  static func parseDate(_ text: String) -> Date? {
    ISO8601DateFormatter().date(from: text)
  }

  // MARK: - Helpers

  static func removing(_ keys: String..., from value: JSONValue) -> JSONValue {
    guard case .object(var object) = value else { return value }
    for key in keys { object[key] = nil }
    return .object(object)
  }

  static func setting(_ key: String, _ member: JSONValue, in value: JSONValue) -> JSONValue {
    guard case .object(var object) = value else { return value }
    object[key] = member
    return .object(object)
  }

  static func mapExercises(_ split: JSONValue, _ transform: (JSONValue) -> JSONValue) -> JSONValue {
    guard case .object(var object) = split, let exercises = object["exercises"]?.arrayValue else {
      return split
    }
    object["exercises"] = .array(exercises.map(transform))
    return .object(object)
  }

  static func mapLogs(_ workout: JSONValue, _ transform: (JSONValue) -> JSONValue) -> JSONValue {
    guard case .object(var object) = workout, let logs = object["logs"]?.arrayValue else {
      return workout
    }
    object["logs"] = .array(logs.map(transform))
    return .object(object)
  }
}
