import Foundation

// Undo, redo and rewind: each appends one `events.reverted` naming exactly the
// events it cancels; nothing is erased.
//
// - An action is what one command appended (events sharing an action id).
// - `undo` cancels the latest action of a device (optionally within one
//   workout) that is in effect. Reverts made by `undo` are not actions, so
//   undoing twice goes two actions back; a `redo` is an action and can be undone.
// - `redo` cancels the latest undo of the device that is in effect.
// - `rewind` cancels every event after a point, reverts included, so the
//   state afterwards equals the state at that point.
// - Dependency rule: undo and redo are refused when cancelling would leave
//   later events without what they relied on (they would become anomalies:
//   a set on a log whose start is undone, an adjustment of an undone set…).
//   Undo those later actions first, or rewind.

extension Journal {
  /// What an undo or redo would cancel, described for people.
  public struct Reversal: Sendable {
    /// The events the new revert names.
    public var eventIDs: [String]
    /// The appended revert.
    public var revert: FoldEvent
    /// The cancelled events, for messages.
    public var cancelled: [FoldEvent]
  }

  /// Cancels the last `count` actions of `device` (within `workout` when given).
  ///
  /// - Throws: ``CommandError`` when there is nothing to undo or when later
  ///   events depend on what would be undone.
  @discardableResult
  public func undo(
    device: String,
    workout: String? = nil,
    count: Int = 1,
    now: Date
  ) throws -> Reversal {
    lock.lock()
    defer { lock.unlock() }
    guard count >= 1 else { throw CommandError("nothing to undo: the count must be at least 1") }
    let cancelled = Replayer.cancelledEvents(in: history)
    var stream: String?
    if let workout {
      stream = "workout:\(try state().workout(workout).document.id)"
    }
    var actions: [String] = []
    var events: [String: [FoldEvent]] = [:]
    // The id's text, made to look it up, last.
    for e in history.reversed() where e.device == device {
      if let undoHorizon, e.mergeKey <= undoHorizon { throw ScopeTooNarrow() }
      if case .eventsReverted(let revert) = e.event, revert.reason == RevertReason.undo { continue }
      if let stream, e.stream != stream { continue }
      if cancelled[e.storedID] != nil { continue }
      if events[e.actionID] == nil {
        if actions.count == count { break }
        actions.append(e.actionID)
      }
      events[e.actionID, default: []].append(e)
    }
    guard !actions.isEmpty else {
      if undoHorizon != nil { throw ScopeTooNarrow() }
      throw CommandError(
        "nothing to undo on device '\(device)'" + (workout.map { " in workout '\($0)'" } ?? "")
      )
    }
    let targets = actions.flatMap { events[$0] ?? [] }.reversed()
    return try revert(Array(targets), reason: RevertReason.undo, device: device, now: now)
  }

  /// Cancels the latest undo of `device` that is in effect.
  ///
  /// On a journal opened with a scope (``open(store:scope:newID:readOnly:)``; the device's
  /// recent actions, ``StateScope/recentActionsOf``), the undo is looked for among the events
  /// the scope holds, and taken only when every event the device recorded after it is there
  /// too: a later undo cannot hide outside the scope.
  ///
  /// - Throws: ``CommandError`` when there is nothing to redo; ``ScopeTooNarrow`` when a
  ///   scoped journal cannot tell (the undo lies further back than the scope reaches, or
  ///   there is none): open it with ``StateScope/all`` then.
  @discardableResult
  public func redo(device: String, now: Date) throws -> Reversal {
    lock.lock()
    defer { lock.unlock() }
    let cancelled = Replayer.cancelledEvents(in: history)
    let undo = history.last(where: { e in
      guard e.device == device, case .eventsReverted(let revert) = e.event,
        cancelled[e.storedID] == nil
      else { return false }
      return revert.reason == RevertReason.undo
    })
    if let scoped = store as? ScopedEventStore {
      try requireEveryEvent(of: device, after: undo?.sequence ?? 0, in: scoped.state)
    }
    guard let undo else { throw CommandError("nothing to redo on device '\(device)'") }
    return try revert([undo], reason: RevertReason.redo, device: device, now: now)
  }

