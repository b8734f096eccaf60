import Foundation
import JournalCore

/// The rebuild's cache: the folded state after a prefix of history, kept in
/// the output folder so the next rebuild folds only the events after it.
///
/// Stored in `.journal-checkpoint/`: one file per stream (`streams/split-<id>.json`,
/// `streams/workout-<id>.json`, the stream's fold state), an index of the
/// workout streams in buckets (`index/<bucket>`: stream, checksum of its file,
/// expiry) listed by pages (`index/page-<digit>`: the checksum of each bucket
/// whose name starts with that digit), and a `head` that says which prefix of
/// history the states are the fold of, lists the splits and the workouts whose
/// documents change with time alone, and holds the checksum of every index
/// page. The head ends with the checksum of its own bytes, so a torn, edited or
/// foreign file is detected; a page, bucket or stream file that does not match its
/// checksum is detected when loaded. Either way the rebuild folds from the start
/// instead: the checkpoint changes only the speed. The checksum is XXH64
/// (``digest(_:)``): a cache needs guarding against accident, not forgery, and
/// SHA-256 on these files cost about a sixth of an incremental rebuild.
///
/// Loading and saving cost O(splits + expiring streams + buckets + streams
/// touched), not O(state): the head does not list every workout, and only
/// the pages, buckets and stream files needed are read and written.
struct Checkpoint: Equatable {
  static let folder = ".journal-checkpoint"
  static let headPath = folder + "/head"
  static let streamsFolder = folder + "/streams"
  static let indexFolder = folder + "/index"
  static let format = 4
  /// How many index buckets the workout streams are spread over.
  static let bucketCount: UInt32 = 256

  /// Changes whenever the fold, the rendering, the event versions or this file's layout
  /// change, so a checkpoint written by another build is ignored: the checkpoint's format and
  /// ``FoldVersion/key``, the one key of what the fold depends on.
  static let buildFingerprint = SHA256Digest.hex(
    Array("checkpoint \(format)\n\(FoldVersion.key)".utf8)
  )

  /// The checksum of a checkpoint file as the file that lists it writes it: XXH64, as
  /// 16 lowercase hex digits.
  static func digest(_ bytes: [UInt8]) -> String { XXH64.hex(bytes) }

  /// How many characters ``digest(_:)`` writes (it always writes as many).
  static let digestLength = digest([]).utf8.count

  /// What the checkpoint knows of one stream.
  struct StreamEntry: Equatable {
    /// The ``digest(_:)`` of the stream file.
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
  /// The ``HistoryDigest`` of those events.
  var prefixDigest = HistoryDigest().description
  /// The fold's `now`, before any as-of time moved it.
  var now: Date?
  /// The `now` the documents on disk were rendered at.
  var renderedNow: Date?
  var eventCount = 0
  var anomalyCount = 0
  /// The identity of the manifest written with the documents of this state
  /// (``ProjectionManifest/identity``): a checkpoint is only trusted next to
  /// that very manifest.
  var manifestDigest = ""
  /// The quarantined streams, sorted.
  var quarantined: [String] = []
  /// Every split stream (`split:<id>`) → entry.
  var splits: [String: StreamEntry] = [:]
  /// Workout streams (`workout:<id>`) with an expiry → the expiry.
  var expiring: [String: Date] = [:]
  /// Index page → ``digest(_:)`` of its file.
  var pages: [String: String] = [:]
  /// The index pages read or rebuilt by this run: page → bucket → ``digest(_:)``
  /// of the bucket's file.
  var loadedPages: [String: [String: String]] = [:]
  /// The index buckets read or rebuilt by this run: bucket → stream → entry.
  var loadedBuckets: [String: [String: StreamEntry]] = [:]

  // MARK: - Head

