import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one writer of a device's log: appends records durably, in batches.
///
/// Open it with ``EventLog/openWriter(device:options:)``. While it is open it holds an
/// exclusive OS lock (`flock`) on the device's `.lock` file, so another process, or another
/// writer in this process, waits for it up to ``Options/lockTimeout`` and then fails.
///
/// Opening repairs the device's tail: a torn last record, left by a crash in the middle of
/// an append, is cut off and kept in a side file (see ``recoveryNotices``).
///
/// ```swift
/// let writer = try log.openWriter(device: "phone")
/// let records = try writer.append([event1, event2])  // one fdatasync for both
/// writer.close()
/// ```
///
/// The writer is safe to use from several threads; appends are serialized.
public final class DeviceWriter: @unchecked Sendable {
  /// How a writer behaves.
  public struct Options: Sendable {
    /// The size at which a segment is sealed and the next append starts a new one.
    ///
    /// A segment is larger only when one batch alone is larger. Default 4 MiB.
    public var segmentSizeLimit: Int
    /// Whether appends wait for stable storage.
    ///
    /// Default ``Durability/full``.
    public var durability: Durability
    /// How long to wait for another writer of the device to finish, in seconds.
    ///
    /// Default 5.
    public var lockTimeout: Double
    /// The wall clock in Unix milliseconds.
    ///
    /// Default: the system clock.
    public var wallClock: @Sendable () -> Int64
    /// The randomness of generated event ids.
    ///
    /// Default: the system's generator.
    public var random: any RandomNumberGenerator & Sendable
    /// Whether to continue the device's history when its files hold records this machine did
    /// not write (another machine writing as the same device, or this one restored from a
    /// backup); without it, opening throws ``JournalError/Kind/secondWriter``.
    ///
    /// Default false. The writer then continues the device's segments, and its first append
    /// heals any fork, as always.
    public var adopt: Bool

    /// Creates options; every parameter has a safe default.
    public init(
      segmentSizeLimit: Int = 4 << 20,
      durability: Durability = .full,
      lockTimeout: Double = 5,
      wallClock: @escaping @Sendable () -> Int64 = {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
      },
      random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
      adopt: Bool = false
    ) {
      self.segmentSizeLimit = segmentSizeLimit
      self.durability = durability
      self.lockTimeout = lockTimeout
      self.wallClock = wallClock
      self.random = random
      self.adopt = adopt
    }
  }

  /// The device this writer appends to.
  public let device: String
  /// The repairs made while opening, each reported once.
  public let recoveryNotices: [RecoveryNotice]
  /// The branches of the device's history found outside its segments when opening.
  ///
  /// See ``Fork``. Those not held in the device's files yet are healed by the first append.
  public let forks: [Fork]

  let log: EventLog
  let options: Options
  let fileIO: any FileIO
  let folder: String
  private let mutex = NSLock()

  private var lockDescriptor: Int32
  private var segmentDescriptor: Int32?
  private var segmentNumber: Int
  /// The current segment's path, and its path within the journal (for records and errors).
  private var segmentPath: String
  private var segmentFile: String
  private var segmentSize: Int
  private var lineCount: Int
  private var lastSequenceValue: UInt64
  private var lastHash: SHA256Digest
  private var positionValue: DevicePosition?
  private var clock: HybridLogicalClock
  private var ids: ULIDGenerator
  private var failure: JournalError?
  /// The heal the next append makes: branch files to write, and the branch heads its first
  /// record names in `merge`.
  var heal: Heal
  /// The writer note, open from the first append on (``writeNote(previous:next:)``).
  var noteDescriptor: Int32?
  /// The writer note's path, found once.
  let notePath: String

