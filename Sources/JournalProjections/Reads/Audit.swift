import Foundation

/// Every set performed, with what was planned, what was done, and how each
/// value came to be: the read that answers "what did I actually lift?".
///
/// Rows come from the folded state (the effective set entries of live
/// workouts and the fold's `EntryProvenance`), plus one row for each
/// `set.completed` a revert in effect cancelled. Nothing here repeats a
/// rule of the fold.
///
/// ```swift
/// let audit = Audit(history: journal.history, filter: AuditFilter(exercise: "Squat"))
/// for row in audit.rows { print(row.setNumber ?? 0, row.actual, row.provenance) }
/// ```
public struct Audit: Sendable, Hashable {
  public var rows: [AuditRow]
  /// Per workout, oldest first; reverted rows are not counted.
  public var workoutTotals: [AuditTotals]
  /// Per exercise (by library name, else display name), by name.
  public var exerciseTotals: [AuditTotals]

  /// The audit of `history` up to `point`, filtered.
  ///
  /// - Complexity: one fold of the history, plus O(n) to index it.
  package init(
    history: [FoldEvent],
    upTo point: Replayer.Point? = nil,
    filter: AuditFilter = AuditFilter()
  ) {
    let state = Replayer.fold(history, upTo: point)
    self.init(state: state, history: Array(Replayer.prefix(history, upTo: point)), filter: filter)
  }

  /// The audit of a state folded from `history` (the same prefix).
  package init(state: JournalState, history: [FoldEvent], filter: AuditFilter = AuditFilter()) {
    // The adjustments, the only events a row looks up by id.
    var events: [EventID: FoldEvent] = [:]
    // The imported sets, by the id of the event that recorded each.
    var origins: [String: AuditRow.Origin] = [:]
    for e in history {
      switch e.event {
      case .setAdjusted: events[e.eventID] = e
      case .workoutImported(let imported):
        for set in imported.sets {
          origins[set.setEventID] = AuditRow.Origin(
            source: imported.source,
            file: imported.file,
            set: set
          )
        }
      default: break
      }
    }
    var rows: [AuditRow] = []
    var timings: [String: WorkoutTiming] = [:]
    for workout in state.liveWorkouts {
      let timing = WorkoutTiming(of: workout)
      timings[workout.document.id] = timing
      for log in workout.document.logs {
        var logRows = Self.rows(of: log, in: workout, events: events, origins: origins)
        for index in logRows.indices {
          logRows[index].timing = timing.set(index + 1, ofLog: log.id)
        }
        rows += logRows
      }
    }
    if filter.includeReverted {
      rows += Self.revertedRows(in: state, history: history)
    }
    if filter.includeReverted {
      for index in rows.indices where rows[index].provenance == .reverted {
        rows[index].origin = origins[rows[index].eventID]
      }
    }
    rows = rows.filter(filter.admits)
    rows.sort(by: AuditRow.precedes)
    self.rows = rows
    var totals = Totals()
    for row in rows { totals.add(row) }
    workoutTotals = totals.workouts { timings[$0].map { ($0.duration, $0.density) } }
    exerciseTotals = totals.exercises
  }

  /// ``workoutTotals`` and ``exerciseTotals`` of the rows added in the order of ``rows``.
  struct Totals {
    private var perWorkout = AuditTotals.Grouping { ($0.workoutID, $0.splitName ?? "workout") }
    private var perExercise = AuditTotals.Grouping { ($0.exerciseKey, $0.exerciseKey) }
    /// Whether ``workouts(timing:)`` is wanted: a reader that takes each workout's totals from
    /// its own audit does not hold them twice.
    private let countsWorkouts: Bool

    init(countingWorkouts: Bool = true) { countsWorkouts = countingWorkouts }

    /// Counts `row`, unless it was reverted.
    mutating func add(_ row: AuditRow) {
      guard row.provenance != .reverted else { return }
      if countsWorkouts { perWorkout.add(row) }
      perExercise.add(row)
    }

    /// Per workout, each with the duration and density `timing` gives for its id.
    func workouts(
      timing: (String) -> (duration: TimeInterval?, density: Double?)?
    ) -> [AuditTotals] {
      perWorkout.totals.map { totals in
        var totals = totals
        let found = timing(totals.key)
        totals.duration = found?.duration
        totals.density = found?.density
        return totals
      }
    }

    /// Per exercise, by name.
    var exercises: [AuditTotals] {
      perExercise.totals.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }
  }

  // MARK: - Rows

