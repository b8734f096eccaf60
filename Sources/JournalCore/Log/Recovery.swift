import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a writer needs to know about its device after repairing the tail.
struct RecoveredState {
  var notices: [RecoveryNotice] = []
  /// The current (last) segment's number, 0 when the device has none yet.
  var segmentNumber = 0
  /// The current segment's size after the repair.
  var segmentSize = 0
  /// The number of lines in the current segment after the repair.
  var lineCount = 0
  /// The device's last good record, nil for an empty device.
  var lastRecord: EventRecord?
  /// The end of ``lastRecord``.
  var lastPosition: DevicePosition?
}

extension DeviceWriter {
  /// Repairs the tail of `device`'s log and finds its last record, reading only the last
  /// segment (and, if that is empty, the last line of the ones before).
  ///
  /// A torn tail (the lines after the last line that is terminated and passes its checksum)
  /// is copied to a new side file, flushed, and only then cut off the segment.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/corruptRecord`` when the last
  ///   line of a sealed segment is bad, or ``JournalError/Kind/io``.
  static func recover(log: EventLog, device: String, options: Options) throws -> RecoveredState {
    let fileIO = log.fileIO
    let folder = log.deviceFolder(device)
    let listing = try DeviceFolderListing(folder: folder)
    var state = RecoveredState()
    guard let last = listing.segments.last else { return state }
    let path = folder.appendingPathComponent(last.name).path
    let relative = log.relativePath(device: device, file: last.name)
    let bytes = try log.readSegmentFile(device: device, name: last.name)
    do {
      let (lines, tail, position) = bytes.withUnsafeBytes { buffer in
        let lines = segmentLines(buffer)
        let tail = findTail(buffer, lines: lines, file: relative)
        var position: DevicePosition?
        if let record = tail.lastRecord, let line = tail.lastLine {
          position = DevicePosition(segment: last.number, line: line, record: record, in: buffer)
        }
        return (lines, tail, position)
      }
      state.segmentNumber = last.number
      state.segmentSize = tail.validEnd
      state.lineCount = tail.firstTornLine ?? lines.count
      state.lastRecord = tail.lastRecord
      state.lastPosition = position
      if let firstTorn = tail.firstTornLine {
        let torn = Array(bytes[tail.validEnd...])
        let sideName = nextSideFileName(for: last.name, existing: listing.sideFiles)
        let sidePath = folder.appendingPathComponent(sideName).path
        try fileIO.createFile(sidePath, bytes: torn, durable: options.durability.syncs)
        if options.durability.syncs { try fileIO.syncDirectory(folder.path) }
        let descriptor = try fileIO.open(path, flags: O_WRONLY | O_CLOEXEC, mode: 0o600)
        defer { fileIO.close(descriptor) }
        try fileIO.truncate(descriptor, to: Int64(tail.validEnd), path: path)
        if options.durability.syncs { try fileIO.sync(descriptor, path: path) }
        state.notices.append(
          RecoveryNotice(
            kind: .tornTailSetAside,
            file: relative,
            line: lines[firstTorn].number,
            byteCount: torn.count,
            sideFile: log.relativePath(device: device, file: sideName),
            cause: tail.cause ?? "bad record"
          )
        )
      }
      if state.lastRecord == nil {
        let sealed = try lastRecordOfSealedSegments(
          log: log,
          device: device,
          segments: listing.segments.dropLast()
        )
        state.lastRecord = sealed?.record
        state.lastPosition = sealed?.position
      }
    } catch let failure as SystemFailure {
      throw failure.journalError(file: relative)
    }
    if let record = state.lastRecord, record.device != device {
      throw JournalError(
        .corruptRecord,
        file: record.location.file,
        line: record.location.line,
        "record names device '\(record.device)' but is stored in the folder of '\(device)'"
      )
    }
    return state
  }

  /// The last record of the newest non-empty sealed segment, and its end.
  private static func lastRecordOfSealedSegments(
    log: EventLog,
    device: String,
    segments: ArraySlice<(number: Int, name: String)>
  ) throws -> (record: EventRecord, position: DevicePosition)? {
    for segment in segments.reversed() {
      let relative = log.relativePath(device: device, file: segment.name)
      let bytes = try log.readSegmentFile(device: device, name: segment.name)
      let result: Result<(EventRecord, DevicePosition), JournalError>? = bytes.withUnsafeBytes {
        buffer in
        let lines = segmentLines(buffer)
        guard let line = lines.last else { return nil }
        let location = RecordLocation(file: relative, line: line.number)
        guard line.isTerminated else {
          return .failure(
            JournalError(
              .corruptRecord,
              file: relative,
              line: line.number,
              "sealed segment ends in a partial line"
            )
          )
        }
        do throws(RecordFailure) {
          let record = try EventRecord.decode(
            line: UnsafeRawBufferPointer(rebasing: buffer[line.range]),
            location: location
          )
          let position = DevicePosition(
            segment: segment.number,
            line: line,
            record: record,
            in: buffer
          )
          return .success((record, position))
        } catch {
          return .failure(
            JournalError(.corruptRecord, file: relative, line: line.number, error.cause)
          )
        }
      }
      if let result { return try result.get() }
    }
    return nil
  }

  /// `000003.jsonl.torn`, or `000003.jsonl.torn.2`, `.torn.3`… when taken.
  static func nextSideFileName(for segment: String, existing: [String]) -> String {
    let base = segment + Segment.tornSuffix
    let taken = Set(existing)
    if !taken.contains(base) { return base }
    var number = 2
    while taken.contains("\(base).\(number)") { number += 1 }
    return "\(base).\(number)"
  }
}
