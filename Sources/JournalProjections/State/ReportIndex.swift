import Foundation
import JournalCore

/// What `journal report` reads from the saved state over the whole history: the report's
/// reads (``ReportReads``) of the workouts started in each year, merged, kept until a
/// workout of that year changes (docs/OnDiskFormat.md, "The saved state").
///
/// Files, under `report/`, each ending with its checksum:
/// - `index`: `version <n>` (``version``: parts of another version are read again);
///   `position <epoch> <offset> <check>`, where the change list (``ChangeList``)
///   stood when the parts were brought up to date; `quarantined <stream>` for each stream
///   then set aside; and `part <name><TAB><count> <digest>` for each part: how many
///   workouts it holds, and the XXH64 of their ids, in the order slices hand them on, each
///   followed by a line feed;
/// - `<name>`: the part's reads as JSON (``Part``), without the sessions its summary lists;
/// - `<name>.sessions`: those sessions (the part's newest ``ReportReads/listed``), as JSON:
///   apart, because only the newest parts' are listed in the end, and they are most of a
///   part's bytes.
///
/// A part is named after the year (UTC) its workouts started, or `unlisted` for the
/// workouts whose start was undone. It is read again from its workouts' streams when its
/// file is missing or damaged, when the list of its workouts changed, or when the change
/// list names one of their streams since the index's position; every part is when the
/// change list started again or the quarantined streams changed. The splits' slice and the
/// reverts that name no event held are read every time: they are small.
struct ReportIndex: Equatable {
  /// The folder, in the state's.
  static let folder = "report"
  /// The version of the parts' JSON: an index of another version is not used.
  static let version = 3

  /// Where the change list stood.
  var position: ChangeList.Position
  /// The streams quarantined then.
  var quarantined: Set<String>
  /// Each part's workouts, by the part's name.
  var parts: [String: Listing]

  /// A part's workouts, told apart from another list by their count and digest.
  struct Listing: Equatable {
    var count: Int
    var digest: String

    /// The listing of the workouts with `ids`, in order.
    init(ids: some Sequence<String>) {
      var bytes: [UInt8] = []
      var count = 0
      for id in ids {
        bytes += id.utf8
        bytes.append(UInt8(ascii: "\n"))
        count += 1
      }
      self.count = count
      digest = XXH64.hex(bytes)
    }

    init(count: Int, digest: String) {
      self.count = count
      self.digest = digest
    }
  }

  /// One part's file.
  struct Part: Codable {
    var reads: ReportReads
  }

  func encoded() -> [UInt8] {
    var lines = [
      "version \(Self.version)", "position \(position.epoch) \(position.offset) \(position.check)",
    ]
    for stream in quarantined.sorted() { lines.append("quarantined \(stream)") }
    for (name, listing) in parts.sorted(by: { $0.key < $1.key }) {
      lines.append("part \(name)\t\(listing.count) \(listing.digest)")
    }
    return Array(lines.map { $0 + "\n" }.joined().utf8)
  }

  init(position: ChangeList.Position, quarantined: Set<String>, parts: [String: Listing]) {
    self.position = position
    self.quarantined = quarantined
    self.parts = parts
  }

  /// The index in `body`; nil when a line does not read.
  init?(lines body: ArraySlice<UInt8>) {
    var position: ChangeList.Position?
    var version: Int?
    quarantined = []
    parts = [:]
    for raw in body.split(separator: UInt8(ascii: "\n")) {
      let line = String(decoding: raw, as: UTF8.self)
      if line.hasPrefix("version ") {
        version = Int(line.dropFirst("version ".count))
      } else if line.hasPrefix("position ") {
        let words = line.split(separator: " ")
        guard words.count == 4, let offset = Int(words[2]) else { return nil }
        position = ChangeList.Position(
          epoch: String(words[1]),
          offset: offset,
          check: String(words[3])
        )
      } else if line.hasPrefix("quarantined ") {
        quarantined.insert(String(line.dropFirst("quarantined ".count)))
      } else if line.hasPrefix("part "), let tab = line.firstIndex(of: "\t") {
        let name = String(line[line.index(line.startIndex, offsetBy: 5)..<tab])
        let words = line[line.index(after: tab)...].split(separator: " ")
        guard words.count == 2, let count = Int(words[0]) else { return nil }
        parts[name] = Listing(count: count, digest: String(words[1]))
      } else {
        return nil
      }
    }
    guard let position, version == Self.version else { return nil }
    self.position = position
  }

  /// Where a report writes a part it read again before putting it in place: a new name each
  /// time, so that two reports never write one file.
  static func aside(_ name: String) -> String {
    "\(folder)/.\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
  }

  /// The name of the part of a workout started at `start` (milliseconds), or not listed.
  static func part(start: Int64?) -> String {
    guard let start else { return "unlisted" }
    return String(SavedState.utc.component(.year, from: Date(milliseconds: start)))
  }
}

extension SavedState {
  typealias Session = TrainingSummary.Session