  init(log: EventLog, device: String, options: Options) throws {
    try EventLog.validateDeviceName(device)
    let opened = try DeviceWriter.openDevice(log: log, device: device, options: options)
    let state = opened.state
    self.log = log
    self.device = device
    self.options = options
    self.fileIO = log.fileIO
    self.folder = log.deviceFolder(device).path
    self.notePath = log.url.appendingPathComponent(WriterNote.folder).path + "/" + device
    self.lockDescriptor = opened.lockDescriptor
    self.segmentDescriptor = opened.segmentDescriptor
    self.recoveryNotices = state.notices
    self.forks = opened.heal.forks
    self.heal = opened.heal
    self.segmentNumber = state.segmentNumber
    let name = Segment.fileName(state.segmentNumber)
    self.segmentPath = "\(self.folder)/\(name)"
    self.segmentFile = log.relativePath(device: device, file: name)
    self.segmentSize = state.segmentSize
    self.lineCount = state.lineCount
    self.lastSequenceValue = state.lastRecord?.sequence ?? 0
    self.lastHash = state.lastPosition?.hash ?? .zero
    self.positionValue = state.lastPosition
    // New records sort after every record of the device's branches too.
    self.clock = HybridLogicalClock(
      last: max(state.lastRecord?.time ?? .zero, opened.heal.latest ?? .zero)
    )
    var ids = ULIDGenerator(random: options.random)
    if let lastID = state.lastRecord?.id { ids.observe(lastID) }
    self.ids = ids
  }

  /// Creates the device folder, takes the lock, repairs the tail and opens the last segment.
  private static func openDevice(
    log: EventLog,
    device: String,
    options: Options
  ) throws -> (
    lockDescriptor: Int32, segmentDescriptor: Int32?, state: RecoveredState, heal: Heal
  ) {
    let fileIO = log.fileIO
    let folder = log.deviceFolder(device)
    let devices = folder.deletingLastPathComponent().path
    let lockPath = folder.appendingPathComponent(Segment.lockFileName).path
    let lockDescriptor: Int32
    try log.checkWritablePermissions()
    do {
      if try fileIO.makeDirectory(devices, mode: 0o700) {
        try fileIO.syncDirectory(log.url.path)
      }
      if let refusal = refusedFileKind(devices, expectFolder: true) {
        throw JournalError(.refusedFile, file: EventLog.devicesFolderName, "\(refusal); not used")
      }
      if try fileIO.makeDirectory(folder.path, mode: 0o700) {
        try fileIO.syncDirectory(devices)
      }
      try log.checkDeviceFolder(device)
      lockDescriptor = try fileIO.open(
        lockPath,
        flags: O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
        mode: 0o600
      )
    } catch let error as SystemFailure {
      throw error.journalError()
    }
    do {
      try waitForLock(
        fileIO,
        lockDescriptor,
        path: lockPath,
        device: device,
        timeout: options.lockTimeout
      )
      let state = try recover(log: log, device: device, options: options)
      try checkWriterNote(log: log, device: device, state: state, options: options)
      let heal = try planHeal(log: log, device: device)
      var segmentDescriptor: Int32?
      if state.segmentNumber > 0 {
        let path = folder.appendingPathComponent(Segment.fileName(state.segmentNumber)).path
        segmentDescriptor = try fileIO.open(
          path,
          flags: O_WRONLY | O_APPEND | O_CLOEXEC,
          mode: 0o600
        )
      }
      return (lockDescriptor, segmentDescriptor, state, heal)
    } catch {
      fileIO.close(lockDescriptor)
      if let failure = error as? SystemFailure { throw failure.journalError() }
      throw error
    }
  }

  deinit { closeFiles() }

  // MARK: - State

  /// The sequence number of the device's last record, 0 when it has none.
  public var lastSequence: UInt64 { mutex.locked { lastSequenceValue } }

  /// The end of the device's last record (after the last append, or found when opening);
  /// nil when the device has none.
  ///
  /// A reader that read up to the position the writer had when it opened can move its own
  /// position to this one after an append.
  package var position: DevicePosition? { mutex.locked { positionValue } }

  /// The clock reading of the device's last record; new records sort after it.
  public var lastTime: HybridTime { mutex.locked { clock.last } }

  /// Makes every later record sort after `time`, such as the newest event seen from another
  /// device.
  public func observe(_ time: HybridTime) {
    mutex.locked { clock.observe(time) }
  }

