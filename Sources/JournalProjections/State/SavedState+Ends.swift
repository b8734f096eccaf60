import Foundation
import JournalCore

// Where each file of events of the state ends (`ends/`), and which slices render differently
// as the fold's `now` moves (`dues`): what lets `rewind` and `diff` read the files with an
// event after a point instead of every file (docs/OnDiskFormat.md, "The saved state").

extension SavedState {
  /// The state's files of events by the record time of their last event in merge order: each
  /// stream's file (`streams/…`) and each bucket of reverts kept by id (`reverts/…`).
  ///
  /// Files `ends/<period>`, a period being 2^31 milliseconds (about 25 days) and `<period>`
  /// the record time shifted right by 31 bits, in decimal: one `<file><TAB><milliseconds>` line
  /// per file whose last event was recorded in that period. A file's last event only moves
  /// later (events are added, never taken out), so the files holding an event recorded at or
  /// after a time are those listed from that time's period on. `ends/undecodable` lists the
  /// buckets of reverts holding a revert this build cannot decode.
  struct Ends {
    static let folder = "ends"
    static let undecodable = "ends/undecodable"
    private static let shift: Int64 = 31

    let files: any StateFiles
    /// The folder's path, to list its periods.
    let path: String
    private var periods: [Int64: [String: Int64]] = [:]
    private var changed: Set<Int64> = []

    init(_ state: SavedState) {
      files = state.stateFiles
      path = state.files.absolute(Self.folder)
    }

    /// Notes that the last event of `file` moved from `old` to `new` (record times; nil for
    /// no file, or an empty one).
    mutating func move(_ file: String, from old: Int64?, to new: Int64?) throws {
      guard old != new else { return }
      if let old {
        let period = old >> Self.shift
        try load(period)
        if periods[period]?.removeValue(forKey: file) != nil { changed.insert(period) }
      }
      if let new {
        let period = new >> Self.shift
        try load(period)
        periods[period, default: [:]][file] = new
        changed.insert(period)
      }
    }

    /// The files whose last event was recorded at or after `floor`, sorted.
    mutating func files(endingFrom floor: Int64) throws -> [String] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      var found: [String] = []
      for period in names.compactMap(Int64.init).sorted() where period >= floor >> Self.shift {
        try load(period)
        for (file, last) in periods[period] ?? [:] where last >= floor { found.append(file) }
      }
      return found.sorted()
    }

    private mutating func load(_ period: Int64) throws {
      guard periods[period] == nil else { return }
      let relative = "\(Self.folder)/\(period)"
      let entries = try SavedState.namedIntegers(relative, files: files)
      guard entries.values.allSatisfy({ $0 >> Self.shift == period }) else {
        throw Untrusted(reason: "'\(relative)' is unreadable")
      }
      periods[period] = entries
    }

