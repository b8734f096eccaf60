import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's real standard output and error, for the `journal` executable.
public enum StandardStreams {
  /// A console on file descriptors 1 and 2.
  ///
  /// Output is written as it comes, so progress, errors and results interleave in the order they
  /// were produced.
  public static func console(environment: [String: String]) -> Console {
    Console(
      isTerminal: isatty(1) == 1,
      environment: environment,
      out: { write(fd: 1, $0) },
      err: { write(fd: 2, $0) }
    )
  }

  private static func write(fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        #if canImport(Glibc)
        Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        #else
        Darwin.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        #endif
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
