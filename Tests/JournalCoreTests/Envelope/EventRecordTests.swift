import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

@Suite struct EventRecordTests {
  private let id = ULID(high: 0x018D_C7F1_3A68_A1E0, low: 0x4CC8_6B2C_2B33_9E3B)

  private func encodeSample(
    payload: JSONValue = ["reps": 8, "weight": 62.5]
  ) throws
    -> EncodedRecord
  {
    try EventRecord.encode(
      id: id,
      device: "phone",
      sequence: 7,
      time: HybridTime(milliseconds: 1_700_000_000_123, counter: 2),
      event: NewEvent(stream: "workout:A", type: "set.completed", version: 2, payload: payload),
      previousHash: .zero,
      location: RecordLocation(file: "devices/phone/000001.jsonl", line: 1)
    )
  }

  @Test func lineHasTheDocumentedLayout() throws {
    let line = String(decoding: try encodeSample().line, as: UTF8.self)
    let body =
      #"{"id":"\#(id)","dev":"phone","seq":7,"ms":1700000000123,"lc":2,"#
      + #""stream":"workout:A","type":"set.completed","v":2,"data":{"reps":8,"weight":62.5},"#
      + #""prev":"\#(String(repeating: "0", count: 64))""#
    let crc = hex8(CRC32C.checksum(Array(body.utf8)))
    #expect(line == body + #","crc":"\#(crc)"}"# + "\n")
  }

  @Test func encodeDecodeRoundTrip() throws {
    var random = SplitMix64(seed: 99)
    for _ in 0..<200 {
      var payload = randomJSONValue(&random, depth: 1)
      if case .object = payload {} else { payload = ["value": payload] }
      let encoded = try encodeSample(payload: payload)
      let bytes = encoded.line.dropLast()
      let decoded = try Array(bytes).withUnsafeBytes { buffer in
        try EventRecord.decode(line: buffer, location: encoded.record.location)
      }
      #expect(decoded == encoded.record)
      // Reading leaves the hash out; verifying computes it.
      #expect(decoded.hash == nil)
      let hashed = try Array(bytes).withUnsafeBytes { buffer in
        try EventRecord.decode(line: buffer, location: encoded.record.location, hashing: true)
      }
      #expect(hashed.hash == SHA256.hash(Array(bytes)))
      #expect(encoded.record.hash == SHA256.hash(Array(bytes)))
    }
  }

