import Foundation
import Testing

@testable import JournalCore

/// The concurrent maps give what `map` gives, and let go of what they made when they give up.
@Suite struct ConcurrentMapTests {
  /// Counts the instances alive, so a test sees that none is leaked or freed twice.
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var alive: Int { lock.withLock { count } }
    func add(_ delta: Int) { lock.withLock { count += delta } }
  }

  final class Tracked: Sendable {
    let value: Int
    let counter: Counter

    init(_ value: Int, _ counter: Counter) {
      self.value = value
      self.counter = counter
      counter.add(1)
    }

    deinit { counter.add(-1) }
  }

  @Test func concurrentMapKeepsOrder() {
    for count in [0, 1, 999, 1_000, 1_001, 25_000] {
      let numbers = Array(0..<count)
      #expect(numbers.concurrentMap(chunkSize: 1_000) { $0 * 3 } == numbers.map { $0 * 3 })
    }
  }

  @Test(arguments: [0, 1, 999, 1_000, 4_321, 25_000])
  func makingGivesEveryElementInOrder(count: Int) {
    // Each chunk's state counts its elements: it must start afresh per chunk.
    let made = [(Int, Int)](concurrentlyMaking: count, chunkSize: 1_000, state: 0) { i, seen in
      seen += 1
      return (i, seen)
    }
    #expect(made?.map(\.0) == Array(0..<count))
    #expect(made?.map(\.1) == (0..<count).map { $0 % 1_000 + 1 })
  }

  @Test(arguments: [0, 1, 999, 1_000, 12_345, 24_999])
  func makingGivesUpAndLetsGoOfWhatItMade(failing: Int) {
    let count = 25_000
    let counter = Counter()
    let made = [Tracked](concurrentlyMaking: count, chunkSize: 1_000, state: ()) { i, _ in
      i == failing ? nil : Tracked(i, counter)
    }
    #expect(made == nil)
    #expect(counter.alive == 0)
    let all = [Tracked](concurrentlyMaking: count, chunkSize: 1_000, state: ()) { i, _ in
      Tracked(i, counter)
    }
    #expect(all?.map(\.value) == Array(0..<count))
    #expect(counter.alive == count)
  }
}
