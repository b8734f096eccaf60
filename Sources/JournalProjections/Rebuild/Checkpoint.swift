import Foundation
import JournalCore

/// The rebuild's cache: the folded state after a prefix of history, kept in
/// the output folder so the next rebuild folds only the events after it.
///
/// Stored in `.journal-checkpoint/`: one file per stream (`streams/split-<id>.json`,
/// `streams/workout-<id>.json`, the stream's fold state) and a `head` that says
/// which prefix of history the states are the fold of and holds the SHA-256 of
/// every stream file. The head ends with the SHA-256 of its own bytes, so a
/// torn, edited or foreign file is detected; a stream file that does not match
/// its digest is detected when loaded. Either way the rebuild folds from the
/// start instead: the checkpoint changes only the speed.
///
/// Loading costs O(splits + streams touched), not O(state): the head is a
/// short line per stream and only the stream files needed are read.
struct Checkpoint: Equatable {
  static let folder = ".journal-checkpoint"
  static let headPath = folder + "/head"
  static let streamsFolder = folder + "/streams"
  static let format = 1

  /// Changes whenever the fold, the rendering, the event versions or this
  /// file's layout change, so a checkpoint written by another build is ignored.
  ///
  /// Bump `foldRevision` in ``buildFingerprint`` with any change to the fold's
  /// rules or to the documents' rendering.
  static let buildFingerprint: String = {
    let foldRevision = 1
    let versions = JournalEvent.currentVersions.sorted { $0.key < $1.key }
      .map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    let text = [
      "checkpoint \(format)",
      "fold \(foldRevision)",
      "split \(SplitDocument.currentSchemaVersion)",
      "workout \(WorkoutDocument.currentSchemaVersion)",
      "stubGrace \(JournalState.stubGrace)",
      "logGrace \(WorkoutDocument.deletedLogGrace)",
      "events \(versions)",
    ].joined(separator: "\n")
    return SHA256Digest.hex(Array(text.utf8))
  }()

  /// What the head knows of one stream.
  struct StreamEntry: Equatable {
    /// SHA-256 of the stream file.
    var digest: String
    /// The earliest time at which one of the stream's documents changes by the
    /// passing of time alone (a grace ending), or nil.
    var expiry: Date?
  }

  var build = Checkpoint.buildFingerprint
  /// How many events of history were folded.
  var position = 0
  /// The id of the last of them; empty when none.
  var lastID = ""
  /// SHA-256 over the ids of those events, each followed by a newline.
  var prefixDigest = SHA256Digest.hex([])
  /// The fold's `now`, before any as-of time moved it.
  var now: Date?
  /// The `now` the documents on disk were rendered at.
  var renderedNow: Date?
  var eventCount = 0
  var anomalyCount = 0
  /// SHA-256 of the manifest written with the documents of this state: a
  /// checkpoint is only trusted next to that very manifest.
  var manifestDigest = ""
  /// The quarantined streams, sorted.
  var quarantined: [String] = []
  /// Stream (`split:<id>`, `workout:<id>`) → entry.
  var streams: [String: StreamEntry] = [:]

  // MARK: - Head

  /// The head's bytes: `key value` lines, then `checksum <sha256 of the lines>`.
  func encodedHead() -> [UInt8] {
    var lines = [
      "workout-journal-checkpoint \(Self.format)",
      "build \(build)",
      "position \(position)",
      "last \(lastID.isEmpty ? "-" : lastID)",
      "prefix \(prefixDigest)",
      "now \(Self.encode(now))",
      "rendered \(Self.encode(renderedNow))",
      "events \(eventCount)",
      "anomalies \(anomalyCount)",
      "manifest \(manifestDigest.isEmpty ? "-" : manifestDigest)",
    ]
    lines += quarantined.map { "quarantined \($0)" }
    lines += streams.keys.sorted().map { stream in
      let entry = streams[stream] ?? StreamEntry(digest: "", expiry: nil)
      return "stream \(stream) \(entry.digest) \(Self.encode(entry.expiry))"
    }
    var bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
    bytes += Array("checksum \(SHA256Digest.hex(bytes))\n".utf8)
    return bytes
  }

