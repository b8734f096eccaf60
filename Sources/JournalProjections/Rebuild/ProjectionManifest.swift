import Foundation
import JournalCore

/// The list of documents the rebuild owns in an output folder, with the
/// digest (``digest(_:)``) of the bytes it last wrote to each.
///
/// Stored in `.journal-projection/`, so that one rebuild reads and writes
/// only what it touches:
///
/// - `shards/<folder>`: one file per document folder (`Workouts+2026+01` for
///   `Workouts/2026/01`, `+` for the top), a `digest path` line per owned
///   document, ending with `checksum <digest of the lines>`;
/// - `log`: the changes since the shards were last written, appended as
///   blocks. A `pending` block names the writes a rebuild is about to make
///   (`digest path`), flushed before the first document is written; a `commit`
///   block records what it did (`digest path`, or `- path` for a document no
///   longer owned). Each block ends with `end <chain>`, the digest of the
///   previous block's chain and this block's lines, so a torn tail is detected
///   and ignored.
///
/// A log found ending with `pending` blocks says the rebuild was interrupted: a
/// file with the bytes named is the rebuild's own. (A `rendering` block, which
/// earlier builds wrote instead, says so too, without naming any bytes.) When the
/// log grows past ``compactionThreshold`` its changes are written into the shards
/// (synced) and it starts again, carrying the chain.
///
/// Only paths listed here are ever rewritten or removed without first having
/// the very bytes the rebuild wants (see `docs/Rebuild.md`).
final class ProjectionManifest {
  static let folder = ".journal-projection"
  static let logPath = folder + "/log"
  static let shardsFolder = folder + "/shards"
  /// The single-file manifest of format 1, read once and replaced.
  static let legacyFileName = ".journal-projection.json"
  /// The format written.
  ///
  /// Format 2 (SHA-256 everywhere) is still read; its log and shards are written again
  /// in this format at the next commit.
  static let format = 3
  /// Log size past which its changes are written into the shards.
  var compactionThreshold = 16 * 1024
  private static let header = "workout-journal-manifest"
  private static let shardHeader = shardHeader(format)
  private static func shardHeader(_ format: Int) -> String {
    "workout-journal-manifest-shard \(format)\n"
  }

  /// How the manifest hashes: the documents' bytes, the log's chain, a shard's lines.
  enum Hashing {
    /// Format 3: XXH64, 16 lowercase hex digits. The manifest guards against accident
    /// (a document edited, a torn log), not forgery (`docs/Rebuild.md`).
    case xxh64
    /// Format 2, and the entries format 1 and 2 wrote: SHA-256, 64 lowercase hex digits.
    case sha256

    /// The hashing of a manifest's format; nil for a format this build cannot read.
    init?(format: Int) {
      switch format {
      case 2: self = .sha256
      case ProjectionManifest.format: self = .xxh64
      default: return nil
      }
    }

    /// The hashing that made `digest`, known by its length; nil when it is not lowercase
    /// hex of either length.
    init?(digest: some StringProtocol) {
      let utf8 = digest.utf8
      switch utf8.count {
      case 16: self = .xxh64
      case 64: self = .sha256
      default: return nil
      }
      // Read for every entry of every shard loaded: a plain loop, not a generic predicate.
      for byte in utf8 where !(byte &- 0x30 < 10 || byte &- 0x61 < 6) { return nil }
    }

    func hex(_ bytes: [UInt8]) -> String {
      switch self {
      case .xxh64: XXH64.hex(bytes)
      case .sha256: SHA256Digest.hex(bytes)
      }
    }
  }

  /// The digest this format records for a document's bytes.
  static func digest(_ bytes: [UInt8]) -> String { Hashing.xxh64.hex(bytes) }

  /// Whether `bytes` are those an entry's `digest` was made from, hashing them the way
  /// that digest was made (entries written by format 2 keep their SHA-256 until their
  /// document is written again).
  static func matches(_ bytes: [UInt8], _ digest: String) -> Bool {
    guard let hashing = Hashing(digest: digest) else { return false }
    return hashing.hex(bytes) == digest
  }

