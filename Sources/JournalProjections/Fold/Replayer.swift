import Foundation

/// Folds a history into a ``JournalState``: the one place that decides which
/// events count (reverts), where history stops (as of), and the fold order.
///
/// `history` must already be in merge order, deduplicated and upcast.
public enum Replayer {
  /// A point in history to stop at: an event (inclusive) or a time.
  public enum Point: Sendable, Hashable {
    /// Up to and including the event with this id.
    case event(String)
    /// Up to and including every event recorded at or before this time.
    case time(Date)
  }

  /// The events up to `point`.
  public static func prefix(_ history: [FoldEvent], upTo point: Point?) -> ArraySlice<FoldEvent> {
    switch point {
    case nil:
      return history[...]
    case .event(let id):
      guard let index = history.firstIndex(where: { $0.id == id }) else { return history[...] }
      return history[...index]
    case .time(let date):
      let limit = date.milliseconds
      let end = history.firstIndex(where: { $0.milliseconds > limit }) ?? history.endIndex
      return history[..<end]
    }
  }

  /// The ids of events cancelled by a revert that is itself in effect.
  ///
  /// A revert only names earlier events, so walking from the newest event to
  /// the oldest decides each revert before the events it names: reverting a
  /// revert (redo) brings its events back.
  public static func cancelledEvents(
    in history: some BidirectionalCollection<FoldEvent>
  )
    -> [String: String]
  {
    var cancelledBy: [String: String] = [:]
    for e in history.reversed() {
      // Only a revert's own cancellation changes the walk: other events are looked up by
      // the fold.
      guard case .eventsReverted(let revert) = e.event, cancelledBy[e.storedID] == nil else {
        continue
      }
      for id in revert.eventIDs where cancelledBy[id] == nil { cancelledBy[id] = e.id }
    }
    return cancelledBy
  }

  /// Folds `history` (up to `point`) into a state.
  ///
  /// - Parameters:
  ///   - history: the events in merge order.
  ///   - point: where to stop; nil folds everything.
  ///   - initial: the state to fold onto (a checkpoint), empty by default.
  ///   - observe: called around each folded event with the state before and
  ///     after it; `history`, `blame` and `diff` watch the fold here instead of
  ///     repeating its rules.
  /// - Returns: the folded state.
  /// - Complexity: O(n) in the number of events.
  public static func fold(
    _ history: [FoldEvent],
    upTo point: Point? = nil,
    startingFrom initial: JournalState = JournalState(),
    observe: ((FoldEvent, _ before: JournalState, _ after: JournalState) -> Void)? = nil
  ) -> JournalState {
    let events = prefix(history, upTo: point)
    var fold = Fold(reverts: events, startingFrom: initial)
    // Read in place: iterating the slice would copy every event.
    events.withUnsafeBufferPointer { events in
      for index in events.indices {
        if let observe {
          let before = fold.state
          if fold.apply(events[index]) { observe(events[index], before, fold.state) }
        } else {
          fold.apply(events[index])
        }
      }
    }
    var state = fold.state
    if case .time(let date) = point, let now = state.now, date > now { state.now = date }
    return state
  }

  /// A fold fed one event at a time, in merge order: for a history read as it is folded
  /// rather than held (``StreamedHistory``), and the loop of ``fold(_:upTo:startingFrom:observe:)``.
  ///
  /// ```swift
  /// var fold = Replayer.Fold(reverts: history.reverts)
  /// try history.forEachEvent { fold.apply($0) }
  /// let state = fold.state
  /// ```
  public struct Fold {
    /// The state folded so far.
    public private(set) var state: JournalState
    private let cancelled: [String: String]

    /// Starts a fold of a history whose reverts, in merge order, are `reverts`.
    ///
    /// - Parameters:
    ///   - reverts: the history's events, or only its reverts: they alone decide which
    ///     events count (``cancelledEvents(in:)``).
    ///   - initial: the state to fold onto, empty by default.
    public init(
      reverts: some BidirectionalCollection<FoldEvent>,
      startingFrom initial: JournalState = JournalState()
    ) {
      state = initial
      cancelled = Replayer.cancelledEvents(in: reverts)
    }

    /// Folds `event` unless a revert in effect cancelled it; returns whether it was folded.
    @discardableResult
    public mutating func apply(_ event: FoldEvent) -> Bool {
      if !cancelled.isEmpty, cancelled[event.storedID] != nil { return false }
      state.apply(event)
      return true
    }
  }
}
