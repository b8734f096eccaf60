import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

// MARK: - Interrupted rebuilds

extension RebuildTests {
  /// Stops a rebuild after every possible number of writes: each time, every
  /// document on disk holds the old bytes or the new ones, never a mix, and
  /// the next rebuild completes and removes the temporary file left behind.
  @Test func anInterruptedRebuildLeavesNoHalfWrittenDocumentAndTheNextCompletes() throws {
    var session = try RandomSession(seed: 11)
    for _ in 0..<80 { session.step() }
    let journal = session.journal
    let middle = Replayer.Point.event(journal.history[journal.history.count / 3].id)
    let before = try expectedTree(journal, asOf: middle)
    let after = try expectedTree(journal)
    #expect(before != after)

    var limit = 0
    var duringDocuments = 0
    while true {
      let out = try makeTemporaryDirectory("rebuild-interrupted")
      try Rebuild.run(journal: journal, output: out, asOf: middle)
      var options = RebuildOptions()
      options._failAfterWrites = limit
      var pending = false
      do {
        try Rebuild.run(journal: journal, output: out, options: options)
        break  // `limit` was more writes than this rebuild makes.
      } catch let error as RebuildError where error.kind == .interrupted {
        for (path, bytes) in try documentFiles(in: out) {
          #expect(bytes == before[path] || bytes == after[path], "after \(limit) writes: \(path)")
        }
        #expect(temporaryFiles(in: out).count == 1)
        pending = try ProjectionManifest.open(DocumentTreeWriter(root: out)).isInterrupted
        if pending { duringDocuments += 1 }
      }
      let report = try Rebuild.run(journal: journal, output: out)
      #expect(report.cleanedTemporaryFiles == 1, "after \(limit) writes")
      #expect(report.conflicts.isEmpty, "after \(limit) writes: \(report.conflicts)")
      #expect(temporaryFiles(in: out).isEmpty)
      try expectTree(out, equals: after, "after \(limit) writes")
      #expect(try !ProjectionManifest.open(DocumentTreeWriter(root: out)).isInterrupted)
      limit += 1
    }
    #expect(duringDocuments >= 2)
  }

  /// A rebuild announces its writes (path and digest) before it makes them.
  ///
  /// Interrupted after some writes, its documents are recognised by their digests, even
  /// once the journal has moved on and wants other bytes in them: they are replaced, not
  /// reported as conflicts. The next rebuild holds the history or reads it as it folds.
  @Test(arguments: [false, true])
  func anInterruptedRebuildsDocumentsAreItsOwnOnceTheJournalMovesOn(streamed: Bool) throws {
    let url = try makeFileJournal(seed: 5, steps: 160)
    let journal = try Journal(store: try FileEventStore(url: url), newID: { "" })
    let history = journal.history
    let first = Replayer.Point.event(history[history.count / 3].id)
    let second = Replayer.Point.event(history[history.count * 2 / 3].id)
    let before = try expectedTree(journal, asOf: first)
    let interrupted = try expectedTree(journal, asOf: second)
    let after = try expectedTree(journal)

    let out = try makeTemporaryDirectory("rebuild-interrupted-moved")
    try Rebuild.run(journal: journal, output: out, asOf: first)
    var options = RebuildOptions()
    options._failAfterWrites = 3
    #expect(throws: RebuildError.self) {
      try Rebuild.run(journal: journal, output: out, asOf: second, options: options)
    }
    let manifest = try ProjectionManifest.open(DocumentTreeWriter(root: out))
    #expect(manifest.isInterrupted && manifest.pending.count >= 3)
    let written = try documentFiles(in: out).filter {
      $0.value == interrupted[$0.key] && $0.value != before[$0.key]
    }
    #expect(written.count == 3)
    // What makes the test: documents the interrupted run wrote that the journal now
    // wants otherwise.
    #expect(written.contains { after[$0.key] != $0.value })

    let report =
      streamed
      ? try Rebuild.run(streamed: StreamedHistory(store: FileEventStore(url: url)), output: out)
      : try Rebuild.run(journal: journal, output: out)
    #expect(report.conflicts.isEmpty, "\(report.conflicts)")
    #expect(report.notices.isEmpty, "\(report.notices)")
    #expect(report.adopted.isEmpty)
    try expectTree(out, equals: after)
    #expect(try !ProjectionManifest.open(DocumentTreeWriter(root: out)).isInterrupted)
  }

  /// A device synced an earlier event after the rebuild was interrupted: the documents it
  /// wrote are still its own, and are replaced with the bytes the journal now wants.
  @Test func anInterruptedRebuildsDocumentsAreItsOwnAfterALateSync() throws {
    let h = try JournalHarness(now: t0)
    try h.makeUpperBody()
    let out = try makeTemporaryDirectory("rebuild-interrupted-merged")
    try Rebuild.run(journal: h.journal, output: out)
    let squat = ExercisePlan(name: "Squat", sets: 3, reps: 5, weight: 100, loadType: .weight)
    let before = try expectedTree(h.journal)
    h.now += 3600
    try h.run(.addExercise(split: "upper body", squat))
    try h.makeUpperBody(name: "Legs")
    let interrupted = try expectedTree(h.journal)
    var options = RebuildOptions()
    options._failAfterWrites = 1
    #expect(throws: RebuildError.self) {
      try Rebuild.run(journal: h.journal, output: out, options: options)
    }
    let written = try #require(
      try documentFiles(in: out).first {
        $0.value == interrupted[$0.key] && $0.value != before[$0.key]
      }?.key
    )
    h.now += 60
    try h.run(.addExercise(split: "upper body", squat))
    try deliverLateSplit(to: h)
    let after = try expectedTree(h.journal)
    #expect(after[written] != interrupted[written])

    let report = try Rebuild.run(journal: h.journal, output: out)
    #expect(report.conflicts.isEmpty, "\(report.conflicts)")
    try expectTree(out, equals: after)
  }

  /// A rebuild that changes nothing appends nothing: the manifest's log is left byte for
  /// byte as it was.
  @Test func aRebuildThatChangesNothingLeavesTheManifestAsItWas() throws {
    var session = try RandomSession(seed: 3)
    for _ in 0..<40 { session.step() }
    let out = try makeTemporaryDirectory("rebuild-nothing")
    try Rebuild.run(journal: session.journal, output: out)
    let log = out.appendingPathComponent(ProjectionManifest.logPath)
    let bytes = try Data(contentsOf: log)
    for full in [false, true] {
      let report = try Rebuild.run(journal: session.journal, output: out, full: full)
      #expect(report.written.isEmpty && report.removed.isEmpty)
      #expect(try Data(contentsOf: log) == bytes, "full: \(full)")
    }
  }
}
