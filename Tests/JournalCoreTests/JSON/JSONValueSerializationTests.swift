import Foundation
import JournalCore
import JournalTestSupport
import Testing

@Suite struct JSONValueSerializationTests {
  @Test func canonicalForm() throws {
    let value: JSONValue = [
      "b": [1, 2.5, 45.0, -0.0, 1e16, 1e-7],
      "a": "quote\" back\\ slash/ tab\t nul\u{0} é \u{2028}",
      "c": ["z": nil, "y": true],
    ]
    let expected =
      #"{"a":"quote\" back\\ slash/ tab\t nul\u0000 é \#u{2028}","b":[1,2.5,45.0,-0.0,1e+16,1e-07],"#
      + #""c":{"y":true,"z":null}}"#
    #expect(try value.serializedString() == expected)
  }

  /// Every byte to escape, at every offset in strings of 0–19 bytes, alone or with a quote
  /// further on, is escaped as a plain byte-by-byte reference writer does it (a guard for any
  /// faster scan of runs that need no escape).
  @Test func escapesAreFoundAtEveryOffset() throws {
    func reference(_ text: String) -> String {
      var out: [UInt8] = [UInt8(ascii: "\"")]
      for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
        case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
        case 0x08: out += Array(#"\b"#.utf8)
        case 0x0C: out += Array(#"\f"#.utf8)
        case 0x0A: out += Array(#"\n"#.utf8)
        case 0x0D: out += Array(#"\r"#.utf8)
        case 0x09: out += Array(#"\t"#.utf8)
        case 0..<0x20: out += Array(String(format: #"\u%04x"#, Int(byte)).utf8)
        default: out.append(byte)
        }
      }
      out.append(UInt8(ascii: "\""))
      return String(decoding: out, as: UTF8.self)
    }
    let specials: [String] = ["\"", "\\", "\u{0}", "\u{1F}", "\n", "\u{7F}", "é", "\u{2028}", "/"]
    for length in 0..<20 {
      for offset in 0..<max(1, length) {
        for special in specials {
          var characters = Array(repeating: "a", count: length)
          if length > 0 { characters[offset] = special }
          if length > 3 { characters[(offset + 9) % length] = "\"" }
          let text = characters.joined()
          #expect(
            try JSONValue.string(text).serializedString() == reference(text),
            "\(text.debugDescription)"
          )
        }
      }
    }
  }

  @Test func keysSortByUTF8Bytes() throws {
    let value: JSONValue = ["é": 1, "z": 2, "Z": 3, "aa": 4, "a": 5]
    #expect(try value.serializedString() == #"{"Z":3,"a":5,"aa":4,"z":2,"é":1}"#)
  }

  /// By bytes, not by Swift's `String` order: a decomposed "é" (`e` + U+0301)
  /// sorts after "ef" (0xCC > `f`) and before "f" (`e` < `f`).
  @Test func keysSortByBytesNotCanonicalOrder() throws {
    let value: JSONValue = ["f": 2, "e\u{301}": 1, "ef": 3]
    #expect(try value.serializedString() == "{\"ef\":3,\"e\u{301}\":1,\"f\":2}")
  }

  @Test func integersAreWrittenInDecimal() throws {
    let value: JSONValue = [.int(.min), -10, -9, 0, 9, 10, 1_234_567_890_123_456_789, .int(.max)]
    #expect(
      try value.serializedString()
        == "[-9223372036854775808,-10,-9,0,9,10,1234567890123456789,9223372036854775807]"
    )
  }

  @Test func nonFiniteNumbersAreRejected() {
    for number in [Double.nan, .infinity, -.infinity] {
      #expect {
        try JSONValue.array([.double(number)]).serialized()
      } throws: { error in
        (error as? JournalError)?.kind == .invalidValue
      }
    }
  }

  @Test(arguments: 0..<32 as Range<UInt64>)
  func roundTripsRandomValues(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for _ in 0..<20 {
      let value = randomJSONValue(&random, depth: 0)
      let bytes = try value.serialized()
      #expect(try JSONValue.parse(bytes) == value)
      #expect(try JSONValue.parse(bytes).serialized() == bytes)
    }
  }

  /// Our output is read identically by Foundation, and Foundation's output is read by us.
  @Test(arguments: 0..<16 as Range<UInt64>)
  func differentialAgainstJSONSerialization(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &+ 1_000)
    for _ in 0..<20 {
      let value = randomJSONValue(&random, depth: 0)
      let ours = try value.serialized()
      let foundation = try JSONSerialization.jsonObject(
        with: Data(ours),
        options: [.fragmentsAllowed]
      )
      #expect(matches(value, foundation), "Foundation read \(foundation) for \(value)")
      let written = try JSONSerialization.data(
        withJSONObject: foundation,
        options: [.fragmentsAllowed]
      )
      #expect(
        matches(try JSONValue.parse(written), foundation),
        "we read Foundation's \(String(decoding: written, as: UTF8.self))"
      )
    }
  }

