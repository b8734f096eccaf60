import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

/// The hand-written record decoder against Foundation's `JSONDecoder` on seeded random lines:
/// the same lines accepted and rejected, and the same values read.
///
/// Every line carries a good checksum, so that the two differ only in their JSON and
/// envelope rules. Lines are valid records with shuffled keys, whitespace, escapes and
/// unknown keys, or records broken in one way (a missing key, a value of the wrong type or
/// out of range, a cut or a stray byte). Left out, as deliberate differences: duplicate
/// keys (JSONDecoder keeps one, the log refuses them) and integer fields written with a
/// fraction or exponent (`7.0`, which JSONDecoder reads as an integer).
@Suite struct RecordDecoderDifferentialTests {
  @Test(arguments: 0..<8 as Range<UInt64>)
  func decoderAgreesWithJSONDecoder(seed: UInt64) throws {
    var random = SplitMix64(seed: 0xD1FF_0000 + seed)
    var accepted = 0
    for _ in 0..<250 {
      let line = randomLine(&random)
      let ours = line.withUnsafeBytes { buffer in
        try? EventRecord.decode(
          line: buffer,
          location: RecordLocation(file: "devices/phone/000001.jsonl", line: 1)
        )
      }
      let theirs = foundationDecode(line)
      let text = String(decoding: line, as: UTF8.self)
      #expect((ours != nil) == (theirs != nil), "accept/reject differ on \(text)")
      guard let ours, let theirs else { continue }
      accepted += 1
      #expect(ours.id.description == theirs.id, "\(text)")
      #expect(ours.device == theirs.dev, "\(text)")
      #expect(Int64(ours.sequence) == theirs.seq, "\(text)")
      #expect(ours.time.milliseconds == theirs.ms, "\(text)")
      #expect(Int64(ours.time.counter) == theirs.lc, "\(text)")
      #expect(ours.stream == theirs.stream, "\(text)")
      #expect(ours.type == theirs.type, "\(text)")
      #expect(ours.version == Int(theirs.v), "\(text)")
      #expect(ours.previousHash.description == theirs.prev, "\(text)")
      #expect(same(ours.payload, .object(theirs.data)), "payload differs on \(text)")
    }
    // Both kinds of line are well represented.
    #expect(accepted > 60)
    #expect(accepted < 220)
  }
}

// MARK: - Foundation's side

/// A JSON value as `JSONDecoder` reads it.
private enum FoundationJSON: Decodable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([FoundationJSON])
  case object([String: FoundationJSON])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Int64.self) {
      self = .int(number)
    } else if let number = try? container.decode(Double.self) {
      self = .double(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let elements = try? container.decode([FoundationJSON].self) {
      self = .array(elements)
    } else {
      self = .object(try container.decode([String: FoundationJSON].self))
    }
  }
}

/// The envelope as a `Codable` type, with the format's rules checked after decoding.
private struct FoundationEnvelope: Decodable {
  var id: String
  var dev: String
  var seq: Int64
  var ms: Int64
  var lc: Int64
  var stream: String
  var type: String
  var v: Int64
  var data: [String: FoundationJSON]
  var prev: String
}

private func foundationDecode(_ line: [UInt8]) -> FoundationEnvelope? {
  guard let envelope = try? JSONDecoder().decode(FoundationEnvelope.self, from: Data(line)),
    ULID(envelope.id) != nil, EventLog.isValidDeviceName(envelope.dev), envelope.seq >= 1,
    (0...Int64(UInt32.max)).contains(envelope.lc), !envelope.stream.isEmpty,
    !envelope.type.isEmpty, envelope.v >= 1, SHA256Digest(hexString: envelope.prev) != nil
  else { return nil }
  return envelope
}

/// Whether the two decoders read the same value.
///
/// Numbers compare by value: JSONDecoder has no
/// integer/fraction distinction to keep, and long fractions may round differently in the
/// last place.
private func same(_ ours: JSONValue, _ theirs: FoundationJSON) -> Bool {
  switch (ours, theirs) {
  case (.null, .null): return true
  case (.bool(let a), .bool(let b)): return a == b
  case (.int(let a), .int(let b)): return a == b
  case (.int(let a), .double(let b)): return Double(a) == b
  case (.double(let a), .int(let b)): return a == Double(b)
  case (.double(let a), .double(let b)): return a == b || abs(a - b) <= abs(a) * 1e-12
  case (.string(let a), .string(let b)): return a == b
  case (.array(let a), .array(let b)):
    return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
  case (.object(let a), .object(let b)):
    return a.count == b.count
      && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
  default: return false
  }
}

