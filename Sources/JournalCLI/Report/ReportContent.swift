import Foundation
import JournalProjections

/// Everything `journal report` shows, as the library's reads give it: the page renders these
/// values and computes none of its own.
///
/// The reads come from the saved state (``ReportReads``), or from the whole history in one
/// piece when the journal was read whole (`--as-of`).
struct ReportContent {
  /// The range as given (`--since`, `--until`), for the heading.
  var sinceText: String?
  var untilText: String?
  /// What the reads gathered.
  var reads: ReportReads
  var exercises: [ReportReads.Exercise]
  var revisions: [Revisions.Entry]

  /// The reads of `journal`'s history up to `point`, over `since`..<`until` (given as
  /// `sinceText` and `untilText`).
  ///
  /// - Throws: `ScopeTooNarrow` when the journal's saved state cannot answer.
  init(
    journal: Journal,
    upTo point: Replayer.Point?,
    since: (date: Date, text: String)?,
    until: (date: Date, text: String)?
  ) throws {
    sinceText = since?.text
    untilText = until?.text
    let reads = try journal.reportReads(upTo: point, since: since?.date, until: until?.date)
    self.reads = reads
    exercises = reads.exercises
    revisions = reads.revisions
  }

  var summary: TrainingSummary { reads.summary }
  var eventCount: Int { reads.eventCount }
}
