import Foundation
import JournalCore

extension SavedState {
  /// Hands on every event in effect, in merge order: the events a full read holds (without
  /// the quarantined streams') less those that reverts in effect cancel, as
  /// `export --format ndjson` prints them.
  ///
  /// An event that is not a revert is in its own stream's file and no other, and every revert
  /// is in `reverts/`: the reverts are read first, for what they cancel (one that cannot be
  /// read quarantines its stream, as a full read does) and where each lies in the merge
  /// order; then the streams' files are merged with them by merge key, each file read when
  /// the merge reaches its first event, and let go after its last.
  ///
  /// Memory holds the merge key of each stream's first event and of each revert in effect,
  /// the cancelled events (``Replayer/CancelledEvents``), and the streams whose events the
  /// merge has reached but not passed (the splits', and the workout of the moment): never the
  /// history.
  ///
  /// - Throws: ``Untrusted`` when a file of the state is damaged (some events may have been
  ///   handed on); what `body` throws.
  func forEachEventInEffect(_ body: (FoldEvent) throws -> Void) throws {
    let reverts = try revertsInEffect()
    // Each stream's file, by the merge key of its first event (a lower bound of its own).
    var pending: [(first: FoldEvent.MergeKey, stream: String)] = []
    let folder = files.absolute("streams")
    for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []) {
      guard let stream = Self.stream(ofPath: name), head.quarantined[stream] == nil,
        let first = try firstEvent(inFile: "streams/" + name)
      else { continue }
      pending.append((Self.mergeKey(first), stream))
    }
    pending.sort { ($0.first, $0.stream) < ($1.first, $1.stream) }

    // The streams the merge has reached: their events still to hand on, the next one last.
    var open: [[FoldEvent]] = []
    var nextPending = 0
    var nextRevert = 0
    var bucket: (name: String, events: [StoredEvent])?
    while true {
      // The smallest next event among the open streams and the reverts.
      var best: (key: FoldEvent.MergeKey, source: Int)?
      for index in open.indices {
        guard let key = open[index].last?.mergeKey else { continue }
        if best.map({ key < $0.key }) ?? true { best = (key, index) }
      }
      if nextRevert < reverts.places.count,
        best.map({ reverts.places[nextRevert].key < $0.key }) ?? true
      {
        best = (reverts.places[nextRevert].key, -1)
      }
      // A stream whose first event comes before it is read first.
      if nextPending < pending.count, best.map({ pending[nextPending].first <= $0.key }) ?? true {
        let stream = pending[nextPending].stream
        nextPending += 1
        let events = try readableEvents(of: stream, after: { _ in true }) ?? []
        let counted = events.filter {
          if case .eventsReverted = $0.event { return false }
          return !reverts.cancelled.contains($0.eventID)
        }
        if !counted.isEmpty { open.append(counted.reversed()) }
        continue
      }
      guard let (_, source) = best else { return }
      if source >= 0 {
        let event = open[source].removeLast()
        if open[source].isEmpty { open.remove(at: source) }
        try body(event)
        continue
      }
      let place = reverts.places[nextRevert]
      nextRevert += 1
      if bucket?.name != place.bucket {
        bucket = (place.bucket, try heldReverts(place.bucket))
      }
      guard let held = bucket?.events, place.index < held.count else {
        throw Untrusted(reason: "'reverts/\(place.bucket)' changed while it was read")
      }
      var parts: [FoldEvent] = []
      _ = Journal.decode(held[place.index], upcaster: upcaster, into: &parts)
      for part in parts { try body(part) }
    }
  }

  /// Where a revert in effect is kept: its merge key, its bucket in `reverts/` and its line.
  struct RevertPlace {
    var key: FoldEvent.MergeKey
    var bucket: String
    var index: Int
  }

  /// Every revert kept, read a bucket at a time: the events those in effect cancel, and where
  /// each revert in effect is kept, in merge order.
  ///
  /// A revert that cannot be read quarantines its stream, as a full read does: every revert
  /// of that stream (or of a quarantined workout's) is then left out.
  private func revertsInEffect() throws -> (
    cancelled: Replayer.CancelledEvents, places: [RevertPlace]
  ) {
    var places: [RevertPlace] = []
    // What each revert names, as the walk reads it; a stored revert's parts from
    // `firstPart[i]` (usually one).
    var walked: [Replayer.CancelledEvents.Revert] = []
    var firstPart: [Int] = []
    var streams: [String] = []
    var unreadable: Set<String> = []
    let folder = files.absolute("reverts")
    let buckets = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for bucket in buckets.sorted() where !bucket.hasPrefix(".") {
      for (index, stored) in try heldReverts(bucket).enumerated() {
        var parts: [FoldEvent] = []
        if Journal.decode(stored, upcaster: upcaster, into: &parts) != nil {
          unreadable.insert(stored.stream)
          continue
        }
        places.append(RevertPlace(key: Self.mergeKey(stored), bucket: bucket, index: index))
        firstPart.append(walked.count)
        walked += parts.compactMap(Replayer.CancelledEvents.revert)
        streams.append(stored.stream)
      }
    }
    firstPart.append(walked.count)
    let order = places.indices.filter {
      !unreadable.contains(streams[$0]) && head.quarantined[streams[$0]] == nil
    }.sorted { places[$0].key < places[$1].key }
    let cancelled = Replayer.CancelledEvents(
      reverts: order.flatMap { walked[firstPart[$0]..<firstPart[$0 + 1]] }
    )
    // The reverts a later one cancels are not handed on.
    let inEffect = order.filter { index in
      !walked[firstPart[index]..<firstPart[index + 1]].contains { cancelled.contains($0.id) }
    }
    return (cancelled, inEffect.map { places[$0] })
  }

  /// The first event of a file of events written by ``write(_:_:)``; nil when there is no
  /// file or it holds none.
  private func firstEvent(inFile relative: String) throws -> StoredEvent? {
    guard let bytes = try files.read(relative) else { return nil }
    guard let body = Self.checked(bytes) else {
      throw Untrusted(reason: "'\(relative)' does not match its checksum")
    }
    let line = body.prefix { $0 != UInt8(ascii: "\n") }
    guard !line.isEmpty else { return nil }
    guard let event = Self.decodeEvent(line) else {
      throw Untrusted(reason: "'\(relative)' holds an unreadable event")
    }
    return event
  }
}
