import Foundation

extension Journal {
  /// The documents that differ between two points of history, as ``Diff`` tells them.
  ///
  /// The history is read slice by slice (`forEachSlice(upTo:_:)`): each slice is folded to
  /// both points and its documents compared, so a journal opened with a scope
  /// (``open(store:scope:newID:readOnly:)``, any scope) holds one slice at a time, however
  /// long its history. A slice with no event after either point is folded once. A document
  /// whose rendering depends on the fold's `now` (a stub, a workout with removed logs) is
  /// kept until the last slice tells `now` at each point, then rendered.
  ///
  /// - Parameters:
  ///   - from: the earlier point; nil for the empty journal.
  ///   - to: the later point; nil for the end of history.
  /// - Returns: changed documents in path order, as `changes(history:from:to:)`.
  /// - Throws: an encoding error for a value JSON cannot carry; ``ScopeTooNarrow`` when a
  ///   scoped journal finds its saved state damaged: open it with ``StateScope/all`` then.
  public func diff(from: Replayer.Point?, to: Replayer.Point?) throws -> [Diff.DocumentChange] {
    let fromCut = try from.map { try Cut($0, in: self) }
    let toCut = try Cut(to, in: self)
    var changes: [Diff.DocumentChange] = []
    // The documents whose rendering waits for `now`, at each point.
    var waiting = (old: JournalState(), new: JournalState())
    var nows: (old: Date?, new: Date?) = (nil, nil)
    try forEachSlice { _, events in
      let newCount = toCut.count(in: events)
      var new = Replayer.fold(newCount == events.count ? events : Array(events[..<newCount]))
      let oldCount = fromCut?.count(in: events)
      var old = JournalState()
      if let oldCount {
        old = oldCount == newCount ? new : Replayer.fold(Array(events[..<oldCount]))
        nows.old = Self.later(nows.old, old.now)
      }
      nows.new = Self.later(nows.new, new.now)
      let unchanged = oldCount == newCount
      Self.setAside(from: &old, &new, into: &waiting, unchanged: unchanged)
      if !unchanged {
        changes += try Diff.changes(from: old.documentTree(), to: new.documentTree())
      }
    }
    // At the end of history `now` is the saved state's, which counts the reverts no slice
    // holds (those of quarantined streams) as a full read does.
    if to == nil { nows.new = Self.later(nows.new, lock.withLock { wholeHistoryNow }) }
    waiting.old.now = Self.adjusted(nows.old, at: from)
    waiting.new.now = Self.adjusted(nows.new, at: to)
    changes += try Diff.changes(
      from: from == nil ? [:] : waiting.old.documentTree(),
      to: waiting.new.documentTree()
    )
    return changes.sorted { $0.path < $1.path }
  }

  /// Moves the documents of `old` and `new` whose rendering depends on the fold's `now`, at
  /// either point, into `waiting`; when `unchanged` (both folds alike but for `now`), the
  /// others are dropped, as they cannot differ.
  private static func setAside(
    from old: inout JournalState,
    _ new: inout JournalState,
    into waiting: inout (old: JournalState, new: JournalState),
    unchanged: Bool
  ) {
    for id in Set(old.splits.keys).union(new.splits.keys) {
      let dependsOnNow = [old.splits[id], new.splits[id]].contains {
        $0.map { $0.deletedAt != nil && !$0.isStarter } ?? false
      }
      if dependsOnNow {
        waiting.old.splits[id] = old.splits[id]
        waiting.new.splits[id] = new.splits[id]
      }
      if dependsOnNow || unchanged {
        old.splits[id] = nil
        new.splits[id] = nil
      }
    }
    for id in Set(old.workouts.keys).union(new.workouts.keys) {
      let dependsOnNow = [old.workouts[id], new.workouts[id]].contains {
        $0.map { $0.deletedAt != nil || $0.document.deletedLogIDs?.isEmpty == false } ?? false
      }
      if dependsOnNow {
        waiting.old.workouts[id] = old.workouts[id]
        waiting.new.workouts[id] = new.workouts[id]
      }
      if dependsOnNow || unchanged {
        old.workouts[id] = nil
        new.workouts[id] = nil
      }
    }
  }

  /// The later of two dates, nil when both are.
  private static func later(_ a: Date?, _ b: Date?) -> Date? {
    guard let a else { return b }
    guard let b else { return a }
    return max(a, b)
  }

  /// The fold's `now` at `point`, from the latest record time in effect up to it: a time
  /// after it moves it on, as ``Replayer/fold(_:upTo:observe:)`` does.
  private static func adjusted(_ now: Date?, at point: Replayer.Point?) -> Date? {
    if case .time(let date) = point, let now, date > now { return date }
    return now
  }
}
