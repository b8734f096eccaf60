import Foundation
import JournalCore

extension SavedState {
  /// Hands on the whole history as slices, one at a time, each folded alone: first the
  /// streams that are not a workout's (the splits'), then each workout's stream, by start
  /// then id, deleted ones included, and last the reverts that name no event held.
  ///
  /// Each slice holds its streams' events and the reverts that concern them, so its fold
  /// equals the fold of the whole history restricted to those streams; a revert that
  /// concerns several streams is in each of their slices. Quarantined streams are left out,
  /// as a full read leaves them out. `fresh` counts a slice's events not handed on before,
  /// so the slices' `fresh` add up to the events of the whole history.
  ///
  /// Memory holds one slice at a time, plus the ids of the reverts met.
  ///
  /// - Throws: ``Untrusted`` when a file of the state is damaged; what `body` throws.
  func forEachSlice(
    _ body: (_ events: [FoldEvent], _ fresh: Int) throws -> Void
  ) throws {
    var revertsMet: Set<String> = []
    let left = Set(head.quarantined.keys)
    func slice(_ streams: [String]) throws {
      var stored: [StoredEvent] = []
      var seen: Set<String> = []
      for stream in streams {
        for event in try streamEvents(stream) where seen.insert(event.id).inserted {
          stored.append(event)
        }
      }
      stored.sort { Self.mergeKey($0) < Self.mergeKey($1) }
      var decoded: [FoldEvent] = []
      var quarantined = left
      // Whether each event decoded was handed on before (a revert in an earlier slice).
      var met: [Bool] = []
      for event in stored {
        let isRevert = event.type == JournalEvent.TypeName.eventsReverted
        let before = isRevert && !revertsMet.insert(event.id).inserted
        if Journal.decode(event, upcaster: upcaster, into: &decoded) != nil {
          quarantined.insert(event.stream)
        }
        met += repeatElement(before, count: decoded.count - met.count)
      }
      // As a full read: a stream with an unreadable event is left out, earlier events too.
      var kept: [FoldEvent] = []
      var fresh = 0
      for (event, before) in zip(decoded, met) where !quarantined.contains(event.stream) {
        kept.append(event)
        if !before { fresh += 1 }
      }
      try body(kept, fresh)
    }
    try slice(head.splits.filter { !left.contains($0) })
    let catalogue = try loadCatalogue()
    let listed = catalogue.values.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    // Then the workouts the catalogue does not list: their starts were undone.
    let held =
      (try? FileManager.default.contentsOfDirectory(atPath: files.absolute("streams"))) ?? []
    let unlisted = held.compactMap(Self.stream(ofPath:)).filter {
      $0.hasPrefix("workout:") && catalogue[FoldEvent.streamID(of: $0)] == nil
    }
    for stream in listed.map({ "workout:\($0.id)" }) + unlisted.sorted()
    where !left.contains(stream) {
      try slice([stream])
    }
    // The reverts of quarantined streams were met; those naming no event held were not.
    for stream in left {
      for event in try streamEvents(stream) where event.type == JournalEvent.TypeName.eventsReverted
      {
        revertsMet.insert(event.id)
      }
    }
    var loose: [StoredEvent] = []
    let folder = files.absolute("reverts")
    let buckets = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for bucket in buckets.sorted() where !bucket.hasPrefix(".") {
      for revert in try heldReverts(bucket) where !revertsMet.contains(revert.id) {
        loose.append(revert)
      }
    }
    guard !loose.isEmpty else { return }
    loose.sort { Self.mergeKey($0) < Self.mergeKey($1) }
    var decoded: [FoldEvent] = []
    for revert in loose where !left.contains(revert.stream) {
      _ = Journal.decode(revert, upcaster: upcaster, into: &decoded)
    }
    try body(decoded, decoded.count)
  }

  /// The stream whose file is `name` in `streams/` (``streamPath(_:)``); nil for another name.
  static func stream(ofPath name: String) -> String? {
    if name.hasPrefix("x-") {
      var bytes: [UInt8] = []
      var digits = name.utf8.dropFirst(2)[...]
      while digits.count >= 2 {
        guard let byte = UInt8(String(decoding: digits.prefix(2), as: UTF8.self), radix: 16) else {
          return nil
        }
        bytes.append(byte)
        digits = digits.dropFirst(2)
      }
      return digits.isEmpty ? String(decoding: bytes, as: UTF8.self) : nil
    }
    guard let dash = name.firstIndex(of: "-"), !name.hasPrefix(".") else { return nil }
    return name[..<dash] + ":" + name[name.index(after: dash)...]
  }
}
