import Dispatch
import Foundation

/// A value computed on another thread while the caller goes on with other work; ``value``
/// waits for it.
///
/// Made for work that would otherwise run while the caller's thread waits for a disk flush.
/// The work runs once, whether or not ``value`` is ever read.
public final class BackgroundValue<Value: Sendable>: @unchecked Sendable {
  // Written once by the work before `done` is left, read only after waiting for `done`:
  // the group orders the two.
  private var result: Value?
  private let done = DispatchGroup()

  /// Starts `work` on a thread of its own: one of the process's background threads that is
  /// waiting for work, else a new one, which waits for more once it is done.
  ///
  /// Not one of Dispatch's pools: on Linux a request for a worker there now and then waited
  /// for the pool's monitor, about 50–100 ms once per process (an incremental rebuild of
  /// 2–8 ms taking 20–160 times as long), and their threads are as many as the cores, which
  /// work that blocks in a flush holds. A thread costs about 60 µs to start and join here,
  /// about twice a Dispatch queue; a thread kept waiting costs a wake-up.
  public convenience init(_ work: @escaping @Sendable () -> Value) {
    self.init(on: .shared, work)
  }

  /// Starts `work` on one of `threads`.
  init(on threads: BackgroundThreads, _ work: @escaping @Sendable () -> Value) {
    done.enter()
    threads.run {
      self.result = work()
      self.done.leave()
    }
  }

  /// The work's result, once it has finished.
  public var value: Value {
    done.wait()
    guard let result else { preconditionFailure("the work leaves the group after setting it") }
    return result
  }
}

/// The threads that run ``BackgroundValue``s' work.
///
/// A thread that has finished its work waits for the next instead of ending, so a process that
/// starts background work again and again (a journal kept open and rebuilt after every event:
/// two pieces of work a rebuild) starts only as many threads as ever had work at once.
final class BackgroundThreads: @unchecked Sendable {
  /// The process's threads, which ``BackgroundValue/init(_:)`` uses.
  static let shared = BackgroundThreads()

  private let condition = NSCondition()
  // Guarded by `condition`.
  private var pending: [@Sendable () -> Void] = []
  private var waiting = 0
  private var started = 0

  /// How many threads were started, and how many wait for work now.
  var counts: (started: Int, waiting: Int) {
    condition.lock()
    defer { condition.unlock() }
    return (started, waiting)
  }

  /// Runs `work` on a waiting thread, or on a new one when none is waiting for it.
  func run(_ work: @escaping @Sendable () -> Void) {
    condition.lock()
    pending.append(work)
    let start = pending.count > waiting
    if start { started += 1 } else { condition.signal() }
    condition.unlock()
    guard start else { return }
    let thread = Thread { [self] in serve() }
    thread.qualityOfService = .userInitiated
    thread.start()
  }

  /// A thread's life: the pending work, one at a time, waiting when there is none.
  private func serve() -> Never {
    while true {
      condition.lock()
      while pending.isEmpty {
        waiting += 1
        condition.wait()
        waiting -= 1
      }
      let work = pending.removeFirst()
      condition.unlock()
      work()
    }
  }
}
