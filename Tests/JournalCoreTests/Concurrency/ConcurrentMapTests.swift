import Testing

@testable import JournalCore

/// `concurrentMap` gives what its reference, `map`, gives.
@Suite struct ConcurrentMapTests {
  @Test func concurrentMapKeepsOrder() {
    for count in [0, 1, 999, 1_000, 1_001, 25_000] {
      let numbers = Array(0..<count)
      #expect(numbers.concurrentMap(chunkSize: 1_000) { $0 * 3 } == numbers.map { $0 * 3 })
    }
  }

  /// Several chunks of strings (references), each chunk's elements made on its own thread.
  @Test func concurrentMapOfReferencesMatchesMap() {
    let numbers = Array(0..<10_007)
    #expect(
      numbers.concurrentMap(chunkSize: 97) { "n\($0)" } == numbers.map { "n\($0)" }
    )
  }
}