    /// Writes the periods that changed; removes those left empty.
    func save() throws {
      for period in changed.sorted() {
        let relative = "\(Self.folder)/\(period)"
        let entries = periods[period] ?? [:]
        if entries.isEmpty {
          try files.remove(relative)
          continue
        }
        try SavedState.write(files, relative, SavedState.namedIntegerLines(entries))
      }
    }
  }

  /// The slices whose documents render differently as the fold's `now` moves (a deleted split
  /// or workout, a removed log: their grace periods), each with the latest `now` at which one
  /// of them may still change (``due(of:)``).
  ///
  /// File `dues`: one `<slice><TAB><milliseconds>` line a slice, the slice named by its
  /// stream's file (`streams/workout-…`), or `splits` for the splits' slice.
  struct Dues {
    static let file = "dues"
    private(set) var entries: [String: Int64] = [:]
    private var changed = false

    /// The dues the state holds.
    static func load(_ files: any StateFiles) throws -> Dues {
      var dues = Dues()
      dues.entries = try SavedState.namedIntegers(file, files: files)
      return dues
    }

    /// Sets the due of `slice`; nil when its documents do not depend on `now`.
    mutating func set(_ slice: String, _ until: Int64?) {
      guard entries[slice] != until else { return }
      entries[slice] = until
      changed = true
    }

    /// Writes the file when a due changed.
    func save(_ files: any StateFiles) throws {
      guard changed else { return }
      if entries.isEmpty { return try files.remove(Self.file) }
      try SavedState.write(files, Self.file, SavedState.namedIntegerLines(entries))
    }
  }

  /// The `<name><TAB><integer>` lines of the file `relative` (the index of ends, `dues`), by
  /// name; none when there is no file.
  ///
  /// - Throws: ``Untrusted`` when the file does not match its checksum or a line does not
  ///   read.
  static func namedIntegers(_ relative: String, files: any StateFiles) throws -> [String: Int64] {
    guard let bytes = try files.read(relative) else { return [:] }
    guard let body = checked(bytes) else {
      throw Untrusted(reason: "'\(relative)' does not match its checksum")
    }
    var entries: [String: Int64] = [:]
    for line in body.split(separator: UInt8(ascii: "\n")) {
      let parts = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty,
        let value = Int64(String(decoding: parts[1], as: UTF8.self))
      else { throw Untrusted(reason: "'\(relative)' is unreadable") }
      entries[String(decoding: parts[0], as: UTF8.self)] = value
    }
    return entries
  }

  /// The bytes of ``namedIntegers(_:files:)``'s lines, sorted by name.
  static func namedIntegerLines(_ entries: [String: Int64]) -> [UInt8] {
    Array(entries.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined().utf8)
  }

  /// The latest `now` (milliseconds, rounded up) at which a document of `state`, a slice's
  /// fold, may render differently from its rendering at a later `now`.
  ///
  /// That is the end of the grace period of a deleted split (not a starter) or workout, or of
  /// a removed log. Nil when its documents do not depend on `now`.
  static func due(of state: JournalState) -> Int64? {
    var times: [TimeInterval] = []
    for split in state.splits.values where !split.isStarter {
      if let deletedAt = split.deletedAt {
        times.append(deletedAt.timeIntervalSince1970 + JournalState.stubGrace)
      }
    }
    for workout in state.workouts.values {
      if let deletedAt = workout.deletedAt {
        times.append(deletedAt.timeIntervalSince1970 + JournalState.stubGrace)
      }
      for removed in (workout.document.deletedLogIDs ?? [:]).values {
        times.append(removed.timeIntervalSince1970 + WorkoutDocument.deletedLogGrace)
      }
    }
    guard let latest = times.max() else { return nil }
    let milliseconds = (latest * 1000).rounded(.up)
    return milliseconds >= 9e18 ? .max : milliseconds <= -9e18 ? .min : Int64(milliseconds)
  }

  /// The buckets of reverts (`reverts/<bucket>`) holding a revert this build cannot decode.
  func undecodableReverts() throws -> [String] {
    guard let bytes = try files.read(Ends.undecodable) else { return [] }
    guard let body = Self.checked(bytes) else {
      throw Untrusted(reason: "'\(Ends.undecodable)' does not match its checksum")
    }
    return body.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The reverts this build cannot decode, from the buckets ``undecodableReverts()`` lists.
  ///
  /// Every scope and every slice holds them (a full read's rule, that an event which cannot
  /// be decoded quarantines its stream, then leaves out every revert of their stream there
  /// too): such a revert names no event the build can know, so it is in no stream's file.
  func undecodableRevertRecords() throws -> [StoredEvent] {
    if let known = undecodableRecords { return known }
    var found: [StoredEvent] = []
    for file in try undecodableReverts() {
      for revert in try heldReverts(String(file.dropFirst("reverts/".count))) {
        if case .failure = Journal.decode(revert, upcaster: upcaster) { found.append(revert) }
      }
    }
    undecodableRecords = found
    return found
  }

  /// Notes, in ``Ends``, where the bucket of reverts `bucket` ends now that it holds `held`
  /// (it held `old` before), and whether it holds one this build cannot decode.
  func noteEnds(
    ofReverts bucket: String,
    old: [StoredEvent],
    held: [StoredEvent],
    in ends: inout Ends
  ) throws {
    let file = "reverts/" + bucket
    try ends.move(
      file,
      from: old.map(\.milliseconds).max(),
      to: held.map(\.milliseconds).max()
    )
    let added = held.dropFirst(old.count)
    guard
      added.contains(where: {
        if case .failure = Journal.decode($0, upcaster: upcaster) { true } else { false }
      })
    else { return }
    var listed = try undecodableReverts()
    guard !listed.contains(file) else { return }
    listed.append(file)
    undecodableRecords = nil
    try Self.write(
      stateFiles,
      Ends.undecodable,
      Array(listed.sorted().map { $0 + "\n" }.joined().utf8)
    )
  }
}
