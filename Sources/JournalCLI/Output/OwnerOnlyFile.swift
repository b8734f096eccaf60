import Foundation
import JournalProjections

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files a read writes for a person (a chart, a report): replaced atomically, readable by the
/// owner only, as they hold personal training data.
enum OwnerOnlyFile {
  /// Throws the error ``write(_:to:example:)`` would for `url` when it is a folder or its
  /// folder is missing or not writable: a command that reads before it writes checks first,
  /// so that a refused one changes nothing.
  static func check(_ url: URL, example: String) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw CommandError("'\(url.path)' is a directory", hint: "name a file, e.g. '\(example)'")
    }
    let folder = url.deletingLastPathComponent()
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
      isDirectory.boolValue, FileManager.default.isWritableFile(atPath: folder.path)
    else {
      throw CommandError(
        "cannot write '\(url.path)'",
        hint: "check that '\(folder.path)' exists and is writable"
      )
    }
  }

  /// Writes `data` to `url` atomically, readable by the owner only.
  ///
  /// A temporary file beside it is renamed over it, so a reader sees the old file or the
  /// new one, never a part. A directory is refused; `example` names a file in the hint.
  static func write(_ data: Data, to url: URL, example: String) throws {
    _ = try write(to: url, example: example) { write in try write(data) }
  }

  /// Writes to `url` what `produce` hands to the function it is given, piece by piece, as
  /// ``write(_:to:example:)`` writes its data: a page need not be held whole.
  ///
  /// - Returns: how many bytes were written.
  static func write(
    to url: URL,
    example: String,
    _ produce: (_ write: (Data) throws -> Void) throws -> Void
  ) throws -> Int {
    try check(url, example: example)
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
    let failure = CommandError(
      "cannot write '\(url.path)'",
      hint: "check that '\(folder.path)' exists and is writable"
    )
    guard
      FileManager.default.createFile(
        atPath: temporary.path,
        contents: nil,
        attributes: [.posixPermissions: 0o600]
      ), let handle = FileHandle(forWritingAtPath: temporary.path)
    else { throw failure }
    var count = 0
    do {
      defer { try? handle.close() }
      try produce { piece in
        try handle.write(contentsOf: piece)
        count += piece.count
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error is CommandError ? error : failure
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw CommandError("cannot write '\(url.path)': \(reason)")
    }
    return count
  }
}