  /// The head's bytes: `key value` lines, then `checksum <digest of the lines>`.
  func encodedHead() -> [UInt8] {
    // Written as bytes, word by word: the head is written at every rebuild.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(600 + 150 * (splits.count + expiring.count + pages.count))
    func line(_ words: String...) {
      for (index, word) in words.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: " ")) }
        bytes.append(contentsOf: word.utf8)
      }
      bytes.append(UInt8(ascii: "\n"))
    }
    line("workout-journal-checkpoint", String(Self.format))
    line("build", build)
    line("position", String(position))
    line("last", lastID.isEmpty ? "-" : lastID)
    line("prefix", prefixDigest)
    line("now", Self.encode(now))
    line("rendered", Self.encode(renderedNow))
    line("events", String(eventCount))
    line("anomalies", String(anomalyCount))
    line("manifest", manifestDigest.isEmpty ? "-" : manifestDigest)
    for stream in quarantined { line("quarantined", stream) }
    for (stream, entry) in splits.sorted(by: { $0.key < $1.key }) {
      line("split", stream, entry.digest, Self.encode(entry.expiry))
    }
    for (stream, expiry) in expiring.sorted(by: { $0.key < $1.key }) {
      line("expiring", stream, Self.encode(expiry))
    }
    for (page, digest) in pages.sorted(by: { $0.key < $1.key }) { line("page", page, digest) }
    let checksum = Self.digest(bytes)
    line("checksum", checksum)
    return bytes
  }

  /// Parses a head, or says why it cannot be used.
  static func decodeHead(_ bytes: [UInt8]) -> Result<Checkpoint, Failure> {
    // The first line names the format: a head of another one (whose checksum may be of
    // another kind and length) is refused as such, not as corrupt.
    let first = bytes.prefix { $0 != UInt8(ascii: "\n") }
    let name = Array("workout-journal-checkpoint ".utf8)
    if first.starts(with: name), !first.elementsEqual(name + Array(String(format).utf8)) {
      return .failure("the checkpoint has another format")
    }
    let marker = Array("checksum ".utf8)
    let checksumLine = marker.count + digestLength + 1
    guard bytes.count > checksumLine, bytes.last == UInt8(ascii: "\n") else {
      return .failure("the checkpoint is truncated")
    }
    let body = bytes[..<(bytes.count - checksumLine)]
    let tail = bytes[body.endIndex...]
    guard tail.starts(with: marker), body.last == UInt8(ascii: "\n"),
      String(decoding: tail.dropFirst(marker.count).dropLast(), as: UTF8.self)
        == digest(Array(body))
    else { return .failure("the checkpoint is corrupt (checksum mismatch)") }
    var checkpoint = Checkpoint()
    var fields: [String: String] = [:]
    var start = body.startIndex
    // Line by line (the body ends with a newline), without an array of them.
    while let newline = body[start...].firstIndex(of: UInt8(ascii: "\n")) {
      let line = body[start..<newline]
      start = newline + 1
      guard !line.isEmpty else { continue }
      let values = words(line)
      guard values.count >= 2 else { return .failure("the checkpoint is malformed") }
      switch values[0] {
      case "quarantined" where values.count == 2: checkpoint.quarantined.append(values[1])
      case "split":
        guard let (stream, entry) = decodeEntry(line.dropFirst("split ".utf8.count)) else {
          return .failure("the checkpoint is malformed")
        }
        checkpoint.splits[stream] = entry
      case "expiring":
        guard values.count == 3, let expiry = decodeDate(values[2]), let expiry else {
          return .failure("the checkpoint is malformed")
        }
        checkpoint.expiring[values[1]] = expiry
      case "page":
        guard values.count == 3 else { return .failure("the checkpoint is malformed") }
        checkpoint.pages[values[1]] = values[2]
      default:
        guard values.count == 2 else { return .failure("the checkpoint is malformed") }
        fields[values[0]] = values[1]
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

  // MARK: - Index buckets

  /// The index bucket of a workout stream: two hex digits from an FNV-1a hash
  /// of its name.
  static func bucket(of stream: String) -> String {
    var hash: UInt32 = 0x811c_9dc5
    for byte in stream.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    let digits = String(hash % bucketCount, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
  }

  static func bucketPath(_ bucket: String) -> String { indexFolder + "/" + bucket }

  /// The index page that lists `bucket`: its first digit.
  ///
  /// So 16 pages of up to 16 buckets. The head lists the pages, not the 256
  /// buckets, so it stays small: it is read and written at every rebuild.
  static func page(of bucket: String) -> String { String(bucket.prefix(1)) }

  static func pagePath(_ page: String) -> String { indexFolder + "/page-" + page }

  /// A page file's bytes: a `bucket digest` line per bucket, sorted.
  static func encodePage(_ buckets: [String: String]) -> [UInt8] {
    var text = ""
    for (bucket, digest) in buckets.sorted(by: { $0.key < $1.key }) {
      text += "\(bucket) \(digest)\n"
    }
    return Array(text.utf8)
  }

  /// Parses ``encodePage(_:)``; nil when malformed.
  static func decodePage(_ bytes: [UInt8]) -> [String: String]? {
    var buckets: [String: String] = [:]
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      let values = words(line)
      guard values.count == 2 else { return nil }
      buckets[values[0]] = values[1]
    }
    return buckets
  }

  /// A bucket file's bytes: a `stream digest expiry` line per stream, sorted.
  ///
  /// Written and read as bytes: at a million events a bucket lists about 120 streams, and
  /// an incremental rebuild reads and writes one at every run.
  static func encodeBucket(_ entries: [String: StreamEntry]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(entries.count * 72)
    for (stream, entry) in entries.sorted(by: { $0.key < $1.key }) {
      bytes.append(contentsOf: stream.utf8)
      bytes.append(UInt8(ascii: " "))
      bytes.append(contentsOf: entry.digest.utf8)
      bytes.append(UInt8(ascii: " "))
      bytes.append(contentsOf: encode(entry.expiry).utf8)
      bytes.append(UInt8(ascii: "\n"))
    }
    return bytes
  }

  /// Parses ``encodeBucket(_:)``; nil when malformed.
  static func decodeBucket(_ bytes: [UInt8]) -> [String: StreamEntry]? {
    var entries: [String: StreamEntry] = [:]
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      guard let (stream, entry) = decodeEntry(line) else { return nil }
      entries[stream] = entry
    }
    return entries
  }

  /// Parses a `stream digest expiry` line (a bucket's, or the head's after `split `):
  /// three words split at single spaces.
  private static func decodeEntry(_ line: ArraySlice<UInt8>) -> (String, StreamEntry)? {
    let space = UInt8(ascii: " ")
    guard let first = line.firstIndex(of: space),
      let second = line[(first + 1)...].firstIndex(of: space),
      !line[(second + 1)...].contains(space),
      let expiry = decodeDate(line[(second + 1)...])
    else { return nil }
    let stream = String(decoding: line[..<first], as: UTF8.self)
    let digest = String(decoding: line[(first + 1)..<second], as: UTF8.self)
    return (stream, StreamEntry(digest: digest, expiry: expiry))
  }

  /// The words of a line, split at single spaces on its bytes.
  private static func words(_ line: ArraySlice<UInt8>) -> [String] {
    var words: [String] = []
    words.reserveCapacity(4)
    var start = line.startIndex
    for index in line.indices where line[index] == UInt8(ascii: " ") {
      words.append(String(decoding: line[start..<index], as: UTF8.self))
      start = index + 1
    }
    words.append(String(decoding: line[start...], as: UTF8.self))
    return words
  }

  /// Why a checkpoint was not used, for the report.
  struct Failure: Error, Equatable, ExpressibleByStringLiteral {
    var reason: String
    init(_ reason: String) { self.reason = reason }
    init(stringLiteral value: String) { reason = value }
  }

  /// A date as the lowercase hex of its bits without leading zeros, so it reads back
  /// exactly; `-` for nil.
  static func encode(_ date: Date?) -> String {
    guard let date else { return "-" }
    return String(date.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
  }

  /// Parses ``encode(_:)``: `.some(nil)` for `-`, nil when malformed.
  private static func decodeDate(_ text: String) -> Date?? {
    decodeDate(ArraySlice(text.utf8))
  }

  /// Parses ``encode(_:)``'s bytes: one to sixteen lowercase hex digits, or `-`.
  static func decodeDate(_ text: ArraySlice<UInt8>) -> Date?? {
    if text.elementsEqual([UInt8(ascii: "-")]) { return .some(nil) }
    guard (1...16).contains(text.count) else { return nil }
    var bits: UInt64 = 0
    for byte in text {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      default: return nil
      }
      bits = bits << 4 | UInt64(digit)
    }
    return .some(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
  }

  // MARK: - Stream files

  /// The stream file of `stream`, or nil when its id cannot be a file name.
  static func streamPath(_ stream: String) -> String? {
    let name = String(
      decoding: stream.utf8.map { $0 == UInt8(ascii: ":") ? UInt8(ascii: "-") : $0 },
      as: UTF8.self
    )
    let path = streamsFolder + "/" + name + ".json"
    let safe = RelativePath.isSafe(name + ".json") && !name.utf8.contains(UInt8(ascii: "/"))
    return safe ? path : nil
  }

  // The stream files' bytes: `Checkpoint+Streams.swift`.

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
