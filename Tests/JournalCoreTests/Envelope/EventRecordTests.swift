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
}
