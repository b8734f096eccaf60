import Foundation

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

  /// Whether `fileName` is a torn-tail side file of a segment.
  static func isSideFile(_ fileName: String) -> Bool {
    guard let range = fileName.range(of: fileExtension + tornSuffix) else { return false }
    return number(of: String(fileName[..<range.upperBound].dropLast(tornSuffix.count))) != nil
  }
}

/// The files of one device folder, sorted.
struct DeviceFolderListing {
  /// Segment numbers and file names, in increasing order.
  var segments: [(number: Int, name: String)] = []
  /// Torn-tail side files.
  var sideFiles: [String] = []
  /// Other files, which the format does not expect (conflicted copies from a sync service…).
  var unexpected: [String] = []

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
      } else if name != Segment.lockFileName {
        unexpected.append(name)
      }
    }
    segments.sort { $0.number < $1.number }
  }
}

// MARK: - Lines

/// One line of a segment: its bytes without the newline, and whether it had one.
struct SegmentLine {
  /// The byte range of the line's content (the newline excluded).
  var range: Range<Int>
  /// Whether the line ends in a newline; only the last line of a file may not.
  var isTerminated: Bool
  /// The 1-based line number.
  var number: Int
}

/// Splits `bytes` into lines.
///
/// A file ending in a newline has no empty last line.
func segmentLines(_ bytes: UnsafeRawBufferPointer) -> [SegmentLine] {
  var lines: [SegmentLine] = []
  guard let base = bytes.baseAddress else { return lines }
  var start = 0
  while start < bytes.count {
    let remaining = bytes.count - start
    if let found = memchr(base + start, 0x0A, remaining) {
      let end = base.distance(to: UnsafeRawPointer(found))
      lines.append(SegmentLine(range: start..<end, isTerminated: true, number: lines.count + 1))
      start = end + 1
    } else {
      lines.append(
        SegmentLine(range: start..<bytes.count, isTerminated: false, number: lines.count + 1)
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
