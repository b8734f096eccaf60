import Foundation

// MARK: - The status machine

extension WorkoutLogDocument {
  /// Moves the log to `newStatus`, keeping the set entries consistent with it.
  ///
  /// - `.completed` fills the missing tail of ``setEntries`` up to ``sets`` with
  ///   plan-default entries (recorded entries are never overwritten), moves the
  ///   progress cursor to at least the number of entries, and stamps
  ///   ``completedAt`` (the last move to completed wins).
  /// - `.notStarted` clears the entries and the progress cursor (a reset).
  /// - `.inProgress` stamps ``startedAt`` the first time only.
  /// - `.skipped` keeps partial entries.
  ///
  /// ``startedAt`` and ``completedAt`` are history, as the schema defines them
  /// (the first move to in-progress, the last move to completed): no move
  /// clears them, not even a reset. Every real change of status stamps
  /// ``updatedAt``; moving to the current status changes nothing.
  public mutating func transition(to newStatus: WorkoutStatus, at date: Date) {
    guard newStatus != status else { return }
    status = newStatus
    updatedAt = date
    switch newStatus {
    case .notStarted:
      setEntries = nil
      currentStateIndex = 0
    case .inProgress:
      if startedAt == nil { startedAt = date }
    case .completed:
      fillSetEntries(upTo: sets, at: date)
      currentStateIndex = max(currentStateIndex, setEntries?.count ?? 0)
      completedAt = date
    case .skipped:
      break
    }
  }

  /// Appends plan-default entries until there are `count` of them.
  ///
  /// - Complexity: O(`count`).
  public mutating func fillSetEntries(upTo count: Int, at date: Date) {
    var entries = setEntries ?? []
    guard entries.count < count else { return }
    while entries.count < count { entries.append(planEntry(at: date)) }
    setEntries = entries
  }

  /// The entry a set gets when it is done as planned.
  public func planEntry(at date: Date) -> SetEntry {
    switch loadType {
    case .weight: SetEntry(reps: reps, weight: weight, completedAt: date)
    case .none: SetEntry(reps: reps, completedAt: date)
    case .duration: SetEntry(seconds: durationSeconds, completedAt: date)
    }
  }

  /// The recorded entries, or for a completed log without any (a legacy
  /// file), entries synthesised from the plan at ``completedAt`` (else ``date``).
  public var effectiveSetEntries: [SetEntry] {
    if let setEntries, !setEntries.isEmpty { return setEntries }
    guard status == .completed else { return [] }
    let entry = planEntry(at: completedAt ?? date)
    return Array(repeating: entry, count: max(sets, 0))
  }

  /// Σ reps × weight over the effective entries; 0 unless the log is weighted.
  public var volume: Double {
    guard loadType == .weight else { return 0 }
    return effectiveSetEntries.reduce(0) { total, entry in
      total + Double(entry.reps ?? 0) * (entry.weight ?? 0)
    }
  }
}

// MARK: - Deriving the workout's status

extension WorkoutDocument {
  /// Derives ``status`` and ``end`` from the logs.
  ///
  /// - No logs, or every log not started (and nothing recorded): `.notStarted`.
  /// - Every log resolved: `.completed` when at least one log is completed,
  ///   else `.skipped`; ``end`` is stamped with `date` unless already set.
  /// - Otherwise: `.inProgress`, and ``end`` is cleared (a reopened workout).
  ///
  /// The fold calls it after every workout event: the logs' statuses are read where they
  /// lie, with no array made.
  public mutating func recomputeStatusFromLogs(at date: Date) {
    var (resolved, completed, started) = (true, false, false)
    for index in logs.indices {
      let status = logs[index].status
      resolved = resolved && status.isResolved
      completed = completed || status == .completed
      started = started || status != .notStarted
    }
    if !logs.isEmpty, resolved {
      status = completed ? .completed : .skipped
      if end == nil { end = date }
    } else if started {
      status = .inProgress
      end = nil
    } else {
      status = .notStarted
      end = nil
    }
  }

  /// Σ of the logs' ``WorkoutLogDocument/volume``.
  public var totalVolume: Double { logs.reduce(0) { $0 + $1.volume } }
}
