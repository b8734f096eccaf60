import Foundation

/// One segment's bytes, read from disk, whose lines are decoded into records a run at a time.
///
/// Reading a device whole decodes each segment at once; ``MergedRecords`` decodes a run of
/// lines when it needs more records, so memory holds a segment's bytes and one run of
/// records rather than every record of the segment. Either way the records, notices,
/// position and corruption found are the same.
struct OpenSegment: Sendable {
  /// The bytes read (from the resume boundary record when resuming).
  private let bytes: [UInt8]
  /// Where the lines start in `bytes`, and in the file.
  private let start: Int
  private let offset: Int
  /// The lines to decode, a torn tail already cut off, relative to `start`.
  var lines: [SegmentLine]
  private let number: Int
  private let file: String
  private let device: String
  /// What opening found (a torn tail), handed on with the first decoded run.
  var notices: [RecoveryNotice] = []
  /// The next line to decode.
  private var next = 0
  /// The corruption that stopped the segment, if any.
  private(set) var stoppedBy: JournalError?

  init(
    bytes: [UInt8],
    start: Int,
    offset: Int,
    lines: [SegmentLine],
    number: Int,
    file: String,
    device: String
  ) {
    self.bytes = bytes
    self.start = start
    self.offset = offset
    self.lines = lines
    self.number = number
    self.file = file
    self.device = device
  }

  /// A segment that stops its device before any line is read.
  init(stoppedBy error: JournalError, device: String) {
    self.init(bytes: [], start: 0, offset: 0, lines: [], number: 0, file: "", device: device)
    stoppedBy = error
  }

  /// Whether every line is decoded, or corruption stopped the segment.
  var isFinished: Bool { stoppedBy != nil || next == lines.count }

  /// Decodes up to `count` more lines.
  ///
  /// - Parameters:
  ///   - count: how many lines to decode at most.
  ///   - chunkSize: decode the run in chunks of this many lines on every core; nil decodes
  ///     it here.
  /// - Returns: the records up to the first bad line, which stops the segment (and its
  ///   device), the position after the last record, and, the first time, the notices.
  mutating func decode(_ count: Int, chunkSize: Int? = nil) -> EventLog.SegmentOutcome {
    var outcome = EventLog.SegmentOutcome(notices: notices, stoppedBy: stoppedBy)
    notices = []
    guard stoppedBy == nil else { return outcome }
    let run = next..<(next + min(count, lines.count - next))
    let chunks: [Run]
    if let chunkSize, run.count > chunkSize {
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
          offset: offset + line.range.upperBound + 1,
          line: line.number,
          sequence: record.sequence,
          length: line.range.count,
          hash: SHA256.hash(
            UnsafeRawBufferPointer(
              rebasing: whole[(start + line.range.lowerBound)..<(start + line.range.upperBound)]
            )
          )
        )
      }
    }
    return outcome
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
    bytes.withUnsafeBytes { whole in
      let buffer = UnsafeRawBufferPointer(rebasing: whole[start...])
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
    return result
  }
}
