import Foundation
import JournalProjections
import JournalTestSupport
import Testing

/// Documents in an app container that is broken or hostile: each is skipped whole with its
/// path and reason, and contributes no event (docs/BadInput.md).
@Suite struct HostileDocumentTests {
  typealias Case = ImportRejectionTests.RejectCase

  static let path = ImportRejectionTests.splitPath

  static let cases: [Case] = [
    Case(
      id: "deeply nested JSON",
      path: path,
      contents: "{\"schemaVersion\": 3, \"x\": " + String(repeating: "[", count: 100_000)
        + String(repeating: "]", count: 100_000) + "}",
      reason: "not valid JSON: byte 537: nesting deeper than 512 levels"
    ),
    Case(
      id: "a weight of 1e308",
      path: path,
      contents: ImportRejectionTests.split().replacingOccurrences(
        of: "\"weight\": 100",
        with: "\"weight\": 1e308"
      ),
      reason: "has a weight of 1e+308, above 1000000"
    ),
    Case(
      id: "a weight of 1e400",
      path: path,
      contents: ImportRejectionTests.split().replacingOccurrences(
        of: "\"weight\": 100",
        with: "\"weight\": 1e400"
      ),
      reason: "not valid JSON"
    ),
    Case(
      id: "a NUL in the id",
      path: path,
      contents: ImportRejectionTests.split(id: "01HZ0000000000000000S0000\\u0000"),
      reason: "path does not match the id"
    ),
    Case(
      id: "a division slash in the exercise id",
      path: path,
      contents: ImportRejectionTests.split(exerciseID: "\"..\u{2215}..\u{2215}etc\""),
      reason: "is not a ULID"
    ),
    Case(
      id: "a fullwidth solidus in the exercise id",
      path: path,
      contents: ImportRejectionTests.split(exerciseID: "\"..\u{FF0F}etc\""),
      reason: "is not a ULID"
    ),
    Case(
      id: "an over-long exercise id",
      path: path,
      contents: ImportRejectionTests.split(exerciseID: "\"\(String(repeating: "0", count: 300))\""),
      reason: "is not a ULID"
    ),
  ]

  @Test(arguments: cases)
  func skippedWholeAndNothingAppended(_ reject: Case) throws {
    let folder = try makeTemporaryDirectory("import")
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeContainer([reject.path: Data(reject.contents.utf8)], to: folder)
    let harness = try JournalHarness()
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    #expect(report.skipped.map(\.path) == [reject.path])
    #expect(report.skipped.first?.reason.contains(reject.reason) == true, "\(report.skipped)")
    #expect(harness.store.stored.isEmpty)
  }

  @Test func aDocumentLargerThanTheLimitIsNotRead() throws {
    let folder = try makeTemporaryDirectory("import")
    defer { try? FileManager.default.removeItem(at: folder) }
    try writeContainer([Self.path: Data(count: 17 << 20)], to: folder)
    let harness = try JournalHarness()
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    #expect(
      report.skipped.map(\.description) == [
        "\(Self.path): file of 17825792 bytes is larger than 16777216"
      ]
    )
    #expect(harness.store.stored.isEmpty)
  }
}
