import Foundation
import JournalCore
import JournalProjections

// B3 and B7: replaying the whole journal (read, checksum, decode, upcast, fold) against a
// hand-written scanning ceiling and against Foundation's JSONDecoder on the same lines; and
// `verify` against the replay.

extension Bench {
  /// At most this many lines go through JSONDecoder per repetition: its rate is measured on
  /// a prefix of the journal, so that a 1M run stays within minutes.
  static let decoderSampleLines = 100_000

  func replayScenarios(size: Int) throws {
    let generated = try journal(size: size)
    let url = generated.url
    let files = try Self.segmentFiles(of: url)
    let events = Double(generated.events)
    // The smoke run only checks that the baseline works.
    let sampleLines = min(generated.events, options.quick ? 2_000 : Self.decoderSampleLines)
    var scannedLines = 0

    let scan = {
      try time { scannedLines = try Self.scan(files) }
    }
    let decoder = {
      try time { consume(try Self.decodeWithFoundation(files, lines: sampleLines)) }
        / Double(sampleLines) * events
    }
    var replayCPU = Samples()
    var releases = Samples()
    // The replay ends when the state is ready. Freeing the journal afterwards is timed
    // apart: it is not part of replaying, and a command's process exits instead.
    let replay = {
      let cpu = processorSeconds()
      var replayed: [Journal] = []
      let wall = try time {
        let journal = try Journal(store: try FileEventStore(url: url), newID: readOnlyID)
        consume(journal.state().eventCount)
        replayed.append(journal)
      }
      replayCPU.values.append(processorSeconds() - cpu)
      releases.values.append(time { replayed.removeAll() })
      return wall
    }
    let verify = {
      try time {
        let report = try EventLog(at: url).verify()
        guard report.isClean else { throw BenchError("verify found problems: \(report.problems)") }
      }
    }
    var bodies: [() throws -> Double] = [scan, replay]
    if wants("B3") { bodies.append(decoder) }
    if wants("B7") { bodies.append(verify) }
    let samples = try measure(size: size, bodies)
    let (scanTimes, replayTimes) = (samples[0], samples[1])
    guard scannedLines == generated.events else {
      throw BenchError("the scan found \(scannedLines) lines, expected \(generated.events)")
    }
    let replayRate = events / replayTimes.median
    // On a shared machine the process may get a fraction of a core: the processor time
    // says what the replay costs, the wall time what it took.
    let replayNote =
      "\(formatCount(replayRate)) events/s wall, "
      + "\(formatCount(events / replayCPU.median)) events/s of processor time; "
      + "freeing the journal afterwards (not timed) \(formatSeconds(releases.median))"
    if wants("B3") {
      let decoderTimes = samples[2]
      report.add(
        Result(
          scenario: "B3",
          name: "replay.eventsPerSecond",
          size: size,
          subject: "replay",
          baseline: "1M events/s",
          ratios: Samples(values: replayTimes.values.map { events / $0 / 1e6 }),
          subjectSeconds: replayTimes,
          baselineSeconds: Samples(values: replayTimes.values.map { _ in events / 1e6 }),
          budget: size >= 1_000_000 ? .atLeast(0.5) : .none,
          unit: "M/s",
          notes: [replayNote]
        )
      )
      report.add(
        Result(
          scenario: "B3",
          name: "replay.vsScan",
          size: size,
          subject: "replay",
          baseline: "read+newlines+CRC",
          ratios: ratios(replayTimes, scanTimes),
          subjectSeconds: replayTimes,
          baselineSeconds: scanTimes,
          budget: .none,
          notes: ["ceiling \(formatCount(events / scanTimes.median)) events/s"]
        )
      )
      report.add(
        Result(
          scenario: "B3",
          name: "replay.vsJSONDecoder",
          size: size,
          subject: "replay",
          baseline: "JSONDecoder lines",
          ratios: ratios(decoderTimes, replayTimes),
          subjectSeconds: replayTimes,
          baselineSeconds: decoderTimes,
          budget: .atLeast(10),
          notes: [
            "speed-up (baseline/subject)",
            "JSONDecoder \(formatCount(events / decoderTimes.median)) events/s"
              + (sampleLines < generated.events
                ? " on the first \(formatCount(Double(sampleLines)))" : ""),
          ]
        )
      )
    }
    if wants("B7") {
      let verifyTimes = samples[wants("B3") ? 3 : 2]
      report.add(
        Result(
          scenario: "B7",
          name: "verify",
          size: size,
          subject: "EventLog.verify",
          baseline: "replay",
          ratios: ratios(verifyTimes, replayTimes),
          subjectSeconds: verifyTimes,
          baselineSeconds: replayTimes,
          budget: .none,
          notes: ["\(formatCount(events / verifyTimes.median)) events/s"]
        )
      )
    }
  }

