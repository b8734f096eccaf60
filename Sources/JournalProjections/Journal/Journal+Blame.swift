import Foundation

extension Journal {
  /// Which event last changed each field of the document at `path`, as ``Blame`` tells it.
  ///
  /// A journal opened with a scope (``open(store:scope:newID:readOnly:)``) answers from the
  /// streams it holds: a workout's document needs its workout's stream
  /// (``StateScope/workouts``), a split's the splits (``StateScope/splits-type.property``). The other streams
  /// change such a document only through the fold's `now`, which the saved state keeps for
  /// the whole history: a field still in the document was set by an event of its stream.
  ///
  /// - Parameters:
  ///   - path: the document's path in the tree, e.g. `Splits/<id>.json`.
  ///   - field: a JSON pointer; nil or empty for the whole document.
  ///   - point: blame the document as it was then.
  /// - Returns: lines in pointer order.
  /// - Throws: ``CommandError`` when there is no such document or field; ``ScopeTooNarrow``
  ///   for a point in history on a scoped journal: open it with ``StateScope/all`` then.
  public func blame(
    path: String,
    field: String? = nil,
    upTo point: Replayer.Point? = nil
  ) throws -> [Blame.Line] {
    let (history, now) = lock.withLock { (self.history, wholeHistoryNow) }
    if point != nil, store is ScopedEventStore { throw ScopeTooNarrow() }
    return try Blame.lines(path: path, field: field, history: history, upTo: point, now: now)
  }
}

extension StateScope {
  /// What ``Journal/blame(path:field:upTo:)`` needs for the document at `path`: its
  /// workout's stream, or the splits for a split's; nothing for a path that names no
  /// document.
  public static func document(at path: String) -> StateScope {
    guard let target = DocumentTarget(path: path) else { return StateScope(splits: false) }
    return target.isSplit ? StateScope() : StateScope(workouts: [target.id], splits: false)
  }
}
