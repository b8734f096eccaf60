import Foundation
import JournalCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every entry of a folder, hashed.
///
/// Each file's SHA-256, each link's target, each entry's type and permission bits.
/// Symbolic links are recorded, never followed.
///
/// Take one before a case that must be rejected and compare after, so "nothing was
/// appended, nothing was lost" is checked byte for byte:
///
/// ```swift
/// let before = try JournalFingerprint(of: journal)
/// // … a command that must be refused …
/// try JournalFingerprint(of: journal).expectUnchanged(from: before)
/// ```
package struct JournalFingerprint: Sendable, Hashable, CustomStringConvertible {
  /// Relative path → `type mode digest` (the digest of a file's bytes, or a link's target).
  package var entries: [String: String]

  /// Hashes the folder at `url`; a missing folder has no entries.
  package init(of url: URL) throws {
    entries = [:]
    try walk(url.path, relative: "")
  }

  private mutating func walk(_ path: String, relative: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    let mode = String(info.st_mode & 0o7777, radix: 8)
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      if !relative.isEmpty { entries[relative] = "folder \(mode)" }
      // A folder this user cannot list (chmod 000 under a non-root user) is recorded as such.
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
        entries[relative + "/"] = "unlistable"
        return
      }
      for name in names.sorted() {
        try walk(path + "/" + name, relative: relative.isEmpty ? name : relative + "/" + name)
      }
    case S_IFLNK:
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
      entries[relative] = "link \(target)"
    case S_IFREG:
      let digest =
        FileManager.default.contents(atPath: path).map { SHA256.hash($0).description }
        ?? "unreadable size \(info.st_size)"
      entries[relative] = "file \(mode) \(digest)"
    default:
      entries[relative] = "other \(mode)"
    }
  }

  /// The entries, one per line, sorted.
  package var description: String {
    entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
  }

  /// The entries that differ from `other`: added, removed or changed.
  package func differences(from other: JournalFingerprint) -> [String] {
    let keys = Set(entries.keys).union(other.entries.keys).sorted()
    return keys.compactMap { key in
      switch (other.entries[key], entries[key]) {
      case (nil, let now?): "added \(key) (\(now))"
      case (let was?, nil): "removed \(key) (\(was))"
      case (let was?, let now?) where was != now: "changed \(key): \(was) → \(now)"
      default: nil
      }
    }
  }

  /// Expects the folder to hash as it did when `before` was taken.
  package func expectUnchanged(
    from before: JournalFingerprint,
    _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let changes = differences(from: before)
    #expect(
      changes.isEmpty,
      "the journal changed \(comment): \(changes.joined(separator: "; "))",
      sourceLocation: sourceLocation
    )
  }
}

/// Hashes the folder at `url`, runs `body`, and expects the folder unchanged.
package func expectUnchanged<Result>(
  _ url: URL,
  _ comment: String = "",
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Result
) throws -> Result {
  let before = try JournalFingerprint(of: url)
  let result = try body()
  try JournalFingerprint(of: url).expectUnchanged(
    from: before,
    comment,
    sourceLocation: sourceLocation
  )
  return result
}

/// Whether this process can read files whatever their permissions (running as root), in
/// which case `chmod 000` does not make a file unreadable and tests of it must be skipped.
package var permissionsAreIgnored: Bool { geteuid() == 0 }
