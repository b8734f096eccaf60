import Foundation
import JournalCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The streams whose files the saved state changed, in the order it changed them: what an
/// incremental rebuild reads to find the documents that may have changed since it last wrote
/// an output folder (docs/Rebuild.md, "Incremental rebuilds").
///
/// The file `changes` in the state's folder starts with a header line,
/// `workout-journal-changes 1 <epoch>`, and then has a line `<check> <stream>` for each
/// stream file the state is about to write, appended before the stream file is written (so
/// a write that fails half way still lists it); `<check>` is the XXH64 of the stream's name,
/// which finds a torn line. The epoch, 16 random hex digits, is chosen whenever the list
/// starts again: when the state is read again from the whole history (its stream files are
/// all new then), when the list is missing or damaged, and when it outgrows
/// ``restartSize``. A rebuild keeps, in its output folder, the epoch and the byte offset it
/// read to (``Position``); a position of another epoch, or one that does not check, makes it
/// fold every stream.
///
/// Like every file of the saved state, it is not flushed: it is a cache, and a rebuild that
/// cannot trust it folds every stream.
enum ChangeList {
  /// The file, in the state's folder.
  static let path = "changes"
  private static let header = "workout-journal-changes 1 "
  /// Past this size the list starts again with a new epoch: each output folder then folds
  /// every stream once.
  static let restartSize = 4 << 20
  /// How many bytes before a position its check covers.
  static let checkLength = 64

  /// Where a rebuild stopped reading the list: the list's epoch, the offset just after the
  /// last line it read, and the XXH64 of the (at most ``checkLength``) bytes before that
  /// offset, which finds a list cut short and written again.
  struct Position: Equatable, Sendable {
    var epoch: String
    var offset: Int
    var check: String
  }

  /// Starts the list again, empty, with a new epoch.
  static func start(in files: DocumentTreeWriter) throws {
    let epoch = String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
    try files.writeAtomically(path, Array((header + epoch + "\n").utf8), durable: false)
  }

  /// Appends `streams`; starts the list again when it is missing, damaged at its end, or
  /// past ``restartSize``.
  static func append(_ streams: [String], in files: DocumentTreeWriter) throws {
    guard !streams.isEmpty else { return }
    let file = files.absolute(path)
    let descriptor = open(file, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return try start(in: files) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, Int(info.st_size) <= restartSize,
      let last = try? lastByte(of: file), last == UInt8(ascii: "\n")
    else { return try start(in: files) }
    var bytes: [UInt8] = []
    for stream in streams { bytes += line(stream) }
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else {
      throw RebuildError(.io, path: path, "cannot append: \(DocumentTreeWriter.message(errno))")
    }
  }

  /// The line of `stream`.
  static func line(_ stream: String) -> [UInt8] {
    Array("\(XXH64.hex(Array(stream.utf8))) \(stream)\n".utf8)
  }

  /// The position at the list's end now; nil when there is no readable list.
  static func end(in files: DocumentTreeWriter) throws -> Position? {
    guard let (epoch, size) = try opening(files), size > 0,
      let tail = try read(files, from: max(0, size - checkLength)), tail.last == 0x0A
    else { return nil }
    return Position(epoch: epoch, offset: size, check: XXH64.hex(tail))
  }

  /// What the list says after a position.
  enum Reading: Equatable {
    /// The streams listed after the position, and the position at the list's end.
    case streams(Set<String>, end: Position)
    /// The list started again since (the state was read again from the whole history).
    case restarted
    /// The list does not continue the position: missing, cut short, or a line that does
    /// not check.
    case broken
  }

  /// The streams listed after `position`.
  ///
  /// Reads the list from just before `position` only.
  static func streams(after position: Position, in files: DocumentTreeWriter) throws -> Reading {
    guard let (epoch, _) = try opening(files) else { return .broken }
    guard epoch == position.epoch else { return .restarted }
    let start = max(0, position.offset - checkLength)
    guard let bytes = try read(files, from: start), position.offset - start <= bytes.count,
      bytes.last == 0x0A,
      XXH64.hex(Array(bytes[..<(position.offset - start)])) == position.check
    else { return .broken }
    var streams: Set<String> = []
    for line in bytes[(position.offset - start)...].split(separator: 0x0A) {
      guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return .broken }
      let stream = Array(line[(space + 1)...])
      guard line[..<space].elementsEqual(XXH64.hex(stream).utf8) else { return .broken }
      streams.insert(String(decoding: stream, as: UTF8.self))
    }
    let end = start + bytes.count
    let check = XXH64.hex(Array(bytes[max(0, bytes.count - checkLength)...]))
    return .streams(streams, end: Position(epoch: epoch, offset: end, check: check))
  }

  /// The list's epoch and size; nil when it is missing or its header is not there.
  private static func opening(_ files: DocumentTreeWriter) throws -> (String, Int)? {
    guard let first = try read(files, from: 0, count: header.utf8.count + 17),
      first.count == header.utf8.count + 17, first.starts(with: header.utf8), first.last == 0x0A
    else { return nil }
    let epoch = String(decoding: first[header.utf8.count..<(first.count - 1)], as: UTF8.self)
    var info = stat()
    guard stat(files.absolute(path), &info) == 0 else { return nil }
    return (epoch, Int(info.st_size))
  }

  /// The list's bytes from `offset`, at most `count` of them; nil when there is no list.
  private static func read(
    _ files: DocumentTreeWriter,
    from offset: Int,
    count: Int? = nil
  ) throws -> [UInt8]? {
    guard let handle = FileHandle(forReadingAtPath: files.absolute(path)) else { return nil }
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(offset))
    let data = try count.map { try handle.read(upToCount: $0) } ?? handle.readToEnd()
    return Array(data ?? Data())
  }

  private static func lastByte(of file: String) throws -> UInt8? {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
    defer { try? handle.close() }
    let end = try handle.seekToEnd()
    guard end > 0 else { return nil }
    try handle.seek(toOffset: end - 1)
    return try handle.read(upToCount: 1)?.first
  }
}
