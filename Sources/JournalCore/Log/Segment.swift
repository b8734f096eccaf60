import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Names and parsing of segment files (`000001.jsonl`, `000002.jsonl`…).
enum Segment {
  /// The extension of segment files.
  static let fileExtension = ".jsonl"
  /// The suffix of side files holding torn tails (`000003.jsonl.torn`, then `.torn.2`…).
  static let tornSuffix = ".torn"
  /// The lock file in each device folder.
  static let lockFileName = ".lock"
  /// The highest segment number that fits in six digits.
  static let maximumNumber = 999_999
  /// The longest record line, without its newline: 1 MiB.
  ///
  /// Writers refuse to write one and readers refuse to decode one. A longer line is corruption, reported without being parsed.
  static let maximumLineLength = 1 << 20
  /// The largest segment file a reader reads: 64 MiB.
  ///
  /// A writer never makes a larger one
  /// (it refuses a batch that alone would be larger), so a larger file is not a segment
  /// and is refused without being read into memory.
  static let maximumFileSize = 64 << 20

  /// The file name of segment `number`: six digits, zero-padded.
  static func fileName(_ number: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + fileExtension
  }

  /// The number of a segment file name, nil for any other name.
  static func number(of fileName: String) -> Int? {
    let utf8 = Array(fileName.utf8)
    guard utf8.count == 6 + fileExtension.utf8.count, fileName.hasSuffix(fileExtension) else {
      return nil
    }
    var value = 0
    for byte in utf8[0..<6] {
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value >= 1 ? value : nil
  }

  /// The infix of branch files: `000003.branch-<16 hex digits>.jsonl`.
  static let branchInfix = ".branch-"

  /// The name of the branch file that holds a fork's branch: the segment holding the last
  /// record in common, and the first 16 hex digits of the SHA-256 of the branch's last
  /// record (through the chain, that hash names the whole branch, so every machine that
  /// heals the same branch names its file the same).
  static func branchFileName(segment: Int, head: SHA256Digest) -> String {
    String(fileName(segment).dropLast(fileExtension.count)) + branchInfix
      + String(head.hexString.prefix(16)) + fileExtension
  }

  /// The segment number in a branch file's name, nil for any other name.
  static func branchSegment(of fileName: String) -> Int? {
    let utf8 = Array(fileName.utf8)
    let infix = Array(branchInfix.utf8)
    guard utf8.count == 6 + infix.count + 16 + fileExtension.utf8.count,
      fileName.hasSuffix(fileExtension), Array(utf8[6..<(6 + infix.count)]) == infix,
      utf8[(6 + infix.count)..<(6 + infix.count + 16)].allSatisfy({
        ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
          || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
      })
    else { return nil }
    return number(of: String(decoding: utf8[0..<6], as: UTF8.self) + fileExtension)
  }

  /// Whether `fileName` is a torn-tail side file of a segment.
  static func isSideFile(_ fileName: String) -> Bool {
    guard let range = fileName.range(of: fileExtension + tornSuffix) else { return false }
    return number(of: String(fileName[..<range.upperBound].dropLast(tornSuffix.count))) != nil
  }
}

// MARK: - Sync artefacts

/// Files and folders that file-sync services leave beside the ones they sync.
///
/// They are recognised by name, never read as records, and reported as notes (``verify()``)
/// or notices (readers), never as corruption:
///
/// | name | left by |
/// |---|---|
/// | `000003 2.jsonl`, `000003 (1).jsonl` | iCloud Drive, Finder, OneDrive: a duplicate |
/// | `000003 (conflicted copy 2026-01-01).jsonl` | Dropbox: a conflicted copy |
/// | `000003.sync-conflict-20260101-120000-ABCDEF.jsonl` | Syncthing: a conflict copy |
/// | `.000003.jsonl.icloud` | iCloud Drive: a placeholder for a file not downloaded yet |
/// | `.syncthing.000003.jsonl.tmp`, `~syncthing~000003.jsonl.tmp` | Syncthing: a download in progress |
///
/// The same shapes around a device name (`phone 2`, `phone.sync-conflict-…`) mark a copy of
/// a whole device folder.
enum SyncArtefact {
  /// What a sync service left.
  enum Shape {
    /// iCloud Drive's placeholder for a file not downloaded yet.
    case placeholder
    /// Syncthing's download in progress.
    case download
    /// Syncthing's conflict copy.
    case syncthingConflict
    /// Dropbox's conflicted copy.
    case dropboxConflict
    /// A numbered duplicate (iCloud Drive, Finder, OneDrive).
    case duplicate

    /// Whether the copy holds a whole version of the original that another machine wrote:
    /// a conflict copy or a duplicate, not a placeholder or a download in progress.
    var isVersion: Bool {
      switch self {
      case .syncthingConflict, .dropboxConflict, .duplicate: true
      case .placeholder, .download: false
      }
    }
  }

