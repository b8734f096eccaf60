import Foundation
import JournalProjections

extension JournalSession {
  /// Opens the journal for a command that names a workout by `reference` (an id prefix, or a
  /// split's name meaning that split's latest workout), loading `scope`.
  ///
  /// The saved state finds workouts by id alone, so a scope holds the workouts an id prefix
  /// names but not every workout of a split. The splits are held when `reference` is not a
  /// whole id, for the naming rule. When `reference` names a split (by the naming
  /// rule, among the splits' names and the loaded workouts'), or names nothing in the scoped
  /// state (a workout of a deleted split, a typo whose error should list every candidate),
  /// the journal is opened again on the whole history, where the rule has everything it
  /// needs. An id prefix that fits, or no reference, costs no more than `scope`.
  static func naming(
    workout reference: String?,
    _ invocation: Invocation,
    scope: StateScope
  ) throws -> JournalSession {
    var scope = scope
    if let reference, !StateScope.isWholeID(reference) { scope.splits = true }
    let session = try JournalSession(invocation, scope: scope)
    guard let reference, invocation.arguments.value("as-of") == nil else { return session }
    let state = session.state()
    if state.workouts[reference.uppercased()] != nil { return session }
    guard scope.splits else { return try JournalSession(invocation, scope: .all) }
    let names =
      state.liveSplits.map(\.document.name)
      + state.workouts.values.compactMap { $0.deletedAt == nil ? $0.document.splitName : nil }
    let namesASplit: Bool
    do {
      namesASplit = try JournalState.pickName(reference, among: names, what: "workout") != nil
    } catch {
      namesASplit = true
    }
    if !namesASplit, (try? state.workout(reference)) != nil { return session }
    return try JournalSession(invocation, scope: .all)
  }
}