  /// Parses a head, or says why it cannot be used.
  static func decodeHead(_ bytes: [UInt8]) -> Result<Checkpoint, Failure> {
    let marker = Array("checksum ".utf8)
    guard bytes.count > marker.count + 65, bytes.last == UInt8(ascii: "\n") else {
      return .failure("the checkpoint is truncated")
    }
    let body = bytes[..<(bytes.count - marker.count - 65)]
    let tail = bytes[body.endIndex...]
    guard tail.starts(with: marker), body.last == UInt8(ascii: "\n"),
      String(decoding: tail.dropFirst(marker.count).dropLast(), as: UTF8.self)
        == SHA256Digest.hex(Array(body))
    else { return .failure("the checkpoint is corrupt (checksum mismatch)") }
    var checkpoint = Checkpoint()
    var fields: [String: String] = [:]
    for line in String(decoding: body, as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { return .failure("the checkpoint is malformed") }
      switch parts[0] {
      case "quarantined": checkpoint.quarantined.append(parts[1])
      case "stream":
        let values = parts[1].split(separator: " ").map(String.init)
        guard values.count == 3, let expiry = decodeDate(values[2]) else {
          return .failure("the checkpoint is malformed")
        }
        checkpoint.streams[values[0]] = StreamEntry(digest: values[1], expiry: expiry)
      default: fields[parts[0]] = parts[1]
      }
    }
    guard fields["workout-journal-checkpoint"] == String(format) else {
      return .failure("the checkpoint has another format")
    }
    guard let build = fields["build"], let position = fields["position"].flatMap({ Int($0) }),
      let last = fields["last"], let prefix = fields["prefix"],
      let now = fields["now"].flatMap(decodeDate),
      let rendered = fields["rendered"].flatMap(decodeDate),
      let events = fields["events"].flatMap({ Int($0) }),
      let anomalies = fields["anomalies"].flatMap({ Int($0) }), let manifest = fields["manifest"],
      position >= 0
    else { return .failure("the checkpoint is malformed") }
    checkpoint.build = build
    checkpoint.position = position
    checkpoint.lastID = last == "-" ? "" : last
    checkpoint.prefixDigest = prefix
    checkpoint.now = now
    checkpoint.renderedNow = rendered
    checkpoint.eventCount = events
    checkpoint.anomalyCount = anomalies
    checkpoint.manifestDigest = manifest == "-" ? "" : manifest
    return .success(checkpoint)
  }

  /// Why a checkpoint was not used, for the report.
  struct Failure: Error, Equatable, ExpressibleByStringLiteral {
    var reason: String
    init(_ reason: String) { self.reason = reason }
    init(stringLiteral value: String) { reason = value }
  }

  /// A date as the hex of its bits, so it reads back exactly; `-` for nil.
  private static func encode(_ date: Date?) -> String {
    guard let date else { return "-" }
    return String(date.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
  }

  /// Parses ``encode(_:)``: `.some(nil)` for `-`, nil when malformed.
  private static func decodeDate(_ text: String) -> Date?? {
    if text == "-" { return .some(nil) }
    guard let bits = UInt64(text, radix: 16) else { return nil }
    return .some(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
  }

  // MARK: - Stream files

  /// The stream file of `stream`, or nil when its id cannot be a file name.
  static func streamPath(_ stream: String) -> String? {
    let name = stream.replacingOccurrences(of: ":", with: "-")
    let path = streamsFolder + "/" + name + ".json"
    return RelativePath.isSafe(name + ".json") && !name.contains("/") ? path : nil
  }

  static func encodeStream<T: Encodable>(_ state: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(date.timeIntervalSinceReferenceDate.bitPattern)
    }
    return Array(try encoder.encode(state))
  }

  static func decodeStream<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let bits = try decoder.singleValueContainer().decode(UInt64.self)
      return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
    }
    return try decoder.decode(type, from: Data(bytes))
  }

  // MARK: - Prefix digest

  /// Adds the ids of `events` to a prefix digest.
  static func hashIDs(_ events: some Sequence<FoldEvent>, into hasher: inout SHA256) {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(64 * 1024)
    for event in events {
      buffer.append(contentsOf: event.id.utf8)
      buffer.append(UInt8(ascii: "\n"))
      if buffer.count >= 60 * 1024 {
        hasher.update(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    hasher.update(buffer)
  }

  // MARK: - Expiry

  /// A second of slack around grace boundaries: a stream is re-rendered a
  /// little early rather than a little late.
  static let expirySlack: TimeInterval = 1

  /// When the rendering of `split` next changes with time alone, if ever.
  static func expiry(of split: SplitState, renderedAt now: Date) -> Date? {
    guard let deletedAt = split.deletedAt, !split.isStarter else { return nil }
    return boundary(deletedAt, grace: JournalState.stubGrace, now: now)
  }

  /// When the rendering of `workout` next changes with time alone, if ever:
  /// its stub's grace ending or a deleted log's tombstone expiring.
  static func expiry(of workout: WorkoutState, renderedAt now: Date) -> Date? {
    var candidates: [Date] = []
    if let deletedAt = workout.deletedAt,
      let end = boundary(deletedAt, grace: JournalState.stubGrace, now: now)
    {
      candidates.append(end)
    }
    for deleted in (workout.document.deletedLogIDs ?? [:]).values {
      if let end = boundary(deleted, grace: WorkoutDocument.deletedLogGrace, now: now) {
        candidates.append(end)
      }
    }
    return candidates.min()
  }

  /// `start + grace` when it is still ahead of `now` (within the slack).
  private static func boundary(_ start: Date, grace: TimeInterval, now: Date) -> Date? {
    now.timeIntervalSince(start) <= grace + expirySlack ? start + grace : nil
  }

  /// Whether a document with `expiry` must be rendered again at `now`.
  static func isDue(_ expiry: Date?, at now: Date) -> Bool {
    guard let expiry else { return false }
    return now >= expiry - expirySlack
  }
}
