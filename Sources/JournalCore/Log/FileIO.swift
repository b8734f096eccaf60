#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: the errno, what was attempted and on which path.
package struct SystemFailure: Error, Equatable {
  package var code: Int32
  package var operation: String
  package var path: String

  package init(code: Int32, operation: String, path: String) {
    self.code = code
    self.operation = operation
    self.path = path
  }

  /// The failure as a ``JournalError`` of kind ``JournalError/Kind/io``.
  package func journalError(file: String? = nil) -> JournalError {
    JournalError(.io, file: file ?? path, "cannot \(operation): \(systemMessage(code))")
  }
}

/// The operating system's text for `code`, with a lowercase first letter.
func systemMessage(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "error \(code)" }
  let message = String(cString: text)
  return message.prefix(1).lowercased() + message.dropFirst()
}

/// The system calls the log's writer makes: a seam so tests can inject failures.
///
/// Every call that can fail throws ``SystemFailure`` with the errno. ``write(_:_:at:path:)`` may
/// write fewer bytes than asked (a short write); the caller loops.
package protocol FileIO: Sendable {
  /// Opens (and maybe creates) a file; returns its descriptor.
  func open(_ path: String, flags: Int32, mode: UInt32) throws(SystemFailure) -> Int32
  /// Closes a descriptor, ignoring errors.
  func close(_ descriptor: Int32)
  /// Writes some of `buffer` at byte `offset` of the file, or at its current position when
  /// `offset` is nil (the end, for a file opened to append); returns how many bytes were
  /// written.
  func write(
    _ descriptor: Int32,
    _ buffer: UnsafeRawBufferPointer,
    at offset: Int64?,
    path: String
  )
    throws(SystemFailure) -> Int
  /// Reads up to `buffer.count` bytes at `offset`; returns how many were read (0 at the end).
  func read(
    _ descriptor: Int32,
    into buffer: UnsafeMutableRawBufferPointer,
    at offset: Int64,
    path: String
  ) throws(SystemFailure) -> Int
  /// The file's size in bytes.
  func size(_ descriptor: Int32, path: String) throws(SystemFailure) -> Int64
  /// Cuts the file to `length` bytes.
  func truncate(_ descriptor: Int32, to length: Int64, path: String) throws(SystemFailure)
  /// Makes the file's data durable: `fdatasync` on Linux, `F_FULLFSYNC` on Apple platforms.
  func sync(_ descriptor: Int32, path: String) throws(SystemFailure)
  /// Makes a directory's entries (new files, renames) durable.
  func syncDirectory(_ path: String) throws(SystemFailure)
  /// Tries to take an exclusive `flock` without waiting; false when another holder has it.
  func tryLock(_ descriptor: Int32, path: String) throws(SystemFailure) -> Bool
  /// Creates a directory; false when it exists already.
  func makeDirectory(_ path: String, mode: UInt32) throws(SystemFailure) -> Bool
  /// Renames a file, replacing any file at `destination`.
  func rename(_ source: String, to destination: String) throws(SystemFailure)
}

// MARK: - Helpers over the seam

extension FileIO {
  /// Writes all of `buffer` from byte `offset` on, or at the current position when `offset`
  /// is nil, looping over short writes.
  package func writeAll(
    _ descriptor: Int32,
    _ buffer: UnsafeRawBufferPointer,
    at offset: Int64? = nil,
    path: String
  )
    throws(SystemFailure)
  {
    var done = 0
    while done < buffer.count {
      let written = try write(
        descriptor,
        UnsafeRawBufferPointer(rebasing: buffer[done...]),
        at: offset.map { $0 + Int64(done) },
        path: path
      )
      guard written > 0 else { throw SystemFailure(code: EIO, operation: "write", path: path) }
      done += written
    }
  }

  /// Writes all of `bytes` from byte `offset` on, or at the current position when `offset` is
  /// nil, looping over short writes.
  package func writeAll(
    _ descriptor: Int32,
    _ bytes: [UInt8],
    at offset: Int64? = nil,
    path: String
  ) throws(SystemFailure) {
    try bytes.withUnsafeBytes { buffer in
      Result { () throws(SystemFailure) in
        try writeAll(descriptor, buffer, at: offset, path: path)
      }
    }.get()
  }

  /// Reads a file from byte `offset` to its end (nothing when it is shorter); a symbolic
  /// link is refused (`ELOOP`), never followed.
  package func readFile(_ path: String, from offset: Int = 0) throws(SystemFailure) -> [UInt8] {
    let descriptor = try open(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW, mode: 0)
    defer { close(descriptor) }
    let size = max(0, Int(try size(descriptor, path: path)) - offset)
    return try read(descriptor, count: size, at: offset, path: path)
  }

  /// Reads `count` bytes at `offset` of an open file, looping over short reads; fewer when
  /// the file ends first (it may have shrunk since its size was taken).
  package func read(
    _ descriptor: Int32,
    count: Int,
    at offset: Int,
    path: String
  ) throws(SystemFailure) -> [UInt8] {
    var failure: SystemFailure?
    // Not zeroed first: the bytes the file fills are the array's, the rest are left out.
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
      let buffer = UnsafeMutableRawBufferPointer(buffer)
      while filled < count {
        do throws(SystemFailure) {
          let read = try read(
            descriptor,
            into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]),
            at: Int64(offset + filled),
            path: path
          )
          if read == 0 { break }
          filled += read
        } catch {
          failure = error
          return
        }
      }
    }
    if let failure { throw failure }
    return bytes
  }

  /// Creates a file with owner-only permissions holding exactly `bytes`, made durable when
  /// `durable`, failing if the file exists.
  package func createFile(_ path: String, bytes: [UInt8], durable: Bool) throws(SystemFailure) {
    let descriptor = try open(
      path,
      flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
      mode: 0o600
    )
    defer { close(descriptor) }
    do {
      try writeAll(descriptor, bytes, path: path)
      if durable { try sync(descriptor, path: path) }
    } catch {
      // Leave no half-written file behind.
      unlink(path)
      throw error
    }
  }
}
