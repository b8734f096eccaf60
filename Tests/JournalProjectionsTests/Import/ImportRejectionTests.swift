import Foundation
import JournalProjections
import JournalTestSupport
import Testing

/// Broken, newer, misplaced and hostile documents are reported with their
/// path and reason and contribute no event; the rest of the container imports.
@Suite struct ImportRejectionTests {
  static let splitID = "01HZ0000000000000000S00001"
  static let workoutID = "01HZ0000000000000000W00001"

  static func split(
    id: String = splitID,
    version: Int = 3,
    name: String = "\"Push\"",
    order: String = "0",
    exerciseID: String = "\"01HZ0000000000000000E00001\"",
    sets: String = "3"
  ) -> String {
    """
    {"schemaVersion": \(version), "id": "\(id)", "name": \(name), "color": "red",
     "systemImage": "dumbbell", "order": \(order), "createdAt": "2025-01-10T08:00:00Z",
     "updatedAt": "2025-01-10T08:00:00Z",
     "exercises": [{"id": \(exerciseID), "name": "Bench Press", "order": 0, "sets": \(sets),
       "reps": 5, "weight": 100, "loadType": 1, "durationSeconds": 0}]}
    """
  }

  static func workout(
    version: Int = 5,
    start: String = "2025-07-01T07:00:00Z",
    status: String = "notStarted",
    secondLogID: String = "01HZ0000000000000000G00002"
  ) -> String {
    """
    {"schemaVersion": \(version), "id": "\(workoutID)", "start": "\(start)", "status": "\(status)",
     "createdAt": "\(start)", "updatedAt": "\(start)",
     "logs": [
       {"id": "01HZ0000000000000000G00001", "exerciseName": "Row", "order": 0, "sets": 3,
        "reps": 8, "weight": 40, "loadType": 1, "durationSeconds": 0, "currentStateIndex": 0,
        "status": "notStarted", "date": "\(start)"},
       {"id": "\(secondLogID)", "exerciseName": "Curl", "order": 1, "sets": 3,
        "reps": 8, "weight": 10, "loadType": 1, "durationSeconds": 0, "currentStateIndex": 0,
        "status": "notStarted", "date": "\(start)"}]}
    """
  }

  struct RejectCase: Sendable, CustomTestStringConvertible {
    var id: String
    var path: String
    var contents: String
    var reason: String
    var testDescription: String { id }
  }

  static let splitPath = "Splits/\(splitID).json"
  static let workoutPath = "Workouts/2025/07/\(workoutID).json"

  static let cases: [RejectCase] = [
    RejectCase(
      id: "truncated JSON",
      path: splitPath,
      contents: String(split().prefix(40)),
      reason: "not valid JSON"
    ),
    RejectCase(
      id: "wrong type",
      path: splitPath,
      contents: split(order: "\"first\""),
      reason: "wrong type at 'order'"
    ),
    RejectCase(
      id: "missing required field",
      path: splitPath,
      contents: split().replacingOccurrences(of: "\"name\": \"Push\", ", with: ""),
      reason: "missing field 'name'"
    ),
    RejectCase(
      id: "newer split",
      path: splitPath,
      contents: split(version: 4),
      reason: "schema version 4 is newer than this build reads (split 3)"
    ),
    RejectCase(
      id: "newer workout",
      path: workoutPath,
      contents: workout(version: 6),
      reason: "schema version 6 is newer than this build reads (workout 5)"
    ),
    RejectCase(
      id: "unknown version",
      path: splitPath,
      contents: split(version: 0),
      reason: "unknown schema version 0"
    ),
    RejectCase(
      id: "no version",
      path: splitPath,
      contents: split().replacingOccurrences(of: "\"schemaVersion\": 3, ", with: ""),
      reason: "missing field 'schemaVersion'"
    ),
    RejectCase(
      id: "not an object",
      path: splitPath,
      contents: "[1, 2]",
      reason: "document is not a JSON object"
    ),
    RejectCase(
      id: "path does not match the id",
      path: splitPath,
      contents: split(id: "01HZ0000000000000000S00002"),
      reason: "path does not match the id: the document's id is '01HZ0000000000000000S00002'"
    ),
    RejectCase(
      id: "wrong month folder",
      path: "Workouts/2024/01/\(workoutID).json",
      contents: workout(),
      reason: "path does not match the workout's start (2025-07-01T07:00:00Z)"
    ),
    RejectCase(
      id: "hostile exercise id",
      path: splitPath,
      contents: split(exerciseID: "\"../../etc\""),
      reason: "exercise id '../../etc' is not a ULID"
    ),
    RejectCase(
      id: "duplicate log id",
      path: workoutPath,
      contents: workout(secondLogID: "01HZ0000000000000000G00001"),
      reason: "log id '01HZ0000000000000000G00001' appears twice"
    ),
    RejectCase(
      id: "unknown status",
      path: workoutPath,
      contents: workout(status: "done"),
      reason: "invalid value at 'status'"
    ),
    RejectCase(
      id: "negative sets",
      path: splitPath,
      contents: split(sets: "-1"),
      reason: "has a negative sets, reps, weight or duration"
    ),
    RejectCase(
      id: "file name not a ULID",
      path: "Splits/push.json",
      contents: split(),
      reason: "file name is not '<ULID>.json'"
    ),
    RejectCase(
      id: "iCloud placeholder",
      path: "Splits/.\(splitID).json.icloud",
      contents: "",
      reason: "not downloaded from iCloud"
    ),
  ]

