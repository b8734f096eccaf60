import Foundation

/// One device's records, in order, as far as they can be trusted.
public struct DeviceHistory: Sendable {
  /// The device.
  public var device: String
  /// Its records in file order (sequence 1, 2, 3…), up to any corruption.
  public var records: [EventRecord]
  /// Torn tails that were not read.
  public var notices: [RecoveryNotice]
  /// The corruption that ended the history early, if any: nothing after it was used.
  public var stoppedBy: JournalError?
  /// The end of the last record read (or of the record a read resumed after, when it read
  /// nothing new); nil when the device has no record that could be read.
  public var position: DevicePosition?
}

/// Every device's records merged in one deterministic order.
public struct JournalHistory: Sendable {
  /// The records, ordered by (`ms`, `lc`, device, sequence), each event id once.
  public var records: [EventRecord]
  /// Records skipped because an earlier record had the same event id.
  public var duplicates: [Duplicate]
  /// Torn tails that were not read, for every device.
  public var notices: [RecoveryNotice]
  /// Devices whose history stopped early at a corrupt record.
  public var errors: [JournalError]
  /// The end of each device's last record read, by device.
  ///
  /// ``EventLog/readHistory(after:)`` resumes from them. Devices with no readable record have
  /// none.
  public var positions: [String: DevicePosition] = [:]

  /// A record whose event id was already handed on.
  public struct Duplicate: Sendable, Hashable, CustomStringConvertible {
    /// The repeated event id.
    public var id: ULID
    /// Where the record that was handed on is stored.
    public var kept: RecordLocation
    /// Where the skipped copy is stored.
    public var skipped: RecordLocation

    public var description: String {
      "\(skipped): note: duplicate of event '\(id)' at \(kept); skipped"
    }
  }
}

extension EventLog {
  // MARK: - Writing

  /// Opens the writer of `device`, creating its folder if needed.
  ///
  /// Waits up to ``DeviceWriter/Options/lockTimeout`` for another writer of the device to
  /// close, then repairs a torn tail (see ``DeviceWriter/recoveryNotices``).
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidDeviceName``,
  ///   ``JournalError/Kind/deviceLocked``, ``JournalError/Kind/corruptRecord`` or
  ///   ``JournalError/Kind/io``.
  public func openWriter(
    device: String,
    options: DeviceWriter.Options = DeviceWriter.Options()
  ) throws -> DeviceWriter {
    try DeviceWriter(log: self, device: device, options: options)
  }

  // MARK: - Reading

  /// Reads the records of `device` in order.
  ///
  /// Never modifies a file.
  /// Each line's checksum and envelope are checked; hash links and sequence numbers are left
  /// to ``verify()``. A torn tail of the last segment is not read and is reported as a
  /// notice. A bad record before it ends the history there (``DeviceHistory/stoppedBy``), as
  /// does a device folder or segment that is a symbolic link, a folder where a segment should
  /// be, or a file larger than a segment can be (``JournalError/Kind/refusedFile``).
  ///
  /// Copies left by file-sync services are not read and are reported as notices
  /// (``RecoveryNotice/Kind/syncArtefactIgnored``). When segment numbers have a gap (a folder
  /// that arrived before its earlier segments) the device is read up to the gap, with a
  /// ``RecoveryNotice/Kind/segmentNotArrived`` notice.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidDeviceName`` or
  ///   ``JournalError/Kind/io``.
  /// - Complexity: O(n) in the device's bytes.
  public func readDevice(_ device: String) throws -> DeviceHistory {
    try readDevice(device, after: nil)
  }

