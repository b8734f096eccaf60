import Foundation

/// The reads `journal report` shows, over the whole history or a range of it, gathered in
/// parts and merged, so that memory holds one part at a time plus what the page lists.
///
/// A part is a slice of the history (``Journal/forEachSlice(upTo:_:)``), read with the
/// library's reads (``Audit``, ``TrainingSummary``, ``Progression``, ``ExerciseRecords``,
/// ``Revisions``), or several parts already merged (``merge(_:)``): summaries add up,
/// progressions gather their points, records merge (``ExerciseRecords/merging(_:)``), and a
/// revert met in several parts counts once, with the workout the whole history gives it.
/// Merged in any grouping, the parts give the reads of one slice holding all of them; the
/// saved state keeps merged parts of each year (`ReportIndex`) because of that.
///
/// A stored revert is one event of the history: the event count subtracts each revert that
/// two merged parts both read.
package struct ReportReads: Codable {
  /// One exercise's progression and records.
  package struct Exercise {
    /// As `journal chart` has it (points oldest first), or per week
    /// (``Progression/weekly()``) when it has more than ``pointsPerWorkoutLimit`` points.
    package var progression: Progression
    /// Whether ``progression`` is per week.
    package var isWeekly: Bool
    /// As `journal records` has them; nil when no set counted (all filled from the plan).
    package var records: ExerciseRecords?
  }

  /// One exercise's progression points gathered from parts of the history: one a workout
  /// while there are at most ``pointsPerWorkoutLimit``, else one a week, so that what a part
  /// of years of training holds is its weeks, not its workouts.
  ///
  /// Weeks of weeks are the same weeks (``Progression/weekly()``): gathered in any grouping,
  /// the points read the same.
  package struct Points: Codable, Equatable {
    /// How many workouts' points were gathered.
    package private(set) var count = 0
    /// The points gathered, in no order: per week, in part, once ``count`` is over the limit.
    private var points: [Progression.Point] = []
    /// How many points were left the last time they were reduced to weeks.
    private var reduced = 0

    private enum CodingKeys: String, CodingKey { case count, points }

    /// `points`, one per workout.
    package init(_ points: [Progression.Point] = []) {
      count = points.count
      self.points = points
    }

    /// Whether the points read per week: more workouts than `limit`.
    package func isWeekly(limit: Int = ReportReads.pointsPerWorkoutLimit) -> Bool {
      count > limit
    }

    /// The points, oldest first: per week when ``isWeekly(limit:)``.
    package func read(limit: Int = ReportReads.pointsPerWorkoutLimit) -> [Progression.Point] {
      isWeekly(limit: limit)
        ? Progression.Point.weeks(of: points) : points.sorted { $0.precedes($1) }
    }

    /// Adds `other`'s points.
    ///
    /// Once over `limit`, they are reduced to weeks whenever they have doubled since the
    /// last time, so that gathering n points costs O(n log n).
    package mutating func merge(
      _ other: Points,
      limit: Int = ReportReads.pointsPerWorkoutLimit
    ) {
      count += other.count
      points += other.points
      if isWeekly(limit: limit), points.count > 2 * reduced {
        points = Progression.Point.weeks(of: points)
        reduced = points.count
      }
    }
  }

  /// A workout the page shows plan against actual.
  package struct Workout {
    package var session: TrainingSummary.Session
    package var workout: WorkoutState
    /// Its audit rows.
    package var rows: [AuditRow]
  }

  /// What names a workout a change was made to.
  package struct Label: Codable, Equatable {
    package var splitName: String?
    package var start: Date
    package var timeZone: String
  }

  /// A revert listed as a change: its kind, and the rank that decided its workout
  /// (``Revisions/ranked(history:state:rows:since:until:)``).
  private struct Revert: Codable {
    var kind: Revisions.Entry.Kind
    var rank: Int?
  }

  /// How many sessions ``summary`` lists, and how many changes ``revisions`` does.
  package static let listed = 200
  /// How many of the newest workouts ``recent`` holds.
  package static let recentCount = 5
  /// The most points a progression holds one per workout; more are read per week.
  package static let pointsPerWorkoutLimit = 60

  /// How many events the reads read.
  package private(set) var eventCount = 0
  /// The sessions (the newest ``listed``), days, weeks and totals.
  package private(set) var summary = TrainingSummary()
  /// Every exercise with a set in the range, by name (ignoring case).
  package var exercises: [Exercise] {
    progressions.keys.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }.map { key in
      let points = progressions[key] ?? Points()
      return Exercise(
        progression: Progression(exercise: key, points: points.read()),
        isWeekly: points.isWeekly(),
        records: records[key]
      )
    }
  }
  /// The newest ``listed`` changes, oldest first.
  package var revisions: [Revisions.Entry] {
    Array(kept.sorted(by: Revisions.Entry.precedes).suffix(Self.listed))
  }
  /// How many changes of each kind, listed or not.
  package private(set) var revisionCounts: [Revisions.Entry.Kind: Int] = [:]
  /// The newest ``recentCount`` workouts with a set in the range, oldest first, once
  /// ``findRecent(_:)`` has read them.
  package private(set) var recent: [Workout] = []
  /// The workouts the changes in ``revisions`` were made to, by id.
  package var labels: [String: Label] {
    let named = Set(revisions.compactMap(\.workoutID))
    return heldLabels.filter { named.contains($0.key) }
  }
  /// The ids of the reverts read that another part may read too (``shared(_:)``).
  package private(set) var revertsRead: Set<String> = []

  private var filter = AuditFilter()
  private var progressions: [String: Points] = [:]
  private var records: [String: ExerciseRecords] = [:]
  /// Changes not yet known to be older than the ``listed`` newest.
  private var kept: [Revisions.Entry] = []
  /// The shared reverts (``revertsRead``) listed as changes, by id.
  private var reverts: [String: Revert] = [:]
  /// The workouts read whose changes may be listed.
  private var heldLabels: [String: Label] = [:]

  private enum CodingKeys: String, CodingKey {
    case eventCount, summary, revisionCounts, revertsRead, progressions, records, kept, reverts
    case heldLabels = "labels"
  }

  /// Nothing read yet, for sets done at or after `since` and before `until`.
  package init(since: Date?, until: Date?) {
    filter = AuditFilter(since: since, until: until)
  }

  /// Adds one slice: `state` folded from `events`.
  package mutating func add(state: JournalState, events: [FoldEvent]) {
    var part = ReportReads(since: filter.since, until: filter.until)
    part.eventCount = events.count
    part.revertsRead = Self.shared(events)
    for (id, workout) in state.workouts {
      part.heldLabels[id] = Label(
        splitName: workout.document.splitName,
        start: workout.document.start,
        timeZone: workout.timeZone.identifier
      )
    }
    let audit = Audit(state: state, history: events, filter: filter)
    part.summary = TrainingSummary(audit: audit, state: state)
    for progression in audit.progressions(in: state) {
      part.progressions[progression.exercise, default: Points()].merge(
        Points(progression.points)
      )
    }
    for records in ExerciseRecords.all(from: audit.rows) {
      part.records[records.exercise] = records
    }
    let changes = Revisions.ranked(
      history: events,
      state: state,
      rows: audit.rows,
      since: filter.since,
      until: filter.until
    )
    for (entry, rank) in changes {
      if [.undo, .redo, .rewind].contains(entry.kind), part.revertsRead.contains(entry.eventID) {
        part.reverts[entry.eventID] = Revert(kind: entry.kind, rank: rank)
      }
      part.revisionCounts[entry.kind, default: 0] += 1
      part.kept.append(entry)
    }
    merge(part)
  }

  /// The reverts among `events` (a slice) that another slice may hold too: those naming an
  /// event the slice does not hold, or such a revert.
  ///
  /// The saved state files a revert with every stream whose events it names, directly or
  /// through the reverts it names: one that names only this slice's events, and no such
  /// revert, is held by this slice alone, so only the others need to be remembered to be
  /// counted once. Remembering only those keeps a part's reads small.
  static func shared(_ events: [FoldEvent]) -> Set<String> {
    var named: [(id: String, events: [String])] = []
    for event in events {
      if case .eventsReverted(let reverted) = event.event {
        named.append((event.id, reverted.eventIDs))
      }
    }
    guard !named.isEmpty else { return [] }
    let held = Set(events.map(\.id))
    var shared = Set(named.filter { $0.events.contains { !held.contains($0) } }.map(\.id))
    while true {
      let more = named.filter {
        !shared.contains($0.id) && $0.events.contains(where: shared.contains)
      }
      if more.isEmpty { return shared }
      shared.formUnion(more.map(\.id))
    }
  }

  /// Adds `other`, the reads of other parts of the history over the same range.
  ///
  /// A revert both read counts once; its workout is the one of the lower rank, `other`'s
  /// when the ranks are equal or this one's is unknown.
  package mutating func merge(_ other: ReportReads) {
    var other = other
    eventCount += other.eventCount - revertsRead.intersection(other.revertsRead).count
    revertsRead.formUnion(other.revertsRead)
    for (id, theirs) in other.reverts {
      guard let ours = reverts[id] else {
        reverts[id] = theirs
        continue
      }
      revisionCounts[ours.kind, default: 0] -= 1
      let isTheirs = theirs.rank.map { rank in ours.rank.map { rank < $0 } ?? true } ?? false
      if isTheirs {
        reverts[id] = theirs
        kept.removeAll { $0.eventID == id && $0.kind == ours.kind }
      } else {
        other.kept.removeAll { $0.eventID == id && $0.kind == theirs.kind }
      }
    }
    revisionCounts.merge(other.revisionCounts, uniquingKeysWith: +)
    summary.merge(other.summary, keepingNewest: Self.listed)
    for (exercise, theirs) in other.progressions {
      progressions[exercise, default: Points()].merge(theirs)
    }
    for (exercise, theirs) in other.records {
      records[exercise] = ExerciseRecords.merging([records[exercise], theirs].compactMap { $0 })
    }
    kept += other.kept
    if kept.count >= 2 * Self.listed {
      kept.sort(by: Revisions.Entry.precedes)
      kept.removeFirst(kept.count - Self.listed)
    }
    heldLabels.merge(other.heldLabels) { ours, _ in ours }
    let named = Set(kept.compactMap(\.workoutID))
    heldLabels = heldLabels.filter { named.contains($0.key) }
  }

  /// Takes the sessions ``summary`` lists out of it, leaving its totals, days and weeks: the
  /// report index keeps them apart, since only the newest parts' are listed in the end.
  package mutating func takeSessions() -> [TrainingSummary.Session] {
    defer { summary.sessions = [] }
    return summary.sessions
  }

  /// Lists `sessions`, taken out of other reads (``takeSessions()``), with those ``summary``
  /// lists, keeping the newest ``listed``.
  package mutating func list(_ sessions: [TrainingSummary.Session]) {
    summary.list(sessions, keepingNewest: Self.listed)
  }

  /// Reads the newest ``recentCount`` sessions' workouts: `read` gives a workout's slice by
  /// id (a state holding it and the events it was folded from), nil when there is none.
  package mutating func findRecent(
    _ read: (String) throws -> (state: JournalState, events: [FoldEvent])?
  ) rethrows {
    recent = []
    for session in summary.sessions.suffix(Self.recentCount) {
      guard let (state, events) = try read(session.workoutID),
        let workout = state.workouts[session.workoutID]
      else { continue }
      let rows = Audit(state: state, history: events, filter: filter).rows
      recent.append(
        Workout(
          session: session,
          workout: workout,
          rows: rows.filter { $0.workoutID == session.workoutID }
        )
      )
    }
  }
}
