import Foundation
import JournalCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The output folder's files, reached without following symbolic links:
/// reads, atomic replaces, removals, and the cleanup of interrupted writes.
///
/// Every document write goes to `.<name>.rebuild-tmp` in the same folder, is
/// synced, then renamed over the document, so a reader sees the old bytes or
/// the new ones, never a mix. Files get mode 0600 and folders 0700. The folders
/// written to are synced once, by ``syncFolders()``.
final class DocumentTreeWriter {
  /// The suffix of temporary files; a leading dot hides them too.
  static let temporarySuffix = ".rebuild-tmp"

  let root: String
  private var foldersToSync: Set<String> = []
  private var writes = 0
  private let failAfterWrites: Int?

  /// What a path in the folder is, without following links.
  enum Entry: Equatable {
    case missing
    case file
    case folder
    /// A symbolic link or anything else: never followed, never replaced.
    case other
  }

  init(root: URL, failAfterWrites: Int? = nil) {
    var path = root.standardizedFileURL.path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    self.root = path
    self.failAfterWrites = failAfterWrites
  }

  func absolute(_ relative: String) -> String {
    relative.isEmpty ? root : root + "/" + relative
  }

  // MARK: - Looking

  func entry(_ relative: String) throws -> Entry {
    var info = stat()
    guard lstat(absolute(relative), &info) == 0 else {
      if errno == ENOENT || errno == ENOTDIR { return .missing }
      throw failure("stat", relative)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .folder
    default: return .other
    }
  }

  /// Why `relative` cannot be written safely, or nil: every folder on the way
  /// must be a real folder (or missing), and the file a regular file (or missing).
  func obstacle(to relative: String) throws -> String? {
    var prefix = ""
    for component in relative.split(separator: "/").dropLast() {
      prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
      switch try entry(prefix) {
      case .missing: return nil
      case .folder: continue
      case .file, .other: return "'\(prefix)' is not a folder (a link or a file); left alone"
      }
    }
    switch try entry(relative) {
    case .missing, .file: return nil
    case .folder, .other: return "not a regular file (a link or a folder); left alone"
    }
  }