  /// The report's reads over the whole history: the splits' slice, each part of the report
  /// index (``ReportIndex``) brought up to date, then the reverts that name no event held.
  ///
  /// Equals the reads of ``forEachSlice(_:)``'s slices; keeps the parts it read again when the
  /// state may be written (a failure to keep them is no error: they are read again next
  /// time).
  ///
  /// - Throws: ``Untrusted`` when a stream's file is damaged.
  func reportReads() throws -> ReportReads {
    // Each part's workouts, as places in the compact list of streams, not as strings.
    let streams = try workoutStreams()
    var members: [String: [Int]] = [:]
    var order: [String] = []
    for index in streams.indices {
      let name = ReportIndex.part(start: streams[index].start)
      if members[name] == nil { order.append(name) }
      members[name, default: []].append(index)
    }
    let parts = members.mapValues { indices in
      ReportIndex.Listing(ids: indices.lazy.map { FoldEvent.streamID(of: streams[$0].stream) })
    }
    let quarantined = Set(head.quarantined.keys)
    // The parts that must be read again from their workouts' streams.
    var stale = Set(parts.keys)
    var kept: ReportIndex?
    var held: ReportIndex?
    if let bytes = try? files.read("\(ReportIndex.folder)/index"),
      let body = Self.checked(bytes),
      let index = ReportIndex(lines: body), index.quarantined == quarantined,
      case .streams(let changed, let end) = try ChangeList.streams(
        after: index.position,
        in: files
      )
    {
      let touched = Set(changed.filter { $0.hasPrefix("workout:") })
      stale = stale.filter { name in
        index.parts[name] != parts[name]
          || members[name, default: []].contains { touched.contains(streams[$0].stream) }
      }
      kept = ReportIndex(position: end, quarantined: quarantined, parts: parts)
      held = index
    } else if let end = try listEnd() {
      kept = ReportIndex(position: end, quarantined: quarantined, parts: parts)
    }
    var reads = ReportReads(since: nil, until: nil)
    let splits = try slice(head.splits.filter { quarantined.contains($0) == false })
    reads.add(state: Replayer.fold(splits), events: splits)
    // The files of the parts read again, each written aside as soon as it is read (memory
    // holds one part).
    var written: [(file: String, aside: String)] = []
    // Whether every part read again was written aside: else the index is left as it was.
    var keeping = kept != nil && !readOnly
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    func writeAside(_ file: String, _ value: some Encodable) {
      let aside = ReportIndex.aside(file)
      if (try? Self.write(stateFiles, aside, Array(encoder.encode(value)))) != nil {
        written.append((file, aside))
      } else {
        keeping = false
      }
    }
    /// Part `name` read again from its workouts' streams, its sessions taken out.
    func readAgain(_ name: String) throws -> (part: ReportIndex.Part, sessions: [Session]) {
      var read = ReportIndex.Part(reads: ReportReads(since: nil, until: nil))
      for index in members[name, default: []] {
        let events = try slice([streams[index].stream])
        read.reads.add(state: Replayer.fold(events), events: events)
      }
      let sessions = read.reads.takeSessions()
      if keeping {
        writeAside("\(ReportIndex.folder)/\(name)", read)
        writeAside("\(ReportIndex.folder)/\(name).sessions", sessions)
      }
      return (read, sessions)
    }
    func load<T: Decodable>(_ type: T.Type, _ file: String) -> T? {
      guard let bytes = try? files.read("\(ReportIndex.folder)/\(file)"),
        let body = Self.checked(bytes)
      else { return nil }
      return try? JSONDecoder().decode(type, from: Data(body))
    }
    var sessionsRead: [String: [Session]] = [:]
    for name in order {
      var part = stale.contains(name) ? nil : load(ReportIndex.Part.self, name)
      if part == nil {
        let again = try readAgain(name)
        (part, sessionsRead[name]) = (again.part, again.sessions)
        // Only the newest parts' sessions can be listed: those of a part with enough newer
        // ones read are dropped.
        var newer = 0
        for read in order.filter({ sessionsRead[$0] != nil }).reversed() {
          if newer >= ReportReads.listed { sessionsRead[read] = nil }
          newer += sessionsRead[read]?.count ?? 0
        }
      }
      guard let part else { continue }
      reads.merge(part.reads)
    }
    // The sessions listed: the newest parts' (parts are in the order their workouts
    // started), until there are enough.
    var listed = 0
    for name in order.reversed() where listed < ReportReads.listed {
      var sessions = sessionsRead[name] ?? load([Session].self, "\(name).sessions")
      if sessions == nil { sessions = try readAgain(name).sessions }
      reads.list(sessions ?? [])
      listed += sessions?.count ?? 0
    }
    let loose = try looseReverts().reverts
    if !loose.isEmpty { reads.add(state: Replayer.fold(loose), events: loose) }
    if keeping, let kept, kept != held || !written.isEmpty {
      try? keep(kept, written, replacing: held)
    }
    for (_, aside) in written { try? stateFiles.remove(aside) }
    return reads
  }

  /// Puts the parts written aside in place, removes those `old` lists that `index` does
  /// not, then writes the index, holding the state's lock so that the index never names
  /// parts older than another report put in place.
  private func keep(
    _ index: ReportIndex,
    _ parts: [(file: String, aside: String)],
    replacing old: ReportIndex?
  ) throws {
    try locked {
      for (file, aside) in parts {
        guard rename(files.absolute(aside), files.absolute(file)) == 0 else {
          throw Unavailable(reason: "cannot put '\(file)' in place")
        }
      }
      for name in (old?.parts.keys).map(Set.init) ?? [] where index.parts[name] == nil {
        try stateFiles.remove("\(ReportIndex.folder)/\(name)")
        try stateFiles.remove("\(ReportIndex.folder)/\(name).sessions")
      }
      try Self.write(stateFiles, "\(ReportIndex.folder)/index", index.encoded())
    }
  }

  /// Where the change list ends now; nil when the state may only be read and has no list.
  ///
  /// A list that is missing or damaged is started again, holding the lock (a write appends
  /// to it holding the lock).
  private func listEnd() throws -> ChangeList.Position? {
    if let end = try ChangeList.end(in: files) { return end }
    guard !readOnly else { return nil }
    return try locked {
      if let end = try ChangeList.end(in: files) { return end }
      try ChangeList.start(in: files)
      return try ChangeList.end(in: files)
    }
  }
}
