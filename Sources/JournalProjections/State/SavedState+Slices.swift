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
  /// as a full read leaves them out.
  ///
  /// Memory holds one slice at a time.
  ///
  /// - Throws: ``Untrusted`` when a file of the state is damaged; what `body` throws.
  func forEachSlice(_ body: (_ events: [FoldEvent]) throws -> Void) throws {
    try body(try slice(head.splits.filter { !head.quarantined.keys.contains($0) }))
    for (stream, _) in try workoutStreams() { try body(try slice([stream])) }
    let loose = try looseReverts().reverts
    if !loose.isEmpty { try body(loose) }
  }

  /// The events of `streams` merged, decoded, without those of quarantined streams (the
  /// head's, and any with an event this build cannot read, whose earlier events are left
  /// out too, as a full read leaves them out: the reverts this build cannot read are in
  /// every slice for that).
  ///
  /// - Throws: ``Untrusted`` when a stream's file is damaged.
  func slice(_ streams: [String]) throws -> [FoldEvent] {
    var stored = try undecodableRevertRecords()
    var seen = Set(stored.map(\.id))
    for stream in streams {
      for event in try streamEvents(stream) where seen.insert(event.id).inserted {
        stored.append(event)
      }
    }
    stored.sort { Self.mergeKey($0) < Self.mergeKey($1) }
    var decoded: [FoldEvent] = []
    var quarantined = Set(head.quarantined.keys)
    for event in stored {
      if Journal.decode(event, upcaster: upcaster, into: &decoded) != nil {
        quarantined.insert(event.stream)
      }
    }
    return decoded.filter { !quarantined.contains($0.stream) }
  }

  /// The workouts' streams in the order slices hand them on, none quarantined.
  ///
  /// First those the catalogue lists, by start then id (deleted ones included), then those
  /// it does not list (their starts were undone), by name, with a nil `start`. The catalogue
  /// is read a bucket at a time into (start, id) pairs, not a map of its entries: this list
  /// is what a read of every slice holds for each workout.
  func workoutStreams() throws -> StreamList {
    var listed: [(start: Int64, id: String)] = []
    let catalogue =
      (try? FileManager.default.contentsOfDirectory(atPath: files.absolute("catalogue"))) ?? []
    for name in catalogue.sorted() where !name.hasPrefix(".") {
      for (id, entry) in try catalogueBucket(name) { listed.append((entry.start, id)) }
    }
    listed.sort { $0.id < $1.id }
    var unlisted: [String] = []
    let held =
      (try? FileManager.default.contentsOfDirectory(atPath: files.absolute("streams"))) ?? []
    for name in held {
      guard let stream = Self.stream(ofPath: name), stream.hasPrefix("workout:") else {
        continue
      }
      let id = FoldEvent.streamID(of: stream)
      // A binary search of the ids listed.
      var (low, high) = (0, listed.count)
      while low < high {
        let middle = (low + high) / 2
        if listed[middle].id < id { low = middle + 1 } else { high = middle }
      }
      if low == listed.count || listed[low].id != id { unlisted.append(stream) }
    }
    listed.sort { ($0.start, $0.id) < ($1.start, $1.id) }
    var streams = StreamList()
    streams.reserveCapacity(
      listed.count + unlisted.count,
      bytes: listed.reduce(0) { $0 + 8 + $1.id.utf8.count }
        + unlisted.reduce(0) { $0 + $1.utf8.count }
    )
    for entry in listed {
      let stream = "workout:" + entry.id
      if head.quarantined[stream] == nil { streams.append(stream, start: entry.start) }
    }
    for stream in unlisted.sorted() where head.quarantined[stream] == nil {
      streams.append(stream, start: nil)
    }
    return streams
  }

  /// Streams, each with a time, held as the bytes of their names one after the other: about
  /// 50 bytes a stream rather than a string and a tuple each.
  struct StreamList: RandomAccessCollection {
    private var names: [UInt8] = []
    /// Where each name ends in `names`.
    private var ends: [Int] = []
    /// Each stream's time; `Int64.min` for none.
    private var starts: [Int64] = []

    var startIndex: Int { 0 }
    var endIndex: Int { ends.count }

    subscript(position: Int) -> (stream: String, start: Int64?) {
      let from = position == 0 ? 0 : ends[position - 1]
      let start = starts[position]
      return (
        String(decoding: names[from..<ends[position]], as: UTF8.self),
        start == .min ? nil : start
      )
    }

    /// Makes room for `count` streams whose names take `bytes` bytes.
    mutating func reserveCapacity(_ count: Int, bytes: Int) {
      names.reserveCapacity(bytes)
      ends.reserveCapacity(count)
      starts.reserveCapacity(count)
    }

    /// Adds `stream`; `start` must not be `Int64.min`.
    mutating func append(_ stream: String, start: Int64?) {
      names += stream.utf8
      ends.append(names.count)
      starts.append(start ?? .min)
    }
  }

  /// The reverts held in no stream's file, decoded, in merge order.
  ///
  /// Those are the reverts the id index places nowhere, as they name no event held nor a
  /// revert that does. Those of quarantined streams are left out; a revert this build cannot
  /// read quarantines its stream, as a full read does, and `unreadable` names those streams.
  ///
  /// Reads `reverts/` and the id index a bucket at a time.
  ///
  /// - Throws: ``Untrusted`` when a file of the state is damaged.
  func looseReverts() throws -> (reverts: [FoldEvent], unreadable: Set<String>) {
    var loose: [FoldEvent] = []
    var unreadable: Set<String> = []
    let folder = files.absolute("reverts")
    let buckets = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for bucket in buckets.sorted() where !bucket.hasPrefix(".") {
      // A revert and its line in the id index are in buckets of one name.
      var index = BucketedMap(files: stateFiles, folder: "ids")
      let placed = try index.all(inBucket: bucket)
      for stored in try heldReverts(bucket) where placed[stored.id]?.isEmpty ?? true {
        if Journal.decode(stored, upcaster: upcaster, into: &loose) != nil {
          unreadable.insert(stored.stream)
        }
      }
    }
    let reverts = Self.inMergeOrder(loose).filter {
      !unreadable.contains($0.stream) && head.quarantined[$0.stream] == nil
    }
    return (reverts, unreadable)
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
      let stream = String(decoding: bytes, as: UTF8.self)
      return digits.isEmpty && streamPath(stream) == "streams/" + name ? stream : nil
    }
    // `splits` and `history` have no dash, `a:b:c` two; a file of any other spelling is not
    // a stream's.
    let stream = name.replacingOccurrences(of: "-", with: ":")
    return streamPath(stream) == "streams/" + name ? stream : nil
  }
}
