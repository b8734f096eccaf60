import Foundation
import JournalCore

extension Journal {
  /// Hands on the history up to `point` as folded slices, for reads over the whole history
  /// that hold one slice at a time: `body` gets each slice's state and its events (a revert
  /// that concerns several slices is in each).
  ///
  /// A journal opened with a scope (``open(store:scope:newID:readOnly:)``) hands on its saved
  /// state's streams: the splits' first, then each workout's alone, by start, then the
  /// reverts that name no event held. A slice's fold equals the whole fold restricted to its
  /// streams, with the whole history's `now`. Any other journal hands on its whole history
  /// as one slice.
  ///
  /// - Throws: ``ScopeTooNarrow`` when a scoped journal cannot answer (a point in history,
  ///   or a damaged state): start again on a journal opened with ``StateScope/all``, with
  ///   what `body` gathered dropped. What `body` throws.
  package func forEachSlice(
    upTo point: Replayer.Point? = nil,
    _ body: (_ state: JournalState, _ events: [FoldEvent]) throws -> Void
  ) throws {
    guard let scoped = store as? ScopedEventStore else {
      let events = Array(Replayer.prefix(history, upTo: point))
      try body(state(upTo: point), events)
      return
    }
    guard point == nil else { throw ScopeTooNarrow() }
    let now = wholeHistoryNow
    do {
      try scoped.state.forEachSlice { events in
        var state = Replayer.fold(events)
        if let now, state.now.map({ now > $0 }) ?? true { state.now = now }
        try body(state, events)
      }
    } catch is SavedState.Untrusted {
      scoped.state.distrust()
      throw ScopeTooNarrow()
    }
  }
}

extension Journal {
  /// Hands on every event in effect, in merge order: the history's events less those that
  /// reverts in effect cancel, as `export --format ndjson` prints them.
  ///
  /// A journal opened with a scope (``open(store:scope:newID:readOnly:)``) reads its saved
  /// state's files, its memory holding the streams the merge has reached and not the history
  /// (``SavedState/forEachEventInEffect(_:)``); any other journal hands on its history.
  ///
  /// - Throws: ``ScopeTooNarrow`` when a scoped journal cannot answer (a damaged state): the
  ///   events handed on so far are the first ones in merge order; the rest is read elsewhere.
  ///   What `body` throws.
  package func forEachEventInEffect(_ body: (FoldEvent) throws -> Void) throws {
    guard let scoped = store as? ScopedEventStore else {
      let cancelled = Replayer.cancelledEvents(in: history)
      for event in history where !cancelled.contains(event.eventID) { try body(event) }
      return
    }
    do {
      try scoped.state.forEachEventInEffect(body)
    } catch is SavedState.Untrusted {
      scoped.state.distrust()
      throw ScopeTooNarrow()
    }
  }
}

extension Journal {
  /// The reads `journal report` shows (``ReportReads``) of the history up to `point`, for
  /// sets done at or after `since` and before `until`, with the newest workouts read.
  ///
  /// A journal opened with a scope answers the whole history from its saved state's report
  /// index (``SavedState/reportReads()``), and a range slice by slice; any other journal
  /// reads its whole history as one slice.
  ///
  /// - Throws: ``ScopeTooNarrow`` when a scoped journal cannot answer (a point in history, or
  ///   a damaged state): start again on a journal opened with ``StateScope/all``.
  package func reportReads(
    upTo point: Replayer.Point? = nil,
    since: Date?,
    until: Date?
  ) throws -> ReportReads {
    guard let scoped = store as? ScopedEventStore else {
      let events = Array(Replayer.prefix(history, upTo: point))
      let state = state(upTo: point)
      var reads = ReportReads(since: since, until: until)
      reads.add(state: state, events: events)
      reads.findRecent { _ in (state, events) }
      return reads
    }
    guard point == nil else { throw ScopeTooNarrow() }
    do {
      var reads = ReportReads(since: since, until: until)
      if since == nil, until == nil {
        reads = try scoped.state.reportReads()
      } else {
        try scoped.state.forEachSlice { events in
          reads.add(state: Replayer.fold(events), events: events)
        }
      }
      try reads.findRecent { id in
        let events = try scoped.state.slice(["workout:\(id)"])
        return (Replayer.fold(events), events)
      }
      return reads
    } catch is SavedState.Untrusted {
      scoped.state.distrust()
      throw ScopeTooNarrow()
    }
  }
}