  /// The segment files of every device, in order.
  static func segmentFiles(of url: URL) throws -> [URL] {
    let devices = url.appendingPathComponent(EventLog.devicesFolderName)
    var files: [URL] = []
    for device in try FileManager.default.contentsOfDirectory(atPath: devices.path).sorted() {
      let folder = devices.appendingPathComponent(device)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      where name.hasSuffix(".jsonl") {
        files.append(folder.appendingPathComponent(name))
      }
    }
    return files
  }

  /// The ceiling: read every file, find each line, check its CRC-32C, and nothing else.
  static func scan(_ files: [URL]) throws -> Int {
    var lines = 0
    for file in files {
      let data = try Data(contentsOf: file)
      try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
        var start = 0
        let count = buffer.count
        while start < count {
          var end = start
          while end < count && buffer[end] != 0x0A { end += 1 }
          // `,"crc":"xxxxxxxx"}` is the last 18 bytes before the newline.
          let body = end - 18
          guard body > start else { throw BenchError("short line in \(file.lastPathComponent)") }
          let crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: buffer[start..<body]))
          guard crc == Self.hex(buffer, from: body + 8) else {
            throw BenchError("bad CRC in \(file.lastPathComponent)")
          }
          lines += 1
          start = end + 1
        }
      }
    }
    return lines
  }

  private static func hex(_ buffer: UnsafeRawBufferPointer, from offset: Int) -> UInt32 {
    var value: UInt32 = 0
    for index in offset..<(offset + 8) {
      let c = buffer[index]
      let digit = c <= 0x39 ? c &- 0x30 : c &- 0x61 &+ 10
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// The baseline: the first `lines` lines decoded by JSONDecoder into an envelope, payload
  /// included, one line at a time (as a reader of a log must).
  static func decodeWithFoundation(_ files: [URL], lines: Int) throws -> Int {
    let decoder = JSONDecoder()
    var decoded = 0
    var sequences = 0
    for file in files where decoded < lines {
      let data = try Data(contentsOf: file)
      var start = data.startIndex
      while start < data.endIndex && decoded < lines {
        let end = data[start...].firstIndex(of: 0x0A) ?? data.endIndex
        let envelope = try decoder.decode(Envelope.self, from: data[start..<end])
        sequences &+= Int(envelope.seq)
        decoded += 1
        start = end + 1
      }
    }
    return decoded + sequences & 0
  }
}

/// A record as a Codable struct: what a Foundation reader of the log would decode.
struct Envelope: Decodable {
  var id: String
  var dev: String
  var seq: UInt64
  var ms: Int64
  var lc: UInt32
  var stream: String
  var type: String
  var v: Int
  var data: FoundationJSON
  var prev: String
  var crc: String
}

/// Any JSON value, decoded by Foundation.
enum FoundationJSON: Decodable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([FoundationJSON])
  case object([String: FoundationJSON])

  init(from decoder: any Decoder) throws {
    if var array = try? decoder.unkeyedContainer() {
      var values: [FoundationJSON] = []
      while !array.isAtEnd { values.append(try array.decode(FoundationJSON.self)) }
      self = .array(values)
      return
    }
    if let object = try? decoder.container(keyedBy: AnyKey.self) {
      var values: [String: FoundationJSON] = [:]
      for key in object.allKeys {
        values[key.stringValue] = try object.decode(Self.self, forKey: key)
      }
      self = .object(values)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let bool = try? single.decode(Bool.self) {
      self = .bool(bool)
    } else if let int = try? single.decode(Int64.self) {
      self = .int(int)
    } else if let double = try? single.decode(Double.self) {
      self = .double(double)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
