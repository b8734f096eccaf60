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

  /// A thread that has finished its work takes the next: work started one piece after another
  /// starts one thread, and pieces started at once each get one.
  @Test func aThreadWaitsForTheNextWork() throws {
    let threads = BackgroundThreads()
    for round in 0..<20 {
      #expect(BackgroundValue(on: threads) { round * 2 }.value == round * 2)
      // The thread goes back to waiting once the work has returned.
      let deadline = Date().addingTimeInterval(10)
      while threads.counts.waiting == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
    }
    #expect(threads.counts.started == 1)

    // Eight pieces that end only together: eight threads at once, one of them the one waiting.
    let gate = DispatchSemaphore(value: 0)
    let values = (0..<8).map { index in
      BackgroundValue(on: threads) { () -> Int in
        gate.wait()
        return index
      }
    }
    for _ in values { gate.signal() }
    #expect(values.map(\.value) == Array(0..<8))
    #expect(threads.counts.started == 8)
  }
}
