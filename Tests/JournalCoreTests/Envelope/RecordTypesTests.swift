import Testing

@testable import JournalCore

/// The pairs a pass gathers must answer a question about every record as asking about each
/// record would: seeded sequences of pairs against the plain answer.
@Suite struct RecordTypesTests {
  /// Types spelled by separate strings (equal text, other storage) and inline ones.
  static func type(_ n: Int, separateStorage: Bool) -> String {
    let text = n % 3 == 0 ? "t\(n)" : "a.long.type.name.\(n)"
    return separateStorage ? String(decoding: Array(text.utf8), as: UTF8.self) : text
  }

  @Test(arguments: 0..<8 as Range<UInt64>)
  func answersAsAskingAboutEveryRecord(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let kinds = Int(random.next() % 12) + 1
    var records: [(String, Int)] = []
    for _ in 0..<Int(random.next() % 300) {
      let n = Int(random.next() % UInt64(kinds))
      records.append((Self.type(n, separateStorage: random.next() % 2 == 0), n % 4 + 1))
    }
    // Noted in two halves, as two runs of a merge are, then put together.
    let cut = records.isEmpty ? 0 : Int(random.next() % UInt64(records.count))
    var first = RecordTypes()
    var second = RecordTypes()
    for (type, version) in records[..<cut] { first.note(type, version) }
    for (type, version) in records[cut...] { second.note(type, version) }
    first.formUnion(second)
    let refused = Int(random.next() % UInt64(kinds))
    let predicates: [(String, Int) -> Bool] = [
      { _, _ in true },
      { type, _ in type != Self.type(refused, separateStorage: false) },
      { _, version in version < 3 },
    ]
    for predicate in predicates {
      var asked = 0
      let answer = first.allSatisfy { type, version in
        asked += 1
        return predicate(type, version)
      }
      #expect(answer == records.allSatisfy { predicate($0.0, $0.1) })
      // Each distinct pair once at most.
      #expect(asked <= Set(records.map { "\($0.0)/\($0.1)" }).count)
    }
  }

  /// Past the limit the pairs are not all kept: no answer, so that the caller reads the
  /// records; and a union with such a list has none either.
  @Test func givesNoAnswerPastItsLimit() {
    var types = RecordTypes()
    for n in 0..<RecordTypes.limit { types.note("type.\(n)", 1) }
    #expect(types.allSatisfy { _, _ in true } == true)
    var union = RecordTypes()
    union.formUnion(types)
    #expect(union.allSatisfy { type, _ in type != "type.0" } == false)
    types.note("type.\(RecordTypes.limit)", 1)
    #expect(types.allSatisfy { _, _ in true } == nil)
    union.formUnion(types)
    #expect(union.allSatisfy { _, _ in true } == nil)
    union.note("type.0", 1)
    #expect(union.allSatisfy { _, _ in true } == nil)
  }
}
