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
  /// A journal opened with a scope reads only the slices with an event after the earlier
  /// point, and those whose documents may render differently at the two points' `now`, when
  /// those slices tell `now` at each point; else it reads every slice.
  ///
  /// - Parameters:
  ///   - from: the earlier point; nil for the empty journal.
  ///   - to: the later point; nil for the end of history.
  /// - Returns: changed documents in path order, as `changes(history:from:to:)`.
  /// - Throws: an encoding error for a value JSON cannot carry; ``ScopeTooNarrow`` when a
  ///   scoped journal finds its saved state damaged: open it with ``StateScope/all`` then.
  public func diff(from: Replayer.Point?, to: Replayer.Point?) throws -> [Diff.DocumentChange] {
    var slices = SliceDiff(
      from: try from.map { try Cut($0, in: self) },
      to: try Cut(to, in: self)
    )
    let wholeNow = lock.withLock { wholeHistoryNow }
    if let from, let scoped = store as? ScopedEventStore,
      try Self.fromState(
        scoped,
        { state in
          try slices.foldTouched(state, from: from, to: to, wholeNow: wholeNow)
        }
      )
    {
      return try slices.finish(from: from, to: to)
    }
    slices = SliceDiff(from: slices.fromCut, to: slices.toCut)
    try forEachSlice { _, events in try slices.add(events) }
    // At the end of history `now` is the saved state's, which counts the reverts no slice
    // holds (those of quarantined streams) as a full read does.
    if to == nil { slices.nows.new = Self.later(slices.nows.new, wholeNow) }
    return try slices.finish(from: from, to: to)
  }

  /// The changes of a diff gathered slice by slice.
  private struct SliceDiff {
    let fromCut: Cut?
    let toCut: Cut
    var changes: [Diff.DocumentChange] = []
    /// The documents whose rendering waits for `now`, at each point.
    var waiting = (old: JournalState(), new: JournalState())
    /// The latest record time in effect at each point, over the slices added.
    var nows: (old: Date?, new: Date?) = (nil, nil)

    init(from: Cut?, to: Cut) {
      fromCut = from
      toCut = to
    }

    /// Folds one slice's events to both points and gathers what changed.
    mutating func add(_ events: [FoldEvent]) throws {
      let newCount = toCut.count(in: events)
      var new = Replayer.fold(newCount == events.count ? events : Array(events[..<newCount]))
      let oldCount = fromCut?.count(in: events)
      var old = JournalState()
      if let oldCount {
        old = oldCount == newCount ? new : Replayer.fold(Array(events[..<oldCount]))
        nows.old = Journal.later(nows.old, old.now)
      }
      nows.new = Journal.later(nows.new, new.now)
      let unchanged = oldCount == newCount
      Journal.setAside(from: &old, &new, into: &waiting, unchanged: unchanged)
      if !unchanged {
        changes += try Diff.changes(from: old.documentTree(), to: new.documentTree())
      }
    }

    /// Adds the slices of `state` with an event after either point, then those whose
    /// documents may render differently at the two points' `now` (``SavedState/Dues``).
    ///
    /// - Parameters:
    ///   - state: the saved state the slices are read from.
    ///   - from: the earlier point.
    ///   - to: the later point; nil for the end of history.
    ///   - wholeNow: the whole history's `now`, the fold's at its end.
    /// - Returns: false when what it added does not tell `now` at both points and a document
    ///   may depend on it: every slice must be read then, from a diff started again.
    /// - Throws: ``SavedState/Untrusted`` when a file of the state is damaged; an encoding
    ///   error for a value JSON cannot carry.
    mutating func foldTouched(
      _ state: SavedState,
      from: Replayer.Point,
      to: Replayer.Point?,
      wholeNow: Date?
    ) throws -> Bool {
      guard let fromCut else { return false }
      let floors = [fromCut.earliestAfter, toCut.earliestAfter].compactMap { $0 }
      var touched: Set<String> = []
      if let floor = floors.min() {
        var ends = SavedState.Ends(state)
        touched = Set(try ends.files(endingFrom: floor))
      }
      let splits = state.head.splits.filter { state.head.quarantined[$0] == nil }
      var folded: Set<String> = []
      func fold(_ slice: String) throws {
        guard folded.insert(slice).inserted else { return }
        if slice == "splits" {
          try add(try state.slice(splits))
        } else if let stream = SavedState.stream(ofPath: String(slice.dropFirst("streams/".count))),
          stream.hasPrefix("workout:"), state.head.quarantined[stream] == nil
        {
          try add(try state.slice([stream]))
        }
      }
      if splits.contains(where: { touched.contains(SavedState.streamPath($0)) }) {
        try fold("splits")
      }
      for file in touched.sorted() where file.hasPrefix("streams/workout-") { try fold(file) }
      // At the end of history, `now` is the whole history's.
      if to == nil { nows.new = Journal.later(nows.new, wholeNow) }
      let settled = fromCut.settles(now: nows.old) && (to == nil || toCut.settles(now: nows.new))
      let old = Journal.adjusted(nows.old, at: from)
      let new = Journal.adjusted(nows.new, at: to)
      let dues = try SavedState.Dues.load(state.stateFiles).entries
      // A document renders alike at two `now`s later than its due.
      let low = [old, new].map { $0?.milliseconds ?? .min }.min() ?? .min
      let due = dues.filter { $0.value >= low && !folded.contains($0.key) }
      guard settled else {
        let waits =
          !waiting.old.splits.isEmpty || !waiting.old.workouts.isEmpty
          || !waiting.new.splits.isEmpty || !waiting.new.workouts.isEmpty
        return !waits && due.isEmpty
      }
      if old != new {
        for slice in due.keys.sorted() { try fold(slice) }
      }
      return true
    }

    /// The changes gathered, with the documents set aside rendered at each point's `now`.
    func finish(from: Replayer.Point?, to: Replayer.Point?) throws -> [Diff.DocumentChange] {
      var waiting = waiting
      var changes = changes
      waiting.old.now = Journal.adjusted(nows.old, at: from)
      waiting.new.now = Journal.adjusted(nows.new, at: to)
      changes += try Diff.changes(
        from: from == nil ? [:] : waiting.old.documentTree(),
        to: waiting.new.documentTree()
      )
      return changes.sorted { $0.path < $1.path }
    }
  }

  /// Moves the documents of `old` and `new` whose rendering depends on the fold's `now`, at
  /// either point, into `waiting`; when `unchanged` (both folds alike but for `now`), the
  /// others are dropped, as they cannot differ.
  fileprivate static func setAside(
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
  fileprivate static func later(_ a: Date?, _ b: Date?) -> Date? {
    guard let a else { return b }
    guard let b else { return a }
    return max(a, b)
  }

  /// The fold's `now` at `point`, from the latest record time in effect up to it: a time
  /// after it moves it on, as ``Replayer/fold(_:upTo:observe:)`` does.
  fileprivate static func adjusted(_ now: Date?, at point: Replayer.Point?) -> Date? {
    if case .time(let date) = point, let now, date > now { return date }
    return now
  }
}
