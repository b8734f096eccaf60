import Foundation
import JournalCore

/// A journal's history read from its files a batch at a time, for work that visits every
/// event once and must not hold the history: the full rebuild.
///
/// Opening it scans the journal once, decoding every event, to learn what a fold must know
/// before it starts: which streams are quarantined (a stream's later unreadable event
/// quarantines its earlier events too) and which events reverts cancel (a revert names only
/// earlier events, but is met after them). ``forEachEvent(_:)`` then reads the files again and
/// hands on the events exactly as ``Journal/history`` holds them, reading each device no
/// further than the scan did.
///
/// Memory holds a segment per device, one batch of decoded events, the cancelled events
/// (``Replayer/CancelledEvents``) and, while scanning, the reverts and about 24 bytes per
/// event id (to find redelivered events; the second read skips the ones the scan found):
/// never the history.
///
/// ```swift
/// let history = try StreamedHistory(store: store)
/// var fold = Replayer.Fold(cancelled: history.cancelled)
/// try history.forEachEvent { fold.apply($0) }
/// ```
package struct StreamedHistory: Sendable {
  private let log: EventLog
  /// How many records are read together.
  private let batchSize: Int
  private let upcaster: Upcaster
  /// Streams whose events this build cannot read, with the reason, as
  /// ``Journal/quarantined`` gives them.
  package let quarantined: [String: String]
  /// What reading set aside, as ``Journal/notices`` lists them.
  package let notices: [String]
  /// The events that reverts in effect cancel: all a fold must know before it starts.
  package let cancelled: Replayer.CancelledEvents
  /// How many records the scan read from each device.
  private let counts: [String: Int]
  /// The redelivered records the scan skipped: the second read skips the same ones without
  /// remembering every id.
  private let duplicates: [JournalHistory.Duplicate]
  /// The digest of every record id the scan handed on, quarantined or not: the second read
  /// must find the same.
  private let fingerprint: HistoryDigest

  /// Scans the journal of `store`.
  ///
  /// - Parameters:
  ///   - store: the journal.
  ///   - batchSize: how many records are read together.
  /// - Throws: ``JournalError`` when the files cannot be read; an invalid upcaster registry.
  /// - Complexity: O(events); memory O(segments + batch + reverts), plus the event ids.
  package init(store: FileEventStore, batchSize: Int = 4_096) throws {
    log = store.log
    self.batchSize = max(1, batchSize)
    let upcaster = try EventUpcasters.makeUpcaster()
    self.upcaster = upcaster
    var quarantined: [String: String] = [:]
    var quarantineNotices: [String] = []
    var reverts: [Replayer.CancelledEvents.Revert] = []
    // The stream of each revert, as an index in `streams`: a quarantine found later takes
    // back the stream's reverts too. One copy of each stream's name, not one per revert.
    var revertStreams: [Int32] = []
    var streams: [String: Int32] = [:]
    var fingerprint = HistoryDigest()
    var records = try log.mergedRecords()
    var decoded: [FoldEvent] = []
    while case let batch = try records.next(batchSize), !batch.isEmpty {
      for record in batch.lazy.map(FileEventStore.stored) {
        fingerprint.append(record.id)
        guard quarantined[record.stream] == nil else { continue }
        decoded.removeAll(keepingCapacity: true)
        if let failure = Journal.decode(record, upcaster: upcaster, into: &decoded) {
          quarantined[record.stream] = "\(record.location): \(failure.reason)"
          quarantineNotices.append(
            "\(record.location): stream '\(record.stream)' quarantined: \(failure.reason)"
          )
          continue
        }
        for event in decoded {
          guard let revert = Replayer.CancelledEvents.revert(event) else { continue }
          reverts.append(revert)
          let stream = streams[event.stream] ?? Int32(streams.count)
          if stream == streams.count { streams[event.stream] = stream }
          revertStreams.append(stream)
        }
      }
    }
    // A stream quarantined late loses its earlier events too.
    if !quarantined.isEmpty {
      let lost = Set(streams.filter { quarantined[$0.key] != nil }.values)
      reverts = reverts.indices.filter { !lost.contains(revertStreams[$0]) }.map { reverts[$0] }
    }
    self.quarantined = quarantined
    // The reverts themselves are let go: the fold needs only what they cancel.
    cancelled = Replayer.CancelledEvents(reverts: reverts)
    self.fingerprint = fingerprint
    counts = records.counts
    duplicates = records.duplicates
    notices =
      FileEventStore.notices(records.notices, records.duplicates, records.errors)
      + quarantineNotices
  }

  /// Reads the history again and hands on its events in merge order, without the events of
  /// quarantined streams.
  ///
  /// - Throws: ``JournalError`` when the files cannot be read;
  ///   ``StreamedHistoryChanged`` when they no longer give what the scan read (rewritten or
  ///   removed meanwhile; events appended since are not read); whatever `body` throws.
  package func forEachEvent(_ body: (FoldEvent) throws -> Void) throws {
    // A record that repeats an id since the scan is handed on, and the fingerprint, which
    // has only the ids the scan handed on, tells.
    var records = try log.mergedRecords(limits: counts, skipping: duplicates)
    var fingerprint = HistoryDigest()
    var decoded: [FoldEvent] = []
    while case let batch = try records.next(batchSize), !batch.isEmpty {
      for record in batch.lazy.map(FileEventStore.stored) {
        fingerprint.append(record.id)
        if !quarantined.isEmpty, quarantined[record.stream] != nil { continue }
        decoded.removeAll(keepingCapacity: true)
        if Journal.decode(record, upcaster: upcaster, into: &decoded) != nil {
          throw StreamedHistoryChanged(location: record.location)
        }
        for event in decoded { try body(event) }
      }
    }
    guard fingerprint == self.fingerprint else { throw StreamedHistoryChanged(location: nil) }
  }
}

/// The journal's files changed between the scan of a ``StreamedHistory`` and its reading.
struct StreamedHistoryChanged: Error, Sendable, CustomStringConvertible {
  /// The first record found different, when one is known.
  var location: String?

  var description: String {
    "the journal changed while it was read"
      + (location.map { " (at \($0))" } ?? "") + "; run the command again"
  }
}
