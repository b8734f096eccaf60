import Foundation

/// The documents that differ between two points of history, field by field.
///
/// Both sides are folds of the same history (`fold(_:upTo:observe:)`)
/// rendered as the tree (``JournalState/documentTree()``): the diff is
/// exactly what a rebuild at each point would write.
public enum Diff {
  /// How one document differs.
  public struct DocumentChange: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
      case added
      case removed
      case changed
    }

    public var path: String
    public var kind: Kind
    /// Every differing field; for an added or removed document, all its fields.
    public var fields: [FieldChange]
  }

  /// The changes from `from` to `to` (nil: the start of history, the end).
  ///
  /// - Returns: changed documents in path order.
  /// - Throws: an encoding error for a value JSON cannot carry.
  /// - Complexity: two folds and two renderings of the tree.
  package static func changes(
    history: [FoldEvent],
    from: Replayer.Point?,
    to: Replayer.Point?
  ) throws -> [DocumentChange] {
    let old = try from.map { try Replayer.fold(history, upTo: $0).documentTree() } ?? [:]
    let new = try Replayer.fold(history, upTo: to).documentTree()
    return try changes(from: old, to: new)
  }

  /// The changes between two document trees (path → bytes).
  ///
  /// - Throws: when a document is not JSON.
  public static func changes(
    from old: [String: Data],
    to new: [String: Data]
  ) throws -> [DocumentChange] {
    var result: [DocumentChange] = []
    for path in Set(old.keys).union(new.keys).sorted() {
      let before = old[path]
      let after = new[path]
      if before == after { continue }
      let fieldsBefore = try before.map(DocumentFields.init) ?? DocumentFields(leaves: [:])
      let fieldsAfter = try after.map(DocumentFields.init) ?? DocumentFields(leaves: [:])
      let kind: DocumentChange.Kind = before == nil ? .added : after == nil ? .removed : .changed
      let fields = DocumentFields.changes(from: fieldsBefore, to: fieldsAfter)
      if kind == .changed, fields.isEmpty { continue }  // same JSON, other bytes: none here
      result.append(DocumentChange(path: path, kind: kind, fields: fields))
    }
    return result
  }
}
