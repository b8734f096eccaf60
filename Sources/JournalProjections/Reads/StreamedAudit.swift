import Foundation

/// The ``Audit`` of a journal's whole history read slice by slice
/// (``Journal/forEachSlice(upTo:_:)``), for a command that lists every row: memory holds one
/// slice, the rows not yet handed on and the totals, never the history.
///
/// Slices come a workout at a time, by start, but rows go by date (``Audit/rows``), and a set
/// can be done after a later workout started, or recorded back-dated. So the history is read
/// twice: ``init(journal:filter:survey:)`` audits every slice and keeps the date of each one's
/// earliest row, then ``forEachRow(of:filter:_:)`` audits them again and hands on a row as soon
/// as no slice still to come has an earlier one. When workouts do not overlap in time, that is
/// one slice's rows at a time.
///
/// A slice's audit is ``Audit/init(state:history:filter:)`` of its fold, which is the whole
/// history's audit restricted to the slice's workout: nothing here repeats a rule of the audit.
///
/// ```swift
/// let audit = try StreamedAudit(journal: journal, filter: filter)
/// let totals = try audit.forEachRow(of: journal, filter: filter) { print($0.date) }
/// ```
package struct StreamedAudit {
  /// The names a filter's `--exercise` and `--split` are resolved among.
  package private(set) var names = Names()
  /// How many rows the filter admits.
  package private(set) var rowCount = 0
  /// The date of each slice's earliest row, nil for a slice without one.
  private var earliest: [Date?] = []

  /// The exercise and split names of the whole history, gathered slice by slice, resolved as
  /// ``JournalState/exerciseName(_:)`` and ``JournalState/splitName(_:)`` resolve them.
  package struct Names {
    private var splits: [SplitDocument] = []
    private var lifted: Set<String> = []
    private var workoutSplits: [String] = []
    private var known: Set<String> = []

    /// Adds the names of one slice's fold.
    mutating func add(_ state: JournalState) {
      splits += state.liveSplits.map(\.document)
      lifted.formUnion(state.liftedNames)
      for name in state.workoutSplitNames where known.insert(name).inserted {
        workoutSplits.append(name)
      }
    }

    /// The exercise `reference` names (``JournalState/exerciseName(_:)``).
    package func exerciseName(_ reference: String) throws(CommandError) -> String {
      try JournalState.exerciseName(reference, splits: splits, lifted: lifted)
    }

    /// The split name `reference` names (``JournalState/splitName(_:)``).
    package func splitName(_ reference: String) throws(CommandError) -> String {
      try JournalState.splitName(reference, among: splits.map(\.name) + workoutSplits)
    }
  }

  /// Reads every slice of `journal` once: the names, how many rows `filter` admits, and where
  /// each slice's rows start.
  ///
  /// - Parameters:
  ///   - journal: the journal, opened with a scope or whole.
  ///   - filter: the rows to survey.
  ///   - survey: sees each row `filter` admits, slice by slice (not in the rows' order).
  /// - Throws: what ``Journal/forEachSlice(upTo:_:)`` throws.
  package init(
    journal: Journal,
    filter: AuditFilter,
    survey: (AuditRow) -> Void = { _ in }
  ) throws {
    var names = Names()
    var rowCount = 0
    var earliest: [Date?] = []
    try journal.forEachSlice { state, events, _ in
      names.add(state)
      let audit = Audit(state: state, history: events, filter: filter)
      earliest.append(audit.rows.first?.date)
      rowCount += audit.rows.count
      for row in audit.rows { survey(row) }
    }
    self.names = names
    self.rowCount = rowCount
    self.earliest = earliest
  }

  /// Reads every slice again and hands on the rows `filter` admits in the order of
  /// ``Audit/rows``.
  ///
  /// - Parameters:
  ///   - journal: the journal surveyed.
  ///   - filter: the filter surveyed, or one that admits no row it does not (the same, with
  ///     names added).
  ///   - body: gets each row.
  /// - Returns: the totals of the rows handed on, as ``Audit/workoutTotals`` and
  ///   ``Audit/exerciseTotals`` give them.
  /// - Throws: what `body` throws; ``StreamedHistoryChanged`` when the slices are not those
  ///   surveyed, or the saved state turned out damaged: rows were handed on, so the read
  ///   cannot start again on the whole history as a first reading can (``ScopeTooNarrow``).
  package func forEachRow(
    of journal: Journal,
    filter: AuditFilter,
    _ body: (AuditRow) throws -> Void
  ) throws -> (workouts: [AuditTotals], exercises: [AuditTotals]) {
    // The earliest row of the slices from each one on: a row before it can go.
    var floor = [Date?](repeating: nil, count: earliest.count + 1)
    for index in earliest.indices.reversed() {
      floor[index] = [earliest[index], floor[index + 1]].compactMap { $0 }.min()
    }
    var pending = RowHeap()
    var totals = Audit.Totals(countingWorkouts: false)
    // Each workout's totals, whole in its slice's audit, with the date of its first row
    // counted: the order of the whole audit's.
    var workouts: [(first: Date, totals: AuditTotals)] = []
    var read = 0
    func handOn(_ row: AuditRow) throws {
      totals.add(row)
      try body(row)
    }
    do {
      try readAgain()
    } catch is ScopeTooNarrow {
      throw StreamedHistoryChanged(location: nil)
    }
    func readAgain() throws {
      try journal.forEachSlice { state, events, _ in
        let audit = Audit(state: state, history: events, filter: filter)
        guard read < earliest.count,
          audit.rows.first.map({ row in earliest[read].map { row.date >= $0 } ?? false }) ?? true
        else { throw StreamedHistoryChanged(location: nil) }
        read += 1
        for workout in audit.workoutTotals {
          let first = audit.rows.first { $0.workoutID == workout.key && $0.provenance != .reverted }
          workouts.append((first?.date ?? .distantPast, workout))
        }
        for row in audit.rows { pending.insert(row) }
        while let first = pending.first, floor[read].map({ first.date < $0 }) ?? true {
          try handOn(pending.removeFirst())
        }
      }
    }
    guard read == earliest.count else { throw StreamedHistoryChanged(location: nil) }
    while !pending.isEmpty { try handOn(pending.removeFirst()) }
    workouts.sort { ($0.first, $0.totals.key) < ($1.first, $1.totals.key) }
    return (workouts.map(\.totals), totals.exercises)
  }
}

/// Rows waiting to be handed on, the first by ``AuditRow/precedes(_:_:)`` on top: a binary
/// heap.
private struct RowHeap {
  private var rows: [AuditRow] = []

  var isEmpty: Bool { rows.isEmpty }
  var first: AuditRow? { rows.first }

  mutating func insert(_ row: AuditRow) {
    rows.append(row)
    var child = rows.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard AuditRow.precedes(rows[child], rows[parent]) else { break }
      rows.swapAt(child, parent)
      child = parent
    }
  }

  /// Takes the first row out; the heap must not be empty.
  mutating func removeFirst() -> AuditRow {
    rows.swapAt(0, rows.count - 1)
    let first = rows.removeLast()
    var parent = 0
    while true {
      var least = parent
      for child in [2 * parent + 1, 2 * parent + 2]
      where child < rows.count && AuditRow.precedes(rows[child], rows[least]) {
        least = child
      }
      guard least != parent else { return first }
      rows.swapAt(parent, least)
      parent = least
    }
  }
}
