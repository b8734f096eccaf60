import Foundation
import JournalCore

/// A journal's files seen through its saved state: reading gives the events of one scope,
/// appending writes to the files, then folds the new events into the saved state.
final class ScopedEventStore: EventStore, @unchecked Sendable {
  let base: FileEventStore
  let state: SavedState
  let scope: StateScope
  private let lock = NSLock()

  init(base: FileEventStore, state: SavedState, scope: StateScope) {
    self.base = base
    self.state = state
    self.scope = scope
  }

  func readHistory() throws -> (events: [StoredEvent], notices: [String]) {
    try lock.withLock { (try state.events(for: scope), state.notices) }
  }

  /// Appends after the latest event of the whole journal, not only of the scope, so that
  /// the hybrid clock never goes back.
  func append(
    _ events: [EventToAppend],
    device: String,
    notBefore: (Int64, UInt32)?
  ) throws -> [StoredEvent] {
    try lock.withLock {
      var floor = notBefore
      if let frontier = state.head.frontier {
        let last = (frontier.milliseconds, frontier.counter)
        if floor.map({ $0 < last }) ?? true { floor = last }
      }
      let stored = try base.append(events, device: device, notBefore: floor)
      state.appended(stored, device: device)
      return stored
    }
  }
}

/// A read whose journal was opened with a scope that does not hold what it needs: open the
/// journal with ``StateScope/all`` and ask again.
public struct ScopeTooNarrow: Error {}

extension Journal {
  /// Opens the journal in `store` for a command that needs `scope`.
  ///
  /// It opens from the saved state kept beside the journal (`SavedState`), so that only the
  /// streams the command touches are read and folded. ``StateScope/all`` reads the whole history, as does a journal
  /// whose saved state cannot be written.
  ///
  /// - Parameters:
  ///   - store: the journal folder's store.
  ///   - scope: the streams the command reads or writes.
  ///   - newID: makes fresh ULIDs for events and new ids.
  ///   - readOnly: write nothing, not even the saved state: when it is missing or behind the
  ///     files, the whole history is read instead (for reads that must never write, such as
  ///     shell completion).
  /// - Returns: a journal whose `history` holds the events of `scope`.
  /// - Throws: the store's errors.
  public static func open(
    store: FileEventStore,
    scope: StateScope,
    newID: @escaping () -> String,
    readOnly: Bool = false
  ) throws -> Journal {
    guard !scope.everything else { return try Journal(store: store, newID: newID) }
    let state: SavedState
    do {
      state = try SavedState.open(journal: store.log.url, store: store, readOnly: readOnly)
    } catch is SavedState.Unavailable {
      return try Journal(store: store, newID: newID)
    }
    let journal = try Journal(
      store: ScopedEventStore(base: store, state: state, scope: scope),
      newID: newID
    )
    if let device = scope.recentActionsOf { journal.undoHorizon = state.recentHorizon(of: device) }
    journal.wholeHistoryNow = state.head.now.map(Date.init(milliseconds:))
    return journal
  }
}
