import Dispatch

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

  /// Starts `work` on a queue of its own.
  ///
  /// Not the global queue: its threads are as many as the cores, and work that blocks (a
  /// flush) or waits would hold one of them while other work queued behind it.
  public init(_ work: @escaping @Sendable () -> Value) {
    done.enter()
    DispatchQueue(label: "BackgroundValue", qos: .userInitiated).async {
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
