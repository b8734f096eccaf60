import Foundation

/// One segment of a device, whose lines are decoded into records a run at a time.
///
/// The file is read a window of bytes at a time (its complete lines; a line cut by the
/// window's end starts the next one), or whole when the window is `Int.max`. Reading a device
/// whole decodes each segment at once; ``MergedRecords`` decodes a run of lines when it needs
/// more records, so memory holds a window of bytes and one run of records rather than every
/// record of the segment. Either way the records, notices, position and corruption found are
/// the same.
struct OpenSegment: Sendable {
  /// The file; nil for a segment refused before any line was read.
  private let file: SegmentFile?
  /// How many bytes are read at once (more when one line is longer).
  private let window: Int
  private let number: Int
  private let device: String
  /// Where reading stops: the file's size, or where its torn tail starts.
  private let end: Int
  /// The current window's bytes, and the file offset of the first of them.
  private var bytes: [UInt8] = []
  private var base = 0
  /// The window's lines (ranges in `bytes`), and the next one to decode.
  private var lines: [SegmentLine] = []
  private var next = 0
  /// The file offset and number of the first line after the window.
  private var following: Int
  private var followingNumber: Int
  /// What opening found (a torn tail), handed on with the first decoded run.
  var notices: [RecoveryNotice] = []
  /// The corruption that stopped the segment, if any.
  private(set) var stoppedBy: JournalError?

  /// A segment read from `start`, its line number `firstLine`, up to `end`, `window` bytes
  /// at a time; `first` holds the bytes from `start` to at least `end` when they were
  /// already read.
  init(
    file: SegmentFile,
    window: Int,
    start: Int,
    firstLine: Int,
    end: Int,
    first: [UInt8]?,
    number: Int,
    device: String
  ) {
    self.file = file
    self.window = max(1, window)
    self.number = number
    self.device = device
    self.end = end
    following = start
    followingNumber = firstLine
    if let first { take(first, upper: end) }
  }

  /// A segment that stops its device before any line is read.
  init(stoppedBy error: JournalError, device: String) {
    file = nil
    window = 1
    number = 0
    self.device = device
    end = 0
    following = 0
    followingNumber = 1
    stoppedBy = error
  }

  /// Whether every line is decoded, or corruption stopped the segment.
  var isFinished: Bool { stoppedBy != nil || (next == lines.count && following >= end) }

  /// Decodes up to `count` more lines, reading the next window first when the current one
  /// is done (a run never spans two windows).
  ///
  /// - Parameters:
  ///   - count: how many lines to decode at most.
  ///   - chunkCount: into how many chunks to cut the run, decoded on every core; 1 decodes
  ///     it here.
  /// - Returns: the records up to the first bad line, which stops the segment (and its
  ///   device), the position after the last record, and, the first time, the notices.
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/io`` when the file cannot be read
  ///   or shrank while it was read.
  mutating func decode(
    _ count: Int,
    chunks chunkCount: Int = 1
  ) throws(JournalError) -> EventLog.SegmentOutcome {
    var outcome = EventLog.SegmentOutcome(notices: notices, stoppedBy: stoppedBy)
    notices = []
    guard stoppedBy == nil else { return outcome }
    if next == lines.count, following < end { try readWindow() }
    let run = next..<(next + min(count, lines.count - next))
    let chunks: [Run]
    if chunkCount > 1, run.count > 1 {
      let chunkSize = (run.count + chunkCount - 1) / chunkCount
      let segment = self
      chunks = Array(stride(from: run.lowerBound, to: run.upperBound, by: chunkSize))
        .concurrentMap(chunkSize: 1) { segment.decode($0..<min($0 + chunkSize, run.upperBound)) }
    } else {
      chunks = [decode(run)]
    }
    if chunks.count > 1 { outcome.records.reserveCapacity(run.count) }
    for chunk in chunks {
      // One chunk hands over its array; appending would copy every record.
      if outcome.records.isEmpty {
        outcome.records = chunk.records
      } else {
        outcome.records += chunk.records
      }
      next += chunk.records.count
      if let error = chunk.stoppedBy {
        stoppedBy = error
        outcome.stoppedBy = error
        break
      }
    }
    if let record = outcome.records.last {
      let line = lines[next - 1]
      outcome.position = bytes.withUnsafeBytes { whole in
        DevicePosition(
          segment: number,
          offset: base + line.range.upperBound + 1,
          line: line.number,
          sequence: record.sequence,
          length: line.range.count,
          hash: SHA256.hash(UnsafeRawBufferPointer(rebasing: whole[line.range]))
        )
      }
    }
    if isFinished { bytes = [] }
    return outcome
  }