  @Test func readersDoNotDependOnKeyOrder() throws {
    let body =
      #"{ "v" : 1, "data": {"a": [1, 2]}, "type": "t", "stream": "s", "lc": 0, "ms": 5, "#
      + #""seq": 1, "dev": "watch", "future": true, "prev": "\#(SHA256Digest.zero)", "#
      + #""id": "01HQ7Z4X8K9M2N3P4Q5R6S7T8V""#
    let line = Array((body + #","crc":"\#(hex8(CRC32C.checksum(Array(body.utf8))))"}"#).utf8)
    let record = try line.withUnsafeBytes { buffer in
      try EventRecord.decode(line: buffer, location: RecordLocation(file: "x", line: 1))
    }
    #expect(record.device == "watch")
    #expect(record.payload == ["a": [1, 2]])
    #expect(record.time == HybridTime(milliseconds: 5))
  }

  @Test func damagedLinesAreRejectedWithACause() throws {
    let good = Array(try encodeSample().line.dropLast())
    func cause(_ bytes: [UInt8]) -> String? {
      bytes.withUnsafeBytes { buffer in
        do throws(RecordFailure) {
          _ = try EventRecord.decode(line: buffer, location: RecordLocation(file: "x", line: 1))
          return nil
        } catch {
          return error.cause
        }
      }
    }
    #expect(cause(good) == nil)
    var flipped = good
    flipped[20] ^= 0x01
    #expect(cause(flipped)?.hasPrefix("checksum mismatch") == true)
    #expect(cause(Array(good.dropLast())) == "missing checksum")
    #expect(cause([]) == "empty line")
  }

  /// Seals `body` (a line without its checksum suffix) with a good checksum.
  static func sealed(_ body: [UInt8]) -> [UInt8] {
    body + checksumPrefix + Array(hex8(CRC32C.checksum(body)).utf8) + Array(#""}"#.utf8)
  }

  /// `text` with the number after `"key":` replaced by `value`.
  static func replacingNumber(of key: String, in text: String, with value: String) -> String {
    guard let start = text.range(of: "\"\(key)\":")?.upperBound else { return text }
    let end = text[start...].firstIndex(of: ",") ?? text.endIndex
    return text.replacingCharacters(in: start..<end, with: value)
  }

  /// What decoding `line` gives: the record or the failure's cause.
  static func outcome(
    _ line: [UInt8],
    _ decode: (UnsafeRawBufferPointer) throws(RecordFailure) -> EventRecord
  ) -> Result<EventRecord, RecordFailure> {
    line.withUnsafeBytes { buffer in
      do throws(RecordFailure) { return .success(try decode(buffer)) } catch {
        return .failure(error)
      }
    }
  }

  /// A reader that remembers the strings of the lines before (``RecordStrings``) gives the
  /// record, or the failure, that a fresh reader gives: for written lines, respelled ones
  /// and lines damaged at random (then sealed again, so that the envelope reader is
  /// reached).
  @Test(arguments: 0..<8 as Range<UInt64>)
  func aReaderRememberingStringsReadsAsAFreshOne(seed: UInt64) throws {
    var random = SplitMix64(seed: 0x11E5 &+ seed)
    let location = RecordLocation(file: "x", line: 1)
    let devices = ["phone", "watch", "tablet-2", "a"]
    let streams = ["workout:A", "split:\u{e9}t\u{e9}", "history", "tab\there", #"quote"d"#]
    let types = ["set.completed", "log.started", "\u{1F3CB}", "x"]
    let noise: [UInt8] = Array(#" "\,:{}[]0-1.eaZ"#.utf8) + [0x09, 0x0A, 0xC3, 0x80]
    for _ in 0..<200 {
      var payload = randomJSONValue(&random, depth: 2)
      if case .object = payload {} else { payload = ["value": payload] }
      let encoded = try EventRecord.encode(
        id: ULID(high: random.next(), low: random.next()),
        device: devices[Int(random.next() % 4)],
        sequence: random.next() % 3 == 0 ? 1 : random.next() >> 1,
        time: HybridTime(
          milliseconds: Int64(bitPattern: random.next()) >> Int64(random.next() % 63),
          counter: UInt32(truncatingIfNeeded: random.next() >> Int64(random.next() % 63))
        ),
        event: NewEvent(
          stream: streams[Int(random.next() % UInt64(streams.count))],
          type: types[Int(random.next() % UInt64(types.count))],
          version: Int(random.next() % 5) + 1,
          payload: payload
        ),
        previousHash: SHA256.hash(Array("\(random.next())".utf8)),
        location: location
      )
      var lines = [Array(encoded.line.dropLast())]
      var body = Array(lines[0].dropLast(checksumSuffixLength))
      // Respelled copies: numbers out of range, more after the last key (a duplicate, an
      // unknown key, junk), whitespace.
      let text = String(decoding: body, as: UTF8.self)
      for (key, value) in [
        ("seq", "0"), ("seq", "-1"), ("seq", "01"), ("v", "0"), ("lc", "4294967296"),
        ("lc", "-1"), ("ms", "1.5"), ("ms", "9223372036854775808"),
      ] {
        lines.append(Self.sealed(Array(Self.replacingNumber(of: key, in: text, with: value).utf8)))
      }
      for tail in [#"x"#, " ", #","id":"\#(encoded.record.id)""#, #","future":1"#] {
        lines.append(Self.sealed(body + Array(tail.utf8)))
      }
      lines.append(Self.sealed(Array(#"{ "#.utf8) + body.dropFirst()))
      // The id and `prev`: one character less or more, a quote, an escape, a digit spelled
      // as an escape, upper-case hex.
      // The device, stream and type, which the reader remembers: others of the same length,
      // another character, a quote or an escape at the start or at the end of them.
      let record = encoded.record
      for (key, value) in [
        ("dev", record.device), ("stream", record.stream), ("type", record.type),
      ] {
        let other = String(repeating: "q", count: value.utf8.count)
        let respelled = text.replacingOccurrences(
          of: #""\#(key)":"\#(value)""#,
          with: #""\#(key)":"\#(other)""#
        )
        lines.append(Self.sealed(Array(respelled.utf8)))
      }
      for (key, next) in [("dev", "seq"), ("stream", "type"), ("type", "v")] {
        for added in [#"x"#, #"\""#, #"\u0041"#, #"""#] {
          for (old, new) in [
            (#""\#(key)":""#, #""\#(key)":"\#(added)"#),
            (#"","\#(next)":"#, #"\#(added)","\#(next)":"#),
          ] {
            lines.append(Self.sealed(Array(text.replacingOccurrences(of: old, with: new).utf8)))
          }
        }
      }
      let id = encoded.record.id.description
      let prev = encoded.record.previousHash.description
      for value in [id, prev] {
        let cut = value.index(value.startIndex, offsetBy: 5)
        let rest = value[value.index(after: cut)...]
        let escaped = #"\u00"# + String(value.utf8[cut], radix: 16)
        for changed in [
          String(value.dropLast()), value + "0", String(value.dropLast()) + #"""#,
          value[..<cut] + #"\""# + rest, value[..<cut] + escaped + rest, value.uppercased(),
        ] {
          let respelled = text.replacingOccurrences(of: value, with: changed)
          lines.append(Self.sealed(Array(respelled.utf8)))
        }
      }
      // Damaged copies: bytes replaced, inserted or removed before the checksum.
      for _ in 0..<6 {
        body.damageOneByte(from: noise, using: &random)
        lines.append(Self.sealed(body))
      }
      // Read one after another, as a segment's lines are: each reader then remembers the
      // strings of the lines before (devices, streams, types), which a line may spell or
      // nearly spell.
      var remembered = RecordStrings()
      for (index, line) in lines.enumerated() {
        let fresh = Self.outcome(line) { buffer throws(RecordFailure) in
          try EventRecord.decode(line: buffer, location: location)
        }
        if index == 0 {
          #expect(fresh == .success(encoded.record), "a written line reads as it was written")
        }
        let inTurn = Self.outcome(line) { buffer throws(RecordFailure) in
          try EventRecord.decode(line: buffer, location: location, strings: &remembered)
        }
        #expect(inTurn == fresh, "in turn: \(String(decoding: line, as: UTF8.self))")
      }
    }
  }
}