  /// Throws ``ScopeTooNarrow`` unless `history` holds every event `device` recorded after
  /// its event numbered `sequence`: the device's numbers run without a gap, so the numbers
  /// after it up to the last the saved state read must all be there.
  private func requireEveryEvent(
    of device: String,
    after sequence: UInt64,
    in state: SavedState
  ) throws {
    guard let last = state.lastSequence(of: device) else {
      // A device with no event read has none after any; a forked one may reuse numbers.
      if state.head.positions[device] == nil, history.allSatisfy({ $0.device != device }) {
        return
      }
      throw ScopeTooNarrow()
    }
    guard last > sequence else { return }
    let held = Set(history.lazy.filter { $0.device == device }.map(\.sequence))
    for number in (sequence + 1)...last where !held.contains(number) { throw ScopeTooNarrow() }
  }

  /// Cancels every event in effect after `point`, so the state equals the
  /// state at that point.
  ///
  /// On a journal opened with a scope (``open(store:scope:newID:readOnly:)``, any scope), the
  /// events after the point are found in its saved state: only the streams whose last event
  /// lies after the point are read, one at a time, and only their events after it are kept.
  ///
  /// - Throws: ``CommandError`` when the point is unknown or nothing follows it;
  ///   ``ScopeTooNarrow`` when a scoped journal finds its saved state damaged: open it with
  ///   ``StateScope/all`` then.
  @discardableResult
  public func rewind(to point: Replayer.Point, device: String, now: Date) throws -> Reversal {
    lock.lock()
    defer { lock.unlock() }
    let cut = try Cut(point, in: self)
    if case .event(let id) = point, !cut.namesAnEvent {
      throw CommandError("unknown event '\(id)'")
    }
    // Every event after the point, even one already cancelled: an undo after
    // the point is cancelled too, and what it cancelled must stay cancelled.
    let after: [FoldEvent]
    if let scoped = store as? ScopedEventStore {
      let reaching = try Self.fromState(scoped) {
        try $0.events(from: cut.earliestAfter, after: cut.mayLieAfter)
      }
      after = Array(reaching[cut.count(in: reaching)...])
    } else {
      after = Array(history[Replayer.prefix(history, upTo: point).count...])
    }
    guard !after.isEmpty else { throw CommandError("nothing happened after that point") }
    return try revert(
      after,
      reason: RevertReason.rewind,
      device: device,
      now: now,
      checkDependencies: false
    )
  }

  /// Appends a revert of `targets` after checking it leaves no event stranded.
  private func revert(
    _ targets: [FoldEvent],
    reason: String,
    device: String,
    now: Date,
    checkDependencies: Bool = true
  ) throws -> Reversal {
    // Events made from one stored event (an upcast that split it) share its id.
    var ids: [String] = []
    for e in targets {
      let stored = e.storedID
      if ids.last != stored, !ids.contains(stored) { ids.append(stored) }
    }
    let event = JournalEvent.eventsReverted(EventsReverted(eventIDs: ids, reason: reason))
    if checkDependencies {
      let probe = FoldEvent(
        id: "~probe",
        device: device,
        sequence: .max,
        milliseconds: (history.last?.milliseconds ?? 0) + 1,
        stream: "history",
        event: event
      )
      let fresh = Replayer.anomaliesAdded(by: probe, to: history)
      if let first = fresh.first {
        throw CommandError(
          "cannot \(reason): \(fresh.count) later event\(fresh.count == 1 ? "" : "s") depend on it (\(first.message))",
          hint:
            "undo the later actions first, or use 'journal rewind --to' to go back past all of them"
        )
      }
    }
    let appended = try append(
      [PendingEvent(stream: "history", event: event)],
      device: device,
      at: nil
    )
    guard let revert = appended.first else { throw CommandError("the revert was not stored") }
    return Reversal(eventIDs: ids, revert: revert, cancelled: targets)
  }
}

/// Why events were reverted, as written in `events.reverted`.
enum RevertReason {
  static let undo = "undo"
  static let redo = "redo"
  static let rewind = "rewind"
}
