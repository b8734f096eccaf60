// libFuzzer entry point: one JSON Lines record → `EventRecord.decode` (checksum, then envelope).
//
// Each input is decoded twice: as given (so the checksum path is fuzzed), and with its
// checksum suffix recomputed (so the envelope decoder behind the checksum is reached too).
// A record that decodes must survive being encoded again and decoded back, and a reader that
// remembers the strings of the line before must decode it as a fresh reader does.

@testable import JournalCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let input = UnsafeRawBufferPointer(start: data, count: size)
  let location = RecordLocation(file: "devices/fuzz/000001.jsonl", line: 1)
  _ = try? EventRecord.decode(line: input, location: location)

  let line = sealedRecordLine(Array(input))
  let decoded = line.withUnsafeBytes { buffer in
    try? EventRecord.decode(line: buffer, location: location)
  }
  // Read again by a reader that remembers the line's device, stream and type (as a segment's
  // reader does) and finds them by their length: the same record.
  line.withUnsafeBytes { buffer in
    var strings = RecordStrings()
    let first = try? EventRecord.decode(line: buffer, location: location, strings: &strings)
    let again = try? EventRecord.decode(line: buffer, location: location, strings: &strings)
    guard first == decoded, again == decoded else {
      fatalError("remembered strings read another record: \(String(decoding: line, as: UTF8.self))")
    }
  }
  guard let record = decoded else { return 0 }
  // The payload was checked and kept as bytes: it must parse, and it is an object.
  guard case .object = record.payload else {
    fatalError("a checked payload did not parse: \(String(decoding: line, as: UTF8.self))")
  }
  // The record decoded: encoding it again must give a line that decodes to the same record.
  guard
    let encoded = try? EventRecord.encode(
      id: record.id,
      device: record.device,
      sequence: record.sequence,
      time: record.time,
      event: NewEvent(
        stream: record.stream,
        type: record.type,
        version: record.version,
        payload: record.payload
      ),
      previousHash: record.previousHash,
      location: location
    )
  else { return 0 }
  let again = encoded.line.dropLast().withUnsafeBytes { buffer in
    try? EventRecord.decode(line: buffer, location: location)
  }
  guard let again, again.payload == record.payload, again.id == record.id else {
    fatalError("record did not survive encode → decode: \(String(decoding: line, as: UTF8.self))")
  }
  return 0
}