  private let writer: DocumentTreeWriter
  /// How the log's chain is hashed: by its header's format, this build's for a new log.
  private var logHashing = Hashing.xxh64
  /// Owned entries of the shards read so far, with the log applied:
  /// shard → path → digest.
  private var shards: [String: [String: String]] = [:]
  private var allLoaded = false
  /// The log's committed changes, by shard: path → digest, nil when dropped.
  private var logged: [String: [String: String?]] = [:]
  /// Changes made by this run and not yet committed.
  private var changes: [String: String?] = [:]
  /// Writes an interrupted rebuild was making: path → digest of the new bytes.
  private(set) var pending: [String: String] = [:]
  /// The chain of the last block of the log: changes with every commit.
  private(set) var identity: String
  /// Notices for the report: unreadable parts.
  private(set) var notices: [String] = []
  /// The bytes of the log up to its last valid block, nil when there is none.
  private var logLength: Int?
  private var logBytes = 0
  /// The shards and the log must be written afresh at the next commit: the
  /// manifest came from format 1, or a part was unreadable.
  private var rewrite: Set<String> = []
  private var rewriteAll = false
  /// A commit must be appended even without changes: it closes pending blocks.
  private var mustCommit = false

  private init(writer: DocumentTreeWriter) {
    self.writer = writer
    identity = Self.digest(Array(Self.header.utf8))
  }

  /// Whether the last rebuild was interrupted before it committed: the log ended with
  /// `pending` (or `rendering`) blocks when the manifest was opened.
  private(set) var isInterrupted = false

  // MARK: - Reading

  /// Reads the log of the folder's manifest; shards are read when needed.
  ///
  /// - Throws: ``RebuildError`` when it is a newer format or not a regular
  ///   file, or on I/O errors.
  static func open(_ writer: DocumentTreeWriter) throws -> ProjectionManifest {
    let manifest = ProjectionManifest(writer: writer)
    for path in [folder, shardsFolder] where try writer.entry(path) == .other {
      throw RebuildError(.unusableOutput, path: path, "not a folder; refusing to follow it")
    }
    for path in [logPath, legacyFileName] where try writer.entry(path) == .other {
      throw RebuildError(.unusableOutput, path: path, "not a regular file; refusing to follow it")
    }
    if let bytes = try writer.read(logPath) {
      try manifest.readLog(bytes)
    } else if let bytes = try writer.read(legacyFileName) {
      try manifest.readLegacy(bytes)
    }
    manifest.isInterrupted = manifest.mustCommit
    return manifest
  }

  private func readLog(_ bytes: [UInt8]) throws {
    logBytes = bytes.count
    var lines = Lines(bytes)
    guard let first = lines.next(),
      let (format, base) = Self.parseHeader(String(decoding: first.bytes, as: UTF8.self))
    else {
      notices.append("\(Self.logPath): unreadable manifest log ignored; its changes are lost")
      identity = Self.digest(bytes)
      rewriteAll = true
      return
    }
    guard let hashing = Hashing(format: format) else {
      throw RebuildError(
        .unusableOutput,
        path: Self.logPath,
        "manifest format \(format) is not supported; the highest supported is \(Self.format)"
      )
    }
    identity = base
    logLength = first.end
    logHashing = hashing
    // An older format is written again, shards and log, at the next commit.
    if format != Self.format { rewriteAll = true }
    // Blocks: a kind line, entry lines, `end <chain>`. Read on bytes: the
    // log is read at every rebuild and holds up to 16 KiB of entries.
    var block: [UInt8] = []
    var kind: Kind?
    var entries: [(String, String?)] = []
    while let line = lines.next() {
      guard let current = kind else {
        guard let opening = Kind(line.bytes) else { break }
        kind = opening
        block = Array(line.bytes) + [0x0A]
        entries = []
        continue
      }
      if line.bytes.starts(with: Self.endMarker) {
        let chain = logHashing.hex(Array((identity + "\n").utf8) + block)
        guard line.bytes.dropFirst(Self.endMarker.count).elementsEqual(chain.utf8) else { break }
        identity = chain
        logLength = line.end
        switch current {
        case .rendering:
          mustCommit = true
        case .pending:
          for case (let path, let digest?) in entries { pending[path] = digest }
          mustCommit = true
        case .commit:
          for (path, digest) in entries {
            logged[Self.shard(of: path), default: [:]][path] = .some(digest)
          }
          pending = [:]
          mustCommit = false
        }
        kind = nil
        continue
      }
      if current == .rendering {
        // Its one line named a position of the history that an earlier build rendered:
        // this build does not render it again.
        guard block.count == Kind.rendering.rawValue.utf8.count + 1 else { break }
      } else {
        guard let entry = Self.parseEntry(line.bytes) else { break }
        entries.append(entry)
      }
      block += line.bytes
      block.append(0x0A)
    }
  }

