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
  init?(lines body: ArraySlice<UInt8>) {
    self.init()
    format = -1
    fold = ""
    for raw in body.split(separator: UInt8(ascii: "\n")) {
      let line = String(decoding: raw, as: UTF8.self)
      guard let space = line.firstIndex(of: " ") else { return nil }
      let key = line[..<space]
      let rest = line[line.index(after: space)...]
      // The words before a last field that may hold spaces.
      func words(_ count: Int) -> [Substring]? {
        let parts = rest.split(separator: " ", maxSplits: count, omittingEmptySubsequences: false)
        return parts.count == count + 1 ? parts : nil
      }
      switch key {
      case "format":
        guard let value = Int(rest) else { return nil }
        format = value
      case "fold": fold = String(rest)
      case "now":
        guard let value = Int64(rest) else { return nil }
        now = value
      case "frontier":
        guard let w = words(3), let ms = Int64(w[0]), let counter = UInt32(w[1]),
          let sequence = UInt64(w[2])
        else { return nil }
        frontier = FoldEvent.MergeKey(
          milliseconds: ms,
          counter: counter,
          device: String(w[3]),
          sequence: sequence
        )
      case "latest":
        guard let w = words(1), let start = Int64(w[0]), !w[1].isEmpty else { return nil }
        latestStart = start
        latest = String(w[1])
      case "activeFloor":
        guard let value = Int64(rest) else { return nil }
        activeFloor = value
      case "active":
        guard let w = words(3), let start = Int64(w[0]), let activity = Int64(w[1]),
          w[2].count == 1, let mark = w[2].first, "oc".contains(mark), !w[3].isEmpty
        else { return nil }
        active.append(
          SavedState.WorkoutEntry(id: String(w[3]), start: start, activity: activity, mark: mark)
        )
      case "position":
        let w = rest.split(separator: " ", omittingEmptySubsequences: false)
        guard w.count == 7, let segment = Int(w[1]), let offset = Int(w[2]),
          let lineNumber = Int(w[3]), let sequence = UInt64(w[4]), let length = Int(w[5]),
          let hash = SHA256Digest(hexString: String(w[6]))
        else { return nil }
        positions[String(w[0])] = DevicePosition(
          segment: segment,
          offset: offset,
          line: lineNumber,
          sequence: sequence,
          length: length,
          hash: hash
        )
      case "branch":
        guard let w = words(1), EventLog.isValidDeviceName(String(w[0])),
          SHA256Digest(hexString: w[1]) != nil
        else { return nil }
        branches.append(String(rest))
      case "split": splits.append(String(rest))
      case "open": open.append(String(rest))
      case "recent":
        guard let w = words(4), let ms = Int64(w[1]), let counter = UInt32(w[2]),
          let sequence = UInt64(w[3])
        else { return nil }
        let device = String(w[0])
        let key = FoldEvent.MergeKey(
          milliseconds: ms,
          counter: counter,
          device: device,
          sequence: sequence
        )
        recent[device, default: []].append(
          SavedState.RecentStream(stream: String(w[4]), last: key)
        )
      case "quarantined":
        let parts = rest.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        quarantined[String(parts[0])] = String(parts[1])
      default:
        return nil
      }
    }
    guard format >= 0, !fold.isEmpty else { return nil }
  }
}
