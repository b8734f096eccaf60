import Foundation
import JournalCore

/// The real file system, except that chosen calls fail: the swift-system `MockingDriver`
/// idea, over the ``FileIO`` seam.
///
/// A fault names an operation and which call of it (1-based, counted from the moment the
/// fault is armed) misbehaves: it either fails with an errno or, for writes, writes only a
/// few bytes before failing on the next call.
package final class FaultyFileIO: FileIO, @unchecked Sendable {
  package init() {}

  package enum Operation: String, Sendable {
    case open, write, read, truncate, sync, syncDirectory, lock, makeDirectory, rename
  }

  package enum Effect: Sendable {
    /// The call fails with this errno.
    case fail(Int32)
    /// A write writes at most this many bytes (then later calls behave normally).
    case shortWrite(Int)
    /// A read reads at most this many bytes.
    case shortRead(Int)
  }

  private let lock = NSLock()
  private let system = SystemFileIO()
  private var counts: [Operation: Int] = [:]
  private var faults: [(operation: Operation, call: Int, effect: Effect)] = []

  /// Makes the `call`th next call of `operation` misbehave.
  package func inject(_ operation: Operation, call: Int = 1, _ effect: Effect) {
    lock.withLock {
      faults.append((operation, (counts[operation] ?? 0) + call, effect))
    }
  }

  /// Removes all faults.
  package func reset() { lock.withLock { faults.removeAll() } }

  private func effect(for operation: Operation) -> Effect? {
    lock.withLock {
      let count = (counts[operation] ?? 0) + 1
      counts[operation] = count
      guard let index = faults.firstIndex(where: { $0.operation == operation && $0.call == count })
      else { return nil }
      return faults.remove(at: index).effect
    }
  }

  private func check(_ operation: Operation, _ path: String) throws(SystemFailure) {
    if case .fail(let code) = effect(for: operation) {
      throw SystemFailure(code: code, operation: operation.rawValue, path: path)
    }
  }

  package func open(_ path: String, flags: Int32, mode: UInt32) throws(SystemFailure) -> Int32 {
    try check(.open, path)
    return try system.open(path, flags: flags, mode: mode)
  }

  package func close(_ descriptor: Int32) { system.close(descriptor) }

  package func write(
    _ descriptor: Int32,
    _ buffer: UnsafeRawBufferPointer,
    at offset: Int64?,
    path: String
  )
    throws(SystemFailure) -> Int
  {
    switch effect(for: .write) {
    case .fail(let code): throw SystemFailure(code: code, operation: "write", path: path)
    case .shortWrite(let limit):
      let count = min(limit, buffer.count)
      return try system.write(
        descriptor,
        UnsafeRawBufferPointer(rebasing: buffer[0..<count]),
        at: offset,
        path: path
      )
    case .shortRead, nil: return try system.write(descriptor, buffer, at: offset, path: path)
    }
  }

  package func read(
    _ descriptor: Int32,
    into buffer: UnsafeMutableRawBufferPointer,
    at offset: Int64,
    path: String
  ) throws(SystemFailure) -> Int {
    switch effect(for: .read) {
    case .fail(let code): throw SystemFailure(code: code, operation: "read", path: path)
    case .shortRead(let limit):
      let count = min(limit, buffer.count)
      return try system.read(
        descriptor,
        into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]),
        at: offset,
        path: path
      )
    case .shortWrite, nil: return try system.read(descriptor, into: buffer, at: offset, path: path)
    }
  }

  package func size(_ descriptor: Int32, path: String) throws(SystemFailure) -> Int64 {
    try system.size(descriptor, path: path)
  }

  package func truncate(_ descriptor: Int32, to length: Int64, path: String) throws(SystemFailure) {
    try check(.truncate, path)
    try system.truncate(descriptor, to: length, path: path)
  }

  package func sync(_ descriptor: Int32, path: String) throws(SystemFailure) {
    try check(.sync, path)
    try system.sync(descriptor, path: path)
  }

  package func syncDirectory(_ path: String) throws(SystemFailure) {
    try check(.syncDirectory, path)
    try system.syncDirectory(path)
  }

  package func tryLock(_ descriptor: Int32, path: String) throws(SystemFailure) -> Bool {
    try check(.lock, path)
    return try system.tryLock(descriptor, path: path)
  }

  package func makeDirectory(_ path: String, mode: UInt32) throws(SystemFailure) -> Bool {
    try check(.makeDirectory, path)
    return try system.makeDirectory(path, mode: mode)
  }

  package func rename(_ source: String, to destination: String) throws(SystemFailure) {
    try check(.rename, source)
    try system.rename(source, to: destination)
  }
}
