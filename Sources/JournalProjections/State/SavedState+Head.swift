import Foundation
import JournalCore

// The head of a saved state in plain `key value…` lines, read by every command: a line per
// value, in a fixed order, each list item on its own line. A name that may hold spaces (a
// stream, a reason) comes last on its line; a newline in a reason is written as a space.
//
//   format 5
//   fold <FoldVersion.key>
//   now <ms>                                    (absent: none)
//   frontier <ms> <counter> <sequence> <device>
//   latest <start ms> <workout id>
//   activeFloor <ms>
//   active <start ms> <activity ms> <o|c> <workout id>     (the most recently active first)
//   position <device> <segment> <offset> <line> <sequence> <length> <sha-256>
//   branch <device> <sha-256>                   (a fork's branch folded in, by its head)
//   split <stream>
//   open <workout id>
//   recent <device> <ms> <counter> <sequence> <stream>   (newest first per device)
//   quarantined <stream><TAB><reason>

extension SavedState.Head {
  /// The head's lines.
  func encoded() -> [UInt8] {
    var lines = ["format \(format)", "fold \(fold)"]
    if let now { lines.append("now \(now)") }
    if let frontier {
      lines.append(
        "frontier \(frontier.milliseconds) \(frontier.counter) \(frontier.sequence) \(frontier.device)"
      )
    }
    if let latest, let latestStart { lines.append("latest \(latestStart) \(latest)") }
    if let activeFloor { lines.append("activeFloor \(activeFloor)") }
    for entry in active {
      lines.append("active \(entry.start) \(entry.activity) \(entry.mark) \(entry.id)")
    }
    for (device, p) in positions.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "position \(device) \(p.segment) \(p.offset) \(p.line) \(p.sequence) \(p.length) \(p.hash)"
      )
    }
    for branch in branches { lines.append("branch \(branch)") }
    for split in splits { lines.append("split \(split)") }
    for id in open { lines.append("open \(id)") }
    for (device, list) in recent.sorted(by: { $0.key < $1.key }) {
      for item in list {
        lines.append(
          "recent \(device) \(item.last.milliseconds) \(item.last.counter) \(item.last.sequence) \(item.stream)"
        )
      }
    }
    for (stream, reason) in quarantined.sorted(by: { $0.key < $1.key }) {
      let oneLine = reason.replacingOccurrences(of: "\n", with: " ")
      lines.append("quarantined \(stream)\t\(oneLine)")
    }
    return Array(lines.map { $0 + "\n" }.joined().utf8)
  }

  /// The head of `lines`; nil when a line is not one of a head's.
  ///
  /// Every command reads the head, so its lines are read as bytes: only the names it keeps
  /// become strings.
  init?(lines body: ArraySlice<UInt8>) {
    self.init()
    format = -1
    fold = ""
    var start = body.startIndex
    while start < body.endIndex {
      let end = body[start...].firstIndex(of: UInt8(ascii: "\n")) ?? body.endIndex
      let line = body[start..<end]
      start = end + 1
      guard !line.isEmpty else { continue }
      guard let space = line.firstIndex(of: UInt8(ascii: " ")),
        read(key: line[..<space], line[(space + 1)...])
      else { return nil }
    }
    guard format >= 0, !fold.isEmpty else { return nil }
  }

  /// Reads one line's value into the head; false when it is not one of a head's.
  private mutating func read(key: ArraySlice<UInt8>, _ rest: ArraySlice<UInt8>) -> Bool {
    switch Key(key) {
    case .format:
      guard let value = SavedState.integer(rest).flatMap(Int.init(exactly:)) else { return false }
      format = value
    case .fold: fold = Self.text(rest)
    case .now:
      guard let value = SavedState.integer(rest) else { return false }
      now = value
    case .frontier:
      guard let w = Self.words(rest, 3), let ms = SavedState.integer(w[0]),
        let counter = SavedState.integer(w[1]).flatMap(UInt32.init(exactly:)),
        let sequence = SavedState.integer(w[2]).flatMap(UInt64.init(exactly:))
      else { return false }
      frontier = FoldEvent.MergeKey(
        milliseconds: ms,
        counter: counter,
        device: Self.text(w[3]),
        sequence: sequence
      )
    case .latest:
      guard let w = Self.words(rest, 1), let start = SavedState.integer(w[0]), !w[1].isEmpty
      else { return false }
      latestStart = start
      latest = Self.text(w[1])
    case .activeFloor:
      guard let value = SavedState.integer(rest) else { return false }
      activeFloor = value
    case .active:
      guard let w = Self.words(rest, 3), let start = SavedState.integer(w[0]),
        let activity = SavedState.integer(w[1]), w[2].count == 1,
        let mark = w[2].first, mark == UInt8(ascii: "o") || mark == UInt8(ascii: "c"),
        !w[3].isEmpty
      else { return false }
      active.append(
        SavedState.WorkoutEntry(
          id: Self.text(w[3]),
          start: start,
          activity: activity,
          mark: Character(Unicode.Scalar(mark))
        )
      )
    case .position:
      guard let w = Self.words(rest, 6), !Self.contains(w[6], UInt8(ascii: " ")),
        let segment = SavedState.integer(w[1]).flatMap(Int.init(exactly:)),
        let offset = SavedState.integer(w[2]).flatMap(Int.init(exactly:)),
        let lineNumber = SavedState.integer(w[3]).flatMap(Int.init(exactly:)),
        let sequence = SavedState.integer(w[4]).flatMap(UInt64.init(exactly:)),
        let length = SavedState.integer(w[5]).flatMap(Int.init(exactly:)),
        let hash = SHA256Digest(hexString: Self.text(w[6]))
      else { return false }
      positions[Self.text(w[0])] = DevicePosition(
        segment: segment,
        offset: offset,
        line: lineNumber,
        sequence: sequence,
        length: length,
        hash: hash
      )
    case .branch:
      guard let w = Self.words(rest, 1), EventLog.isValidDeviceName(Self.text(w[0])),
        SHA256Digest(hexString: Self.text(w[1])) != nil
      else { return false }
      branches.append(Self.text(rest))
    case .split: splits.append(Self.text(rest))
    case .open: open.append(Self.text(rest))
    case .recent:
      guard let w = Self.words(rest, 4), let ms = SavedState.integer(w[1]),
        let counter = SavedState.integer(w[2]).flatMap(UInt32.init(exactly:)),
        let sequence = SavedState.integer(w[3]).flatMap(UInt64.init(exactly:))
      else { return false }
      let device = Self.text(w[0])
      let key = FoldEvent.MergeKey(
        milliseconds: ms,
        counter: counter,
        device: device,
        sequence: sequence
      )
      recent[device, default: []].append(
        SavedState.RecentStream(stream: Self.text(w[4]), last: key)
      )
    case .quarantined:
      guard let tab = rest.firstIndex(of: UInt8(ascii: "\t")) else { return false }
      quarantined[Self.text(rest[..<tab])] = Self.text(rest[(tab + 1)...])
    case nil:
      return false
    }
    return true
  }

  /// The keys of a head's lines.
  private enum Key: String, CaseIterable {
    case format, fold, now, frontier, latest, activeFloor, active, position, branch, split
    case open, recent, quarantined

    /// The key spelled by `bytes`, found by comparing bytes.
    init?(_ bytes: ArraySlice<UInt8>) {
      guard let found = Self.spellings.first(where: { $0.bytes.elementsEqual(bytes) }) else {
        return nil
      }
      self = found.key
    }

    private static let spellings = allCases.map { (bytes: Array($0.rawValue.utf8), key: $0) }
  }

  /// The `count` words before a last field that may hold spaces: `count + 1` fields, or nil
  /// when the line has fewer.
  private static func words(_ rest: ArraySlice<UInt8>, _ count: Int) -> [ArraySlice<UInt8>]? {
    var fields: [ArraySlice<UInt8>] = []
    fields.reserveCapacity(count + 1)
    var start = rest.startIndex
    while fields.count < count {
      guard let space = rest[start...].firstIndex(of: UInt8(ascii: " ")) else { return nil }
      fields.append(rest[start..<space])
      start = space + 1
    }
    fields.append(rest[start...])
    return fields
  }

  private static func contains(_ bytes: ArraySlice<UInt8>, _ byte: UInt8) -> Bool {
    bytes.firstIndex(of: byte) != nil
  }

  private static func text(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
  }
}
