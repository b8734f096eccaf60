import Foundation
import JournalCore

extension Journal {
  /// The events whose id starts with `prefix` (uppercase: the text of a stored id or of one
  /// of its parts), in merge order: what a point of history named by an id prefix
  /// (`--from`, `--to`, `--as-of`, `rewind --to`) is looked up in.
  ///
  /// A journal opened with a scope (``open(store:scope:newID:readOnly:)``) finds them in its
  /// saved state's id index, whatever its scope holds; any other journal in its history.
  ///
  /// - Throws: ``ScopeTooNarrow`` when the saved state is found damaged: ask a journal opened
  ///   with ``StateScope/all``.
  package func events(withIDPrefix prefix: String) throws -> [FoldEvent] {
    guard let scoped = store as? ScopedEventStore else {
      return history.filter { $0.eventID.textHasPrefix(prefix) }
    }
    let stored = String(prefix.prefix { $0 != "#" })
    return try Self.fromState(scoped) {
      try $0.events(withIDPrefix: stored).filter { $0.eventID.textHasPrefix(prefix) }
    }
  }

  /// What `read` answers from a scoped journal's saved state; a damaged file of the state
  /// makes the next command read it again, and this one ask the whole history.
  static func fromState<T>(
    _ scoped: ScopedEventStore,
    _ read: (SavedState) throws -> T
  ) throws -> T {
    do {
      return try read(scoped.state)
    } catch is SavedState.Untrusted {
      scoped.state.distrust()
      throw ScopeTooNarrow()
    }
  }

  /// Where history stops at `point`, as ``Replayer/prefix(_:upTo:)`` stops it, told for any
  /// part of the history in merge order.
  struct Cut {
    private enum Kind {
      case everything
      case time(Int64)
      case event(EventID, FoldEvent.MergeKey)
    }
    private let kind: Kind

    /// The cut at `point` in this journal's history; for an event the history does not hold,
    /// none (the whole history, as ``Replayer/prefix(_:upTo:)`` reads it).
    init(_ point: Replayer.Point?, in journal: Journal) throws {
      switch point {
      case nil: kind = .everything
      case .time(let date): kind = .time(date.milliseconds)
      case .event(let id):
        let named = EventID(id)
        let found = try journal.events(withIDPrefix: named.stored.description).first {
          $0.eventID == named
        }
        kind = found.map { .event(named, $0.mergeKey) } ?? .everything
      }
    }

    /// Whether the point names an event of the history.
    var namesAnEvent: Bool {
      if case .event = kind { true } else { false }
    }

    /// Whether an event with merge key `key` lies after the cut, beyond the point's own event.
    ///
    /// The parts of the point's stored event share its key: ``count(in:)`` tells those after
    /// the named part from the others.
    func isAfter(_ key: FoldEvent.MergeKey) -> Bool {
      switch kind {
      case .everything: false
      case .time(let limit): key.milliseconds > limit
      case .event(_, let point): key > point
      }
    }

    /// Whether an event with merge key `key` may lie after the cut: it does, or it is a part
    /// of the point's stored event.
    func mayLieAfter(_ key: FoldEvent.MergeKey) -> Bool {
      if case .event(_, let point) = kind { return key >= point }
      return isAfter(key)
    }

    /// The earliest record time (milliseconds) of an event that may lie after the cut.
    ///
    /// Every event after the cut was recorded then or later. Nil when none lies after it.
    var earliestAfter: Int64? {
      switch kind {
      case .everything: nil
      case .time(let limit): limit
      case .event(_, let point): point.milliseconds
      }
    }

    /// Whether `now`, the latest record time in effect at the cut among some of the events up
    /// to it, is the fold's `now` at the cut whatever the other events are: a time point moves
    /// any `now` on to itself, and no event up to an event point was recorded after it.
    func settles(now: Date?) -> Bool {
      switch kind {
      case .everything: false
      case .time: now != nil
      case .event(_, let point): now == Date(milliseconds: point.milliseconds)
      }
    }

    /// How many of `events` (part of the history, in merge order) lie before the cut.
    func count(in events: [FoldEvent]) -> Int {
      let end = events.firstIndex { isAfter($0.mergeKey) } ?? events.endIndex
      if case .event(let named, _) = kind,
        let at = events[..<end].firstIndex(where: { $0.eventID == named })
      {
        return at + 1
      }
      return end
    }
  }
}
