import Foundation
import JournalCore

// Events found across every stream without folding a scope: by id (what `--from`, `--to` and
// `rewind --to` name) and after a point of history (what `rewind` cancels). Both answer as a
// full read would: the events of quarantined streams are not there.

extension SavedState {
  /// The events whose stored id starts with `prefix` (uppercase), decoded, in merge order.
  ///
  /// Reads the id index's bucket of the prefix (its first four characters: about three days
  /// of ids; the whole index for a shorter prefix), then the file of each match's stream, or
  /// the reverts' bucket for a revert.
  ///
  /// - Throws: ``Untrusted`` when a file of the state is damaged.
  func events(withIDPrefix prefix: String) throws -> [FoldEvent] {
    var index = BucketedMap(files: stateFiles, folder: "ids")
    var buckets = [Self.bucket(of: prefix)]
    if prefix.utf8.count < 4 || buckets == ["other"] {
      let folder = files.absolute("ids")
      buckets = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()
    }
    var found: [FoldEvent] = []
    var streams: [String: [FoldEvent]?] = [:]
    for bucket in buckets {
      // A revert is kept by id whatever the streams it concerns; any other event is in its
      // stream's file.
      let reverts = Dictionary(
        try heldReverts(bucket).map { ($0.id, $0) },
        uniquingKeysWith: { first, _ in first }
      )
      for (id, held) in try index.all(inBucket: bucket) where id.hasPrefix(prefix) {
        if let revert = reverts[id] {
          if case .success(let parts) = Journal.decode(revert, upcaster: upcaster) {
            found += parts
          }
        } else if let stream = held.first {
          if streams[stream] == nil {
            streams[stream] = .some(try readableEvents(of: stream, after: { _ in true }))
          }
          found += (streams[stream] ?? nil)?.filter { $0.storedID == id } ?? []
        }
      }
    }
    return Self.inMergeOrder(found)
  }

  /// Every event after a point of history: the events a rewind to that point cancels.
  ///
  /// Reads the files of events whose last event was recorded at or after `floor`, as the
  /// index of their ends tells (``Ends``): each stream's file, decoded only for its own events
  /// after the point, and each bucket of reverts, for the reverts after it.
  ///
  /// - Parameters:
  ///   - floor: the earliest record time of an event after the point; nil when none is.
  ///   - isAfter: whether an event with this merge key lies after the point; false for every
  ///     key up to some key, true for every key after it, and false for a key recorded before
  ///     `floor`.
  /// - Returns: the events, decoded, in merge order.
  /// - Throws: ``Untrusted`` when a file of the state is damaged.
  func events(
    from floor: Int64?,
    after isAfter: (FoldEvent.MergeKey) -> Bool
  ) throws -> [FoldEvent] {
    guard let floor else { return [] }
    var ends = Ends(self)
    var found: [FoldEvent] = []
    var reverts: [FoldEvent] = []
    // A revert this build cannot read quarantines its stream, as in a full read.
    let quarantined = Set(try undecodableRevertRecords().map(\.stream))
    for file in try ends.files(endingFrom: floor) {
      if file.hasPrefix("reverts/") {
        for revert in try heldReverts(String(file.dropFirst("reverts/".count)))
        where isAfter(Self.mergeKey(revert)) {
          if case .success(let parts) = Journal.decode(revert, upcaster: upcaster) {
            reverts += parts
          }
        }
      } else if let stream = Self.stream(ofPath: String(file.dropFirst("streams/".count))),
        let own = try readableEvents(of: stream, after: isAfter)
      {
        found += own
      }
    }
    return Self.inMergeOrder((found + reverts).filter { !quarantined.contains($0.stream) })
  }

  /// The events of `stream` itself (not the reverts its file holds) whose merge key
  /// `isAfter` takes, decoded; nil when the stream is quarantined: one of its events cannot
  /// be read, so a full read leaves every event of it out.
  private func readableEvents(
    of stream: String,
    after isAfter: (FoldEvent.MergeKey) -> Bool
  ) throws -> [FoldEvent]? {
    guard head.quarantined[stream] == nil else { return nil }
    var decoded: [FoldEvent] = []
    for stored in try streamEvents(stream) where stored.stream == stream {
      var parts: [FoldEvent] = []
      if Journal.decode(stored, upcaster: upcaster, into: &parts) != nil { return nil }
      if isAfter(Self.mergeKey(stored)) { decoded += parts }
    }
    return decoded
  }

  /// `events` in merge order, the parts of one stored event in the order they came.
  static func inMergeOrder(_ events: [FoldEvent]) -> [FoldEvent] {
    events.enumerated().sorted {
      ($0.element.mergeKey, $0.offset) < ($1.element.mergeKey, $1.offset)
    }
    .map(\.element)
  }

  /// The sequence number of `device`'s last event, as the state read it; nil when the state
  /// has read none, or the device's files forked (two branches may reuse a number).
  func lastSequence(of device: String) -> UInt64? {
    guard !head.branches.contains(where: { $0.hasPrefix(device + " ") }) else { return nil }
    return head.positions[device]?.sequence
  }
}