  /// Reads the records of `device` after `position`, or all of them when it is nil.
  ///
  /// See ``readDevice(_:)`` and ``readHistory(after:)``.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/positionChanged`` when the
  ///   record at `position` is not there any more, ``JournalError/Kind/invalidDeviceName``
  ///   or ``JournalError/Kind/io``.
  /// - Complexity: O(n) in the bytes after `position`, plus the device's file names.
  public func readDevice(
    _ device: String,
    after position: DevicePosition?
  ) throws -> DeviceHistory {
    try EventLog.validateDeviceName(device)
    var history = DeviceHistory(device: device, records: [], notices: [], stoppedBy: nil)
    if let position {
      do {
        try checkDeviceFolder(device)
      } catch {
        throw positionChanged(device, position, error.message)
      }
    } else {
      do {
        try checkDeviceFolder(device)
      } catch {
        history.stoppedBy = error
        return history
      }
    }
    let folder = deviceFolder(device)
    let listing = try DeviceFolderListing(folder: folder)
    for artefact in listing.syncArtefacts {
      history.notices.append(
        RecoveryNotice(
          kind: .syncArtefactIgnored,
          file: relativePath(device: device, file: artefact.name),
          line: 0,
          byteCount: 0,
          sideFile: nil,
          cause: artefact.description
        )
      )
    }
    var segments = listing.segments[...]
    if let gap = listing.gap {
      // Later segments before earlier ones: sync is still delivering. Read up to the gap.
      segments = listing.segments[..<gap.after.startIndex]
      history.notices.append(
        RecoveryNotice(
          kind: .segmentNotArrived,
          file: relativePath(device: device, file: Segment.fileName(gap.missing)),
          line: 0,
          byteCount: 0,
          sideFile: nil,
          cause: "segment not here (not synced yet?); "
            + "\(gap.after.map(\.name).joined(separator: ", ")) not read until it arrives"
        )
      )
    }
    var start = segments.startIndex
    if let position {
      guard let found = segments.firstIndex(where: { $0.number == position.segment }) else {
        throw positionChanged(device, position, "the segment is not there")
      }
      guard position.length >= 1, position.offset > position.length else {
        throw positionChanged(device, position, "the position is malformed")
      }
      start = found
      history.position = position
    }
    for index in segments[start...].indices {
      let segment = segments[index]
      let relative = relativePath(device: device, file: segment.name)
      // Resuming: read from the boundary record's first byte, to check it.
      let resume = index == start ? position : nil
      let from = resume.map { $0.offset - $0.length - 1 } ?? 0
      let bytes: [UInt8]
      do {
        bytes = try readSegmentFile(device: device, name: segment.name, from: from)
      } catch {
        guard error.kind == .refusedFile else { throw error }
        if let resume { throw positionChanged(device, resume, error.message) }
        history.stoppedBy = error
        break
      }
      let isLast = listing.gap == nil && index == segments.endIndex - 1
      let stop = try bytes.withUnsafeBytes { whole in
        var buffer = whole
        var firstLine = 1
        if let resume {
          try checkBoundary(whole, device: device, position: resume)
          buffer = UnsafeRawBufferPointer(rebasing: whole[(resume.length + 1)...])
          firstLine = resume.line + 1
        }
        return readSegment(
          buffer,
          segment: segment.number,
          offset: resume?.offset ?? 0,
          firstLine: firstLine,
          file: relative,
          device: device,
          isLast: isLast,
          into: &history
        )
      }
      if stop { break }
    }
    return history
  }

  /// Checks that `bytes`, read from the start of the boundary record of `position`, start
  /// with that record's line and newline.
  private func checkBoundary(
    _ bytes: UnsafeRawBufferPointer,
    device: String,
    position: DevicePosition
  ) throws(JournalError) {
    guard bytes.count > position.length else {
      throw positionChanged(device, position, "the segment is shorter than the position")
    }
    let line = UnsafeRawBufferPointer(rebasing: bytes[0..<position.length])
    guard bytes[position.length] == UInt8(ascii: "\n"), SHA256.hash(line) == position.hash
    else {
      throw positionChanged(device, position, "the record there is not the one read before")
    }
  }

  private func positionChanged(
    _ device: String,
    _ position: DevicePosition,
    _ reason: String
  ) -> JournalError {
    JournalError(
      .positionChanged,
      file: relativePath(device: device, file: Segment.fileName(position.segment)),
      line: position.line,
      "\(reason); read the whole history instead"
    )
  }

  /// Decodes one segment into `history`; returns true when the history must stop.
  ///
  /// `buffer` holds the segment from byte `offset` on, starting at line `firstLine`.
  private func readSegment(
    _ buffer: UnsafeRawBufferPointer,
    segment: Int,
    offset: Int,
    firstLine: Int,
    file: String,
    device: String,
    isLast: Bool,
    into history: inout DeviceHistory
  ) -> Bool {
    let lines = segmentLines(buffer, firstLine: firstLine)
    var lastRead: SegmentLine?
    defer {
      if let line = lastRead, let record = history.records.last {
        history.position = DevicePosition(
          segment: segment,
          offset: offset + line.range.upperBound + 1,
          line: line.number,
          sequence: record.sequence,
          length: line.range.count,
          hash: SHA256.hash(UnsafeRawBufferPointer(rebasing: buffer[line.range]))
        )
      }
    }
    var end = lines.count
    if isLast {
      let tail = findTail(buffer, lines: lines, file: file)
      if let first = tail.firstTornLine {
        end = first
        history.notices.append(
          RecoveryNotice(
            kind: .tornTailNotRead,
            file: file,
            line: lines[first].number,
            byteCount: buffer.count - tail.validEnd,
            sideFile: nil,
            cause: tail.cause ?? "bad record"
          )
        )
      }
    }
    var strings = RecordStrings()
    for line in lines[0..<end] {
      guard line.isTerminated else {
        history.stoppedBy = JournalError(
          .corruptRecord,
          file: file,
          line: line.number,
          "segment ends in a partial line but a later segment exists"
        )
        return true
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
        history.records.append(record)
        lastRead = line
      } catch {
        history.stoppedBy = JournalError(
          .corruptRecord,
          file: file,
          line: line.number,
          error.cause
        )
        return true
      }
    }
    return false
  }

