import Foundation
import JournalCore

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
  package static func prefix(_ history: [FoldEvent], upTo point: Point?) -> ArraySlice<FoldEvent> {
    switch point {
    case nil:
      return history[...]
    case .event(let id):
      let id = EventID(id)
      guard let index = history.firstIndex(where: { $0.eventID == id }) else { return history[...] }
      return history[...index]
    case .time(let date):
      let limit = date.milliseconds
      let end = history.firstIndex(where: { $0.milliseconds > limit }) ?? history.endIndex
      return history[..<end]
    }
  }

  /// The events cancelled by a revert that is itself in effect, in `history` (or in its
  /// reverts alone).
  package static func cancelledEvents(
    in history: some Sequence<FoldEvent>
  ) -> CancelledEvents {
    CancelledEvents(reverts: history.compactMap(CancelledEvents.revert))
  }

  /// The anomalies the fold of `history` gains when `revert` is appended to it: what undo and
  /// redo check before they append one.
  ///
  /// Only the events whose cancellation `revert` changes fold differently, and the fold of a
  /// workout's events reads and changes that workout alone (``JournalEvent/foldTarget``). So
  /// only those workouts (by stream id, as the fold finds them) are folded, before and after,
  /// with every split event when one of them is a split event, and every revert so that the
  /// same events count: the anomalies of folding all of history twice, without folding all
  /// of it.
  static func anomaliesAdded(by revert: FoldEvent, to history: [FoldEvent]) -> [Anomaly] {
    guard let added = CancelledEvents.revert(revert) else { return [] }
    let reverts = history.compactMap(CancelledEvents.revert)
    let before = CancelledEvents(reverts: reverts)
    let after = CancelledEvents(reverts: reverts + [added])
    // An event cancelled before and after, whichever revert cancels it, folds alike.
    let changed = before.storedIDs.symmetricDifference(after.storedIDs)
    guard !changed.isEmpty else { return [] }
    var workouts: Set<String> = []
    var splits = false
    for index in history.indices where changed.contains(history[index].eventID.stored) {
      switch history[index].event.foldTarget {
      case .splits: splits = true
      case .workout: workouts.insert(history[index].streamID)
      case .nothing: break
      }
    }
    let events = history.filter { e in
      switch e.event.foldTarget {
      case .splits: splits
      case .workout: workouts.contains(e.streamID)
      case .nothing: true
      }
    }
    let anomalies = fold(events).anomalies
    return fold(events + [revert]).anomalies.filter { !anomalies.contains($0) }
  }

  /// The events a history's reverts in effect cancel, by stored id (``EventID/stored``), each
  /// with the id of the revert that cancelled it.
  ///
  /// A revert only names earlier events, so walking the reverts from the newest to the
  /// oldest decides each revert before the events it names: reverting a revert (redo) brings
  /// its events back.
  ///
  /// Kept small, as a full rebuild holds it while it folds: the cancelled ids sorted and
  /// searched by halves, each with the index of its revert, about 28 bytes an event undone.
  package struct CancelledEvents: Sendable, Equatable {
    /// The stored ids of the cancelled events, in ascending order (``EventID/sortsBefore(_:)``).
    private var ids: [EventID] = []
    /// For each of `ids`, the index in `reverts` of the revert that cancelled it.
    private var cancelledBy: [Int32] = []
    /// The reverts that cancel an event, in the order of the first id each cancels.
    private var reverts: [EventID] = []

    /// A revert as the walk reads it: its id and the stored ids it names.
    struct Revert: Sendable {
      var id: EventID
      var named: [EventID]
    }

    /// `event` as the walk reads it, when it is a revert.
    static func revert(_ event: FoldEvent) -> Revert? {
      guard case .eventsReverted(let revert) = event.event else { return nil }
      return Revert(id: event.eventID, named: revert.eventIDs.map(EventID.init))
    }

    /// Walks `reverts`, a history's reverts in merge order.
    init(reverts: some BidirectionalCollection<Revert>) {
      var revertOf: [EventID: EventID] = [:]
      for revert in reverts.reversed() where revertOf[revert.id.stored] == nil {
        for id in revert.named where revertOf[id] == nil { revertOf[id] = revert.id }
      }
      var revertIndex: [EventID: Int32] = [:]
      for (id, revert) in revertOf.sorted(by: { $0.key.sortsBefore($1.key) }) {
        ids.append(id)
        if let index = revertIndex[revert] {
          cancelledBy.append(index)
        } else {
          let index = Int32(self.reverts.count)
          revertIndex[revert] = index
          cancelledBy.append(index)
          self.reverts.append(revert)
        }
      }
    }

    /// How many events are cancelled.
    package var count: Int { ids.count }

    /// Whether no event is cancelled.
    package var isEmpty: Bool { ids.isEmpty }

    /// The stored ids of the cancelled events.
    var storedIDs: Set<EventID> { Set(ids) }

    /// Where `id` is in `ids`, or nil.
    private func index(of id: EventID) -> Int? {
      var (low, high) = (0, ids.count)
      while low < high {
        let middle = (low + high) / 2
        if ids[middle].sortsBefore(id) { low = middle + 1 } else { high = middle }
      }
      return low < ids.count && ids[low] == id ? low : nil
    }

    /// Whether the stored event `id` came from (``EventID/stored``) is cancelled.
    func contains(_ id: EventID) -> Bool {
      !ids.isEmpty && index(of: id.stored) != nil
    }

    /// The id of the revert that cancelled the event stored as `storedID`, or nil when it
    /// counts.
    package subscript(storedID: String) -> String? {
      guard !ids.isEmpty, let index = index(of: EventID(storedID)) else { return nil }
      return reverts[Int(cancelledBy[index])].description
    }
  }

  /// Folds `history` (up to `point`) into a state.
  ///
  /// - Parameters:
  ///   - history: the events in merge order.
  ///   - point: where to stop; nil folds everything.
  ///   - observe: called around each folded event with the state before and
  ///     after it; `history`, `blame` and `diff` watch the fold here instead of
  ///     repeating its rules.
  /// - Returns: the folded state.
  /// - Complexity: O(n) in the number of events. A history of ``partsMinimum`` events or
  ///   more, folded with no observer, is folded in parts on every core
  ///   (`Replayer+Parts.swift`): the same state, in less time.
  package static func fold(
    _ history: [FoldEvent],
    upTo point: Point? = nil,
    observe: ((FoldEvent, _ before: JournalState, _ after: JournalState) -> Void)? = nil
  ) -> JournalState {
    let events = prefix(history, upTo: point)
    var state: JournalState
    if observe == nil, events.count >= Self.partsMinimum, Self.parts > 1 {
      state = events.withUnsafeBufferPointer { foldInParts($0, parts: Self.parts) }
    } else {
      var fold = Fold(reverts: events)
      for event in events {
        if let observe {
          let before = fold.state
          if fold.apply(event) { observe(event, before, fold.state) }
        } else {
          fold.apply(event)
        }
      }
      state = fold.state
    }
    if case .time(let date) = point, let now = state.now, date > now { state.now = date }
    return state
  }

  /// A fold fed one event at a time, in merge order: for a history read as it is folded
  /// rather than held (``StreamedHistory``), and the loop of ``fold(_:upTo:observe:)``.
  ///
  /// ```swift
  /// var fold = Replayer.Fold(cancelled: history.cancelled)
  /// try history.forEachEvent { fold.apply($0) }
  /// let state = fold.state
  /// ```
  package struct Fold: Sendable {
    /// The state folded so far.
    package internal(set) var state: JournalState
    private let cancelled: CancelledEvents

    /// Starts a fold of a history whose reverts, in merge order, are `reverts`.
    ///
    /// - Parameter reverts: the history's events, or only its reverts: they alone decide
    ///   which events count (``cancelledEvents(in:)``).
    package init(reverts: some Sequence<FoldEvent>) {
      self.init(cancelled: Replayer.cancelledEvents(in: reverts))
    }

    /// Starts a fold of a history whose cancelled events are `cancelled`.
    package init(cancelled: CancelledEvents) {
      state = JournalState()
      self.cancelled = cancelled
    }

    /// Folds `event` unless a revert in effect cancelled it; returns whether it was folded.
    @discardableResult
    package mutating func apply(_ event: FoldEvent) -> Bool {
      if cancelled.contains(event.eventID) { return false }
      state.apply(event)
      return true
    }
  }
}
