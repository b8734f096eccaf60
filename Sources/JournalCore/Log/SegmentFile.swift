import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A segment file opened for reading, read a range of bytes at a time.
///
/// Its size is taken once, when it is opened: bytes a writer appends afterwards belong to a
/// later read. The descriptor is closed when the last copy of the reference goes.
final class SegmentFile: Sendable {
  /// The file's size when it was opened.
  let size: Int
  /// The path inside the journal folder, for errors and notices.
  let relative: String
  private let descriptor: Int32
  private let path: String
  private let fileIO: any FileIO

  fileprivate init(
    descriptor: Int32,
    size: Int,
    path: String,
    relative: String,
    fileIO: any FileIO
  ) {
    self.descriptor = descriptor
    self.size = size
    self.path = path
    self.relative = relative
    self.fileIO = fileIO
  }

  deinit { fileIO.close(descriptor) }

  /// The bytes of `range` (clamped to ``size``); fewer when the file shrank since it was
  /// opened.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/io``.
  func read(_ range: Range<Int>) throws(JournalError) -> [UInt8] {
    let lower = min(max(range.lowerBound, 0), size)
    let count = min(range.upperBound, size) - lower
    guard count > 0 else { return [] }
    do throws(SystemFailure) {
      return try fileIO.read(descriptor, count: count, at: lower, path: path)
    } catch {
      throw error.journalError(file: relative)
    }
  }

  /// The bytes of `range`, all of them.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/io``, also when the file shrank
  ///   since it was opened (a writer cut a torn tail: reading again gives the new lines).
  func readAll(_ range: Range<Int>) throws(JournalError) -> [UInt8] {
    let bytes = try read(range)
    guard bytes.count == min(range.upperBound, size) - min(max(range.lowerBound, 0), size) else {
      throw JournalError(
        .io,
        file: relative,
        "the file shrank while it was read (a writer recovering it?); read it again"
      )
    }
    return bytes
  }

  /// How many newlines `range` holds, read `window` bytes at a time.
  func countNewlines(_ range: Range<Int>, window: Int) throws(JournalError) -> Int {
    var count = 0
    var lower = range.lowerBound
    while lower < range.upperBound {
      let upper = range.upperBound - lower <= window ? range.upperBound : lower + window
      for byte in try readAll(lower..<upper) where byte == 0x0A { count += 1 }
      lower = upper
    }
    return count
  }
}

extension EventLog {
  /// Opens a segment file, refusing what is not one: a symbolic link, a folder, or a file
  /// larger than ``Segment/maximumFileSize`` (which is not read).
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/refusedFile`` or
  ///   ``JournalError/Kind/io``.
  func openSegmentFile(device: String, name: String) throws(JournalError) -> SegmentFile {
    let path = deviceFolder(device).appendingPathComponent(name).path
    let relative = relativePath(device: device, file: name)
    if let refusal = refusedFileKind(path, expectFolder: false) {
      throw JournalError(.refusedFile, file: relative, "\(refusal); not read")
    }
    let descriptor: Int32
    let size: Int64
    do throws(SystemFailure) {
      descriptor = try fileIO.open(path, flags: O_RDONLY | O_CLOEXEC | O_NOFOLLOW, mode: 0)
      do throws(SystemFailure) {
        size = try fileIO.size(descriptor, path: path)
      } catch {
        fileIO.close(descriptor)
        throw error
      }
    } catch {
      throw error.journalError(file: relative)
    }
    let file = SegmentFile(
      descriptor: descriptor,
      size: Int(max(0, size)),
      path: path,
      relative: relative,
      fileIO: fileIO
    )
    guard size <= Int64(Segment.maximumFileSize) else {
      throw JournalError(
        .refusedFile,
        file: relative,
        "file of \(size) bytes is larger than a segment can be "
          + "(\(Segment.maximumFileSize >> 20) MiB); not read"
      )
    }
    return file
  }

  /// Reads a segment file from byte `offset` to its end; see
  /// ``openSegmentFile(device:name:)``.
  func readSegmentFile(
    device: String,
    name: String,
    from offset: Int = 0
  ) throws(JournalError) -> [UInt8] {
    let file = try openSegmentFile(device: device, name: name)
    return try file.read(offset..<file.size)
  }
}