  static func rows(
    of log: WorkoutLogDocument,
    in workout: WorkoutState,
    events: [EventID: FoldEvent],
    origins: [String: AuditRow.Origin] = [:]
  ) -> [AuditRow] {
    let sources = workout.provenance[log.id] ?? []
    let planned = SetValues(planOf: log)
    let synthesised = log.setEntries?.isEmpty ?? true
    return log.effectiveSetEntries.enumerated().map { offset, entry in
      let source = offset < sources.count && !synthesised ? sources[offset] : nil
      var row = AuditRow(
        date: entry.completedAt,
        timeZone: workout.timeZone.identifier,
        workoutID: workout.document.id,
        splitName: workout.document.splitName,
        logID: log.id,
        exercise: log.exerciseName,
        libraryName: log.libraryName,
        loadType: log.loadType,
        setNumber: offset + 1,
        planned: planned,
        actual: SetValues(entry),
        device: source?.device ?? "",
        eventID: source?.eventID ?? "",
        provenance: .unattributed
      )
      if let source {
        if !origins.isEmpty { row.origin = origins[source.eventID] }
        row.recordedAs = AuditRow.Provenance(source.kind)
        row.provenance = row.recordedAs ?? .unattributed
        if !source.adjustments.isEmpty {
          row.provenance = .adjusted
          row.original = SetValues(source.original)
          row.adjustments = source.adjustments.compactMap { id in
            guard let e = events[EventID(id)], case .setAdjusted(let adjustment) = e.event else {
              return nil
            }
            return AuditRow.Adjustment(
              eventID: id,
              at: e.at,
              device: e.device,
              values: SetValues(adjustment.actuals)
            )
          }
        }
      } else if synthesised {
        // A completed log without entries (a legacy document): the plan.
        row.provenance = .filledFromPlan
        row.recordedAs = .filledFromPlan
      }
      return row
    }
  }

  /// One row per `set.completed` cancelled by a revert in effect, in a live
  /// workout: the set as it was recorded, without a set number.
  static func revertedRows(in state: JournalState, history: [FoldEvent]) -> [AuditRow] {
    let cancelled = Replayer.cancelledEvents(in: history)
    guard !cancelled.isEmpty else { return [] }
    var rows: [AuditRow] = []
    for e in history {
      // The event's type before its id, whose text is made to look it up.
      guard case .setCompleted(let set) = e.event, let revert = cancelled[e.storedID],
        let workout = state.workouts[e.streamID], workout.deletedAt == nil
      else { continue }
      let log = workout.log(set.logID)
      var entry = log?.planEntry(at: e.at) ?? SetEntry(completedAt: e.at)
      if let actuals = set.actuals { entry.apply(actuals) }
      var row = AuditRow(
        date: e.at,
        timeZone: workout.timeZone.identifier,
        workoutID: workout.document.id,
        splitName: workout.document.splitName,
        logID: set.logID,
        exercise: log?.exerciseName ?? set.logID,
        libraryName: log?.libraryName,
        loadType: log?.loadType ?? .weight,
        setNumber: nil,
        planned: log.map(SetValues.init(planOf:)) ?? SetValues(),
        actual: SetValues(entry),
        device: e.device,
        eventID: e.id,
        provenance: .reverted
      )
      row.recordedAs = set.actuals == nil ? .cursorOnly : .recorded
      row.revertedBy = revert
      rows.append(row)
    }
    return rows
  }
}

/// Which rows an ``Audit`` keeps.
public struct AuditFilter: Sendable, Hashable {
  /// Display or library name, case-insensitive.
  public var exercise: String?
  /// Split name, case-insensitive.
  public var split: String?
  /// Sets done at or after this time.
  public var since: Date?
  /// Sets done before this time.
  public var until: Date?
  /// Whether to list sets cancelled by undo, redo or rewind.
  public var includeReverted: Bool

  public init(
    exercise: String? = nil,
    split: String? = nil,
    since: Date? = nil,
    until: Date? = nil,
    includeReverted: Bool = true
  ) {
    self.exercise = exercise
    self.split = split
    self.since = since
    self.until = until
    self.includeReverted = includeReverted
  }

  /// Whether `row` passes every criterion given.
  public func admits(_ row: AuditRow) -> Bool {
    if let exercise, !row.matches(exercise: exercise) { return false }
    if let split, row.splitName?.caseInsensitiveCompare(split) != .orderedSame { return false }
    if let since, row.date < since { return false }
    if let until, row.date >= until { return false }
    return true
  }
}
