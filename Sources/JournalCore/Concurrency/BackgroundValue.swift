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

  /// Starts `work` on a thread of its own.
  ///
  /// Not one of Dispatch's pools: on Linux a request for a worker there now and then waited
  /// for the pool's monitor, about 50–100 ms once per process (an incremental rebuild of
  /// 2–8 ms taking 20–160 times as long), and their threads are as many as the cores, which
  /// work that blocks in a flush holds. A thread costs about 60 µs to start and join here,
  /// about twice a Dispatch queue.
  public init(_ work: @escaping @Sendable () -> Value) {
    done.enter()
    let thread = Thread {
      self.result = work()
      self.done.leave()
    }
    thread.qualityOfService = .userInitiated
    thread.start()
  }

  /// The work's result, once it has finished.
  public var value: Value {
    done.wait()
    guard let result else { preconditionFailure("the work leaves the group after setting it") }
    return result
  }
}
