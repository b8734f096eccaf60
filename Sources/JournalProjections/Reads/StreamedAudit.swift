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
  /// The date of the first row counted of each slice's workouts, once the rows were read
  /// (``forEachRow(of:filter:workoutTotals:_:)``): where their totals start.
  private var firstRowCounted: [Date?] = []

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
    try journal.forEachSlice { state, events in
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
  ///   - workoutTotals: sees each workout's totals, as ``Audit/workoutTotals`` gives them but
  ///     not in their order (``forEachWorkoutTotals(of:filter:_:)`` hands them on in order).
  ///   - body: gets each row.
  /// - Returns: the totals per exercise of the rows handed on, as ``Audit/exerciseTotals``.
  /// - Throws: what `body` throws; ``StreamedHistoryChanged`` when the slices are not those
  ///   surveyed, or the saved state turned out damaged: rows were handed on, so the read
  ///   cannot start again on the whole history as a first reading can (``ScopeTooNarrow``).
  package mutating func forEachRow(
    of journal: Journal,
    filter: AuditFilter,
    workoutTotals: (AuditTotals) -> Void = { _ in },
    _ body: (AuditRow) throws -> Void
  ) throws -> [AuditTotals] {
    var totals = Audit.Totals(countingWorkouts: false)
    var firstTotals: [Date?] = []
    try inOrder(
      of: journal,
      filter: filter,
      floors: earliest,
      items: { audit in
        firstTotals.append(Self.firstRows(of: audit).values.min())
        for workout in audit.workoutTotals { workoutTotals(workout) }
        return audit.rows
      },
      date: \.date,
      precedes: AuditRow.precedes,
      body: { row in
        totals.add(row)
        try body(row)
      }
    )
    firstRowCounted = firstTotals
    return totals.exercises
  }

  /// Reads every slice a third time and hands on each workout's totals in their order.
  ///
  /// Called after ``forEachRow(of:filter:workoutTotals:_:)``, it gives the order of
  /// ``Audit/workoutTotals``: by each workout's first row counted, as the rows were handed
  /// on. Memory holds the totals not yet handed on, not every workout's.
  ///
  /// - Parameters:
  ///   - journal: the journal read.
  ///   - filter: the filter the rows were read with.
  ///   - body: gets each workout's totals.
  /// - Throws: as ``forEachRow(of:filter:workoutTotals:_:)``.
  package func forEachWorkoutTotals(
    of journal: Journal,
    filter: AuditFilter,
    _ body: (AuditTotals) throws -> Void
  ) throws {
    try inOrder(
      of: journal,
      filter: filter,
      floors: firstRowCounted,
      items: { audit in
        let firsts = Self.firstRows(of: audit)
        return audit.workoutTotals.compactMap { totals in
          firsts[totals.key].map { (first: $0, totals: totals) }
        }
      },
      date: \.first,
      precedes: { ($0.first, $0.totals.key) < ($1.first, $1.totals.key) },
      body: { try body($0.totals) }
    )
  }

  /// The date of each workout's first row that its totals count (not reverted), by id.
  private static func firstRows(of audit: Audit) -> [String: Date] {
    var firsts: [String: Date] = [:]
    for row in audit.rows where row.provenance != .reverted && firsts[row.workoutID] == nil {
      firsts[row.workoutID] = row.date
    }
    return firsts
  }

  /// Reads every slice again and hands on the items `items` takes from each slice's audit in
  /// the order `precedes` gives, each as soon as no slice still to come holds an earlier one:
  /// no item of a slice has a `date` before its `floors` entry.
  private func inOrder<Item>(
    of journal: Journal,
    filter: AuditFilter,
    floors: [Date?],
    items: (Audit) -> [Item],
    date: (Item) -> Date,
    precedes: @escaping (Item, Item) -> Bool,
    body: (Item) throws -> Void
  ) throws {
    // The floor of the slices from each one on: an item before it can go.
    var rest = [Date?](repeating: nil, count: floors.count + 1)
    for index in floors.indices.reversed() {
      rest[index] = [floors[index], rest[index + 1]].compactMap { $0 }.min()
    }
    var pending = Heap(by: precedes)
    var read = 0
    do {
      try journal.forEachSlice { state, events in
        let taken = items(Audit(state: state, history: events, filter: filter))
        guard read < floors.count,
          taken.allSatisfy({ item in floors[read].map { date(item) >= $0 } ?? false })
        else { throw StreamedHistoryChanged(location: nil) }
        read += 1
        for item in taken { pending.insert(item) }
        while let first = pending.first, rest[read].map({ date(first) < $0 }) ?? true {
          try body(pending.removeFirst())
        }
      }
    } catch is ScopeTooNarrow {
      throw StreamedHistoryChanged(location: nil)
    }
    guard read == floors.count else { throw StreamedHistoryChanged(location: nil) }
    while !pending.isEmpty { try body(pending.removeFirst()) }
  }
}
