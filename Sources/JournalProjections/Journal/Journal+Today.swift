import Foundation

extension Journal {
  /// The snapshot of the local day containing `moment` in `timeZone`: what was lifted that
  /// day, the workout in progress, and the split that comes next.
  ///
  /// It is ``TodayProjection/snapshot(of:at:timeZone:)`` of this journal's state. A journal
  /// opened with ``TodayProjection/scope(at:timeZone:)`` holds the day's workouts but not
  /// the splits' streams: the live splits come from the documents its saved state keeps of
  /// them, so the answer does not grow with the splits' edits.
  ///
  /// ```swift
  /// let zone = TimeZone.current
  /// let journal = try Journal.open(
  ///   store: store, scope: TodayProjection.scope(at: now, timeZone: zone), newID: ids.next)
  /// let today = try journal.today(at: now, timeZone: zone)
  /// ```
  ///
  /// - Parameters:
  ///   - moment: a moment of the day to report.
  ///   - timeZone: the zone the day is read in.
  /// - Returns: the day's snapshot.
  /// - Throws: the store's errors when the saved state, found damaged, cannot be read again.
  public func today(at moment: Date, timeZone: TimeZone) throws -> TodaySnapshot {
    let state = state()
    let splits: [SplitDocument]
    if let scoped = store as? ScopedEventStore, !scoped.scope.splits {
      splits = try scoped.state.liveSplitsRebuildingIfDamaged()
    } else {
      splits = state.liveSplits.map(\.document)
    }
    return TodayProjection.snapshot(of: state, splits: splits, at: moment, timeZone: timeZone)
  }
}
