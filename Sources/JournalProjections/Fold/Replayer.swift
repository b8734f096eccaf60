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
  public static func prefix(_ history: [FoldEvent], upTo point: Point?) -> ArraySlice<FoldEvent> {
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

  /// The ids of events cancelled by a revert that is itself in effect.
  ///
  /// A revert only names earlier events, so walking from the newest event to
  /// the oldest decides each revert before the events it names: reverting a
  /// revert (redo) brings its events back.
  ///
  /// - Returns: the stored id of every cancelled event, with the id of the revert that
  ///   cancelled it.
  public static func cancelledEvents(
    in history: some BidirectionalCollection<FoldEvent>
  )
    -> [String: String]
  {
    // Only reverts change the walk: other events are looked up by the fold. They are
    // found in place, as copying every event out of the history would cost more than the
    // walk.
    let reverts =
      history.withContiguousStorageIfAvailable { Self.reverts(in: $0, at: $0.indices) }
      ?? Array(history).withUnsafeBufferPointer { Self.reverts(in: $0, at: $0.indices) }
    return walk(reverts)
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
    guard case .eventsReverted(let named) = revert.event else { return [] }
    let reverts = history.withUnsafeBufferPointer { Self.reverts(in: $0, at: $0.indices) }
    let before = walk(reverts)
    let after = walk(reverts + [(revert.storedID, named.eventIDs, revert.id)])
    // An event cancelled before and after, whichever revert cancels it, folds alike.
    var changed = Set(before.keys.filter { after[$0] == nil }.map(EventID.init))
    changed.formUnion(after.keys.filter { before[$0] == nil }.map(EventID.init))
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

  /// The reverts among the events of `events` at `indices`, in order, as the walk reads them.
  private static func reverts(
    in events: UnsafeBufferPointer<FoldEvent>,
    at indices: some Sequence<Int>
  ) -> [(String, [String], String)] {
    var reverts: [(String, [String], String)] = []
    for index in indices {
      guard case .eventsReverted(let revert) = events[index].event else { continue }
      reverts.append((events[index].storedID, revert.eventIDs, events[index].id))
    }
    return reverts
  }

  /// The walk of both: `reverts` are (the revert's stored id, the stored ids it names, what
  /// to record against each event it cancels), oldest first.
  private static func walk<ID: Hashable, Named: Collection<ID>, By>(
    _ reverts: some BidirectionalCollection<(ID, Named, By)>
  ) -> [ID: By] {
    var cancelledBy: [ID: By] = [:]
    // Room for every id named, so that the table is not rehashed (every key hashed again) as
    // it grows.
    cancelledBy.reserveCapacity(reverts.reduce(0) { $0 + $1.1.count })
    for (revert, named, by) in reverts.reversed() where cancelledBy[revert] == nil {
      for id in named where cancelledBy[id] == nil { cancelledBy[id] = by }
    }
    return cancelledBy
  }

  /// The stored ids of the events cancelled by a revert in effect, decided from a history's
  /// reverts alone: ``cancelledEvents(in:)`` for a history that is not held
  /// (``StreamedHistory``).
  ///
  /// Kept small: 16 bytes per cancelled event, in order, searched by halves. A table would
  /// take two to four times as much (its room for growth), for every event undone, for as
  /// long as the fold lasts.
  public struct CancelledEvents: Sendable, Equatable {
    /// The stored ids of the cancelled events, in ascending order.
    fileprivate let ids: [ULID]

    /// Walks `reverts`, the history's reverts in merge order.
    public init(reverts: Reverts) {
      var ids = Array(
        Replayer.walk(reverts.indices.lazy.map { (reverts.ids[$0], reverts.named($0), ()) }).keys
      )
      ids.sort()
      self.ids = ids
    }

    /// How many events are cancelled.
    public var count: Int { ids.count }

    /// Whether the event stored as `storedID` is cancelled.
    public func contains(_ storedID: String) -> Bool { contains(EventID(storedID)) }

    /// Whether the stored event `id` came from (``EventID/stored``) is cancelled.
    public func contains(_ id: EventID) -> Bool {
      guard !ids.isEmpty, let ulid = id.stored.ulid else { return false }
      var (low, high) = (0, ids.count)
      while low < high {
        let middle = (low + high) / 2
        if ids[middle] < ulid { low = middle + 1 } else { high = middle }
      }
      return low < ids.count && ids[low] == ulid
    }
  }

  /// A history's reverts as the walk reads them, held flat: each revert's stored id and the
  /// stored ids it names, in two arrays for all of them rather than an array for each (a
  /// history with much undo and redo has a revert every three events, and a read that does
  /// not hold the history holds its reverts until the walk).
  public struct Reverts: Sendable, Equatable {
    /// Each revert's stored id, in merge order.
    fileprivate var ids: [ULID] = []
    /// The ids every revert names, one revert's after another's.
    private var allNamed: [ULID] = []
    /// Where each revert's ids end in `allNamed`.
    private var ends: [Int] = []

    public init() {}

    /// The positions of the reverts, oldest first.
    public var indices: Range<Int> { ids.indices }

    /// The stored ids the revert at `index` names.
    func named(_ index: Int) -> ArraySlice<ULID> {
      allNamed[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Adds `event` when it is a revert, the next in merge order; returns whether it was one.
    ///
    /// Stored ids are ULIDs in their canonical spelling in a journal's files: a named id
    /// spelled otherwise names no stored event, and is left out.
    @discardableResult
    public mutating func append(_ event: FoldEvent) -> Bool {
      // Only the canonical spelling parses.
      guard case .eventsReverted(let revert) = event.event, let id = event.eventID.stored.ulid
      else { return false }
      ids.append(id)
      allNamed.append(contentsOf: revert.eventIDs.lazy.compactMap(ULID.init))
      ends.append(allNamed.count)
      return true
    }

    /// Adds the revert `event` is, when its stored id and every id it names are ULIDs in their
    /// canonical spelling; returns false, adding nothing, when it is not such a revert.
    ///
    /// Cancelling by ULID then cancels what cancelling by text does.
    mutating func append(exactly event: UnsafePointer<FoldEvent>) -> Bool {
      guard case .eventsReverted(let revert) = event.pointee.event,
        let id = event.pointee.eventID.stored.ulid
      else { return false }
      let start = allNamed.count
      for named in revert.eventIDs {
        guard let named = ULID(named) else {
          allNamed.removeSubrange(start...)
          return false
        }
        allNamed.append(named)
      }
      ids.append(id)
      ends.append(allNamed.count)
      return true
    }

    /// Adds `other`'s reverts, which come after these in merge order.
    mutating func append(contentsOf other: Reverts) {
      let base = allNamed.count
      ids += other.ids
      allNamed += other.allNamed
      ends += other.ends.lazy.map { $0 + base }
    }

    /// Removes the reverts at the indices `remove` accepts.
    public mutating func removeAll(where remove: (Int) -> Bool) {
      var kept = Reverts()
      for index in indices where !remove(index) {
        kept.ids.append(ids[index])
        kept.allNamed += named(index)
        kept.ends.append(kept.allNamed.count)
      }
      self = kept
    }
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
  /// - Complexity: O(n) in the number of events. A history of ``partsMinimum`` events or
  ///   more, folded from an empty state with no observer, is folded in parts on every core
  ///   (`Replayer+Parts.swift`): the same state, in less time.
  public static func fold(
    _ history: [FoldEvent],
    upTo point: Point? = nil,
    startingFrom initial: JournalState = JournalState(),
    observe: ((FoldEvent, _ before: JournalState, _ after: JournalState) -> Void)? = nil
  ) -> JournalState {
    let events = prefix(history, upTo: point)
    // Read in place: iterating the slice would copy every event.
    var state = events.withUnsafeBufferPointer { events in
      if observe == nil, initial.isEmpty, events.count >= Self.partsMinimum, Self.parts > 1 {
        return foldInParts(events, parts: Self.parts)
      }
      var fold = Fold(reverts: events, startingFrom: initial)
      // Mutable only to be borrowed in place (`Fold.apply(inPlace:)`): nothing writes to it.
      let inPlace = UnsafeMutableBufferPointer(mutating: events)
      for index in events.indices {
        if let observe {
          let before = fold.state
          if fold.apply(inPlace: &inPlace[index]) { observe(events[index], before, fold.state) }
        } else {
          fold.apply(inPlace: &inPlace[index])
        }
      }
      return fold.state
    }
    if case .time(let date) = point, let now = state.now, date > now { state.now = date }
    return state
  }

  /// A fold fed one event at a time, in merge order: for a history read as it is folded
  /// rather than held (``StreamedHistory``), and the loop of ``fold(_:upTo:startingFrom:observe:)``.
  ///
  /// ```swift
  /// var fold = Replayer.Fold(cancelled: history.cancelled)
  /// try history.forEachEvent { fold.apply($0) }
  /// let state = fold.state
  /// ```
  public struct Fold: Sendable {
    /// The state folded so far.
    public internal(set) var state: JournalState
    private let cancelled: Cancelled

    private enum Cancelled: Sendable {
      case byID([String: String])
      case byULID(CancelledEvents)
    }

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
      self.init(cancelled: Replayer.cancelledEvents(in: reverts), startingFrom: initial)
    }

    /// Starts a fold, from an empty state, of `events` whose reverts are at `indices`.
    init(reverts events: UnsafeBufferPointer<FoldEvent>, at indices: [Int]) {
      self.init(cancelled: Replayer.walk(Replayer.reverts(in: events, at: indices)))
    }

    private init(cancelled ids: [String: String], startingFrom initial: JournalState = .init()) {
      state = initial
      cancelled = .byID(ids)
    }

    /// Starts a fold of a history whose cancelled events are `cancelled`.
    public init(cancelled: CancelledEvents, startingFrom initial: JournalState = JournalState()) {
      state = initial
      self.cancelled = .byULID(cancelled)
    }

    /// Folds `event` unless a revert in effect cancelled it; returns whether it was folded.
    @discardableResult
    public mutating func apply(_ event: FoldEvent) -> Bool { fold(event) }

    /// Folds `event` as ``apply(_:)`` does, reading it where it lies; it is not changed.
    ///
    /// An event read out of an array (or through a pointer) and passed to a function that may
    /// write memory is copied first, in case the function changes the array: ten retains and
    /// as many releases an event. Passed `inout`, it is borrowed where it lies instead, as no
    /// other access can reach it meanwhile.
    @discardableResult
    mutating func apply(inPlace event: inout FoldEvent) -> Bool { fold(event) }

    /// The one body of ``apply(_:)`` and ``apply(inPlace:)``.
    @inline(__always)
    private mutating func fold(_ event: FoldEvent) -> Bool {
      switch cancelled {
      case .byID(let ids):
        if !ids.isEmpty, ids[event.storedID] != nil { return false }
      case .byULID(let ids):
        if ids.contains(event.eventID) { return false }
      }
      state.apply(event)
      return true
    }
  }
}
