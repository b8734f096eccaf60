import Dispatch

extension Array where Element: Sendable {
  /// `map(transform)`, run in chunks on every core: the same elements, in the same order.
  ///
  /// Each chunk initializes its own part of the result, so nothing is copied afterwards.
  /// Arrays of at most one chunk are mapped here, on the caller's thread.
  ///
  /// - Parameters:
  ///   - chunkSize: how many elements one task maps.
  ///   - transform: maps one element; called from several threads at once.
  /// - Returns: the mapped elements, in order.
  public func concurrentMap<T>(
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

extension Array {
  /// The elements `make` gives for the indices `0..<count`, made on every core; nil when it
  /// gives nil for any (whatever was made is let go).
  ///
  /// Each chunk writes its part of the result in place and keeps its own copy of `state` (a
  /// cache shared by neighbouring elements, say), so nothing is copied afterwards. A chunk
  /// stops at its first nil; the others go on.
  ///
  /// - Parameters:
  ///   - count: how many elements to make.
  ///   - chunkSize: how many elements one task makes.
  ///   - state: each chunk's state, as it starts.
  ///   - make: makes the element at an index with its chunk's state; nil gives up.
  public init?<State: Sendable>(
    concurrentlyMaking count: Int,
    chunkSize: Int = 2_048,
    state: State,
    _ make: @Sendable (Int, inout State) -> Element?
  ) {
    precondition(chunkSize > 0, "a chunk holds at least one element")
    let chunks = Swift.max(1, (count + chunkSize - 1) / chunkSize)
    let total = count
    var complete = true
    let result = [Element](unsafeUninitializedCapacity: total) { buffer, initialized in
      // How many elements each chunk made, from its start.
      let made = UnsafeMutableBufferPointer<Int>.allocate(capacity: chunks)
      made.initialize(repeating: 0)
      defer { made.deallocate() }
      let (target, counts) = (UncheckedSendable(buffer), UncheckedSendable(made))
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        let start = chunk * chunkSize
        var state = state
        for index in start..<Swift.min(total, start + chunkSize) {
          guard let value = make(index, &state) else { return }
          target.value.initializeElement(at: index, to: consume value)
          counts.value[chunk] += 1
        }
      }
      for chunk in 0..<chunks {
        let start = chunk * chunkSize
        guard made[chunk] < Swift.min(total, start + chunkSize) - start else { continue }
        complete = false
      }
      if complete {
        initialized = total
      } else {
        for chunk in 0..<chunks where made[chunk] > 0 {
          buffer.baseAddress?.advanced(by: chunk * chunkSize).deinitialize(count: made[chunk])
        }
        initialized = 0
      }
    }
    guard complete else { return nil }
    self = result
  }
}

/// A value handed to the tasks of a concurrent loop (buffers, counters), each task touching
/// its own part of it only.
@usableFromInline struct UncheckedSendable<Value>: @unchecked Sendable {
  @usableFromInline let value: Value

  @usableFromInline init(_ value: Value) { self.value = value }
}
