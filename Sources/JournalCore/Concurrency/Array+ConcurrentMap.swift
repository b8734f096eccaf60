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
    chunkSize: Int = 16_384,
    _ transform: @Sendable (Element) -> T
  ) -> [T] {
    precondition(chunkSize > 0, "a chunk holds at least one element")
    guard count > chunkSize else { return map(transform) }
    let chunks = (count + chunkSize - 1) / chunkSize
    let total = count
    return [T](unsafeUninitializedCapacity: total) { buffer, initialized in
      withUnsafeBufferPointer { source in
        let pointers = ChunkPointers(source: source, target: buffer)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
          let start = chunk * chunkSize
          for index in start..<Swift.min(total, start + chunkSize) {
            pointers.target.initializeElement(at: index, to: transform(pointers.source[index]))
          }
        }
      }
      initialized = total
    }
  }
}

/// The source and result buffers of a concurrent map: each task touches its own indices only.
private struct ChunkPointers<Source, Target>: @unchecked Sendable {
  let source: UnsafeBufferPointer<Source>
  let target: UnsafeMutableBufferPointer<Target>
}
