import Foundation
import JournalCore

extension SavedState {
  /// Hands on every event in effect, in merge order: the events a full read holds (without
  /// the quarantined streams') less those that reverts in effect cancel, as
  /// `export --format ndjson` prints them.
  ///
  /// The stream files are merged by the merge keys of their events, each file read when the
  /// merge reaches its first event and let go after its last. A file holds every revert
  /// that decides which of its events count (``ingest``), so what it holds alone tells what
  /// is in effect; a revert is in the file of every stream it concerns, and is handed on
  /// once, read again from `reverts/` when the merge reaches it. The reverts that concern no
  /// stream (the id index lists no file for them) are read first, from `reverts/`: among
  /// themselves they decide which of them count. A revert this build cannot read
  /// quarantines its stream, as a full read does: no revert of that stream counts then.
  ///
  /// Memory holds the merge key of each stream file's first event, and what the merge has
  /// reached and not passed: the splits' streams and the workout of the moment, and a
  /// revert's key for each stream it concerns until the merge reaches it. Never the history.
  ///
  /// - Throws: ``Untrusted`` when a file of the state is damaged (some events may have been
  ///   handed on); what `body` throws.
  func forEachEventInEffect(_ body: (FoldEvent) throws -> Void) throws {
    // The reverts in no stream's file decide among themselves which of them count.
    let (held, unreadable) = try looseReverts()
    let cancelled = Replayer.cancelledEvents(in: held)
    let loose = held.filter { !cancelled.contains($0.eventID) }
    // Each stream's file, by the merge key of its first event: a lower bound of the others.
    var pending: [(first: FoldEvent.MergeKey, stream: String)] = []
    let folder = files.absolute("streams")
    for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []) {
      guard let stream = Self.stream(ofPath: name),
        let first = try firstEvent(inFile: "streams/" + name)
      else { continue }
      pending.append((Self.mergeKey(first), stream))
    }
    pending.sort { ($0.first, $0.stream) < ($1.first, $1.stream) }

    // The sources the merge has reached, each holding what it still has to hand on, the next
    // item last; the smallest next item on top.
    var sources = Heap<[InEffect]>(by: InEffect.precedes)
    if !loose.isEmpty { sources.insert(loose.reversed().map(InEffect.event)) }
    var nextPending = 0
    // The reverts handed on at the last key: the copies in other files are not.
    var handed: (key: FoldEvent.MergeKey, ids: Set<String>)?
    var bucket: (name: String, reverts: [StoredEvent])?
    while true {
      // A stream whose first event does not come after the next item is read first.
      if nextPending < pending.count,
        sources.first?.last.map({ pending[nextPending].first <= $0.key }) ?? true
      {
        let stream = pending[nextPending].stream
        nextPending += 1
        let items = try inEffect(stream, unreadable: unreadable)
        if !items.isEmpty { sources.insert(items.reversed()) }
        continue
      }
      guard !sources.isEmpty else { return }
      var source = sources.removeFirst()
      let item = source.removeLast()
      if !source.isEmpty {
        // What a stream still holds when its last events are reverts far ahead: let go of
        // the rest.
        if source.count * 4 < source.capacity { source = Array(source[...]) }
        sources.insert(source)
      }
      switch item {
      case .event(let event):
        try body(event)
      case .revert(let key, let id):
        if handed?.key == key {
          guard handed?.ids.insert(id).inserted == true else { continue }
        } else {
          handed = (key, [id])
        }
        let name = Self.bucket(of: id)
        if bucket?.name != name { bucket = (name, try heldReverts(name)) }
        guard let stored = bucket?.reverts.first(where: { $0.id == id }) else {
          throw Untrusted(reason: "'reverts/\(name)' does not hold revert \(id)")
        }
        var parts: [FoldEvent] = []
        _ = Journal.decode(stored, upcaster: upcaster, into: &parts)
        for part in parts { try body(part) }
      }
    }
  }

  /// What the merge of ``forEachEventInEffect(_:)`` hands on: an event, or a revert held in
  /// the files of several streams, known by its key and id until the merge reaches it.
  enum InEffect {
    case event(FoldEvent)
    case revert(FoldEvent.MergeKey, id: String)

    var key: FoldEvent.MergeKey {
      switch self {
      case .event(let event): event.mergeKey
      case .revert(let key, _): key
      }
    }

    /// Whether the source `a`, whose next item is its last, comes before the source `b`;
    /// an empty source comes after every other.
    static func precedes(_ a: [InEffect], _ b: [InEffect]) -> Bool {
      guard let next = a.last else { return false }
      guard let other = b.last else { return true }
      return next.key < other.key
    }
  }

  /// What counts of the file of `stream`, in merge order: its own events that no revert of
  /// the file cancels (none when it is quarantined), and the reverts in effect.
  ///
  /// - Parameters:
  ///   - stream: the stream whose file is read.
  ///   - unreadable: the streams of reverts this build cannot read: none of theirs counts.
  /// - Returns: the events and reverts in effect, in merge order.
  /// - Throws: ``Untrusted`` when the file is damaged.
  private func inEffect(_ stream: String, unreadable: Set<String>) throws -> [InEffect] {
    var decoded: [FoldEvent] = []
    var quarantined = head.quarantined[stream] != nil
    for stored in try streamEvents(stream)
    where stored.stream == stream
      || !unreadable.contains(stored.stream) && head.quarantined[stored.stream] == nil
    {
      if Journal.decode(stored, upcaster: upcaster, into: &decoded) != nil,
        stored.stream == stream
      {
        quarantined = true
      }
    }
    if quarantined { decoded.removeAll { $0.stream == stream } }
    let cancelled = Replayer.cancelledEvents(in: decoded)
    return decoded.compactMap { event in
      guard !cancelled.contains(event.eventID) else { return nil }
      guard case .eventsReverted = event.event else { return .event(event) }
      return .revert(event.mergeKey, id: event.storedID)
    }
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