  /// Random damage: whenever we accept the bytes, Foundation accepts them and agrees.
  @Test(arguments: 0..<8 as Range<UInt64>)
  func mutatedInputAcceptedOnlyIfFoundationAgrees(seed: UInt64) throws {
    var random = SplitMix64(seed: seed &+ 2_000)
    let alphabet = Array(#"{}[],:"\ 0123456789.-+eEtrufalsn"#.utf8)
    for _ in 0..<200 {
      var bytes = try randomJSONValue(&random, depth: 0).serialized()
      for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
        let position = Int.random(in: 0..<bytes.count, using: &random)
        bytes[position] = alphabet.randomElement(using: &random) ?? 0
      }
      guard let ours = try? JSONValue.parse(bytes) else { continue }
      let foundation = try? JSONSerialization.jsonObject(
        with: Data(bytes),
        options: [.fragmentsAllowed]
      )
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(foundation.map { matches(ours, $0) } == true, "\(text)")
    }
  }
}

// MARK: - Helpers

/// A random value mixing every case, with strings that need escaping and non-ASCII text.
func randomJSONValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
  let choice = Int.random(in: 0..<(depth > 3 ? 6 : 8), using: &random)
  switch choice {
  case 0: return .null
  case 1: return .bool(Bool.random(using: &random))
  case 2:
    let magnitude = [Int64(10), 1_000, 1 << 40, .max][Int.random(in: 0..<4, using: &random)]
    return .int(Int64.random(in: -magnitude...magnitude, using: &random))
  case 3:
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return .double(Double(Int.random(in: -1000...1000, using: &random)))
    case 1: return .double(Double.random(in: -1e6...1e6, using: &random))
    case 2: return .double(Double(bitPattern: random.next() & ~(0x7FF << 52)) * 1e-300)
    default:
      let bits = random.next()
      let value = Double(bitPattern: bits)
      return .double(value.isFinite ? value : 1.5)
    }
  case 4, 5: return .string(randomString(&random))
  case 6:
    let count = Int.random(in: 0..<5, using: &random)
    return .array((0..<count).map { _ in randomJSONValue(&random, depth: depth + 1) })
  default:
    var members: [String: JSONValue] = [:]
    for _ in 0..<Int.random(in: 0..<5, using: &random) {
      members[randomString(&random)] = randomJSONValue(&random, depth: depth + 1)
    }
    return .object(members)
  }
}

private func randomString(_ random: inout SplitMix64) -> String {
  let pieces = [
    "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "é", "ß",
    "日本", "😀", "\u{2028}", "\u{7F}", "reps", "weight",
  ]
  let count = Int.random(in: 0..<6, using: &random)
  return (0..<count).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
}

/// Whether a Foundation JSON object holds the same value.
private func matches(_ value: JSONValue, _ object: Any) -> Bool {
  switch value {
  case .null: return object is NSNull
  case .bool(let flag): return (object as? Bool) == flag
  case .int(let number):
    guard let other = object as? NSNumber else { return false }
    return other.int64Value == number
      || (other.doubleValue == Double(number) && abs(number) > 1 << 53)
  case .double(let number):
    // swift-corelibs-foundation reads long numbers through Decimal, whose doubleValue is not
    // correctly rounded: compare within 1e-12. Our own exactness is checked by
    // `roundTripsRandomValues`.
    guard let other = (object as? NSNumber)?.doubleValue else { return false }
    return other == number || abs(other - number) <= abs(number) * 1e-12
  case .string(let text): return (object as? String) == text
  case .array(let elements):
    guard let others = object as? [Any], others.count == elements.count else { return false }
    return zip(elements, others).allSatisfy { matches($0, $1) }
  case .object(let members):
    guard let others = object as? [String: Any], others.count == members.count else { return false }
    return members.allSatisfy { key, member in others[key].map { matches(member, $0) } ?? false }
  }
}
