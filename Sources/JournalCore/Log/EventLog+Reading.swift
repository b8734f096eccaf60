import Dispatch
import Foundation

/// One device's records, in order, as far as they can be trusted.
struct DeviceHistory: Sendable {
  /// The device.
  var device: String
  /// Its records in file order (sequence 1, 2, 3…), up to any corruption.
  var records: [EventRecord]
  /// Torn tails that were not read.
  var notices: [RecoveryNotice]
  /// The corruption that ended the history early, if any: nothing after it was used.
  var stoppedBy: JournalError?
  /// The end of the last record read (or of the record a read resumed after, when it read
  /// nothing new); nil when the device has no record that could be read.
  var position: DevicePosition?
  /// The branches of the device's history found in copies a file-sync service left and in
  /// branch files (see ``Fork``); their records are not in ``records``.
  var forks: [Fork] = []

  /// Creates a device's history.
  init(
    device: String,
    records: [EventRecord],
    notices: [RecoveryNotice],
    stoppedBy: JournalError?,
    position: DevicePosition? = nil,
    forks: [Fork] = []
  ) {
    self.device = device
    self.records = records
    self.notices = notices
    self.stoppedBy = stoppedBy
    self.position = position
    self.forks = forks
  }
}

/// Every device's records merged in one deterministic order.
public struct JournalHistory: Sendable {
  /// The records as the devices' segments gave them, a run a segment.
  @usableFromInline let runs: [[EventRecord]]
  /// The merge order: for each record handed on, its run (high 32 bits) and its index in the
  /// run (low 32 bits).
  @usableFromInline let order: [UInt64]

  /// The records, ordered by (`ms`, `lc`, device, sequence), each event id once.
  ///
  /// Copied out of the runs on each use; the subscript copies one.
  public var records: [EventRecord] { order.map { record(at: $0) } }

  /// How many records there are.
  public var count: Int { order.count }

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
  package var positions: [String: DevicePosition] = [:]
  /// The branches found outside the devices' segments, device by device (see ``Fork``).
  ///
  /// A device read whole hands on the records of its branches with the rest; a device read
  /// after a position lists its branches here and hands on none of their records.
  public var forks: [Fork] = []

  package init(
    runs: [[EventRecord]],
    order: [UInt64],
    duplicates: [Duplicate],
    notices: [RecoveryNotice],
    errors: [JournalError],
    positions: [String: DevicePosition]
  ) {
    self.runs = runs
    self.order = order
    self.duplicates = duplicates
    self.notices = notices
    self.errors = errors
    self.positions = positions
  }

  private func record(at place: UInt64) -> EventRecord {
    runs[Int(truncatingIfNeeded: place >> 32)][Int(truncatingIfNeeded: place & 0xFFFF_FFFF)]
  }

  /// The record at `index` in merge order (0 for the first), copied out of its run.
  public subscript(index: Int) -> EventRecord { record(at: order[index]) }