  /// The bytes of the regular file at `relative`, nil when there is none.
  func read(_ relative: String) throws -> [UInt8]? {
    let descriptor = open(absolute(relative), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else {
      if errno == ENOENT || errno == ENOTDIR || errno == ELOOP { return nil }
      throw failure("open", relative)
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw failure("stat", relative) }
    // Read straight into a buffer of the file's size, one byte more so that
    // the end is seen without growing it; grown if the file grew meanwhile.
    var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
    var length = 0
    while true {
      if length == bytes.count { bytes += repeatElement(0, count: max(bytes.count, 4096)) }
      let count = bytes.withUnsafeMutableBytes { buffer in
        systemRead(descriptor, buffer.baseAddress.map { $0 + length }, buffer.count - length)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("read", relative)
      }
      if count == 0 {
        bytes.removeSubrange(length...)
        return bytes
      }
      length += count
    }
  }

  // MARK: - Writing

  /// Replaces the file at `relative` with `bytes` atomically.
  ///
  /// - Parameters:
  ///   - relative: a safe path inside the output folder.
  ///   - bytes: the new content.
  ///   - durable: sync the file before the rename (documents); the folder is
  ///     synced later by ``syncFolders()``.
  /// - Throws: ``RebuildError`` when a system call fails, or from the test seam.
  func writeAtomically(_ relative: String, _ bytes: [UInt8], durable: Bool = true) throws {
    let folder = RelativePath.folder(of: relative)
    try makeFolders(folder)
    let temporary = Self.temporaryPath(for: relative)
    let path = absolute(temporary)
    if unlink(path) != 0 && errno != ENOENT { throw failure("remove", temporary) }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { throw failure("create", temporary) }
    do {
      try writeAll(descriptor, bytes, temporary)
      if let limit = failAfterWrites, writes >= limit {
        throw RebuildError(.interrupted, path: relative, "interrupted by the test seam")
      }
      if durable { try Self.sync(descriptor, temporary) }
    } catch {
      close(descriptor)
      throw error
    }
    close(descriptor)
    guard rename(path, absolute(relative)) == 0 else { throw failure("rename", temporary) }
    writes += 1
    foldersToSync.insert(folder)
  }

  /// Writes `bytes` to the file at `relative` in place, without sync: for
  /// cache files, which are checked by digest when read back, so a torn write
  /// is detected.
  ///
  /// The file is overwritten from its start and then cut to the new length,
  /// never first emptied: on ext4 (`auto_da_alloc`) emptying a file and
  /// writing it again forces its data out at close, which costs as much as a
  /// sync.
  func writeInPlace(_ relative: String, _ bytes: [UInt8]) throws {
    try makeFolders(RelativePath.folder(of: relative))
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW
    let descriptor = open(absolute(relative), flags, 0o600)
    guard descriptor >= 0 else { throw failure("create", relative) }
    defer { close(descriptor) }
    try writeAll(descriptor, bytes, relative)
    guard ftruncate(descriptor, off_t(bytes.count)) == 0 else {
      throw failure("truncate", relative)
    }
  }

  /// Appends `bytes` to the file at `relative`, after cutting it to its
  /// first `length` bytes (a torn tail), and syncs it when `durable`.
  func append(_ relative: String, _ bytes: [UInt8], keeping length: Int, durable: Bool) throws {
    let descriptor = open(absolute(relative), O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { throw failure("open", relative) }
    defer { close(descriptor) }
    let end = lseek(descriptor, 0, SEEK_END)
    guard end >= 0 else { throw failure("seek", relative) }
    if end != off_t(length) {
      guard ftruncate(descriptor, off_t(length)) == 0,
        lseek(descriptor, off_t(length), SEEK_SET) >= 0
      else { throw failure("truncate", relative) }
    }
    try writeAll(descriptor, bytes, relative)
    if durable { try Self.sync(descriptor, relative) }
  }

  /// Removes the file at `relative`, then its folders up to the top one while empty.
  func remove(_ relative: String) throws {
    guard unlink(absolute(relative)) == 0 || errno == ENOENT else {
      throw failure("remove", relative)
    }
    var folder = RelativePath.folder(of: relative)
    foldersToSync.insert(folder)
    while folder.contains("/") {
      guard rmdir(absolute(folder)) == 0 else { break }
      folder = RelativePath.folder(of: folder)
      foldersToSync.insert(folder)
    }
  }

  /// Syncs every folder written to since the last call.
  func syncFolders() throws {
    for folder in foldersToSync.sorted() where try entry(folder) == .folder {
      try syncFolder(folder)
    }
    foldersToSync = []
  }

  /// Takes the folder's rebuild lock, so two rebuilds never write the same
  /// folder at once; released when the returned descriptor is closed.
  func lock(_ relative: String) throws -> Int32 {
    let descriptor = open(absolute(relative), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else { throw failure("open", relative) }
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      let code = errno
      close(descriptor)
      if code == EWOULDBLOCK {
        throw RebuildError(.busy, path: relative, "another rebuild is writing this folder")
      }
      throw RebuildError(.io, path: relative, "cannot lock: \(Self.message(code))")
    }
    return descriptor
  }

  func unlock(_ descriptor: Int32) { close(descriptor) }

  /// Creates the output folder itself when missing.
  func makeRoot() throws {
    if mkdir(root, 0o700) != 0 && errno != EEXIST {
      throw RebuildError(.io, path: root, "cannot create the folder: \(Self.message(errno))")
    }
    var info = stat()
    guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw RebuildError(.unusableOutput, path: root, "not a folder")
    }
  }

  private func makeFolders(_ folder: String) throws {
    guard !folder.isEmpty else { return }
    var prefix = ""
    for component in folder.split(separator: "/") {
      prefix = prefix.isEmpty ? String(component) : prefix + "/" + component
      if mkdir(absolute(prefix), 0o700) == 0 {
        foldersToSync.insert(RelativePath.folder(of: prefix))
      } else if try errno != EEXIST || entry(prefix) != .folder {
        throw failure("create the folder", prefix)
      }
    }
  }

  private func writeAll(_ descriptor: Int32, _ bytes: [UInt8], _ relative: String) throws {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("write", relative)
      }
      offset += count
    }
  }

  private static func sync(_ descriptor: Int32, _ relative: String) throws(RebuildError) {
    #if canImport(Darwin)
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
    #endif
    while fsync(descriptor) != 0 {
      if errno != EINTR { throw failure("sync", relative) }
    }
  }

  private func syncFolder(_ relative: String) throws {
    let descriptor = open(absolute(relative), O_RDONLY | O_CLOEXEC | O_DIRECTORY)
    guard descriptor >= 0 else { throw failure("open", relative) }
    defer { close(descriptor) }
    try Self.sync(descriptor, relative)
  }

  // MARK: - Interrupted writes

  static func temporaryPath(for relative: String) -> String {
    let folder = RelativePath.folder(of: relative)
    let name = "." + RelativePath.fileName(of: relative) + temporarySuffix
    return folder.isEmpty ? name : folder + "/" + name
  }

  /// Removes the temporary files an interrupted rebuild left in `folders`
  /// (and below them when `recursive`), without following links, and
  /// returns how many.
  func removeTemporaryFiles(in folders: [String], recursive: Bool) throws -> Int {
    var removed = 0
    var pending = folders
    while let folder = pending.popLast() {
      guard try entry(folder) == .folder else { continue }
      for name in try contents(of: folder) {
        let path = folder.isEmpty ? name : folder + "/" + name
        if name.hasPrefix(".") && name.hasSuffix(Self.temporarySuffix) {
          if try entry(path) == .file {
            try remove(path)
            removed += 1
          }
        } else if recursive, !folders.contains(path), try entry(path) == .folder {
          pending.append(path)
        }
      }
    }
    return removed
  }

  /// The names in `folder`, sorted.
  func contents(of folder: String) throws -> [String] {
    do {
      return try FileManager.default.contentsOfDirectory(atPath: absolute(folder)).sorted()
    } catch {
      throw RebuildError(.io, path: folder, "cannot list the folder: \(error.localizedDescription)")
    }
  }

  /// Every regular file under `folder`, relative to the root, without following links.
  func files(under folder: String) throws -> [String] {
    var result: [String] = []
    var pending = [folder]
    while let current = pending.popLast() {
      guard try entry(current) == .folder else { continue }
      for name in try contents(of: current) {
        let path = current.isEmpty ? name : current + "/" + name
        switch try entry(path) {
        case .file: result.append(path)
        case .folder: pending.append(path)
        case .missing, .other: break
        }
      }
    }
    return result.sorted()
  }

  // MARK: - Errors

  private func failure(_ operation: String, _ relative: String) -> RebuildError {
    Self.failure(operation, relative)
  }

  private static func failure(_ operation: String, _ relative: String) -> RebuildError {
    RebuildError(.io, path: relative, "cannot \(operation): \(message(errno))")
  }

  static func message(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text).lowercased()
  }
}

/// `read(2)`, named apart from ``DocumentTreeWriter/read(_:)``.
private func systemRead(
  _ descriptor: Int32,
  _ buffer: UnsafeMutableRawPointer?,
  _ count: Int
) -> Int {
  #if canImport(Darwin)
  Darwin.read(descriptor, buffer, count)
  #elseif canImport(Glibc)
  Glibc.read(descriptor, buffer, count)
  #elseif canImport(Musl)
  Musl.read(descriptor, buffer, count)
  #endif
}