  /// Releases the lock and the files.
  ///
  /// Appending afterwards throws.
  public func close() {
    mutex.locked {
      if failure == nil {
        failure = JournalError(.writerClosed, "the writer for device '\(device)' is closed")
      }
      closeFiles()
    }
  }

  private func closeFiles() {
    if let segmentDescriptor { fileIO.close(segmentDescriptor) }
    segmentDescriptor = nil
    if let noteDescriptor { fileIO.close(noteDescriptor) }
    noteDescriptor = nil
    if lockDescriptor >= 0 { fileIO.close(lockDescriptor) }
    lockDescriptor = -1
  }

  // MARK: - Appending

  /// Appends one event durably, as a batch of one.
  ///
  /// - Throws: ``JournalError``; nothing is appended when it throws.
  @discardableResult
  public func append(_ event: NewEvent, notBefore: HybridTime? = nil) throws -> EventRecord {
    try append([event], notBefore: notBefore)[0]
  }

  /// Appends a batch of events with one flush to stable storage (group commit).
  ///
  /// The records are returned only after their bytes are durable (with
  /// ``Durability/full``). If anything fails, nothing is acknowledged and the segment is cut
  /// back to its previous length; a writer that cannot cut back refuses further appends and
  /// must be reopened, which repairs the tail.
  ///
  /// - Parameters:
  ///   - events: The events, in order. Validated before anything is written.
  ///   - notBefore: A clock reading every new record must follow.
  /// - Returns: The stored records, in order.
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidEvent``,
  ///   ``JournalError/Kind/invalidValue``, ``JournalError/Kind/io`` or
  ///   ``JournalError/Kind/writerClosed``.
  /// - Complexity: O(n) in the batch's bytes, plus one `fdatasync`.
  @discardableResult
  public func append(_ events: [NewEvent], notBefore: HybridTime? = nil) throws -> [EventRecord] {
    try mutex.locked { () throws -> [EventRecord] in
      if let failure { throw failure }
      guard !events.isEmpty else { return [] }
      for event in events { try DeviceWriter.validate(event) }

      // A heal first puts each branch in the device's own files, so that the record that
      // names its head never names a record the device's files lack.
      try writeBranchFiles()
      var clock = self.clock
      var ids = self.ids
      var sequence = lastSequenceValue
      var previous = lastHash
      var bytes: [UInt8] = []
      var lastLineLength = 0
      var records: [EventRecord] = []
      records.reserveCapacity(events.count)
      for event in events {
        let time = clock.tick(wall: options.wallClock(), notBefore: notBefore)
        sequence += 1
        let start = bytes.count
        let record = try EventRecord.encode(
          id: event.id ?? ids.next(milliseconds: time.milliseconds),
          device: device,
          sequence: sequence,
          time: time,
          event: event,
          previousHash: previous,
          location: RecordLocation(file: "", line: 0),
          merging: records.isEmpty ? heal.heads : [],
          appendingTo: &bytes
        )
        let length = bytes.count - start - 1
        guard length <= Segment.maximumLineLength else {
          throw JournalError(
            .invalidEvent,
            "event '\(event.type)' takes \(length) bytes; "
              + "a record may take at most \(Segment.maximumLineLength) (1 MiB)"
          )
        }
        previous = record.hash ?? .zero
        lastLineLength = length
        records.append(record)
      }
      // A batch goes whole into one segment, so that it needs one flush; readers refuse a
      // segment larger than the limit, so no batch may make one.
      guard bytes.count <= Segment.maximumFileSize else {
        throw JournalError(
          .invalidEvent,
          "a batch of \(bytes.count) bytes is larger than a segment may be "
            + "(\(Segment.maximumFileSize >> 20) MiB); append it in smaller batches"
        )
      }
      if segmentDescriptor == nil
        || (segmentSize > 0
          && segmentSize + bytes.count > min(options.segmentSizeLimit, Segment.maximumFileSize))
      {
        try startSegment(segmentNumber + 1)
      }
      for index in records.indices {
        records[index].location = RecordLocation(file: segmentFile, line: lineCount + 1 + index)
      }
      if options.durability.syncs { try writeNote(previous: lastHash, next: previous) }
      try writeDurably(bytes)
      heal = Heal()
      self.clock = clock
      self.ids = ids
      lastSequenceValue = sequence
      lastHash = previous
      segmentSize += bytes.count
      lineCount += events.count
      positionValue = DevicePosition(
        segment: segmentNumber,
        offset: segmentSize,
        line: lineCount,
        sequence: sequence,
        length: lastLineLength,
        hash: previous
      )
      return records
    }
  }

