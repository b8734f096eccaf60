import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

/// A wall clock tests can move, including backwards.
final class ManualClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Int64

  init(_ start: Int64 = 1_700_000_000_000) { current = start }

  var now: Int64 {
    get { lock.withLock { current } }
    set { lock.withLock { current = newValue } }
  }

  /// Returns the time, then advances it by `step` milliseconds.
  func read(step: Int64) -> Int64 {
    lock.withLock {
      defer { current += step }
      return current
    }
  }
}

/// Options for fast, deterministic writers: no flush, a fixed-step clock, seeded ids.
func testOptions(
  clock: ManualClock = ManualClock(),
  step: Int64 = 1,
  seed: UInt64 = 1,
  segmentSizeLimit: Int = 4 << 20,
  durability: Durability = .none,
  lockTimeout: Double = 5
) -> DeviceWriter.Options {
  DeviceWriter.Options(
    segmentSizeLimit: segmentSizeLimit,
    durability: durability,
    lockTimeout: lockTimeout,
    wallClock: { clock.read(step: step) },
    random: SplitMix64(seed: seed)
  )
}

/// The `n`th test event.
func sampleEvent(_ n: Int, stream: String = "workout:01HZZZZZZZZZZZZZZZZZZZZZZZ") -> NewEvent {
  NewEvent(
    stream: stream,
    type: "set.completed",
    version: 1,
    payload: ["set": .int(Int64(n)), "reps": 8, "weight": 62.5, "note": .string("n°\(n)")]
  )
}

/// A fresh journal in a temporary folder.
func makeLog(_ label: String = "log") throws -> EventLog {
  try EventLog.create(at: try makeTemporaryDirectory(label))
}

/// Appends `count` sample events to `device`, in batches of `batch`.
@discardableResult
func fill(
  _ log: EventLog,
  device: String,
  count: Int,
  batch: Int = 1,
  options: DeviceWriter.Options? = nil
) throws -> [EventRecord] {
  // Seeded per device, so two devices never draw the same event ids.
  let seed = UInt64(CRC32C.checksum(Array(device.utf8)))
  let writer = try log.openWriter(device: device, options: options ?? testOptions(seed: seed))
  defer { writer.close() }
  var records: [EventRecord] = []
  var next = 0
  while next < count {
    let size = min(batch, count - next)
    records += try writer.append((next..<next + size).map { sampleEvent($0) })
    next += size
  }
  return records
}

/// The bytes of a file in the journal.
func contents(_ log: EventLog, _ relative: String) throws -> [UInt8] {
  Array(try Data(contentsOf: log.url.appendingPathComponent(relative)))
}

/// Replaces a file in the journal.
func overwrite(_ log: EventLog, _ relative: String, _ bytes: [UInt8]) throws {
  try Data(bytes).write(to: log.url.appendingPathComponent(relative))
}

/// Expects `body` to throw a ``JournalError`` of `kind`, optionally at `file` and `line`.
func expectJournalError(
  _ kind: JournalError.Kind,
  file: String? = nil,
  line: Int? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) {
  do {
    try body()
    Issue.record("expected a '\(kind)' error", sourceLocation: sourceLocation)
  } catch let error as JournalError {
    #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
    if let file { #expect(error.file == file, "\(error)", sourceLocation: sourceLocation) }
    if let line { #expect(error.line == line, "\(error)", sourceLocation: sourceLocation) }
  } catch {
    Issue.record("expected a JournalError, got \(error)", sourceLocation: sourceLocation)
  }
}