  /// The original `name` is a copy of and what left it; nil for other names.
  ///
  /// `base` recognises the name of the original (a segment file name, or a device name).
  static func classify(
    _ name: String,
    base: (String) -> Bool
  ) -> (original: String, shape: Shape)? {
    if name.hasPrefix("."), name.hasSuffix(".icloud") {
      let original = String(name.dropFirst().dropLast(".icloud".count))
      if base(original) { return (original, .placeholder) }
    }
    for prefix in [".syncthing.", "~syncthing~"]
    where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let original = String(name.dropFirst(prefix.count).dropLast(".tmp".count))
      if base(original) { return (original, .download) }
    }
    let (stem, fileExtension) = splitExtension(name, base: base)
    if let range = stem.range(of: ".sync-conflict-"),
      base(String(stem[..<range.lowerBound]) + fileExtension)
    {
      return (String(stem[..<range.lowerBound]) + fileExtension, .syncthingConflict)
    }
    guard let space = stem.firstIndex(of: " ") else { return nil }
    let original = String(stem[..<space]) + fileExtension
    let rest = stem[stem.index(after: space)...]
    guard base(original), !rest.isEmpty else { return nil }
    if rest.hasPrefix("("), rest.hasSuffix(")"), rest.contains("conflicted copy") {
      return (original, .dropboxConflict)
    }
    let number = rest.hasPrefix("(") && rest.hasSuffix(")") ? rest.dropFirst().dropLast() : rest
    if !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) {
      return (original, .duplicate)
    }
    return nil
  }

  /// What a sync service left, described for notes and notices; nil for other names.
  ///
  /// `base` recognises the name of the original (a segment file
  /// name, or a device name).
  static func describe(_ name: String, base: (String) -> Bool) -> String? {
    guard let (original, shape) = classify(name, base: base) else { return nil }
    switch shape {
    case .placeholder:
      return "iCloud Drive placeholder of '\(original)', not downloaded yet; not read"
    case .download: return "Syncthing download of '\(original)' in progress; not read"
    case .syncthingConflict, .dropboxConflict, .duplicate:
      return "\(label(shape, original: original)); not read"
    }
  }

  /// What a copy is, as notes and notices name it: `Dropbox conflicted copy of
  /// '000003.jsonl'`.
  static func label(_ shape: Shape, original: String) -> String {
    switch shape {
    case .placeholder: "iCloud Drive placeholder of '\(original)'"
    case .download: "Syncthing download of '\(original)'"
    case .syncthingConflict: "Syncthing conflict copy of '\(original)'"
    case .dropboxConflict: "Dropbox conflicted copy of '\(original)'"
    case .duplicate: "duplicate of '\(original)' left by a file-sync service"
    }
  }

  /// What a copy of a segment is, as notes and notices name it; nil for other names.
  static func segmentCopyLabel(_ name: String) -> String? {
    classify(name) { Segment.number(of: $0) != nil }.map { label($0.shape, original: $0.original) }
  }

  /// The segment a copy holds a version of (a conflict copy or a duplicate of
  /// `000003.jsonl`), nil for any other name.
  static func segmentVersionOriginal(_ name: String) -> Int? {
    guard let (original, shape) = classify(name, base: { Segment.number(of: $0) != nil }),
      shape.isVersion
    else { return nil }
    return Segment.number(of: original)
  }

  /// `name` split before its extension when the original has one (`000003 2.jsonl` →
  /// (`000003 2`, `.jsonl`)); device folders have none.
  private static func splitExtension(_ name: String, base: (String) -> Bool) -> (String, String) {
    if name.hasSuffix(Segment.fileExtension) {
      return (String(name.dropLast(Segment.fileExtension.count)), Segment.fileExtension)
    }
    return (name, "")
  }

  /// Describes a copy of a segment file.
  static func describeSegmentCopy(_ name: String) -> String? {
    describe(name) {
      Segment.number(of: $0) != nil || Segment.isSideFile($0)
        || Segment.branchSegment(of: $0) != nil
    }
  }

  /// Describes a copy of a device folder.
  static func describeDeviceCopy(_ name: String) -> String? {
    describe(name) { EventLog.isValidDeviceName($0) }
  }
}

// MARK: - Listing and reading

/// The files of one device folder, sorted.
struct DeviceFolderListing {
  /// Segment numbers and file names, in increasing order.
  var segments: [(number: Int, name: String)] = []
  /// Torn-tail side files.
  var sideFiles: [String] = []
  /// Branch files a heal wrote (`000003.branch-….jsonl`), with the segment in their name.
  var branchFiles: [(name: String, segment: Int)] = []
  /// Copies and placeholders a file-sync service left, with what each is.
  ///
  /// Never read; see ``SyncArtefact``.
  var syncArtefacts: [(name: String, description: String)] = []
  /// Other files, which the format does not expect.
  var unexpected: [String] = []

  /// The first missing segment number, when the numbers do not run 1, 2, 3… (a device
  /// folder that arrived before its earlier segments), and the segments after the gap.
  var gap: (missing: Int, after: ArraySlice<(number: Int, name: String)>)? {
    for (index, segment) in segments.enumerated() where segment.number != index + 1 {
      return (index + 1, segments[index...])
    }
    return nil
  }