  /// The kinds of block in the log.
  private enum Kind: String, CaseIterable {
    case rendering
    case pending
    case commit

    /// The kind a line opens, nil for any other line.
    init?(_ line: ArraySlice<UInt8>) {
      guard let kind = Kind.allCases.first(where: { line.elementsEqual($0.rawValue.utf8) })
      else { return nil }
      self = kind
    }
  }

  private static let endMarker = Array("end ".utf8)

  /// Reads a format 1 manifest (`{"format": 1, "owned": {...}, "pending": {...}}`);
  /// every shard is written from it at the next commit, and it is removed.
  private func readLegacy(_ bytes: [UInt8]) throws {
    allLoaded = true
    rewriteAll = true
    identity = Self.digest(bytes)
    let unreadable =
      "\(Self.legacyFileName): unreadable manifest ignored; no document is treated as owned"
    guard let value = try? JSONValue.parse(bytes), let format = value["format"]?.intValue,
      let owned = value["owned"]?.objectValue
    else { return notices.append(unreadable) }
    guard format == 1 else {
      throw RebuildError(
        .unusableOutput,
        path: Self.legacyFileName,
        "manifest format \(format) is not supported; the highest supported is \(Self.format)"
      )
    }
    var read: [String: String] = [:]
    var readPending: [String: String] = [:]
    for (target, entries) in [(0, owned), (1, value["pending"]?.objectValue ?? [:])] {
      for (path, digest) in entries {
        guard let hex = digest.stringValue, Hashing(digest: hex) == .sha256 else {
          return notices.append(unreadable)
        }
        if target == 0 { read[path] = hex } else { readPending[path] = hex }
      }
    }
    for (path, digest) in read.sorted(by: { $0.key < $1.key }) {
      guard RelativePath.isSafe(path) else {
        notices.append("\(Self.legacyFileName): unsafe path '\(path)' dropped")
        continue
      }
      shards[Self.shard(of: path), default: [:]][path] = digest
    }
    pending = readPending
    mustCommit = !pending.isEmpty
  }

  /// Reads the shard `name` once, and applies the log's changes to it.
  private func load(_ name: String) throws {
    guard shards[name] == nil, !allLoaded else { return }
    var entries: [String: String] = [:]
    if let bytes = try writer.read(Self.shardsFolder + "/" + name) {
      if let read = Self.decodeShard(bytes, name: name) {
        entries = read
      } else {
        notices.append(
          "\(Self.shardsFolder)/\(name): unreadable manifest shard ignored; "
            + "no document of its folder is treated as owned"
        )
        rewrite.insert(name)
      }
    }
    for (path, digest) in logged[name] ?? [:] { entries[path] = digest }
    shards[name] = entries
  }

  /// Reads every shard.
  private func loadAll() throws {
    guard !allLoaded else { return }
    if try writer.entry(Self.shardsFolder) == .folder {
      for name in try writer.contents(of: Self.shardsFolder) where !name.hasPrefix(".") {
        if try writer.entry(Self.shardsFolder + "/" + name) == .file { try load(name) }
      }
    }
    for name in logged.keys { try load(name) }
    allLoaded = true
  }

  // MARK: - Looking up

  /// The digest of the bytes last written to `path`, when the rebuild owns it.
  func owned(_ path: String) throws -> String? {
    let name = Self.shard(of: path)
    try load(name)
    return current(path, name)
  }

  /// `owned` for a path whose shard is loaded.
  private func current(_ path: String, _ name: String) -> String? {
    if let change = changes[path] { return change }
    return shards[name]?[path]
  }

  /// Whether a file at `path` with `bytes` is the rebuild's own: they are the bytes it
  /// last wrote there, or those an interrupted rebuild was writing.
  func owns(_ path: String, bytes: [UInt8]) throws -> Bool {
    for digest in [try owned(path), pending[path]] {
      if let digest, Self.matches(bytes, digest) { return true }
    }
    return false
  }

