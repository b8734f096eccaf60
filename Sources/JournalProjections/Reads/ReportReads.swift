import Foundation

/// The reads `journal report` shows, over the whole history or a range of it, gathered slice
/// by slice (``Journal/forEachSlice(upTo:_:)``) so that memory holds one workout at a time
/// plus what the page lists.
///
/// Each slice is read with the library's reads (``Audit``, ``TrainingSummary``,
/// ``Progression``, ``ExerciseRecords``, ``Revisions``) and the results merged: summaries
/// add up, progressions gather their points, records merge (``ExerciseRecords/merging(_:)``),
/// and a revert met in several slices counts once, with the workout the whole history gives
/// it. Gathered from one slice holding the whole history, they are those reads of it.
package struct ReportReads {
  /// One exercise's progression and records.
  package struct Exercise {
    /// As `journal chart` has it (points oldest first).
    package var progression: Progression
    /// As `journal records` has them; nil when no set counted (all filled from the plan).
    package var records: ExerciseRecords?
  }

  /// A workout the page shows plan against actual.
  package struct Workout {
    package var session: TrainingSummary.Session
    package var workout: WorkoutState
    /// Its audit rows.
    package var rows: [AuditRow]
  }

  /// What names a workout a change was made to.
  package struct Label {
    package var splitName: String?
    package var start: Date
    package var timeZone: String
  }

  /// How many sessions ``summary`` lists, and how many changes ``revisions`` does.
  package static let listed = 200
  /// How many of the newest workouts ``recent`` holds.
  package static let recentCount = 5

  /// How many events the reads read.
  package private(set) var eventCount = 0
  /// The sessions (the newest ``listed``), days, weeks and totals.
  package private(set) var summary = TrainingSummary()
  /// Every exercise with a set in the range, by name (ignoring case).
  package var exercises: [Exercise] {
    progressions.keys.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }.map { key in
      let points = (progressions[key] ?? []).sorted {
        ($0.date, $0.workoutID) < ($1.date, $1.workoutID)
      }
      return Exercise(
        progression: Progression(exercise: key, points: points),
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
  /// The newest ``recentCount`` workouts with a set in the range, oldest first.
  package private(set) var recent: [Workout] = []
  /// Every workout read, by id.
  package private(set) var labels: [String: Label] = [:]

  private let filter: AuditFilter
  private var progressions: [String: [Progression.Point]] = [:]
  private var records: [String: ExerciseRecords] = [:]
  /// Changes not yet known to be older than the ``listed`` newest.
  private var kept: [Revisions.Entry] = []
  /// The reverts met, with the rank that decided their workout (``Revisions/ranked``).
  private var reverts: [String: Int?] = [:]

  /// Nothing read yet, for sets done at or after `since` and before `until`.
  package init(since: Date?, until: Date?) {
    filter = AuditFilter(since: since, until: until)
  }

  /// Adds one slice: `state` folded from `events`, `fresh` of them never added before.
  package mutating func add(state: JournalState, events: [FoldEvent], fresh: Int) {
    eventCount += fresh
    for (id, workout) in state.workouts {
      labels[id] = Label(
        splitName: workout.document.splitName,
        start: workout.document.start,
        timeZone: workout.timeZone.identifier
      )
    }
    let audit = Audit(state: state, history: events, filter: filter)
    let slice = TrainingSummary(audit: audit, state: state)
    summary.merge(slice, keepingNewest: Self.listed)
    let newest = slice.sessions.suffix(Self.recentCount)
    let ids = Set(newest.map(\.workoutID))
    let rows = Dictionary(grouping: audit.rows.filter { ids.contains($0.workoutID) }) {
      $0.workoutID
    }
    for session in newest {
      guard let workout = state.workouts[session.workoutID] else { continue }
      recent.append(
        Workout(session: session, workout: workout, rows: rows[session.workoutID] ?? [])
      )
    }
    recent.sort {
      ($0.session.start, $0.session.workoutID) < ($1.session.start, $1.session.workoutID)
    }
    if recent.count > Self.recentCount { recent.removeFirst(recent.count - Self.recentCount) }
    for progression in audit.progressions(in: state) {
      progressions[progression.exercise, default: []] += progression.points
    }
    for part in ExerciseRecords.all(from: audit.rows) {
      records[part.exercise] = ExerciseRecords.merging(
        [records[part.exercise], part].compactMap { $0 }
      )
    }
    let changes = Revisions.ranked(
      history: events,
      state: state,
      rows: audit.rows,
      since: filter.since,
      until: filter.until
    )
    for (entry, rank) in changes {
      guard [.undo, .redo, .rewind].contains(entry.kind) else {
        keep(entry)
        continue
      }
      guard let met = reverts[entry.eventID] else {
        reverts[entry.eventID] = rank
        keep(entry)
        continue
      }
      // Met in an earlier slice: counted once; the lower rank decides the workout.
      guard let rank, met.map({ rank < $0 }) ?? true else { continue }
      reverts[entry.eventID] = rank
      if let index = kept.firstIndex(where: { $0.eventID == entry.eventID && $0.kind == entry.kind }
      ) {
        kept[index] = entry
      }
    }
  }

  private mutating func keep(_ entry: Revisions.Entry) {
    revisionCounts[entry.kind, default: 0] += 1
    kept.append(entry)
    if kept.count >= 2 * Self.listed {
      kept.sort(by: Revisions.Entry.precedes)
      kept.removeFirst(kept.count - Self.listed)
    }
  }
}
