import Foundation
import JournalCore
import JournalProjections

/// The journal folder the sample writes: like ``FileEventStore``, but each
/// device's writer stays open for the whole run (opening one per command
/// would re-read the device's tail thousands of times), and it counts what it
/// stores.
final class SampleEventStore: EventStore, @unchecked Sendable {
  private let log: EventLog
  private let reader: FileEventStore
  private let options: DeviceWriter.Options
  private var writers: [String: DeviceWriter] = [:]
  /// Every record appended, in order.
  private(set) var appended: [StoredEvent] = []
  /// Whether the app writing is the version that records each set's start: before it, the
  /// app wrote `set.completed` v2, the same payload without `start` (``SampleEra/flowDay``).
  var writesSetStarts = true

  init(log: EventLog, options: DeviceWriter.Options) throws {
    self.log = log
    self.reader = try FileEventStore(url: log.url, options: options)
    self.options = options
  }

  func readHistory() throws -> (events: [StoredEvent], notices: [String]) {
    try reader.readHistory()
  }

  func append(
    _ events: [EventToAppend],
    device: String,
    notBefore: (Int64, UInt32)?
  ) throws -> [StoredEvent] {
    let writer = try self.writer(for: device)
    let batch = try events.map { event in
      var event = event
      if !writesSetStarts, event.type == "set.completed", event.version == 3,
        case .object(var payload) = event.payload, payload["start"] == .null
      {
        payload["start"] = nil
        event.payload = .object(payload)
        event.version = 2
      }
      return try event.newEvent()
    }
    let time = notBefore.map { HybridTime(milliseconds: $0.0, counter: $0.1) }
    let stored = try writer.append(batch, notBefore: time).map(FileEventStore.stored)
    appended += stored
    return stored
  }

  /// The clock reading of the newest record, for `notBefore`.
  var lastTime: (Int64, UInt32)? {
    appended.last.map { ($0.milliseconds, $0.counter) }
  }

  /// Releases every device's lock.
  func close() {
    for device in writers.keys.sorted() { writers[device]?.close() }
    writers = [:]
  }

  private func writer(for device: String) throws -> DeviceWriter {
    if let writer = writers[device] { return writer }
    let writer = try log.openWriter(device: device, options: options)
    writers[device] = writer
    return writer
  }
}