  /// A record whose event id was already handed on.
  public struct Duplicate: Sendable, Hashable, CustomStringConvertible {
    /// The repeated event id.
    public var id: ULID
    /// Where the record that was handed on is stored.
    package var kept: RecordLocation
    /// Where the skipped copy is stored.
    package var skipped: RecordLocation

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
  func readDevice(_ device: String) throws -> DeviceHistory {
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
  func readDevice(
    _ device: String,
    after position: DevicePosition?
  ) throws -> DeviceHistory {
    try readDevices([(device, position)])[0]
  }

  /// Reads several devices, decoding their segments on every core; see
  /// ``readDevice(_:after:)``.
  func readDevices(
    _ devices: [(name: String, position: DevicePosition?)]
  ) throws
    -> [DeviceHistory]
  {
    try readDeviceRuns(devices).map { device in
      var history = device.history
      // Sized once: appending segment after segment would copy the records read so far.
      history.records.reserveCapacity(device.runs.reduce(0) { $0 + $1.count })
      for run in device.runs { history.records += run }
      return history
    }
  }

  /// A device read whole: its records as its segments gave them, one run a segment, in file
  /// order; `history` holds everything else (its `records` are empty).
  struct DeviceRuns: Sendable {
    var history: DeviceHistory
    var runs: [[EventRecord]] = []
    /// The records of the device's branches outside its segments, in merge order; empty
    /// for a device read after a position.
    var branches: [EventRecord] = []
  }

  /// Reads several devices, decoding their segments on every core, each device up to the
  /// first segment that stops it; see ``readDevice(_:after:)``.
  ///
  /// A segment's records are kept as the run it decoded to: putting a device's runs together
  /// would copy every record once more, and ``merge(_:)`` does not need it.
  func readDeviceRuns(
    _ devices: [(name: String, position: DevicePosition?)]
  ) throws -> [DeviceRuns] {
    let plans = try devices.map { try planDevice($0.name, after: $0.position) }
    let jobs = plans.indices.flatMap { device in plans[device].segments.map { (device, $0) } }
    let log = self
    var outcomes = jobs.concurrentMap(chunkSize: 1) { job in
      log.readSegment(job.1, device: plans[job.0].history.device)
    }
    var devices = plans.map { DeviceRuns(history: $0.history, branches: $0.branches) }
    var stopped = plans.map { $0.history.stoppedBy != nil }
    for (index, job) in jobs.enumerated() where !stopped[job.0] {
      var outcome = try outcomes[index].get()
      // Let go here, so its records are not held twice.
      outcomes[index] = .success(SegmentOutcome())
      if !outcome.records.isEmpty {
        devices[job.0].runs.append(outcome.records)
        outcome.records = []
      }
      devices[job.0].history.notices += outcome.notices
      if let position = outcome.position { devices[job.0].history.position = position }
      if let error = outcome.stoppedBy {
        devices[job.0].history.stoppedBy = error
        stopped[job.0] = true
      }
    }
    return devices
  }

  /// What reading a device will do: the notices known from its listing, and the segments to
  /// read.
  struct DevicePlan: Sendable {
    var history: DeviceHistory
    var segments: [SegmentJob] = []
    /// The records of the device's branches to hand on (none when reading after a
    /// position).
    var branches: [EventRecord] = []
  }

  /// One segment to read: from its start, or from a position's boundary record.
  struct SegmentJob: Sendable {
    var number: Int
    var name: String
    var resume: DevicePosition?
    var isLast: Bool
  }

  /// What reading one segment gave.
  struct SegmentOutcome: Sendable {
    var records: [EventRecord] = []
    var notices: [RecoveryNotice] = []
    var position: DevicePosition?
    var stoppedBy: JournalError?
  }

  /// Lists `device` and decides which segments to read.
  func planDevice(_ device: String, after position: DevicePosition?) throws -> DevicePlan {
    try EventLog.validateDeviceName(device)
    var plan = DevicePlan(
      history: DeviceHistory(device: device, records: [], notices: [], stoppedBy: nil)
    )
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
        plan.history.stoppedBy = error
        return plan
      }
    }
    let folder = deviceFolder(device)
    let listing = try DeviceFolderListing(folder: folder)
    let branches = try findBranches(device: device, listing: listing)
    plan.history.forks = branches.forks
    if position == nil { plan.branches = branches.records }
    for artefact in listing.syncArtefacts where !branches.handled.contains(artefact.name) {
      plan.history.notices.append(
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
    plan.history.notices += branches.notices
    plan.history.notices += branches.forks.filter { !$0.isHeld }.map(RecoveryNotice.init(fork:))
    plan.history.notices += branches.broken.map { broken in
      RecoveryNotice(
        kind: .forkRead,
        file: broken.file,
        line: broken.line,
        byteCount: 0,
        sideFile: nil,
        cause: "line \(broken.line) breaks the chain of a fork's branch (\(broken.cause)); "
          + "read up to the line before"
      )
    }
    var segments = listing.segments[...]
    if let gap = listing.gap {
      // Later segments before earlier ones: sync is still delivering. Read up to the gap.
      segments = listing.segments[..<gap.after.startIndex]
      plan.history.notices.append(
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
      plan.history.position = position
    }
    plan.segments = segments[start...].indices.map { index in
      SegmentJob(
        number: segments[index].number,
        name: segments[index].name,
        resume: index == start ? position : nil,
        isLast: listing.gap == nil && index == segments.endIndex - 1
      )
    }
    return plan
  }

  /// Reads and decodes one segment of `device`.
  func readSegment(_ job: SegmentJob, device: String) -> Result<SegmentOutcome, JournalError> {
    openSegment(job, device: device).flatMap { segment in
      var segment = segment
      return Result { () throws(JournalError) in try segment.decode(.max) }
    }
  }

  /// Opens one segment of `device`, to decode its lines a run at a time.
  ///
  /// The last segment's torn tail is found first, from the end of the file; the rest is read
  /// a `window` of bytes at a time as the lines are decoded (`Int.max`: at once).
  /// A segment refused as a file stops the device (``OpenSegment/stoppedBy``); when resuming
  /// from a position, that and a changed boundary record are failures.
  func openSegment(
    _ job: SegmentJob,
    device: String,
    window: Int = .max
  ) -> Result<OpenSegment, JournalError> {
    let file: SegmentFile
    do {
      file = try openSegmentFile(device: device, name: job.name)
    } catch {
      guard error.kind == .refusedFile else { return .failure(error) }
      if let resume = job.resume {
        return .failure(positionChanged(device, resume, error.message))
      }
      return .success(OpenSegment(stoppedBy: error, device: device))
    }
    return Result { () throws(JournalError) in
      var start = 0
      var firstLine = 1
      if let resume = job.resume {
        // Resuming: the boundary record's line must still be there, the same bytes.
        let boundary = try file.read((resume.offset - resume.length - 1)..<resume.offset)
        try boundary.withUnsafeBytes { bytes in
          Result { () throws(JournalError) in
            try checkBoundary(bytes, device: device, position: resume)
          }
        }.get()
        start = resume.offset
        firstLine = resume.line + 1
      }
      var end = file.size
      var first: [UInt8]?
      var notices: [RecoveryNotice] = []
      if job.isLast {
        let tail = try findTail(of: file, from: start, firstLine: firstLine, window: window)
        if let torn = tail.notice {
          notices.append(torn)
          end = tail.validEnd
        }
        first = tail.bytes
      }
      var segment = OpenSegment(
        file: file,
        window: window,
        start: start,
        firstLine: firstLine,
        end: end,
        first: first,
        number: job.number,
        device: device
      )
      segment.notices = notices
      return segment
    }
  }

  /// Finds the torn tail of a last segment, reading from its end a `window` at a time (more
  /// while no good line is found).
  ///
  /// - Returns: where the good lines end, the notice of the torn tail if any, and the bytes
  ///   from `start` to the end of the file when they were all read.
  private func findTail(
    of file: SegmentFile,
    from start: Int,
    firstLine: Int,
    window: Int
  ) throws(JournalError) -> (validEnd: Int, notice: RecoveryNotice?, bytes: [UInt8]?) {
    var size = max(1, window)
    while true {
      let lower = file.size - start <= size ? start : file.size - size
      let chunk = try file.readAll(lower..<file.size)
      let (tail, lines) = chunk.withUnsafeBytes { bytes in
        var lines = segmentLines(bytes, firstLine: firstLine)
        // A window that does not start at the first line may start inside a line.
        if lower > start, !lines.isEmpty { lines.removeFirst() }
        return (JournalCore.findTail(bytes, lines: lines, file: file.relative), lines)
      }
      if tail.lastRecord != nil || lower == start {
        let whole = lower == start ? chunk : nil
        guard let firstTorn = tail.firstTornLine else { return (file.size, nil, whole) }
        let validEnd = lower + tail.validEnd
        // The torn line's number: the lines before it, counted from `start` when the window
        // did not reach back that far.
        let number =
          lower == start
          ? lines[firstTorn].number
          : try firstLine + file.countNewlines(start..<validEnd, window: size)
        let notice = RecoveryNotice(
          kind: .tornTailNotRead,
          file: file.relative,
          line: number,
          byteCount: file.size - validEnd,
          sideFile: nil,
          cause: tail.cause ?? "bad record"
        )
        return (validEnd, notice, whole)
      }
      size = size > Int.max / 2 ? Int.max : size * 2
    }
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
  package func readHistory(after positions: [String: DevicePosition]) throws -> JournalHistory {
    var names = try deviceNames()
    for (device, position) in positions where !names.contains(device) {
      try EventLog.validateDeviceName(device)
      throw positionChanged(device, position, "the device folder is not there")
    }
    names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let devices = try readDeviceRuns(names.map { ($0, positions[$0]) })
    var history = EventLog.merge(devices)
    history.notices += deviceFolderCopies()
    history.forks = devices.flatMap(\.history.forks)
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

  /// Merges devices read whole; see ``readHistory()`` and ``MergedRecords``.
  ///
  /// The history keeps the devices' runs and the merge order: no record is copied.
  static func merge(_ devices: [DeviceRuns]) -> JournalHistory {
    var merged = MergedRecords(devices: devices)
    let order = merged.order()
    return JournalHistory(
      runs: merged.runs,
      order: order,
      duplicates: merged.duplicates,
      notices: merged.notices,
      errors: merged.errors,
      positions: merged.positions
    )
  }
}
