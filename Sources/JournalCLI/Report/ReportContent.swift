import Foundation
import JournalProjections

/// Everything `journal report` shows, as the library's reads give it: the page renders these
/// values and computes none of its own.
///
/// One fold of the history makes the state; the ``Audit`` of that state (the rows `audit`
/// lists) feeds the summary, the records (as `records`), the progressions (as `chart`) and
/// the revisions.
struct ReportContent {
  /// One exercise's progression and records.
  struct Exercise {
    /// As `journal chart` has it, or per week when it has more points than a chart shows.
    var progression: Progression
    /// Whether ``progression`` is per week.
    var isWeekly: Bool
    /// As `journal records` has them; nil when no set counted (all filled from the plan).
    var records: ExerciseRecords?
  }

  /// The range as given (`--since`, `--until`), for the heading.
  var sinceText: String?
  var untilText: String?
  /// How many events the report read (the history up to `--as-of`).
  var eventCount: Int
  var audit: Audit
  var summary: TrainingSummary
  var exercises: [Exercise]
  var revisions: [Revisions.Entry]
  /// The workouts of the state, by id, for the recent workouts' logs.
  var workouts: [String: WorkoutState]

  /// The most points a progression chart draws one per workout; more are shown per week.
  static let pointsPerWorkoutLimit = 60

  /// The reads of `journal`'s history up to `point`, over `since`..<`until` (given as
  /// `sinceText` and `untilText`).
  init(
    journal: Journal,
    upTo point: Replayer.Point?,
    since: (date: Date, text: String)?,
    until: (date: Date, text: String)?
  ) {
    sinceText = since?.text
    untilText = until?.text
    let (since, until) = (since?.date, until?.date)
    let history = Array(Replayer.prefix(journal.history, upTo: point))
    let state = journal.state(upTo: point)
    let audit = Audit(
      state: state,
      history: history,
      filter: AuditFilter(since: since, until: until)
    )
    eventCount = history.count
    self.audit = audit
    summary = TrainingSummary(audit: audit, state: state)
    let records = Dictionary(
      ExerciseRecords.all(from: audit.rows).map { ($0.exercise, $0) },
      uniquingKeysWith: { first, _ in first }
    )
    exercises = audit.progressions(in: state).map { progression in
      let weekly = progression.points.count > Self.pointsPerWorkoutLimit
      return Exercise(
        progression: weekly ? progression.weekly() : progression,
        isWeekly: weekly,
        records: records[progression.exercise]
      )
    }
    revisions = Revisions.entries(
      history: history,
      state: state,
      rows: audit.rows,
      since: since,
      until: until
    )
    workouts = state.workouts
  }
}
