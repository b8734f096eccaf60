import Foundation

/// What changed the record after the fact: corrections, undos, redos, rewinds, resets, and
/// sets filled in from the plan, each with its time, device and the workout it changed.
///
/// The story behind the numbers, which only an event log can tell. Corrections, resets and
/// reverts are the history's own events (a reverted correction is listed, with the revert
/// that cancelled it); sets filled in from the plan are the ``Audit``'s rows of that
/// provenance, one entry per event that filled them. Sentences are
/// `WorkoutHistory`'s, read against the state the audit was made from.
public enum Revisions {
  /// One change.
  public struct Entry: Codable, Sendable, Hashable {
    /// What kind of change.
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
      /// `set.adjusted`: a recorded set corrected.
      case correction
      /// `events.reverted` by undo.
      case undo
      /// `events.reverted` by redo (an undo undone).
      case redo
      /// `events.reverted` by rewind, or a revert of another reason.
      case rewind
      /// `log.reset`: a log's sets cleared.
      case reset
      /// Sets filled in from the plan when their log was completed.
      case filledFromPlan
    }

    public var kind: Kind
    /// When the change was made.
    public var at: Date
    public var device: String
    public var eventID: String
    /// The workout it changed (for a revert, the workout of the first event it names), if a
    /// workout.
    public var workoutID: String?
    /// The time zone of that workout (UTC for a change of splits): ``at`` reads in it.
    public var timeZone: String
    /// A sentence for people: `Bench Press set 2 adjusted: 5 reps @ 100`.
    public var summary: String
    /// The revert in effect that cancelled this change.
    public var revertedBy: String?
  }

  /// The changes in `history` (the prefix `state` was folded from) made at or after `since`
  /// and before `until`, oldest first; `rows` are the audit of `state`, for the sets filled
  /// in from the plan.
  ///
  /// - Complexity: O(n) in the history, plus its reverts' cancellation walk.
  package static func entries(
    history: [FoldEvent],
    state: JournalState,
    rows: [AuditRow],
    since: Date? = nil,
    until: Date? = nil
  ) -> [Entry] {
    ranked(history: history, state: state, rows: rows, since: since, until: until).map(\.entry)
  }

  /// ``entries(history:state:rows:since:until:)``, each revert with the rank of the event
  /// that decided its workout: its place among the events the revert names, through the
  /// reverts it names, first first.
  ///
  /// A revert is held by the stream of every event it names (docs/OnDiskFormat.md, "The
  /// saved state"). Read stream by stream, each stream finds the revert's workout among the
  /// events it holds; the lowest rank over them is the one the whole history finds.
  package static func ranked(
    history: [FoldEvent],
    state: JournalState,
    rows: [AuditRow],
    since: Date? = nil,
    until: Date? = nil
  ) -> [(entry: Entry, rank: Int?)] {
    func admits(_ date: Date) -> Bool {
      if let since, date < since { return false }
      if let until, date >= until { return false }
      return true
    }
    let cancelled = Replayer.cancelledEvents(in: history)
    // One walk: the log names every plan gave, the reverts, and the changes in the range.
    var names: [String: String] = [:]
    var reverts: [String: [String]] = [:]
    var changes: [Int] = []
    for index in history.indices {
      switch history[index].event {
      case .workoutStarted(let started):
        for plan in started.logs { names[plan.logID] = plan.plan.name }
      case .logAdded(let plan): names[plan.logID] = plan.plan.name
      case .eventsReverted(let revert):
        reverts[history[index].id] = revert.eventIDs
        if admits(history[index].at) { changes.append(index) }
      case .setAdjusted, .logReset:
        if admits(history[index].at) { changes.append(index) }
      default: continue
      }
    }
    // The streams of the events reverts name (stored ids, compared as values).
    var streams: [String: String] = [:]
    if !reverts.isEmpty {
      let named = Set(reverts.values.joined().map(EventID.init))
      for e in history where named.contains(e.eventID.stored) { streams[e.storedID] = e.stream }
    }
    /// The stream a revert changes: that of the first event it names, through the reverts it
    /// names (a redo names an undo); `rank` counts the events passed on the way.
    func stream(reverting ids: [String], rank: inout Int, depth: Int = 0) -> String? {
      for id in ids {
        if let inner = reverts[id], depth < 16 {
          if let found = stream(reverting: inner, rank: &rank, depth: depth + 1) { return found }
        } else if let found = streams[id] {
          return found
        } else {
          rank += 1
        }
      }
      return nil
    }
    func zone(_ workoutID: String?) -> String {
      workoutID.flatMap { state.workouts[$0]?.timeZone.identifier } ?? "UTC"
    }
    var entries: [(entry: Entry, rank: Int?)] = []
    for index in changes {
      let e = history[index]
      let kind: Entry.Kind
      var rank: Int?
      var workoutID: String? = e.stream.hasPrefix("workout:") ? e.streamID : nil
      let workout = workoutID.flatMap { state.workouts[$0] }
      var summary: String
      switch e.event {
      case .setAdjusted:
        kind = .correction
        summary = WorkoutHistory.summary(e, names: names, workout: workout)
      case .logReset:
        kind = .reset
        summary = WorkoutHistory.summary(e, names: names, workout: workout)
      case .eventsReverted(let revert):
        kind =
          switch revert.reason {
          case "undo": .undo
          case "redo": .redo
          default: .rewind
          }
        var passed = 0
        let changed = stream(reverting: revert.eventIDs, rank: &passed)
        rank = changed == nil ? nil : passed
        workoutID = changed.flatMap { $0.hasPrefix("workout:") ? String($0.dropFirst(8)) : nil }
        let count = revert.eventIDs.count
        summary =
          "\(revert.reason) of \(count) event\(count == 1 ? "" : "s")"
          + (changed.map { $0.hasPrefix("workout:") ? "" : " of the splits" } ?? "")
      default: continue
      }
      entries.append(
        (
          Entry(
            kind: kind,
            at: e.at,
            device: e.device,
            eventID: e.id,
            workoutID: workoutID,
            timeZone: zone(workoutID),
            summary: summary,
            revertedBy: cancelled[e.storedID]
          ),
          rank
        )
      )
    }
    // Sets filled in from the plan: one entry per event that filled them.
    var filled: [String: (row: AuditRow, sets: Int)] = [:]
    var order: [String] = []
    for row in rows where row.provenance == .filledFromPlan && admits(row.date) {
      let key = "\(row.eventID)/\(row.logID)"
      if filled[key] == nil { order.append(key) }
      filled[key, default: (row, 0)].sets += 1
    }
    for key in order {
      guard let (row, sets) = filled[key] else { continue }
      entries.append(
        (
          Entry(
            kind: .filledFromPlan,
            at: row.date,
            device: row.device,
            eventID: row.eventID,
            workoutID: row.workoutID,
            timeZone: row.timeZone,
            summary: "\(row.exercise): \(sets) set\(sets == 1 ? "" : "s") filled in from the plan",
            revertedBy: nil
          ),
          nil
        )
      )
    }
    return entries.sorted { Entry.precedes($0.entry, $1.entry) }
  }
}

extension Revisions.Entry {
  /// Oldest first: by time, then event id (one event can fill several logs' sets).
  static func precedes(_ a: Self, _ b: Self) -> Bool {
    (a.at, a.eventID, a.kind.rawValue, a.summary) < (b.at, b.eventID, b.kind.rawValue, b.summary)
  }
}
