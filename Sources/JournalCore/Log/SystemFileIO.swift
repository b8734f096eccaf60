#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real system calls behind ``FileIO``.
package struct SystemFileIO: FileIO {
  package init() {}

  package func open(_ path: String, flags: Int32, mode: UInt32) throws(SystemFailure) -> Int32 {
    while true {
      let descriptor = openFile(path, flags, mode)
      if descriptor >= 0 { return descriptor }
      if errno != EINTR { throw SystemFailure(code: errno, operation: "open", path: path) }
    }
  }

  package func close(_ descriptor: Int32) {
    #if canImport(Darwin)
    _ = Darwin.close(descriptor)
    #elseif canImport(Glibc)
    _ = Glibc.close(descriptor)
    #elseif canImport(Musl)
    _ = Musl.close(descriptor)
    #endif
  }

  package func write(
    _ descriptor: Int32,
    _ buffer: UnsafeRawBufferPointer,
    at offset: Int64?,
    path: String
  )
    throws(SystemFailure) -> Int
  {
    while true {
      let count: Int
      if let offset {
        count = pwrite(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
      } else {
        #if canImport(Darwin)
        count = Darwin.write(descriptor, buffer.baseAddress, buffer.count)
        #elseif canImport(Glibc)
        count = Glibc.write(descriptor, buffer.baseAddress, buffer.count)
        #elseif canImport(Musl)
        count = Musl.write(descriptor, buffer.baseAddress, buffer.count)
        #endif
      }
      if count >= 0 { return count }
      if errno != EINTR { throw SystemFailure(code: errno, operation: "write", path: path) }
    }
  }

  package func read(
    _ descriptor: Int32,
    into buffer: UnsafeMutableRawBufferPointer,
    at offset: Int64,
    path: String
  ) throws(SystemFailure) -> Int {
    while true {
      let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
      if count >= 0 { return count }
      if errno != EINTR { throw SystemFailure(code: errno, operation: "read", path: path) }
    }
  }

  package func size(_ descriptor: Int32, path: String) throws(SystemFailure) -> Int64 {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw SystemFailure(code: errno, operation: "stat", path: path)
    }
    return Int64(info.st_size)
  }

  package func truncate(_ descriptor: Int32, to length: Int64, path: String) throws(SystemFailure) {
    while ftruncate(descriptor, off_t(length)) != 0 {
      if errno != EINTR { throw SystemFailure(code: errno, operation: "truncate", path: path) }
    }
  }

  package func sync(_ descriptor: Int32, path: String) throws(SystemFailure) {
    #if canImport(Darwin)
    // F_FULLFSYNC asks the drive to flush its cache too; some file systems refuse it.
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
    while fsync(descriptor) != 0 {
      if errno != EINTR { throw SystemFailure(code: errno, operation: "sync", path: path) }
    }
    #else
    while fdatasync(descriptor) != 0 {
      if errno != EINTR { throw SystemFailure(code: errno, operation: "sync", path: path) }
    }
    #endif
  }

  package func syncDirectory(_ path: String) throws(SystemFailure) {
    let descriptor = try open(path, flags: O_RDONLY | O_CLOEXEC, mode: 0)
    defer { close(descriptor) }
    #if canImport(Darwin)
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
    #endif
    while fsync(descriptor) != 0 {
      if errno != EINTR { throw SystemFailure(code: errno, operation: "sync", path: path) }
    }
  }

  package func tryLock(_ descriptor: Int32, path: String) throws(SystemFailure) -> Bool {
    while true {
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
      switch errno {
      case EWOULDBLOCK: return false
      case EINTR: continue
      default: throw SystemFailure(code: errno, operation: "lock", path: path)
      }
    }
  }

  package func makeDirectory(_ path: String, mode: UInt32) throws(SystemFailure) -> Bool {
    if mkdir(path, mode_t(mode)) == 0 { return true }
    if errno == EEXIST { return false }
    throw SystemFailure(code: errno, operation: "create the folder", path: path)
  }

  package func rename(_ source: String, to destination: String) throws(SystemFailure) {
    #if canImport(Darwin)
    let result = Darwin.rename(source, destination)
    #elseif canImport(Glibc)
    let result = Glibc.rename(source, destination)
    #elseif canImport(Musl)
    let result = Musl.rename(source, destination)
    #endif
    guard result == 0 else { throw SystemFailure(code: errno, operation: "rename", path: source) }
  }
}

/// `open(2)`, which Swift imports as a variadic C function on some platforms.
private func openFile(_ path: String, _ flags: Int32, _ mode: UInt32) -> Int32 {
  #if canImport(Darwin)
  Darwin.open(path, flags, mode_t(mode))
  #elseif canImport(Glibc)
  Glibc.open(path, flags, mode_t(mode))
  #elseif canImport(Musl)
  Musl.open(path, flags, mode_t(mode))
  #endif
}