  @Test(arguments: cases)
  func reportedAndSkippedWhole(_ reject: RejectCase) throws {
    let folder = try makeTemporaryDirectory("import")
    defer { try? FileManager.default.removeItem(at: folder) }
    let valid = "Splits/01HZ0000000000000000S00007.json"
    try writeContainer(
      [
        reject.path: Data(reject.contents.utf8),
        valid: Data(Self.split(id: "01HZ0000000000000000S00007").utf8),
      ],
      to: folder
    )
    let harness = try JournalHarness()
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    let item = try #require(report.skipped.first, "\(report)")
    #expect(report.skipped.count == 1)
    #expect(item.path == reject.path)
    #expect(item.reason.contains(reject.reason), "got '\(item.reason)'")
    #expect(report.imported == [valid])
    #expect(harness.state.splits.keys.sorted() == ["01HZ0000000000000000S00007"])
    #expect(harness.state.workouts.isEmpty)
  }

  @Test func aContainerOfBrokenDocumentsLeavesTheJournalUnchanged() throws {
    let folder = try makeTemporaryDirectory("import")
    defer { try? FileManager.default.removeItem(at: folder) }
    var tree: [String: Data] = [:]
    for reject in Self.cases { tree[reject.path] = Data(reject.contents.utf8) }
    try writeContainer(tree, to: folder)
    let harness = try JournalHarness()
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    #expect(report.imported.isEmpty)
    #expect(report.appendedEvents == 0)
    #expect(harness.store.stored.isEmpty)
    #expect(harness.store.appendCount == 0)
  }

  @Test func symbolicLinksAreNotFollowed() throws {
    let folder = try makeTemporaryDirectory("import")
    let outside = try makeTemporaryDirectory("outside")
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: outside)
    }
    let target = outside.appendingPathComponent("split.json")
    try Data(Self.split().utf8).write(to: target)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Splits"),
      withIntermediateDirectories: true
    )
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent(Self.splitPath),
      withDestinationURL: target
    )
    let harness = try JournalHarness()
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    #expect(report.skipped.map(\.description) == ["\(Self.splitPath): symbolic link: not followed"])
    #expect(harness.store.stored.isEmpty)
  }

  @Test func aFolderWithoutDocumentsIsNotAContainer() throws {
    let folder = try makeTemporaryDirectory("import")
    defer { try? FileManager.default.removeItem(at: folder) }
    let harness = try JournalHarness()
    #expect(throws: ContainerImportError.self) {
      try ContainerImporter().importContainer(at: folder, into: harness.journal)
    }
  }
}
