import Foundation
import Testing

@testable import JournalCore

/// `BackgroundValue` runs its work on another thread, once, and `value` waits for it.
@Suite struct BackgroundValueTests {
  /// Records what the work saw, under a lock.
  final class Record: @unchecked Sendable {
    private let lock = NSLock()
    private var runs = 0
    private var threads: [Thread] = []
    func note() {
      lock.withLock {
        runs += 1
        threads.append(Thread.current)
      }
    }
    var count: Int { lock.withLock { runs } }
    var thread: Thread? { lock.withLock { threads.first } }
  }

  @Test func valueWaitsForTheWorkAndGivesItsResult() {
    let record = Record()
    let background = BackgroundValue { () -> [Int] in
      Thread.sleep(forTimeInterval: 0.05)
      record.note()
      return (1...1_000).map { $0 * $0 }
    }
    #expect(background.value == (1...1_000).map { $0 * $0 })
    #expect(record.count == 1)
    // Read again: the same result, the work not run twice.
    #expect(background.value.count == 1_000)
    #expect(record.count == 1)
    #expect(record.thread != Thread.current)
  }

  @Test func theWorkRunsWhenTheValueIsNeverRead() {
    let record = Record()
    let finished = DispatchSemaphore(value: 0)
    _ = BackgroundValue {
      record.note()
      finished.signal()
      return 0
    }
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(record.count == 1)
  }
}