  /// Every owned path, grouped by the stream whose document it is.
  ///
  /// Paths of no stream are under the key "". Reads every shard.
  func pathsByStream() throws -> [String: [String]] {
    try loadAll()
    var result: [String: [String]] = [:]
    for (name, entries) in shards {
      for path in entries.keys where current(path, name) != nil {
        result[RelativePath.stream(of: path) ?? "", default: []].append(path)
      }
    }
    for case (let path, _?) in changes where shards[Self.shard(of: path)]?[path] == nil {
      result[RelativePath.stream(of: path) ?? "", default: []].append(path)
    }
    return result
  }

  /// The owned paths of `stream` in the folders of `paths`.
  func paths(of stream: String, inFoldersOf paths: [String]) throws -> [String] {
    var result: Set<String> = []
    for name in Set(paths.map(Self.shard(of:))) {
      try load(name)
      for path in (shards[name] ?? [:]).keys
      where RelativePath.stream(of: path) == stream && current(path, name) != nil {
        result.insert(path)
      }
    }
    let names = Set(paths.map(Self.shard(of:)))
    for case (let path, _?) in changes
    where RelativePath.stream(of: path) == stream && names.contains(Self.shard(of: path)) {
      result.insert(path)
    }
    return result.sorted()
  }

  // MARK: - Changing

  /// Records that the rebuild owns `path` with bytes hashed `digest`.
  ///
  /// A nil digest: it no longer owns it. Saved by ``commit()``.
  func set(_ path: String, _ digest: String?) throws {
    if try owned(path) != digest { changes[path] = .some(digest) }
  }

  /// Forgets the pending writes of an interrupted rebuild once settled; the next commit
  /// closes them.
  func clearPending() {
    pending = [:]
  }

  /// Appends a `pending` block naming the writes a rebuild is about to make, and flushes
  /// it: the rebuild writes its first document only then.
  func announce(_ writes: [(path: String, digest: String)]) throws {
    try append(kind: .pending, writes.map { "\($0.digest) \($0.path)" }, durable: true)
    mustCommit = true
  }

  /// Appends a `commit` block with this run's changes, and writes the log's
  /// changes into the shards when it has grown large.
  ///
  /// The block is not synced: until it is on disk, the `pending` block says the
  /// files are the rebuild's own.
  func commit() throws {
    let entries = changes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    if !entries.isEmpty || mustCommit {
      try append(kind: .commit, entries.map { "\($0.1 ?? "-") \($0.0)" }, durable: false)
      for (path, digest) in entries {
        let name = Self.shard(of: path)
        logged[name, default: [:]][path] = .some(digest)
        if shards[name] != nil || allLoaded { shards[name, default: [:]][path] = digest }
      }
      changes = [:]
      mustCommit = false
    }
    if rewriteAll || !rewrite.isEmpty || logBytes > compactionThreshold { try compact() }
  }

  private func append(kind: Kind, _ lines: [String], durable: Bool) throws {
    var block = Array((kind.rawValue + "\n").utf8)
    for line in lines { block += Array((line + "\n").utf8) }
    let chain = logHashing.hex(Array((identity + "\n").utf8) + block)
    block += Array("end \(chain)\n".utf8)
    if let logLength {
      try writer.append(Self.logPath, block, keeping: logLength, durable: durable)
      self.logLength = logLength + block.count
      logBytes = logLength + block.count
    } else {
      // No log yet (or an unreadable one): start one, carrying the identity.
      logHashing = .xxh64
      let bytes = Self.headerBytes(base: identity) + block
      try writer.writeAtomically(Self.logPath, bytes)
      try writer.syncFolders()
      logLength = bytes.count
      logBytes = bytes.count
    }
    identity = chain
  }