  /// Reads the window after the current one: at least one whole line, or up to `end`.
  private mutating func readWindow() throws(JournalError) {
    guard let file else { return }
    var size = window
    while true {
      let upper = end - following <= size ? end : following + size
      let chunk = try file.readAll(following..<upper)
      if take(chunk, upper: upper) { return }
      size = size > Int.max / 2 ? Int.max : size * 2
    }
  }

  /// Makes `chunk`, read from `following` up to `upper`, the current window; false when it
  /// holds no whole line and more of the file is left (a longer window is needed).
  @discardableResult
  private mutating func take(_ chunk: [UInt8], upper: Int) -> Bool {
    var found = chunk.withUnsafeBytes {
      segmentLines(
        UnsafeRawBufferPointer(rebasing: $0[..<(upper - following)]),
        firstLine: followingNumber
      )
    }
    // A line the window's end cuts is read again with the next window.
    if upper < end, let last = found.last, !last.isTerminated { found.removeLast() }
    guard !found.isEmpty || upper >= end else { return false }
    bytes = chunk
    base = following
    lines = found
    next = 0
    if let last = found.last {
      following += last.range.upperBound + (last.isTerminated ? 1 : 0)
      followingNumber = last.number + 1
    }
    return true
  }

  /// The records of a run of lines, up to the first that is bad.
  private struct Run: Sendable {
    var records: [EventRecord] = []
    var stoppedBy: JournalError?
  }

  private func decode(_ run: Range<Int>) -> Run {
    var result = Run()
    result.records.reserveCapacity(run.count)
    var strings = RecordStrings()
    strings.leavesPayloads = true
    // Each record's payload, as a range in the window: copied into one array at the end.
    var payloads: [Range<Int>] = []
    payloads.reserveCapacity(run.count)
    let file = file?.relative ?? ""
    bytes.withUnsafeBytes { buffer in
      for line in lines[run] {
        guard line.isTerminated else {
          result.stoppedBy = JournalError(
            .corruptRecord,
            file: file,
            line: line.number,
            "segment ends in a partial line but a later segment exists"
          )
          return
        }
        do throws(RecordFailure) {
          let record = try EventRecord.decode(
            line: UnsafeRawBufferPointer(rebasing: buffer[line.range]),
            location: RecordLocation(file: file, line: line.number),
            strings: &strings
          )
          guard record.device == device else {
            throw RecordFailure(
              cause: "record names device '\(record.device)' but is stored in '\(device)'"
            )
          }
          guard let payload = strings.leftPayload.take() else {
            // Every decoded record has a payload: this would be the reader's fault.
            throw RecordFailure(
              cause: "the reader kept no payload for this record (a bug in journal, not in the "
                + "file; please report it)"
            )
          }
          payloads.append(
            line.range.lowerBound + payload.lowerBound..<line.range.lowerBound + payload.upperBound
          )
          result.records.append(record)
        } catch {
          result.stoppedBy = JournalError(
            .corruptRecord,
            file: file,
            line: line.number,
            error.cause
          )
          return
        }
      }
    }
    result.records.sharePayloads(payloads, from: bytes)
    return result
  }
}

extension [EventRecord] {
  /// Gives the records their payloads, `ranges[i]` of `window` for record `i`, all in one
  /// array: one allocation for a run instead of one a record, and no more memory than the
  /// payloads' bytes.
  fileprivate mutating func sharePayloads(_ ranges: [Range<Int>], from window: [UInt8]) {
    precondition(ranges.count == count, "one payload a record")
    let total = ranges.reduce(0) { $0 + $1.count }
    guard total > 0 else { return }
    let shared = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
      window.withUnsafeBufferPointer { source in
        var offset = 0
        for range in ranges {
          _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<offset + range.count])
            .initialize(from: UnsafeBufferPointer(rebasing: source[range]))
          offset += range.count
        }
      }
      initialized = total
    }
    var offset = 0
    for index in indices {
      let count = ranges[index].count
      self[index].storedPayload = JSONPayload(checkedBytes: shared, range: offset..<offset + count)
      offset += count
    }
  }
}