// MARK: - Random lines

/// A random record line: usually valid, sometimes broken in one way; always with a good
/// checksum.
private func randomLine(_ random: inout SplitMix64) -> [UInt8] {
  func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }
  func json(_ value: JSONValue) -> String {
    (try? value.serializedString()) ?? "null"
  }
  let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
  let id = String(pick(Array("01234567"))) + String((0..<25).map { _ in pick(alphabet) })
  let prev = String((0..<64).map { _ in pick(Array("0123456789abcdef")) })
  var members: [(key: String, value: String)] = [
    ("id", json(.string(id))),
    ("dev", json(.string(pick(["phone", "watch", "ipad-2", "a.b_c"])))),
    ("seq", String(Int64.random(in: 1...1_000_000, using: &random))),
    ("ms", String(Int64.random(in: -1_000...4_000_000_000_000, using: &random))),
    ("lc", String(UInt32.random(in: 0...UInt32.max, using: &random))),
    ("stream", json(.string(pick(["workout:01J", "split:é", "s", "a\"b\\c", "日本", "😀\n"])))),
    ("type", json(.string(pick(["set.completed", "workout.started", "t\u{1}", "\u{2028}"])))),
    ("v", String(Int.random(in: 1...5, using: &random))),
    ("data", json(payload(&random))),
    ("prev", json(.string(prev))),
  ]
  func replace(_ key: String, with value: String) {
    if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = value }
  }
  // Valid variations: an escaped id or key, an unknown key, shuffled keys.
  if Bool.random(using: &random) {
    members[0].value = "\"\\u00" + String(id.utf8.first ?? 48, radix: 16) + id.dropFirst() + "\""
  }
  if Int.random(in: 0..<4, using: &random) == 0 { members[1].key = "\\u0064ev" }
  if Int.random(in: 0..<4, using: &random) == 0 {
    members.append(("future", json(payload(&random))))
  }
  members.shuffle(using: &random)

  // One break in about half the lines.
  var cut: Int?
  var stray: UInt8?
  switch Int.random(in: 0..<24, using: &random) {
  case 0: members.remove(at: Int.random(in: 0..<members.count, using: &random))
  case 1: replace("seq", with: pick(["0", "-3", "\"7\"", "9223372036854775808", "true"]))
  case 2: replace("lc", with: pick(["4294967296", "-1", "null", "1.5"]))
  case 3: replace("v", with: pick(["0", "-1", "[]", "\"2\""]))
  case 4: replace("ms", with: pick(["\"1\"", "9223372036854775808", "{}", "1.5"]))
  case 5: replace("dev", with: pick(["\"Phone\"", "\".hidden\"", "\"\"", "7", "\"a/b\""]))
  case 6: replace("stream", with: pick(["\"\"", "1", "null", "[\"a\"]"]))
  case 7: replace("type", with: pick(["\"\"", "false", "{}"]))
  case 8: replace("data", with: pick(["[]", "1", "\"x\"", "null"]))
  case 9:
    replace(
      "id",
      with: pick([
        "\"01ABC\"", "\"81ARZ3NDEKTSV4RRFFQ69G5FAV\"", "12", "\"01ARZ3NDEKTSV4RRFFQ69G5FAI\"",
      ])
    )
  case 10: replace("prev", with: pick(["\"ABC\"", json(.string(prev.uppercased())), "0"]))
  case 11: cut = Int.random(in: 1..<200, using: &random)
  case 12:
    stray = pick([UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "\""), 0x01, 0xFF, 0xC3])
  default: break
  }

  var body = "{"
  for (index, member) in members.enumerated() {
    if index > 0 { body += pick([",", ",", " ,", ", "]) }
    body += pick(["", "", " ", "\t"]) + "\"\(member.key)\"" + pick([":", ":", " : "])
    body += member.value
  }
  var bytes = Array(body.utf8)
  if let cut { bytes.removeLast(min(cut, bytes.count - 1)) }
  if let stray { bytes.insert(stray, at: Int.random(in: 1..<bytes.count, using: &random)) }
  let crc = CRC32C.checksum(bytes)
  bytes += checksumPrefix + Array(hex8(crc).utf8) + Array(#""}"#.utf8)
  return bytes
}

/// A random payload object.
private func payload(_ random: inout SplitMix64) -> JSONValue {
  var members: [String: JSONValue] = [:]
  for index in 0..<Int.random(in: 0..<5, using: &random) {
    members[["reps", "weight", "note", "é", "a\"b", "\(index)"][index]] = randomJSONValue(
      &random,
      depth: 1
    )
  }
  return .object(members)
}