  /// Reads every device and merges them by (`ms`, `lc`, device, sequence).
  ///
  /// The result depends only on the files' contents, not on the order the folders are
  /// listed in. Each device's records keep their file order. A record whose event id was
  /// already handed on (a redelivered event) is skipped and listed in
  /// ``JournalHistory/duplicates``. Never modifies a file.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/io``.
  /// - Complexity: O(n × d) for n records on d devices.
  public func readHistory() throws -> JournalHistory {
    try readHistory(after: [:])
  }

  /// Reads only what every device appended after its position, and every device without a
  /// position whole, merged as ``readHistory()`` merges.
  ///
  /// For a device with a position, the boundary record is read back first and must be the
  /// same bytes (same length, same SHA-256); then the rest of its segment and every later
  /// segment are read. Torn tails, sync artefacts and gaps give the same notices as a full
  /// read, and ``JournalHistory/positions`` gives where each device's reading ended, ready
  /// for the next call. A device named in `positions` whose folder is gone is an error.
  ///
  /// Event ids are checked for duplicates only among the records read. The records read
  /// may sort before records of other devices read earlier (a device that synced late):
  /// a caller that folds them on top of an earlier state must check their order.
  ///
  /// Never modifies a file.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/positionChanged`` when a
  ///   boundary record is not there any more (its segment missing, shorter or rewritten): the
  ///   caller should read the whole history instead. ``JournalError/Kind/io``.
  /// - Complexity: O(n × d) for the n records after the positions on d devices, plus the
  ///   file names of each device; O(1) per segment before a position.
  public func readHistory(after positions: [String: DevicePosition]) throws -> JournalHistory {
    var names = try deviceNames()
    for (device, position) in positions where !names.contains(device) {
      try EventLog.validateDeviceName(device)
      throw positionChanged(device, position, "the device folder is not there")
    }
    names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let devices = try names.map { try readDevice($0, after: positions[$0]) }
    var history = EventLog.merge(devices)
    history.notices += deviceFolderCopies()
    return history
  }

  /// Copies of whole device folders left by file-sync services (`phone 2`…), as notices.
  func deviceFolderCopies() -> [RecoveryNotice] {
    let folder = url.appendingPathComponent(EventLog.devicesFolderName)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { name in
      guard let description = SyncArtefact.describeDeviceCopy(name) else { return nil }
      return RecoveryNotice(
        kind: .syncArtefactIgnored,
        file: "\(EventLog.devicesFolderName)/\(name)",
        line: 0,
        byteCount: 0,
        sideFile: nil,
        cause: description
      )
    }
  }

  /// Merges device histories; see ``readHistory()``.
  static func merge(_ devices: [DeviceHistory]) -> JournalHistory {
    let devices = devices.sorted { $0.device.utf8.lexicographicallyPrecedes($1.device.utf8) }
    var result = JournalHistory(
      records: [],
      duplicates: [],
      notices: devices.flatMap(\.notices),
      errors: devices.compactMap(\.stoppedBy)
    )
    for device in devices {
      if let position = device.position { result.positions[device.device] = position }
    }
    let total = devices.reduce(0) { $0 + $1.records.count }
    result.records.reserveCapacity(total)
    var seen: [ULID: RecordLocation] = [:]
    seen.reserveCapacity(total)
    var positions = [Int](repeating: 0, count: devices.count)
    while true {
      // Pick the smallest head; ties on time go to the smaller device name (earlier index).
      var best: Int?
      for index in devices.indices where positions[index] < devices[index].records.count {
        guard let current = best else {
          best = index
          continue
        }
        let candidate = devices[index].records[positions[index]]
        let leader = devices[current].records[positions[current]]
        if candidate.time < leader.time { best = index }
      }
      guard let index = best else { break }
      let record = devices[index].records[positions[index]]
      positions[index] += 1
      if let kept = seen[record.id] {
        result.duplicates.append(
          JournalHistory.Duplicate(id: record.id, kept: kept, skipped: record.location)
        )
      } else {
        seen[record.id] = record.location
        result.records.append(record)
      }
    }
    return result
  }
}
