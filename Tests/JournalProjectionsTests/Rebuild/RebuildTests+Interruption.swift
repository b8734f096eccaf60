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
      if pending {
        #expect(report.mode == .full)
        #expect(report.checkpointIgnoredBecause == "the last rebuild was interrupted")
      }
      #expect(report.cleanedTemporaryFiles == 1, "after \(limit) writes")
      #expect(report.conflicts.isEmpty, "after \(limit) writes: \(report.conflicts)")
      #expect(temporaryFiles(in: out).isEmpty)
      try expectTree(out, equals: after, "after \(limit) writes")
      let next = try Rebuild.run(journal: journal, output: out)
      #expect(next.mode == .incremental, "after \(limit): \(next.checkpointIgnoredBecause ?? "")")
      limit += 1
    }
    #expect(duringDocuments >= 2)
  }
}
