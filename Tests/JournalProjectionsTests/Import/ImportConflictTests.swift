import Foundation
import JournalProjections
import JournalTestSupport
import Testing

/// Importing a container again: unchanged documents append nothing, changed
/// ones are conflicts the journal keeps its own version of, and documents
/// deleted in the app since are deleted in the journal.
@Suite struct ImportConflictTests {
  /// A journal with one finished workout, its container, and a fresh journal
  /// that imported it.
  func imported() throws -> (tree: [String: Data], folder: URL, harness: JournalHarness) {
    let source = try JournalHarness()
    try source.makeUpperBody()
    try source.run(.startWorkout(split: "upper body", timeZone: "Europe/Paris"))
    try source.run(.completeSet(workout: nil, exercise: nil, SetActuals(reps: 4)))
    try source.run(.endWorkout(workout: nil))
    let tree = try source.state.documentTree()
    let folder = try makeTemporaryDirectory("import")
    try writeContainer(tree, to: folder)
    let harness = try JournalHarness(now: source.now, ids: SequentialIDs(prefix: "01K"))
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    #expect(report.isClean)
    return (tree, folder, harness)
  }

  @Test func aDocumentEditedInTheJournalIsAConflict() throws {
    let (_, folder, harness) = try imported()
    defer { try? FileManager.default.removeItem(at: folder) }
    try harness.run(.adjustSet(workout: nil, exercise: "Bench Press", set: 1, SetActuals(reps: 5)))
    let stored = harness.store.stored
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    let conflict = try #require(report.conflicts.first)
    #expect(conflict.path.hasPrefix("Workouts/"))
    #expect(conflict.reason.contains("differs from the journal's version, which is kept"))
    #expect(report.unchanged.count == 1)  // the split
    #expect(harness.store.stored == stored)
  }

  @Test func aDocumentDeletedInTheAppSinceIsDeleted() throws {
    let (tree, folder, harness) = try imported()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try #require(tree.keys.first { $0.hasPrefix("Workouts/") })
    let bytes = try #require(tree[path])
    // The app's delete: a full stub (the document plus deletedAt), the live file removed.
    var text = String(decoding: bytes, as: UTF8.self)
    text = text.replacingOccurrences(
      of: "\n  \"end\"",
      with: "\n  \"deletedAt\" : \"2026-01-01T01:00:00Z\",\n  \"end\""
    )
    try FileManager.default.removeItem(at: folder.appendingPathComponent(path))
    try writeContainer(["Stubs/" + path: Data(text.utf8)], to: folder)
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    #expect(report.deleted == ["Stubs/" + path])
    #expect(report.appendedEvents == 1)
    #expect(harness.state.liveWorkouts.isEmpty)
    // And once more: nothing.
    let again = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    #expect(again.appendedEvents == 0)
    #expect(again.unchanged.count == 2)
  }

  @Test func aMinimalStubDeletesWhatTheJournalHasLive() throws {
    let (tree, folder, harness) = try imported()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try #require(tree.keys.first { $0.hasPrefix("Splits/") })
    let id = String(path.dropFirst("Splits/".count).dropLast(".json".count))
    try FileManager.default.removeItem(at: folder.appendingPathComponent(path))
    let stub = "{\"id\": \"\(id)\", \"deletedAt\": \"2026-01-01T02:00:00Z\"}"
    try writeContainer(["Stubs/" + path: Data(stub.utf8)], to: folder)
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    #expect(report.deleted == ["Stubs/" + path])
    #expect(harness.state.liveSplits.isEmpty)
  }

  @Test func aDocumentDeletedInTheJournalIsNotImportedAgain() throws {
    let (tree, folder, harness) = try imported()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try #require(tree.keys.first { $0.hasPrefix("Workouts/") })
    let id = String(path.split(separator: "/").last?.dropLast(".json".count) ?? "")
    try harness.run(.deleteWorkout(workout: id))
    let report = try ContainerImporter().importContainer(at: folder, into: harness.journal)
    #expect(report.conflicts.map(\.path) == [path])
    #expect(report.conflicts.first?.reason == "deleted in the journal; not imported again")
    #expect(harness.state.liveWorkouts.isEmpty)
  }
}
