import Foundation

/// Every device's records in the journal's one merge order, handed on a batch at a time.
///
/// This is the one implementation of the merge rule: records are ordered by (`ms`, `lc`),
/// ties going to the device whose name sorts first, and each device keeps its file order. A
/// record whose event id was already handed on (a redelivered event) is skipped and listed in
/// ``duplicates``. The order depends only on the files' contents, not on the order the
/// folders are listed in.
///
/// ``EventLog/readHistory(after:)`` merges devices read whole with it, into an order of
/// places (``order()``) rather than copies of the records.
/// ``EventLog/mergedRecords(limits:skipping:)`` reads each device a window of a segment at a
/// time instead (``windowSize``), decoding the records of one window at once, so a caller that
/// visits every record once holds a window of bytes and a run of records per device and the
/// ids seen (none when it reads again with the duplicates an earlier read found), not the
/// history:
///
/// ```swift
/// var records = try log.mergedRecords()
/// while case let batch = try records.next(4096), !batch.isEmpty {
///   for record in batch { print(record.id) }
/// }
/// print(records.notices, records.duplicates)
/// ```
///
/// Reading stops at the end of every device, at a corrupt record (``errors``) or at the
/// device's limit.
package struct MergedRecords: Sendable {
  /// One device: the records read and not yet handed on, and the segments still to read.
  private struct Source: Sendable {
    var history: DeviceHistory
    /// The times of `history.records`, apart: the merge compares the heads' times for every
    /// record, and reading them here touches 16 bytes a record instead of a record's line of
    /// memory (cold by the time a whole journal is merged).
    var times: [HybridTime] = []
    /// The next record of `history.records` to hand on.
    var cursor = 0
    var segments: ArraySlice<EventLog.SegmentJob> = []
    /// A device read whole: the runs (indices in ``MergedRecords/runs``) still to hand on.
    var runs: Range<Int> = 0..<0
    /// The index in ``MergedRecords/runs`` of `history.records`, for a device read whole.
    var run = 0
    /// The segment being decoded, a run of lines at a time.
    var segment: OpenSegment?
    /// Records still to read from this device; nil for all of them.
    var remaining: Int?
    /// Records read from this device so far.
    var read = 0
    /// The segment file and its index in `files` of the last record handed on.
    var file = ""
    var fileIndex: UInt32 = 0
    /// Whether this source holds the records of a device's branches outside its segments
    /// (see ``Fork``); it follows the device's own source.
    var isBranch = false
  }

  /// The most records ``next(_:)`` reserves room for at once; a larger batch grows.
  static let largestReservedBatch = 1 << 16

  /// How many records of a device are decoded at once at most, in four chunks on every core.
  var runLength = 4_096
  /// How many bytes of a segment are read at once.
  ///
  /// A run ends with its window, and a window holds at least one whole line. At about 330
  /// bytes a record, 256 KiB is a run of about 800 records.
  var windowSize = 1 << 18

  private let log: EventLog?
  private var sources: [Source]
  /// Every run of records of devices read whole.
  private(set) var runs: [[EventRecord]] = []
  /// The times of the records of each run in ``runs``.
  private var runTimes: [[HybridTime]] = []
  /// Whether the devices were read whole (`log` is nil).
  ///
  /// Kept apart from `log`: comparing the optional `EventLog` with nil copies it, and the walk
  /// asks for every record.
  private let readWhole: Bool
  /// The ids that occur more than once among devices read whole.
  ///
  /// Only they can be duplicates; reading segments as it goes, every id handed on is
  /// remembered instead.
  private var repeated: Set<ULID> = []
  /// Where each handed-on event id is stored (only those in `repeated` for devices read
  /// whole).
  ///
  /// A segment file's index in `files` (high 32 bits) and the line (low 32 bits). About 24
  /// bytes per event: the one part of a streamed read that grows with the history.
  private var seen: [ULID: UInt64] = [:]
  /// The copies an earlier read of the same records skipped, by where each is stored
  /// (``EventLog/mergedRecords(limits:skipping:)``): such a read skips them and remembers no
  /// id, so that nothing it holds grows with the history.
  private var knownDuplicates: [RecordLocation: JournalHistory.Duplicate] = [:]
  /// Whether the duplicates are known in advance (`knownDuplicates`) rather than found by
  /// remembering ids (`seen`).
  private let duplicatesKnown: Bool
  private var files: [String] = []
  /// Copies of whole device folders left by file-sync services, found when the devices were
  /// listed.
  var folderCopies: [RecoveryNotice] = []
  /// Records skipped because an earlier record had the same event id.
  package private(set) var duplicates: [JournalHistory.Duplicate] = []

  /// Merges devices already read whole.
  init(devices: [EventLog.DeviceRuns]) {
    log = nil
    readWhole = true
    duplicatesKnown = false
    sources = []
    let sorted = devices.sorted {
      $0.history.device.utf8.lexicographicallyPrecedes($1.history.device.utf8)
    }
    for device in sorted {
      let first = runs.count
      runs += device.runs
      sources.append(
        Source(
          history: device.history,
          runs: first..<runs.count,
          read: device.runs.reduce(0) { $0 + $1.count }
        )
      )
      if !device.branches.isEmpty {
        runs.append(device.branches)
        var branch = Source(
          history: DeviceHistory(
            device: device.history.device,
            records: [],
            notices: [],
            stoppedBy: nil
          ),
          runs: (runs.count - 1)..<runs.count
        )
        branch.isBranch = true
        sources.append(branch)
      }
    }
    let scan = Self.scan(runs)
    repeated = Set(scan.repeated)
    runTimes = scan.times
  }

  /// Merges the devices planned in `plans`, reading their segments when needed; `known`, when
  /// given, are the duplicates an earlier read of the same records found.
  init(
    log: EventLog,
    plans: [EventLog.DevicePlan],
    limits: [String: Int]?,
    known: [JournalHistory.Duplicate]?
  ) {
    self.log = log
    readWhole = false
    duplicatesKnown = known != nil
    for duplicate in known ?? [] { knownDuplicates[duplicate.skipped] = duplicate }
    sources = plans.flatMap { plan in
      var source = Source(history: plan.history, segments: plan.segments[...])
      if let limits { source.remaining = limits[plan.history.device] ?? 0 }
      guard !plan.branches.isEmpty else { return [source] }
      var branch = Source(
        history: DeviceHistory(
          device: plan.history.device,
          records: plan.branches,
          notices: [],
          stoppedBy: nil
        )
      )
      branch.times = plan.branches.map(\.time)
      branch.isBranch = true
      return [source, branch]
    }
  }

  /// Up to `count` more records in merge order; empty once every device is read.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/io`` when a segment cannot be
  ///   read.
  package mutating func next(_ count: Int) throws -> [EventRecord] {
    var batch: [EventRecord] = []
    // Reserved whole: grown by doubling as records arrive, a batch held half as much again
    // while it was copied, the largest allocation of a streamed read. Pages never written
    // cost nothing, so a short journal loses nothing by it.
    batch.reserveCapacity(min(count, Self.largestReservedBatch))
    while batch.count < count, let (index, cursor) = try advance() {
      batch.append(sources[index].history.records[cursor])
    }
    return batch
  }

  /// Every record of devices read whole, in merge order: its run in ``runs`` (high 32 bits)
  /// and its index in the run (low 32 bits).
  mutating func order() -> [UInt64] {
    precondition(readWhole, "only devices read whole are merged into an order")
    var order: [UInt64] = []
    order.reserveCapacity(sources.reduce(0) { $0 + $1.read })
    // Devices read whole are merged without reading a file: nothing can throw.
    while let (index, cursor) = try? advance() {
      order.append(UInt64(sources[index].run) << 32 | UInt64(cursor))
    }
    return order
  }

  /// Moves on to the next record to hand on.
  ///
  /// Returns its source and its index in the source's records, or nil once every device is
  /// read. Duplicates are skipped and listed.
  private mutating func advance() throws -> (source: Int, cursor: Int)? {
    while true {
      // Pick the smallest head; ties on time go to the smaller device name (earlier index).
      // Only the times are read: a record is copied once, when handed on by `next`.
      var best: Int?
      for index in sources.indices {
        if sources[index].cursor == sources[index].times.count {
          guard
            try Self.refill(
              &sources[index],
              log: log,
              runs: runs,
              runTimes: runTimes,
              runLength: runLength,
              window: windowSize
            )
          else { continue }
        }
        guard let current = best else {
          best = index
          continue
        }
        let time = sources[index].times[sources[index].cursor]
        let bestTime = sources[current].times[sources[current].cursor]
        if time < bestTime {
          best = index
        } else if time == bestTime, sources[index].isBranch,
          sources[index].history.device == sources[current].history.device,
          EventLog.precedesWithinDevice(
            sources[index].history.records[sources[index].cursor],
            sources[current].history.records[sources[current].cursor]
          )
        {
          // Two branches of one device at one clock reading: an order that does not depend
          // on which branch is in the segments.
          best = index
        }
      }
      guard let index = best else { return nil }
      let cursor = sources[index].cursor
      sources[index].cursor += 1
      // Devices read whole without a repeated id hand every record on without reading it;
      // else the id is read, and the location only when the id may come again.
      if readWhole {
        if repeated.isEmpty { return (index, cursor) }
        if !repeated.contains(sources[index].history.records[cursor].id) { return (index, cursor) }
      } else if duplicatesKnown {
        if knownDuplicates.isEmpty || !isKnownDuplicate(source: index, cursor: cursor) {
          return (index, cursor)
        }
        continue
      }
      let id = sources[index].history.records[cursor].id
      let location = sources[index].history.records[cursor].location
      if isDuplicate(id, at: location, source: index) { continue }
      return (index, cursor)
    }
  }

  /// Whether the record at `cursor` of source `index` is one of the known duplicates, at its
  /// place and with its id; if so, it is listed.
  ///
  /// Apart from ``advance()``, which runs for every record of a replay, so as not to weigh on
  /// its loop.
  @inline(never)
  private mutating func isKnownDuplicate(source index: Int, cursor: Int) -> Bool {
    let location = sources[index].history.records[cursor].location
    guard let duplicate = knownDuplicates[location],
      duplicate.id == sources[index].history.records[cursor].id
    else { return false }
    duplicates.append(duplicate)
    return true
  }

  /// Whether an earlier record had the id `id`; if not, its place is remembered.
  private mutating func isDuplicate(
    _ id: ULID,
    at location: RecordLocation,
    source index: Int
  )
    -> Bool
  {
    if location.file != sources[index].file {
      sources[index].file = location.file
      sources[index].fileIndex = UInt32(files.count)
      files.append(location.file)
    }
    let packed = UInt64(sources[index].fileIndex) << 32 | UInt64(UInt32(clamping: location.line))
    guard let kept = seen.updateValue(packed, forKey: id) else { return false }
    seen[id] = kept
    duplicates.append(
      JournalHistory.Duplicate(
        id: id,
        kept: RecordLocation(file: files[Int(kept >> 32)], line: Int(kept & 0xFFFF_FFFF)),
        skipped: location
      )
    )
    return true
  }

  /// The ids found more than once in `runs` (an id found n times is listed n - 1 times) and
  /// the times of each run's records.
  static func scan(
    _ runs: [[EventRecord]]
  ) -> (repeated: [ULID], times: [[HybridTime]]) {
    var seen = Set<ULID>(minimumCapacity: runs.reduce(0) { $0 + $1.count })
    var repeated: [ULID] = []
    let times = runs.map { run in
      run.map { record in
        if !seen.insert(record.id).inserted { repeated.append(record.id) }
        return record.time
      }
    }
    return (repeated, times)
  }

  /// Decodes the next run of `source`'s records, dropping those handed on.
  ///
  /// Returns false when the device has nothing more to give: it is read to its end or its
  /// limit, or stopped by corruption.
  private static func refill(
    _ source: inout Source,
    log: EventLog?,
    runs: [[EventRecord]],
    runTimes: [[HybridTime]],
    runLength: Int,
    window: Int
  ) throws -> Bool {
    source.history.records = []
    source.times = []
    source.cursor = 0
    guard let log else {
      // Read whole: the device's next run that has records.
      while source.history.records.isEmpty, let run = source.runs.popFirst() {
        source.history.records = runs[run]
        source.times = runTimes[run]
        source.run = run
      }
      return !source.history.records.isEmpty
    }
    while source.history.records.isEmpty, source.history.stoppedBy == nil,
      source.remaining.map({ $0 > 0 }) ?? true
    {
      var segment: OpenSegment
      if let current = source.segment, !current.isFinished {
        segment = current
      } else {
        guard let job = source.segments.popFirst() else { break }
        segment = try log.openSegment(job, device: source.history.device, window: window).get()
      }
      var outcome = try segment.decode(min(runLength, source.remaining ?? .max), chunks: 4)
      // A finished segment (its file and last window) is let go at once.
      source.segment = segment.isFinished ? nil : segment
      source.remaining = source.remaining.map { $0 - outcome.records.count }
      source.read += outcome.records.count
      swap(&source.history.records, &outcome.records)
      source.times = source.history.records.map(\.time)
      source.history.notices += outcome.notices
      if let position = outcome.position { source.history.position = position }
      if let error = outcome.stoppedBy { source.history.stoppedBy = error }
    }
    return !source.history.records.isEmpty
  }

  /// What reading set aside.
  ///
  /// For every device in name order: sync artefacts, gaps, torn tails; then copies of device
  /// folders. Complete once ``next(_:)`` has returned an empty batch.
  package var notices: [RecoveryNotice] { sources.flatMap(\.history.notices) + folderCopies }

  /// Devices whose history stopped early at a corrupt record.
  package var errors: [JournalError] { sources.compactMap(\.history.stoppedBy) }

  /// The end of each device's last record read, by device.
  package var positions: [String: DevicePosition] {
    var positions: [String: DevicePosition] = [:]
    for source in sources {
      if let position = source.history.position { positions[source.history.device] = position }
    }
    return positions
  }

  /// How many records were read from each device, duplicates included: the limits that make
  /// a second read of the same files stop where this one did.
  package var counts: [String: Int] {
    var counts: [String: Int] = [:]
    for source in sources where !source.isBranch { counts[source.history.device] = source.read }
    return counts
  }

  /// The branches found outside the devices' segments (see ``Fork``), whose records are
  /// handed on with the rest.
  package var forks: [Fork] { sources.flatMap(\.history.forks) }
}

extension EventLog {
  /// Every device's records merged, read a window at a time; see ``MergedRecords``.
  ///
  /// - Parameters:
  ///   - limits: how many records to read from each device, as ``MergedRecords/counts`` of an
  ///     earlier read gives them: a device not named is not read. Nil reads everything.
  ///   - duplicates: the ``MergedRecords/duplicates`` of an earlier read with the same
  ///     `limits`: the records at their places are skipped (when they still carry the same
  ///     id), and no other id is remembered, so the read holds nothing that grows with the
  ///     history. A record that repeats an id since that read is handed on; a caller that
  ///     must know checks what it reads against what the earlier read handed on. Nil finds
  ///     duplicates by remembering every id handed on (about 24 bytes an event).
  /// - Returns: the merge, ready to hand on its first batch.
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/io`` when the devices cannot be
  ///   listed.
  package func mergedRecords(
    limits: [String: Int]? = nil,
    skipping duplicates: [JournalHistory.Duplicate]? = nil
  ) throws -> MergedRecords {
    let plans = try deviceNames().map { try planDevice($0, after: nil) }
    var records = MergedRecords(log: self, plans: plans, limits: limits, known: duplicates)
    records.folderCopies = deviceFolderCopies()
    return records
  }
}
