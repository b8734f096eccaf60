import Foundation

extension WorkoutState {
  /// The document as written: tombstones past the grace pruned, and the
  /// metrics' volume computed from the actuals unless the recorder gave one.
  public func renderedDocument(now: Date) -> WorkoutDocument {
    var result = document
    if let deleted = result.deletedLogIDs {
      let kept = deleted.filter {
        now.timeIntervalSince($0.value) <= WorkoutDocument.deletedLogGrace
      }
      result.deletedLogIDs = kept.isEmpty ? nil : kept
    }
    if result.metrics != nil {
      result.metrics?.totalVolume = recordedVolume ?? document.totalVolume
    }
    return result
  }
}

extension JournalState {
  /// How long a stub is kept after its document was deleted (starter splits
  /// keep theirs forever).
  public static let stubGrace: TimeInterval = 30 * 24 * 3600

  /// Every document of the container, by relative path, encoded as the app
  /// encodes them: live splits and workouts, and stubs still within their grace.
  ///
  /// - Throws: an encoding error for a value JSON cannot carry.
  public func documentTree() throws -> [String: Data] {
    let now = self.now ?? Date(timeIntervalSince1970: 0)
    var tree: [String: Data] = [:]
    for state in splits.values {
      let path = DocumentPath.split(id: state.document.id)
      if let deletedAt = state.deletedAt {
        guard state.isStarter || now.timeIntervalSince(deletedAt) <= Self.stubGrace else {
          continue
        }
        tree[DocumentPath.stub(of: path)] = try DocumentCoder.encode(
          Stub(document: state.document, deletedAt: deletedAt)
        )
      } else {
        tree[path] = try DocumentCoder.encode(state.document)
      }
    }
    for state in workouts.values {
      let document = state.renderedDocument(now: now)
      if let deletedAt = state.deletedAt {
        guard now.timeIntervalSince(deletedAt) <= Self.stubGrace else { continue }
        tree[DocumentPath.stub(of: state.path)] = try DocumentCoder.encode(
          Stub(document: document, deletedAt: deletedAt)
        )
      } else {
        tree[state.path] = try DocumentCoder.encode(document)
      }
    }
    return tree
  }
}