  /// Lists `folder`, or gives an empty listing when it does not exist.
  init(folder: URL) throws {
    guard isDirectory(folder) else { return }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    } catch {
      throw JournalError(.io, file: folder.path, "cannot list the folder")
    }
    for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      if let number = Segment.number(of: name) {
        segments.append((number, name))
      } else if Segment.isSideFile(name) {
        sideFiles.append(name)
      } else if let segment = Segment.branchSegment(of: name) {
        branchFiles.append((name, segment))
      } else if let description = SyncArtefact.describeSegmentCopy(name) {
        syncArtefacts.append((name, description))
      } else if name != Segment.lockFileName {
        unexpected.append(name)
      }
    }
    segments.sort { $0.number < $1.number }
  }
}

/// What `path` is when it is not a plain file or folder a journal may use: a symbolic link,
/// or something other than `expected`; nil when it is fine or does not exist.
func refusedFileKind(_ path: String, expectFolder: Bool) -> String? {
  var info = stat()
  guard lstat(path, &info) == 0 else { return nil }
  switch info.st_mode & S_IFMT {
  case S_IFLNK: return "is a symbolic link, which a journal never follows"
  case S_IFDIR: return expectFolder ? nil : "is a folder, not a file"
  case S_IFREG: return expectFolder ? "is a file, not a folder" : nil
  default: return "is not a regular file"
  }
}

extension EventLog {
  /// Refuses a device folder that is a symbolic link or not a folder.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/refusedFile``.
  func checkDeviceFolder(_ device: String) throws(JournalError) {
    let path = deviceFolder(device).path
    if let refusal = refusedFileKind(path, expectFolder: true) {
      throw JournalError(
        .refusedFile,
        file: "\(EventLog.devicesFolderName)/\(device)",
        "device folder \(refusal); not used"
      )
    }
  }
}

// MARK: - Lines

/// One line of a segment: its bytes without the newline, and whether it had one.
package struct SegmentLine: Sendable {
  /// The byte range of the line's content (the newline excluded).
  package var range: Range<Int>
  /// Whether the line ends in a newline; only the last line of a file may not.
  package var isTerminated: Bool
  /// The 1-based line number.
  package var number: Int
}

/// Splits `bytes` into lines.
///
/// A file ending in a newline has no empty last line.
/// Lines are numbered from `firstLine`.
package func segmentLines(
  _ bytes: UnsafeRawBufferPointer,
  firstLine: Int = 1
) -> [SegmentLine] {
  var lines: [SegmentLine] = []
  guard let base = bytes.baseAddress else { return lines }
  // Room for lines of 256 bytes and more (a journal's lines are about 330 bytes, a set's
  // about 300), so that the array is not copied at every doubling.
  lines.reserveCapacity(bytes.count / 256 + 1)
  var start = 0
  while start < bytes.count {
    let remaining = bytes.count - start
    if let found = memchr(base + start, 0x0A, remaining) {
      let end = base.distance(to: UnsafeRawPointer(found))
      lines.append(
        SegmentLine(range: start..<end, isTerminated: true, number: firstLine + lines.count)
      )
      start = end + 1
    } else {
      lines.append(
        SegmentLine(
          range: start..<bytes.count,
          isTerminated: false,
          number: firstLine + lines.count
        )
      )
      break
    }
  }
  return lines
}

/// The result of looking at the end of a device's last segment.
struct SegmentTail {
  /// The byte offset where the torn tail starts; the file's size when there is none.
  var validEnd: Int
  /// The index in the line list of the first torn line, when there is a torn tail.
  var firstTornLine: Int?
  /// The last good record, if any line is good.
  var lastRecord: EventRecord?
  /// The line of ``lastRecord``.
  var lastLine: SegmentLine?
  /// Why the first torn line was rejected.
  var cause: String?
}

/// Finds the torn tail of a last segment.
///
/// The torn tail is every line after the last line that is terminated and decodes. Only lines from the end back to that good line are decoded.
func findTail(
  _ bytes: UnsafeRawBufferPointer,
  lines: [SegmentLine],
  file: String
) -> SegmentTail {
  var tail = SegmentTail(validEnd: 0)
  var index = lines.count - 1
  while index >= 0 {
    let line = lines[index]
    let location = RecordLocation(file: file, line: line.number)
    do throws(RecordFailure) {
      guard line.isTerminated else { throw RecordFailure(cause: "partial line (no newline)") }
      let record = try EventRecord.decode(
        line: UnsafeRawBufferPointer(rebasing: bytes[line.range]),
        location: location
      )
      tail.validEnd = line.range.upperBound + 1
      tail.lastRecord = record
      tail.lastLine = line
      break
    } catch {
      tail.firstTornLine = index
      tail.cause = error.cause
    }
    index -= 1
  }
  if tail.firstTornLine == nil { tail.validEnd = bytes.count }
  return tail
}
