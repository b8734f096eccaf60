import JournalCore

/// The version of the fold: what decides which documents a history folds to.
///
/// Saved states (``SavedState``) are keyed by it, so a build whose fold differs never trusts
/// what another build saved (and a rebuild never updates an output folder from streams only
/// across it: the state read again starts its change list again). Nobody has to remember to bump it by
/// hand: ``sampleProjections`` holds, for each version, the digest of the documents the
/// sample journal rebuilds to, and a test fails when the sample's documents change while
/// ``current`` does not.
enum FoldVersion {
  /// The fold's version.
  ///
  /// Bump it, and add a row to ``sampleProjections``, whenever the
  /// fold's rules or the documents' rendering change.
  static let current = 1

  /// For each version, the SHA-256 (hex) of the sample journal's rebuilt `Projections/`
  /// tree, as ``treeDigest(_:)`` computes it.
  static let sampleProjections: [Int: String] = [
    1: "c84570ed3b09239e3b94396b298eebb750e0b44c0a3af88984beb3cb33a601cc"
  ]

  /// The key a saved state is stored under: the fold's version, the documents' schema
  /// versions, the grace periods and every event type's current version.
  static let key: String = {
    let versions = JournalEvent.currentVersions.sorted { $0.key < $1.key }
      .map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    let text = [
      "fold \(current)",
      "split \(SplitDocument.currentSchemaVersion)",
      "workout \(WorkoutDocument.currentSchemaVersion)",
      "stubGrace \(JournalState.stubGrace)",
      "logGrace \(WorkoutDocument.deletedLogGrace)",
      "events \(versions)",
    ].joined(separator: "\n")
    return SHA256Digest.hex(Array(text.utf8))
  }()

  /// The digest of a document tree: SHA-256 over each file's relative path and bytes, in
  /// path order.
  ///
  /// - Parameter files: relative path → bytes.
  /// - Returns: 64 lowercase hex digits.
  static func treeDigest(_ files: [String: [UInt8]]) -> String {
    var bytes: [UInt8] = []
    for (path, content) in files.sorted(by: { $0.key < $1.key }) {
      bytes += Array(path.utf8) + [0] + Array(String(content.count).utf8) + [0]
      bytes += content
    }
    return SHA256Digest.hex(bytes)
  }
}
