/// The distinct (type, version) pairs of a set of records, gathered by a pass that reads the
/// records anyway, so that a question about every record's type and version is asked once a
/// pair instead of in a pass of its own over the records.
///
/// A journal has a few dozen pairs at most. Past ``limit`` the list gives up
/// (``allSatisfy(_:)`` returns nil): looking through a longer one would cost every record
/// more than the pass it saves.
///
/// Pairs are looked for by identity first (`String.isIdentical(to:)`: the types of a run's
/// records share their storage, or are inline), then by text.
struct RecordTypes: Sendable {
  /// The most pairs kept.
  static let limit = 64

  private var pairs: [(type: String, version: Int)] = []
  /// More than ``limit`` pairs were noted: ``pairs`` is not all of them.
  private var isOverflowed = false

  /// Notes the type and version of a record.
  ///
  /// Inlined, and the identity search written as a loop: a pass over a million records
  /// calls it for each.
  @inline(__always)
  mutating func note(_ type: String, _ version: Int) {
    var index = 0
    while index < pairs.count {
      if pairs[index].version == version, pairs[index].type.isIdentical(to: type) { return }
      index += 1
    }
    noteAfresh(type, version)
  }

  private mutating func noteAfresh(_ type: String, _ version: Int) {
    guard !isOverflowed, !pairs.contains(where: { $0.version == version && $0.type == type })
    else { return }
    guard pairs.count < Self.limit else {
      isOverflowed = true
      pairs = []
      return
    }
    pairs.append((type, version))
  }

  /// Notes every pair of `other`.
  mutating func formUnion(_ other: RecordTypes) {
    guard !other.isOverflowed else {
      isOverflowed = true
      pairs = []
      return
    }
    for pair in other.pairs { noteAfresh(pair.type, pair.version) }
  }

  /// Whether `predicate` holds for every pair noted, asking once a pair; nil when there were
  /// too many pairs to keep.
  func allSatisfy(_ predicate: (String, Int) -> Bool) -> Bool? {
    isOverflowed ? nil : pairs.allSatisfy { predicate($0.type, $0.version) }
  }
}
