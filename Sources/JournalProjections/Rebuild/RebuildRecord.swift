import Foundation
import JournalCore

/// What an output folder was last rebuilt from: where the rebuild stopped reading the saved
/// state's change list (``ChangeList``), the `now` it rendered at, the streams whose
/// documents change with time alone, and the anomalies of each stream.
///
/// Kept in `.journal-projection/source`, next to the manifest; `key value…` lines, the last
/// `checksum <XXH64 of the lines before it>`:
///
/// ```text
/// workout-journal-rebuilt 1
/// changes 3f2a9c0d11e84b7a 48213 9b1c3e5f7a2d4c6e
/// now 2840141400000
/// expiring workout:01J… 2842733400000
/// anomalies workout:01J… 2
/// checksum 5e884898da280471
/// ```
///
/// It is a cache: an incremental rebuild that finds none, or one that does not check, folds
/// every stream of the saved state, and the manifest's byte comparison keeps the documents
/// that did not change. A full replay (`--full`), an `--as-of` rebuild and a rebuild that
/// leaves a conflict remove it.
struct RebuildRecord: Equatable {
  static let path = ProjectionManifest.folder + "/source"
  private static let header = "workout-journal-rebuilt 1"

  /// Where the rebuild stopped reading the change list.
  var changes: ChangeList.Position
  /// The `now` the documents were rendered at (milliseconds); nil before any event.
  var now: Int64?
  /// The streams whose documents change with time alone, with the moment they next do (a
  /// stub's grace ending, a deleted log's tombstone expiring), in milliseconds.
  var expiring: [String: Int64] = [:]
  /// The anomalies of each stream's fold, the streams without any left out; the split
  /// streams, folded together, under ``splitsKey``.
  var anomalies: [String: Int] = [:]

  /// The key of the split streams' anomalies.
  static let splitsKey = "splits"

  init(changes: ChangeList.Position, now: Int64?) {
    self.changes = changes
    self.now = now
  }

  func encoded() -> [UInt8] {
    var text = Self.header + "\n"
    text += "changes \(changes.epoch) \(changes.offset) \(changes.check)\n"
    text += "now \(now.map(String.init) ?? "-")\n"
    for (stream, time) in expiring.sorted(by: { $0.key < $1.key }) {
      text += "expiring \(stream) \(time)\n"
    }
    for (stream, count) in anomalies.sorted(by: { $0.key < $1.key }) {
      text += "anomalies \(stream) \(count)\n"
    }
    let body = Array(text.utf8)
    return body + Array("checksum \(XXH64.hex(body))\n".utf8)
  }

  /// Parses ``encoded()``; nil when anything does not check.
  init?(_ bytes: [UInt8]) {
    guard let body = SavedState.checked(bytes) else { return nil }
    var lines = String(decoding: body, as: UTF8.self).split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    }
    guard lines.first?.joined(separator: " ") == Self.header, lines.count >= 3 else {
      return nil
    }
    lines.removeFirst()
    let changes = lines.removeFirst()
    let now = lines.removeFirst()
    guard changes.count == 4, changes[0] == "changes", let offset = Int(changes[2]),
      now.count == 2, now[0] == "now"
    else { return nil }
    self.changes = ChangeList.Position(epoch: changes[1], offset: offset, check: changes[3])
    if now[1] != "-" {
      guard let value = Int64(now[1]) else { return nil }
      self.now = value
    }
    // A stream's name may hold spaces: it is every word between the key and the number.
    for line in lines {
      guard line.count >= 3, let number = line.last else { return nil }
      let stream = line.dropFirst().dropLast().joined(separator: " ")
      switch line[0] {
      case "expiring":
        guard let time = Int64(number) else { return nil }
        expiring[stream] = time
      case "anomalies":
        guard let count = Int(number), count > 0 else { return nil }
        anomalies[stream] = count
      default: return nil
      }
    }
  }
}
