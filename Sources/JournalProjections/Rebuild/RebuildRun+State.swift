import Foundation
import JournalCore

// Folding the streams an incremental rebuild renders from the saved state: each workout from
// its stream's file, the splits together from theirs (docs/Rebuild.md, "Incremental
// rebuilds").

extension RebuildRun {
  /// Folds, from the files of `state`, the streams whose documents may have changed since
  /// the folder's record; every stream when the record is missing or does not match.
  ///
  /// Holds the state's lock while it reads, so that no command changes a stream file
  /// between the change list and the stream read; the state is brought up to date with the
  /// files there, once (``Rebuild/run(store:output:progress:options:)`` opens it without).
  mutating func foldStreams(of state: SavedState) throws -> Folded {
    let upcaster = try EventUpcasters.makeUpcaster()
    return try state.locked {
      try state.catchUp(unavailableOnFailure: true)
      do {
        return try foldStreams(of: state, upcaster: upcaster)
      } catch let failure as SavedState.Untrusted {
        // A file of the state is damaged: it is read again from the whole history, with a
        // new epoch, and every stream is folded from it.
        try state.rebuild(because: failure.reason)
        return try foldStreams(of: state, upcaster: upcaster)
      }
    }
  }

  private mutating func foldStreams(of state: SavedState, upcaster: Upcaster) throws -> Folded {
    let now = state.head.now
    let renderNow = now.map(Date.init(milliseconds:))
    var changed: Set<String>?
    var previous: RebuildRecord?
    var end: ChangeList.Position?
    switch loadRecord() {
    case .success(let record):
      switch try ChangeList.streams(after: record.changes, in: state.files) {
      case .streams(let streams, let found):
        if (now ?? .min) < (record.now ?? .min) {
          report.foldedEveryStreamBecause = "the saved state's time is earlier than the record's"
        } else {
          (changed, previous, end) = (streams, record, found)
        }
      case .restarted:
        report.foldedEveryStreamBecause = Self.stateReadAgain
      case .broken:
        report.foldedEveryStreamBecause =
          "the saved state's change list does not continue the record"
      }
    case .failure(let refold):
      if refold.reason != Self.noRecord { report.foldedEveryStreamBecause = refold.reason }
    }
    if changed == nil {
      // A state saved by a build without a change list starts one, so that the next
      // rebuild has a position to start from.
      if try ChangeList.end(in: state.files) == nil { try ChangeList.start(in: state.files) }
      end = try ChangeList.end(in: state.files)
    }

    // The streams to fold: the changed ones, and those whose documents change with time
    // alone once their time came; every stream without a record to start from.
    let workoutStreams: [String]
    let foldSplits: Bool
    if var streams = changed, let previous {
      for (stream, expiry) in previous.expiring
      where RebuildRun.isDue(Date(milliseconds: expiry), at: renderNow) {
        streams.insert(stream)
      }
      workoutStreams = streams.filter { $0.hasPrefix("workout:") }.sorted()
      foldSplits = streams.contains { !$0.hasPrefix("workout:") }
      report.mode = .incremental
    } else {
      workoutStreams = try state.storedWorkoutStreams()
      foldSplits = true
      report.mode = .full
    }

    var record = end.map { RebuildRecord(changes: $0, now: now) }
    if let previous, changed != nil {
      record?.expiring = previous.expiring
      record?.anomalies = previous.anomalies
    }
    var folded = Folded(
      streams: [],
      splits: [:],
      workouts: [:],
      isComplete: changed == nil,
      renderNow: renderNow
    )
    quarantined = changed == nil ? [:] : state.head.quarantined
    var count = 0

    if foldSplits {
      var events: [StoredEvent] = []
      var seen: Set<String> = []
      for stream in state.head.splits {
        for event in try state.streamEvents(stream) where seen.insert(event.id).inserted {
          events.append(event)
        }
      }
      events.sort { SavedState.mergeKey($0) < SavedState.mergeKey($1) }
      let decoded = decode(events, upcaster: upcaster, streams: Set(state.head.splits))
      count += decoded.count
      let fold = Replayer.fold(decoded)
      folded.splits = fold.splits
      record?.anomalies[RebuildRecord.splitsKey] =
        fold.anomalies.isEmpty ? nil : fold.anomalies.count
      let streams = Set(fold.splits.keys.map { "split:\($0)" })
        .union(state.head.splits.filter { $0.hasPrefix("split:") })
      folded.streams += streams.sorted()
    }
    for stream in workoutStreams {
      let decoded = decode(try state.streamEvents(stream), upcaster: upcaster, streams: [stream])
      count += decoded.count
      folded.streams.append(stream)
      let id = FoldEvent.streamID(of: stream)
      guard quarantined[stream] == nil else {
        record?.anomalies[stream] = nil
        continue
      }
      let fold = Replayer.fold(decoded)
      record?.anomalies[stream] = fold.anomalies.isEmpty ? nil : fold.anomalies.count
      folded.workouts[id] = fold.workouts[id]
      folded.formerPaths[stream] = Self.startPaths(of: id, in: decoded)
    }
    report.eventsFolded = count
    report.notices += state.notices
    report.anomalyCount = record?.anomalies.values.reduce(0, +) ?? 0
    folded.record = record
    return folded
  }

  static let stateReadAgain = "the saved state's change list started again"

  /// Upcasts and decodes stored events in merge order; the events of a stream among
  /// `streams` that one of its events cannot be read are left out, and the stream is
  /// quarantined, as a full replay does.
  private mutating func decode(
    _ events: [StoredEvent],
    upcaster: Upcaster,
    streams: Set<String>
  ) -> [FoldEvent] {
    var decoded: [FoldEvent] = []
    var unreadable: Set<String> = []
    for stored in events {
      if let failure = Journal.decode(stored, upcaster: upcaster, into: &decoded),
        streams.contains(stored.stream), quarantined[stored.stream] == nil
      {
        quarantined[stored.stream] = "\(stored.location): \(failure.reason)"
        unreadable.insert(stored.stream)
      }
    }
    let blocked = unreadable.union(quarantined.keys)
    return blocked.isEmpty ? decoded : decoded.filter { !blocked.contains($0.stream) }
  }

  /// Where workout `id`'s document was at each start its events gave it: the folders where
  /// documents of an earlier rendering may be.
  static func startPaths(of id: String, in events: [FoldEvent]) -> [String] {
    events.compactMap { event -> String? in
      guard case .workoutStarted(let started) = event.event,
        let zone = TimeZone(identifier: started.timeZone)
      else { return nil }
      return DocumentPath.workout(id: id, start: event.at, timeZone: zone)
    }
  }
}

extension SavedState {
  /// Every workout stream the state holds a file of, sorted.
  func storedWorkoutStreams() throws -> [String] {
    let folder = files.absolute("streams")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var streams: [String] = []
    for name in names where !name.hasPrefix(".") {
      if name.hasPrefix("workout-") {
        streams.append("workout:" + name.dropFirst(8))
      } else if name.hasPrefix("x-"), let stream = Self.hexName(name.dropFirst(2)),
        stream.hasPrefix("workout:")
      {
        streams.append(stream)
      }
    }
    return streams.sorted()
  }

  /// The stream named by the hex digits of ``streamPath(_:)``'s `x-` files.
  private static func hexName(_ hex: Substring) -> String? {
    var bytes: [UInt8] = []
    var digits = hex.utf8.makeIterator()
    while let high = digits.next() {
      guard let low = digits.next(),
        let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
      else { return nil }
      bytes.append(value)
    }
    return String(bytes: bytes, encoding: .utf8)
  }
}
