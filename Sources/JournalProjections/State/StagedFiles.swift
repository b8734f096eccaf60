import Foundation
import JournalCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a saved state as its parts read and write them.
protocol StateFiles: AnyObject {
  /// The bytes of `relative`, nil when it does not exist.
  func read(_ relative: String) throws -> [UInt8]?
  /// Replaces `relative` with `bytes` in one step.
  func writeAtomically(_ relative: String, _ bytes: [UInt8], durable: Bool) throws
  /// Removes `relative`; nothing when it does not exist.
  func remove(_ relative: String) throws
}

/// The saved state's folder, written through the journal's system calls.
///
/// Each file is written to a temporary file renamed over it, through `io`, the journal's seam
/// for system calls, where tests inject failures. Not flushed: the state is a cache, and a
/// file cut short fails its checksum.
final class StateFolder: StateFiles {
  let tree: DocumentTreeWriter
  let io: any FileIO

  init(_ tree: DocumentTreeWriter, io: any FileIO) {
    self.tree = tree
    self.io = io
  }

  func read(_ relative: String) throws -> [UInt8]? {
    try tree.read(relative)
  }

  /// - Throws: ``RebuildError`` of kind `io` when a call fails; the file is as it was.
  func writeAtomically(_ relative: String, _ bytes: [UInt8], durable: Bool) throws {
    let temporary = tree.absolute(DocumentTreeWriter.temporaryPath(for: relative))
    do {
      var folder = ""
      for component in RelativePath.folder(of: relative).split(separator: "/") {
        folder += folder.isEmpty ? String(component) : "/\(component)"
        _ = try io.makeDirectory(tree.absolute(folder), mode: 0o700)
      }
      unlink(temporary)
      try io.createFile(temporary, bytes: bytes, durable: durable)
      try io.rename(temporary, to: tree.absolute(relative))
    } catch {
      unlink(temporary)
      throw RebuildError(.io, path: relative, error.journalError().message)
    }
  }

  func remove(_ relative: String) throws {
    try tree.remove(relative)
  }
}

/// Writes held back until ``commit()``, and read back before then: a read that brings the
/// exercise index up to date keeps what it wrote only when it answers, so that a refused
/// command leaves the saved state as it was too.
final class StagedFiles: StateFiles {
  private let base: any StateFiles
  /// Each file written (its bytes) or removed (nil), by path.
  private var pending: [String: [UInt8]?] = [:]

  init(over base: any StateFiles) {
    self.base = base
  }

  func read(_ relative: String) throws -> [UInt8]? {
    if let staged = pending[relative] { return staged }
    return try base.read(relative)
  }

  func writeAtomically(_ relative: String, _ bytes: [UInt8], durable: Bool) throws {
    pending[relative] = .some(bytes)
  }

  func remove(_ relative: String) throws {
    pending[relative] = .some(nil)
  }

  /// Writes what was staged, in the order of the paths.
  func commit() throws {
    for (relative, bytes) in pending.sorted(by: { $0.key < $1.key }) {
      if let bytes {
        try base.writeAtomically(relative, bytes, durable: false)
      } else {
        try base.remove(relative)
      }
    }
    pending = [:]
  }
}
