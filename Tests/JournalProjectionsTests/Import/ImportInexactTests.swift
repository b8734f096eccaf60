import Foundation
import JournalProjections
import JournalTestSupport
import Testing

/// App documents the fold cannot reproduce byte for byte are imported and
/// reported with the first difference, never silently changed.
@Suite struct ImportInexactTests {
  struct InexactCase: Sendable, CustomTestStringConvertible {
    var id: String
    var replace: String
    var with: String
    var difference: String
    var testDescription: String { id }
  }

  static let document = """
    {
      "schemaVersion" : 5,
      "id" : "01HZ0000000000000000W00001",
      "start" : "2025-07-01T07:00:00Z",
      "status" : "notStarted",
      "createdAt" : "2025-07-01T07:00:00Z",
      "updatedAt" : "2025-07-01T07:00:00Z",
      "logs" : [
        {
          "id" : "01HZ0000000000000000G00001",
          "exerciseName" : "Row",
          "order" : 0,
          "sets" : 3,
          "reps" : 8,
          "weight" : 40,
          "loadType" : 1,
          "durationSeconds" : 0,
          "currentStateIndex" : 0,
          "status" : "notStarted",
          "date" : "2025-07-01T07:00:00Z"
        }
      ]
    }
    """

  static let cases = [
    InexactCase(
      id: "created before it started",
      replace: "\"createdAt\" : \"2025-07-01T07:00:00Z\"",
      with: "\"createdAt\" : \"2025-06-30T21:00:00Z\"",
      difference: "the journal '\"createdAt\" : \"2025-07-01T07:00:00Z\"'"
    ),
    InexactCase(
      id: "metrics without a volume",
      replace: "\"logs\" : [",
      with:
        "\"metrics\" : {\"source\" : \"watch\", \"recordedAt\" : \"2025-07-01T07:00:00Z\"},\n  \"logs\" : [",
      difference: "the journal '\"totalVolume\" : 0'"
    ),
    InexactCase(
      id: "an empty deletedLogIDs",
      replace: "\"logs\" : [",
      with: "\"deletedLogIDs\" : {},\n  \"logs\" : [",
      difference: "the file has '\"deletedLogIDs\" : {'"
    ),
  ]

  @Test(arguments: cases)
  func importedAndReported(_ inexact: InexactCase) throws {
    let folder = try makeTemporaryDirectory("import")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = "Workouts/2025/07/01HZ0000000000000000W00001.json"
    let text = Self.document.replacingOccurrences(of: inexact.replace, with: inexact.with)
    try writeContainer([path: Data(text.utf8)], to: folder)
    let now = Date(timeIntervalSince1970: 1_752_969_600)
    let harness = try JournalHarness(now: now)
    let report = try ContainerImporter().importContainer(
      at: folder,
      into: harness.journal,
      now: now
    )
    #expect(report.imported == [path])
    let item = try #require(report.inexact.first, "\(report)")
    #expect(item.path == path)
    #expect(item.reason.contains(inexact.difference), "got '\(item.reason)'")
    // Importing again compares with what the journal made of it: nothing new.
    let again = try ContainerImporter().importContainer(at: folder, into: harness.journal, now: now)
    #expect(again.appendedEvents == 0)
    #expect(again.unchanged == [path])
  }
}
