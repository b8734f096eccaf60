import Foundation
import JournalCore
import JournalProjections

/// An event store in memory, with the file store's merge order, for fast
/// tests of everything above storage.
package final class InMemoryEventStore: EventStore, @unchecked Sendable {
  private let lock = NSLock()
  private var events: [StoredEvent] = []
  /// Every append, in order, for tests that count them.
  package private(set) var appendCount = 0
  /// The wall clock the next append reads, in milliseconds; tests move it.
  package var wallClock: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z

  package init(events: [StoredEvent] = []) { self.events = events }

  /// Every stored event, in merge order.
  package var stored: [StoredEvent] { lock.withLock { events } }

  package func readHistory() throws -> (events: [StoredEvent], notices: [String]) {
    lock.withLock {
      var seen: Set<String> = []
      var notices: [String] = []
      let merged = events.sorted(by: Self.precedes).filter { event in
        if seen.insert(event.id).inserted { return true }
        notices.append("\(event.location): duplicate event \(event.id)")
        return false
      }
      return (merged, notices)
    }
  }

  package func append(
    _ batch: [EventToAppend],
    device: String,
    notBefore: (Int64, UInt32)?
  ) throws -> [StoredEvent] {
    lock.withLock {
      appendCount += 1
      let mine = events.filter { $0.device == device }
      var sequence = mine.map(\.sequence).max() ?? 0
      var clock = notBefore ?? (0, 0)
      if let last = mine.max(by: Self.precedes), (last.milliseconds, last.counter) > clock {
        clock = (last.milliseconds, last.counter)
      }
      var appended: [StoredEvent] = []
      for event in batch {
        sequence += 1
        let ms = max(clock.0, wallClock)
        clock = ms == clock.0 ? (ms, clock.1 + 1) : (ms, 0)
        let stored = StoredEvent(
          id: event.id,
          device: device,
          sequence: sequence,
          milliseconds: clock.0,
          counter: clock.1,
          stream: event.stream,
          type: event.type,
          version: event.version,
          payload: event.payload,
          location: "memory/\(device):\(sequence)"
        )
        appended.append(stored)
      }
      events += appended
      return appended
    }
  }

  /// Adds already stored events, as a sync from another device would.
  package func deliver(_ more: [StoredEvent]) {
    lock.withLock { events += more }
  }

  static func precedes(_ a: StoredEvent, _ b: StoredEvent) -> Bool {
    (a.milliseconds, a.counter, a.device, a.sequence) < (
      b.milliseconds, b.counter, b.device, b.sequence
    )
  }
}

/// Makes ids that sort in creation order and look like ULIDs.
package final class SequentialIDs: @unchecked Sendable {
  private var next: UInt64
  private let prefix: String

  package init(prefix: String = "01J", start: UInt64 = 1) {
    self.prefix = prefix
    self.next = start
  }

  package func make() -> String {
    defer { next += 1 }
    let digits = String(next)
    return prefix + String(repeating: "0", count: 26 - prefix.count - digits.count) + digits
  }
}
