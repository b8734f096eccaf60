import Foundation
import JournalCore

// Reading one file: size, strict JSON, schema version, upgrade, decode, then
// the checks that make a document safe and consistent with its path.

extension ImportPlan {
  /// Reads, upgrades and checks one file.
  ///
  /// - Returns: the document, and the schema version it was written at (nil
  ///   for a minimal stub).
  /// - Throws: the reason the file is skipped.
  func read(_ file: ContainerFile) throws -> (ContainerDocument, Int?) {
    let size = (try? file.url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0
    guard size <= importer.maximumFileSize else {
      throw ImportFailure(
        reason: "file of \(size) bytes is larger than \(importer.maximumFileSize)"
      )
    }
    let data: Data
    do {
      data = try Data(contentsOf: file.url)
    } catch {
      throw ImportFailure(reason: "cannot be read")
    }
    let json: JSONValue
    do {
      json = try JSONValue.parse(data)
    } catch {
      throw ImportFailure(reason: "not valid JSON: \(error.reason)")
    }
    if file.isStub, json["schemaVersion"] == nil, json.objectValue != nil {
      let tombstone = try DocumentCoder.decode(Tombstone.self, from: data, file: file.path)
      try checkID(tombstone.id, of: file)
      return (.tombstone(tombstone), nil)
    }
    let upgraded = try DocumentUpgrades.upgrade(json, kind: file.kind)
    let bytes = Data(try upgraded.document.serialized())
    switch file.kind {
    case .split:
      let (split, deletedAt) =
        file.isStub
        ? try Self.decodeStub(SplitDocument.self, bytes, file)
        : (try DocumentCoder.decode(SplitDocument.self, from: bytes, file: file.path), nil)
      try check(split, file: file)
      return (.split(split, deletedAt: deletedAt), upgraded.fromVersion)
    case .workout:
      let (workout, deletedAt) =
        file.isStub
        ? try Self.decodeStub(WorkoutDocument.self, bytes, file)
        : (try DocumentCoder.decode(WorkoutDocument.self, from: bytes, file: file.path), nil)
      let zone = try check(workout, file: file)
      return (
        .workout(
          workout,
          deletedAt: deletedAt,
          timeZone: zone,
          cursorEntries: upgraded.cursorEntries
        ),
        upgraded.fromVersion
      )
    }
  }

  static func decodeStub<T: Codable & Sendable & Hashable>(
    _ type: T.Type,
    _ bytes: Data,
    _ file: ContainerFile
  ) throws -> (T, Date?) {
    let stub = try DocumentCoder.decode(Stub<T>.self, from: bytes, file: file.path)
    return (stub.document, stub.deletedAt)
  }

  // MARK: - Checks

  func checkID(_ id: String, of file: ContainerFile) throws {
    guard id == file.id else {
      throw ImportFailure(reason: "path does not match the id: the document's id is '\(id)'")
    }
  }

  func checkIDs(_ ids: [String], what: String) throws {
    var seen: Set<String> = []
    for id in ids {
      guard ContainerImporter.isValidID(id) else {
        throw ImportFailure(
          reason: "\(what) id '\(id.debugDescription.dropFirst().dropLast())' is not a ULID"
        )
      }
      guard seen.insert(id).inserted else {
        throw ImportFailure(reason: "\(what) id '\(id)' appears twice")
      }
    }
  }

  func checkPlan(_ what: String, sets: Int, reps: Int, weight: Double, seconds: Int) throws {
    guard sets >= 0, reps >= 0, seconds >= 0, weight.isFinite, weight >= 0 else {
      throw ImportFailure(reason: "\(what) has a negative sets, reps, weight or duration")
    }
    try checkWeight(what, weight)
  }

  /// Refuses a weight the fold would quarantine (an event payload carries at most ±1e6).
  func checkWeight(_ what: String, _ weight: Double) throws {
    guard weight.magnitude <= PayloadReader.maximumWeightMagnitude else {
      throw ImportFailure(
        reason:
          "\(what) has a weight of \(weight), above \(Int(PayloadReader.maximumWeightMagnitude))"
      )
    }
  }

  func check(_ split: SplitDocument, file: ContainerFile) throws {
    try checkID(split.id, of: file)
    try checkIDs(split.exercises.map(\.id), what: "exercise")
    for exercise in split.exercises {
      try checkPlan(
        "exercise '\(exercise.id)'",
        sets: exercise.sets,
        reps: exercise.reps,
        weight: exercise.weight,
        seconds: exercise.durationSeconds
      )
    }
  }

  /// Checks a workout and picks the time zone that files it where it was.
  func check(_ workout: WorkoutDocument, file: ContainerFile) throws -> String {
    try checkID(workout.id, of: file)
    if let splitID = workout.splitID, !ContainerImporter.isValidID(splitID) {
      throw ImportFailure(reason: "split id '\(splitID)' is not a ULID")
    }
    let deleted = Array((workout.deletedLogIDs ?? [:]).keys)
    try checkIDs(workout.logs.map(\.id) + deleted, what: "log")
    for log in workout.logs {
      try checkPlan(
        "log '\(log.id)'",
        sets: log.sets,
        reps: log.reps,
        weight: log.weight,
        seconds: log.durationSeconds
      )
      guard log.currentStateIndex >= 0 else {
        throw ImportFailure(reason: "log '\(log.id)' has a negative currentStateIndex")
      }
      for entry in log.setEntries ?? [] {
        let negative = (entry.reps ?? 0) < 0 || (entry.seconds ?? 0) < 0 || (entry.weight ?? 0) < 0
        guard !negative else {
          throw ImportFailure(reason: "log '\(log.id)' has a set entry with a negative value")
        }
        try checkWeight("log '\(log.id)'", entry.weight ?? 0)
      }
    }
    guard let year = file.year, let month = file.month,
      let zone = ContainerImporter.timeZoneIdentifier(
        start: workout.start,
        year: year,
        month: month,
        preferred: importer.preferredTimeZone
      )
    else {
      let start = ISO8601DateFormatter().string(from: workout.start)
      throw ImportFailure(reason: "path does not match the workout's start (\(start))")
    }
    return zone
  }
}