  private static func validate(_ event: NewEvent) throws {
    guard !event.stream.isEmpty else {
      throw JournalError(.invalidEvent, "event stream is empty")
    }
    guard !event.type.isEmpty else {
      throw JournalError(.invalidEvent, "event type is empty")
    }
    guard event.version >= 1 else {
      throw JournalError(
        .invalidEvent,
        "event '\(event.type)' has version \(event.version); versions start at 1"
      )
    }
    guard case .object = event.payload else {
      throw JournalError(.invalidEvent, "payload of event '\(event.type)' is not an object")
    }
  }

  /// Creates segment `number` and makes it the current one; the previous one is sealed.
  private func startSegment(_ number: Int) throws {
    guard number <= Segment.maximumNumber else {
      throw JournalError(.io, file: folder, "the device has no segment numbers left")
    }
    let path = "\(folder)/\(Segment.fileName(number))"
    do {
      let descriptor = try fileIO.open(
        path,
        flags: O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC,
        mode: 0o600
      )
      if let segmentDescriptor { fileIO.close(segmentDescriptor) }
      segmentDescriptor = descriptor
      segmentNumber = number
      segmentPath = path
      segmentFile = log.relativePath(device: device, file: Segment.fileName(number))
      segmentSize = 0
      lineCount = 0
      if options.durability.syncs { try fileIO.syncDirectory(folder) }
    } catch {
      let file = log.relativePath(device: device, file: Segment.fileName(number))
      throw error.journalError(file: file)
    }
  }

  /// Writes `bytes` at the end of the current segment and flushes them; on failure, cuts the
  /// segment back to its previous length.
  private func writeDurably(_ bytes: [UInt8]) throws {
    guard let descriptor = segmentDescriptor else {
      throw JournalError(.writerClosed, "the writer for device '\(device)' has no segment")
    }
    let path = segmentPath
    let relative = segmentFile
    do {
      try fileIO.writeAll(descriptor, bytes, path: path)
      if options.durability.syncs { try fileIO.sync(descriptor, path: path) }
    } catch {
      let writeFailure = error
      let error = writeFailure.journalError(file: relative)
      do {
        try fileIO.truncate(descriptor, to: Int64(segmentSize), path: path)
      } catch {
        let cause = error.journalError(file: relative).message
        failure = JournalError(
          .writerClosed,
          file: relative,
          "the writer for device '\(device)' could not undo a failed append (\(cause)); reopen it"
        )
      }
      if writeFailure.operation == "sync" && failure == nil {
        // After a failed flush the kernel's page cache can no longer be trusted.
        failure = JournalError(
          .writerClosed,
          file: relative,
          "the writer for device '\(device)' failed to flush; reopen it"
        )
      }
      throw error
    }
  }

  // MARK: - Locking

  private static func waitForLock(
    _ fileIO: any FileIO,
    _ descriptor: Int32,
    path: String,
    device: String,
    timeout: Double
  ) throws {
    let deadline = ProcessInfo.processInfo.systemUptime + max(0, timeout)
    var pause: UInt32 = 1_000
    while true {
      if try fileIO.tryLock(descriptor, path: path) { return }
      if ProcessInfo.processInfo.systemUptime >= deadline {
        throw JournalError(
          .deviceLocked,
          "device '\(device)' is locked by another writer; gave up after "
            + "\(timeout.formatted()) s"
        )
      }
      usleep(pause)
      pause = min(pause * 2, 20_000)
    }
  }
}

extension Double {
  fileprivate func formatted() -> String {
    self == rounded() ? String(Int(self)) : String(self)
  }
}

extension NSLock {
  /// Runs `body` holding the lock (`NSLocking.withLock` is missing from older Apple SDKs).
  fileprivate func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}