  /// Writes the log's changes into their shards (synced), then starts the log
  /// again with the current identity as its base.
  private func compact() throws {
    // Temporary files of an interrupted compaction; not looked for at every
    // run, as the shards are many.
    _ = try writer.removeTemporaryFiles(in: [Self.shardsFolder], recursive: false)
    if rewriteAll { try loadAll() }
    var names = Set(logged.keys).union(rewrite)
    if rewriteAll { names.formUnion(shards.keys) }
    for name in names.sorted() {
      try load(name)
      let entries = shards[name] ?? [:]
      let path = Self.shardsFolder + "/" + name
      if entries.isEmpty {
        if try writer.entry(path) == .file { try writer.remove(path) }
      } else {
        try writer.writeAtomically(path, Self.encodeShard(entries))
      }
    }
    try writer.syncFolders()
    let bytes = Self.headerBytes(base: identity)
    try writer.writeAtomically(Self.logPath, bytes)
    logHashing = .xxh64
    if try writer.entry(Self.legacyFileName) == .file { try writer.remove(Self.legacyFileName) }
    try writer.syncFolders()
    logged = [:]
    rewrite = []
    rewriteAll = false
    logLength = bytes.count
    logBytes = bytes.count
  }

  // MARK: - Formats

  /// The shard of the documents in `path`'s folder.
  static func shard(of path: String) -> String {
    // On the bytes in place: it runs for every entry of every shard read, and `String`'s
    // generic searches and Foundation's `replacingOccurrences` cost more than the lookup.
    var path = path
    return path.withUTF8 { bytes in
      guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), slash > 0 else { return "+" }
      return String(unsafeUninitializedCapacity: slash) { name in
        for index in 0..<slash {
          name[index] = bytes[index] == UInt8(ascii: "/") ? UInt8(ascii: "+") : bytes[index]
        }
        return slash
      }
    }
  }

  private static func headerBytes(base: String) -> [UInt8] {
    Array("\(header) \(format) \(base)\n".utf8)
  }

  private static func parseHeader(_ line: String) -> (Int, String)? {
    let parts = line.split(separator: " ").map(String.init)
    guard parts.count == 3, parts[0] == header, let format = Int(parts[1]) else { return nil }
    return (format, parts[2])
  }

  /// `digest path` or `- path`; nil when malformed or the path is unsafe.
  private static func parseEntry(_ line: ArraySlice<UInt8>) -> (String, String?)? {
    guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return nil }
    let path = String(decoding: line[(space + 1)...], as: UTF8.self)
    guard RelativePath.isSafe(path) else { return nil }
    let digest = String(decoding: line[..<space], as: UTF8.self)
    if digest == "-" { return (path, nil) }
    guard Hashing(digest: digest) != nil else { return nil }
    return (path, digest)
  }

  static func encodeShard(_ entries: [String: String]) -> [UInt8] {
    var bytes = Array(shardHeader.utf8)
    for path in entries.keys.sorted() { bytes += Array("\(entries[path] ?? "") \(path)\n".utf8) }
    return bytes + Array("checksum \(digest(bytes))\n".utf8)
  }

  /// Parses ``encodeShard(_:)``, or a shard of format 2; nil when corrupt or when a path
  /// is not in the shard's folder.
  static func decodeShard(_ bytes: [UInt8], name: String) -> [String: String]? {
    let marker = Array("checksum ".utf8)
    guard
      let (header, hashing) = [(shardHeader, Hashing.xxh64), (shardHeader(2), .sha256)].first(
        where: { bytes.starts(with: $0.0.utf8) }
      )
    else { return nil }
    let checksumLength = hashing.hex([]).utf8.count
    guard bytes.count > header.utf8.count + marker.count + checksumLength, bytes.last == 0x0A
    else { return nil }
    let body = Array(bytes[..<(bytes.count - marker.count - checksumLength - 1)])
    guard bytes[body.count...].starts(with: marker),
      String(decoding: bytes[(body.count + marker.count)...].dropLast(), as: UTF8.self)
        == hashing.hex(body)
    else { return nil }
    var entries: [String: String] = [:]
    var lines = Lines(Array(body[header.utf8.count...]))
    while let line = lines.next() {
      guard let (path, digest) = parseEntry(line.bytes), let digest, shard(of: path) == name else {
        return nil
      }
      entries[path] = digest
    }
    return entries
  }

  /// The complete lines of some bytes, with the offset after each.
  private struct Lines {
    let bytes: [UInt8]
    var start = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> (bytes: ArraySlice<UInt8>, end: Int)? {
      guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
      let line = bytes[start..<newline]
      start = newline + 1
      return (line, start)
    }
  }
}

extension SHA256Digest {
  /// The digest of `bytes` as lowercase hex.
  static func hex(_ bytes: [UInt8]) -> String { SHA256.hash(bytes).hexString }
}
