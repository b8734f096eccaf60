import Dispatch

extension Array where Element: Sendable {
  /// `map(transform)`, run in chunks on every core: the same elements, in the same order.
  ///
  /// Kept where a budget of docs/Performance.md needs it (the replay's reading and
  /// decoding, B3; `verify`, B7); `map` is its reference, which a test compares it with.
  /// Each chunk initializes its own part of the result, so nothing is copied afterwards.
  /// Arrays of at most one chunk are mapped here, on the caller's thread.
  package func concurrentMap<T>(
    chunkSize: Int = 2_048,
    _ transform: @Sendable (Element) -> T
  ) -> [T] {
    precondition(chunkSize > 0, "a chunk holds at least one element")
    guard count > chunkSize else { return map(transform) }
    let chunks = (count + chunkSize - 1) / chunkSize
    let total = count
    return [T](unsafeUninitializedCapacity: total) { buffer, initialized in
      withUnsafeBufferPointer { source in
        let (source, target) = (UncheckedSendable(source), UncheckedSendable(buffer))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
          let start = chunk * chunkSize
          for index in start..<Swift.min(total, start + chunkSize) {
            target.value.initializeElement(at: index, to: transform(source.value[index]))
          }
        }
      }
      initialized = total
    }
  }
}

/// A value handed to the tasks of a concurrent loop (the source and the result), each task
/// touching its own part of it only.
private struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) { self.value = value }
}
