import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

/// Payloads kept as checked bytes: `skipValue()` must accept exactly what `parseValue()`
/// accepts, failing at the same byte for the same reason, and reading members from the bytes
/// must give what the parsed dictionary gives.
@Suite struct JSONPayloadTests {
  /// What parsing `text` gives: the value, or the failure's offset and reason.
  static func parsed(_ bytes: [UInt8]) -> Result<JSONValue, JSONParser.Failure> {
    bytes.withUnsafeBytes { buffer in
      var parser = JSONParser(buffer)
      do throws(JSONParser.Failure) {
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.fail("trailing") }
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
  }

  /// What checking `text` without building it gives: nil, or the failure.
  static func skipped(_ bytes: [UInt8]) -> JSONParser.Failure? {
    bytes.withUnsafeBytes { buffer in
      var parser = JSONParser(buffer)
      do throws(JSONParser.Failure) {
        try parser.skipValue()
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.fail("trailing") }
        return nil
      } catch {
        return error
      }
    }
  }

  static func expectSameVerdict(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation)
  {
    let text = String(decoding: bytes, as: UTF8.self).debugDescription
    switch (parsed(bytes), skipped(bytes)) {
    case (.success, nil): break
    case (.failure(let parse), let skip?):
      #expect(parse.offset == skip.offset, "offset on \(text)", sourceLocation: sourceLocation)
      #expect(parse.reason == skip.reason, "reason on \(text)", sourceLocation: sourceLocation)
    case (.success, let skip?):
      Issue.record("skip refused \(text): \(skip.reason)", sourceLocation: sourceLocation)
    case (.failure(let parse), nil):
      Issue.record("skip accepted \(text), parse: \(parse.reason)", sourceLocation: sourceLocation)
    }
  }

  static let cases: [String] = [
    #"{}"#, #"[]"#, #"{"a":1}"#, #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"\u0061":1,"a":2}"#,
    #"{"ab":1,"a":2,"b":3}"#, #"{"a":{"a":1},"b":{"a":1,"a":2}}"#, #"{"a":[{"x":1,"x":2}]}"#,
    #"{"a":1,}"#, #"{"a" 1}"#, #"{a:1}"#, #"{"a":01}"#, #"{"a":-}"#, #"{"a":1.}"#, #"{"a":1e}"#,
    #"{"a":1e999}"#, #"{"a":-1e999}"#, #"{"a":123456789012345678901234567890}"#,
    #"{"a":"\x"}"#, #"{"a":"\ud800"}"#, #"{"a":"\ud83d\ude00"}"#, "{\"a\":\"\u{1}\"}",
    #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":[1,2,]}"#, #"{"a":[1 2]}"#, #"{"a":"x"} x"#, #"{"a":"#,
    #"{"a":"x"#, #"{"a\"b":1,"a\"b":2}"#, #"{"é":1,"é":2}"#,
    #" { "a" : [ true , false , null ] } "#,
    #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}"#,
    #"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"\u006b1":18}"#,
    String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
    #"{"a":"#
      + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}",
    "\"", "", "  ", "nul", "-0", "0.5e-3", "\"\u{7F}\"",
  ]

  @Test(arguments: cases) func skipAgreesWithParse(_ text: String) {
    Self.expectSameVerdict(Array(text.utf8))
  }

  /// Numbers are only scanned when plain: every shape, near the 308-digit edge included,
  /// gets parsing's verdict.
  @Test func numbersAgreeWithParse() {
    let pieces = [
      "", "-", "0", "00", "1", "9", "12", ".", ".5", ".05", "e", "E", "e+", "e-1", "E9", "x",
    ]
    for a in pieces {
      for b in pieces {
        for c in pieces {
          Self.expectSameVerdict(Array((a + b + c).utf8))
          Self.expectSameVerdict(Array("[\(a + b + c),1]".utf8))
          Self.expectSameVerdict(Array("{\"n\":\(a + b + c)}".utf8))
        }
      }
    }
    for digits in [307, 308, 309, 310] {
      let big = "9" + String(repeating: "9", count: digits - 1)
      for text in [
        big, "-" + big, big + ".5", big + "e0", "1" + String(repeating: "0", count: digits - 1),
      ] {
        Self.expectSameVerdict(Array("[\(text)]".utf8))
      }
    }
  }

  @Test func skipAgreesOnInvalidUTF8() {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
      [0x22, 0xE2, 0x82, 0x22], [0x7B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x3A, 0x31, 0x7D],
    ] {
      Self.expectSameVerdict(bytes)
    }
  }

  /// Valid payloads, then each cut, each byte replaced by a JSON-ish byte, each byte dropped.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func skipAgreesOnSeededMutations(seed: UInt64) {
    var random = SplitMix64(seed: 0x5C1B_0000 + seed)
    let alphabet = Array(#"{}[]":,\ u0123456789.eE+-truefalsnl"#.utf8) + [0x80, 0xC3, 0xA9, 0x01]
    for _ in 0..<40 {
      let value = Self.randomValue(&random, depth: 0)
      guard let valid = try? value.serialized() else { continue }
      Self.expectSameVerdict(valid)
      for _ in 0..<20 {
        var bytes = valid
        let position = Int(random.next() % UInt64(bytes.count))
        switch random.next() % 3 {
        case 0: bytes.removeSubrange(position...)
        case 1: bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
        default: bytes.remove(at: position)
        }
        Self.expectSameVerdict(bytes)
      }
    }
  }

  static func randomValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
    let keys = ["a", "b", "logID", "weight", "\"q\"", "é", "x\ny", "actuals", "a"]
    switch random.next() % (depth > 3 ? 5 : 7) {
    case 0: return .null
    case 1: return .bool(random.next() % 2 == 0)
    case 2: return .int(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
    case 3: return .double(Double(Int64(random.next() % 100_000)) / 8)
    case 4: return .string(["", "plain", "ünï", "tab\there", "\"quoted\""][Int(random.next() % 5)])
    case 5:
      return .array(
        (0..<Int(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) }
      )
    default:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int(random.next() % 6) {
        members[keys[Int(random.next() % UInt64(keys.count))]] = randomValue(
          &random,
          depth: depth + 1
        )
      }
      return .object(members)
    }
  }

  /// An object read with one member kept as bytes (what the saved state does with each
  /// line's payload) gives the parsed object's other members and that member's value; bytes
  /// that do not parse, or an object without the member, give nil.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func anObjectReadKeepingOneMemberAsBytesIsTheParsedOne(seed: UInt64) throws {
    var random = SplitMix64(seed: 0x4EE9_0000 + seed)
    for _ in 0..<60 {
      var members: [String: JSONValue] = [:]
      for key in ["id", "payload", "type", "é", "x\ny"] where random.next() % 4 != 0 {
        members[key] = Self.randomValue(&random, depth: 1)
      }
      let bytes = try JSONValue.object(members).serialized()
      let read = JSONPayload.members(of: bytes, keeping: "payload")
      guard let payload = members["payload"] else {
        #expect(read == nil)
        continue
      }
      var others = members
      others["payload"] = nil
      #expect(read?.members == others)
      #expect(read?.payload.value == payload)
      let slice = try read?.payload.slice()
      #expect(slice.map { Array($0.bytes[$0.range]) } == (try payload.serialized()))
      // Cut or with a byte dropped, it reads as nothing, as parsing refuses it.
      let position = Int(random.next() % UInt64(bytes.count))
      for broken in [
        Array(bytes[..<position]),
        bytes.enumerated().filter { $0.offset != position }.map(\.element),
      ]
      where (try? JSONValue.parse(broken)) == nil {
        #expect(JSONPayload.members(of: broken, keeping: "payload") == nil)
      }
    }
  }

  @Test(arguments: 0..<4 as Range<UInt64>)
  func membersReadFromBytesAreTheParsedOnes(seed: UInt64) throws {
    var random = SplitMix64(seed: 0x0B1E_C700 + seed)
    for _ in 0..<60 {
      guard case .object(let members) = Self.randomValue(&random, depth: 2) else { continue }
      let value = JSONValue.object(members)
      let payload = try JSONPayload(checking: value.serialized())
      #expect(payload.value == value)
      #expect(payload == JSONPayload(value))
      #expect(payload.hashValue == JSONPayload(value).hashValue)
      let object = try #require(try payload.slice().object)
      #expect(Set(object.keys) == Set(members.keys))
      for (key, member) in members {
        let slice = try #require(object[key])
        #expect(slice.value == member, "member \(key)")
        #expect(slice.stringValue == member.stringValue, "member \(key)")
        #expect(slice.intValue == member.intValue, "member \(key)")
        #expect(slice.isNull == (member == .null))
        if case .array(let elements) = member {
          #expect(slice.elements?.map(\.value) == elements)
        } else {
          #expect(slice.elements == nil)
        }
        if case .object(let inner) = member {
          let innerSlice = try #require(slice.object)
          for (innerKey, innerValue) in inner { #expect(innerSlice[innerKey]?.value == innerValue) }
        }
      }
      #expect(object["absent"] == nil)
    }
  }

  @Test func escapedKeysAreFoundByTheirText() throws {
    let payload = try JSONPayload(
      checking: Array(#"{"\u0061b":1, "c\"d" : [1, {"e":"\u00e9"}]}"#.utf8)
    )
    let object = try #require(try payload.slice().object)
    #expect(object["ab"]?.value == .int(1))
    #expect(object["c\"d"]?.elements?.count == 2)
    #expect(object["c\"d"]?.elements?[1].object?["e"]?.value == .string("é"))
    #expect(Set(object.keys) == ["ab", "c\"d"])
  }

  @Test func refusedBytesNameTheByte() {
    #expect(throws: JournalError.self) { try JSONPayload(checking: Array(#"{"a":1,"a":2}"#.utf8)) }
    #expect(throws: JournalError.self) { try JSONPayload(checking: Array(#"{"a":1} "#.utf8)) }
  }
}

extension JSONPayloadTests {
  /// A payload line may be a mebibyte: an object of 100,000 keys is checked in linear time
  /// (its keys go to a set after the first sixteen), duplicate or not.
  @Test func largeObjectsAreCheckedInLinearTime() {
    var text = "{" + (0..<100_000).map { "\"k\($0)\":0" }.joined(separator: ",")
    Self.expectSameVerdict(Array((text + "}").utf8))
    text += ",\"k99999\":1}"
    Self.expectSameVerdict(Array(text.utf8))
  }
}

extension JSONPayloadTests {
  /// Skipping a checked string finds its closing quote past an escaped quote or backslash
  /// at every position of a word.
  @Test func checkedStringSkipStepsOverEscapesAtEveryPosition() throws {
    for length in 0..<20 {
      for position in 0...length {
        for escape in [#"\""#, #"\\"#, #"\u00e9"#, "é"] {
          var content = String(repeating: "a", count: length)
          content.insert(
            contentsOf: escape,
            at: content.index(content.startIndex, offsetBy: position)
          )
          let text = #"{"s":""# + content + #"","n":7}"#
          let payload = try JSONPayload(checking: Array(text.utf8))
          let object = try #require(try payload.slice().object)
          #expect(object["n"]?.intValue == 7, "\(escape) at \(position) of \(length)")
          let expected = try JSONValue.parse(Array(text.utf8))
          #expect(object["s"]?.stringValue == expected["s"]?.stringValue)
        }
      }
    }
  }

  /// The plain-string scan reads eight bytes at a time: every stopping byte must be seen at
  /// every position of a word, and every other byte let through.
  @Test func plainStringScanStopsAtEveryPosition() {
    let stops: [UInt8] = [0x5C, 0x00, 0x01, 0x1F, 0x80, 0xC3, 0xFF]
    let passes: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x7F, 0x41]
    for length in 0..<20 {
      for position in 0..<max(length, 1) {
        for byte in stops + passes where length > 0 {
          var content = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          content[position] = byte
          // A stop after the closing quote, in the same word, changes nothing.
          for after in [UInt8(ascii: "x"), 0x5C, 0x01, 0xC3] {
            let text = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\""), after]
            let range = text.withUnsafeBytes { buffer -> Range<Int>? in
              var parser = JSONParser(buffer)
              return parser.parsePlainString()
            }
            let expected = stops.contains(byte) ? nil : 1..<(1 + length)
            #expect(range == expected, "byte \(byte) at \(position) of \(length)")
          }
        }
        let text = Array(("\"" + String(repeating: "b", count: length) + "\"").utf8)
        let range = text.withUnsafeBytes { buffer -> Range<Int>? in
          var parser = JSONParser(buffer)
          return parser.parsePlainString()
        }
        #expect(range == 1..<(1 + length))
      }
    }
  }
}

extension JSONPayloadTests {
  /// Envelope numbers and payload integers are read by a shortcut: where it answers, it
  /// gives what `parseValue()` gives and ends where it ends; elsewhere it does not move.
  @Test func plainIntegersAgreeWithTheParser() {
    let numbers = [
      "0", "-0", "7", "-7", "10", "1234567890", "9223372036854775807", "-9223372036854775808",
      "9223372036854775808", "-9223372036854775809", "01", "-01", "00", "1.0", "1e3", "1E3",
      "-", "--1", "+1", "1.", "0.5", "-0.0", "12345678901234567890123",
    ]
    for number in numbers {
      for suffix in ["", ",", "}", "]", " ", "x"] {
        let bytes = Array((number + suffix).utf8)
        bytes.withUnsafeBytes { buffer in
          var shortcut = JSONParser(buffer)
          var parser = JSONParser(buffer)
          let expected = try? parser.parseValue()
          if let value = shortcut.parsePlainInteger() {
            #expect(expected == .int(value), "\(number + suffix)")
            #expect(shortcut.index == parser.index, "\(number + suffix)")
          } else {
            #expect(shortcut.index == 0, "\(number + suffix)")
            if case .int = expected, suffix != "x" {
              Issue.record("the shortcut skipped the integer \(number + suffix)")
            }
          }
        }
      }
    }
  }
}

extension JSONPayloadTests {
  /// Integers of up to 18 digits are read without an overflow check per digit, longer ones
  /// with it: both agree with the standard library's reading of the same digits, around
  /// the boundary and for seeded random ones.
  @Test(arguments: [3, 29])
  func plainIntegersMatchTheStandardLibrary(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var texts = [
      "999999999999999999", "-999999999999999999", "100000000000000000", "1000000000000000000",
      "-1000000000000000000", "9223372036854775807", "9223372036854775808",
      "-9223372036854775808", "99999999999999999999",
    ]
    for _ in 0..<2_000 {
      let length = 1 + Int(random.next() % 20)
      var digits = String(1 + random.next() % 9)
      for _ in 1..<length { digits += String(random.next() % 10) }
      texts.append(random.next() % 2 == 0 ? digits : "-" + digits)
      texts.append(String(Int64(bitPattern: random.next()) >> (random.next() % 64)))
    }
    for text in texts {
      Array((text + ",").utf8).withUnsafeBytes { buffer in
        var parser = JSONParser(buffer)
        let value = parser.parsePlainInteger()
        #expect(value == Int64(text), "\(text)")
        #expect(parser.index == (value == nil ? 0 : text.utf8.count), "\(text)")
      }
    }
  }

  /// Decimals without an exponent read as the standard library reads them, bit for bit:
  /// those of up to 15 digits by a division, longer ones by the general conversion.
  @Test(arguments: [5, 41])
  func decimalsMatchTheStandardLibrary(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var texts = [
      "0.5", "-0.0", "0.0", "102.5", "0.1", "-0.3", "62.5", "1.7976931348623157",
      "0.000000000000001",
      "12345678901234.5", "123456789012345.6", "999999999999999.9", "99999999999999.99",
      "1.000000000000000", "0.30000000000000004", "-12.000",
    ]
    for _ in 0..<4_000 {
      var digits = ""
      for _ in 0..<(1 + random.next() % 18) { digits += String(random.next() % 10) }
      let point = Int(random.next() % UInt64(digits.count))
      var text = String(digits.prefix(point + 1)) + "." + String(digits.dropFirst(point + 1))
      if text.hasSuffix(".") { text += String(random.next() % 10) }
      // JSON allows one leading zero only.
      while text.hasPrefix("0"), !text.hasPrefix("0.") { text.removeFirst() }
      texts.append(random.next() % 2 == 0 ? text : "-" + text)
    }
    for text in texts {
      let expected = try #require(Double(text), "\(text)")
      let value = try JSONValue.parse(Array(text.utf8))
      guard case .double(let read) = value else {
        Issue.record("\(text) read as \(value)")
        continue
      }
      #expect(read.bitPattern == expected.bitPattern, "\(text): \(read) against \(expected)")
    }
  }

  /// The comparison of keys and literals by words gives what comparing bytes gives, for
  /// every length up to 40 and a difference at every place.
  @Test func shortByteComparisonsAgreeWithElementwise() {
    var random = SplitMix64(seed: 11)
    for count in 0...40 {
      let left = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      var cases = [left]
      for place in 0..<count {
        var changed = left
        changed[place] ^= UInt8(1 + random.next() % 255)
        cases.append(changed)
      }
      for right in cases {
        // At odd places in larger buffers: the words are read unaligned.
        let equal = ([1, 2, 3] + left).withUnsafeBytes { a in
          ([4] + right).withUnsafeBytes { b in
            bytesEqual(a.baseAddress! + 3, b.baseAddress! + 1, count: count)
          }
        }
        #expect(equal == (left == right), "\(count) bytes: \(left) vs \(right)")
      }
    }
  }
}

extension JSONPayloadTests {
  /// The payloads of a run of records share one array: each reads as its own bytes would,
  /// whatever lies around it, and equals the same payload held alone or built as a value.
  @Test func payloadsSharingAnArrayReadAsTheirOwn() throws {
    let texts = [
      #"{"logID":"01HQ7Z4X8K9M2N3P4Q5R6S7T8V","reps":8,"weight":62.5}"#,
      #"{"a":[1,{"b":"c"}],"d":null}"#, "{}", #"{"logID":"x","reps":5}"#,
    ]
    var shared = Array("]}garbage\"".utf8)
    var ranges: [Range<Int>] = []
    for text in texts {
      let start = shared.count
      shared += Array(text.utf8)
      ranges.append(start..<shared.count)
      shared += Array(",[{".utf8)
    }
    for (text, range) in zip(texts, ranges) {
      let alone = try JSONPayload(checking: Array(text.utf8))
      let inside = JSONPayload(checkedBytes: shared, range: range)
      #expect(inside.value == alone.value, "\(text)")
      #expect(inside == alone, "\(text)")
      #expect(inside == JSONPayload(alone.value), "\(text)")
      #expect(inside.hashValue == alone.hashValue, "\(text)")
      let members = try #require(try inside.slice().object, "\(text)")
      let aloneMembers = try #require(try alone.slice().object, "\(text)")
      #expect(members.keys == aloneMembers.keys, "\(text)")
      for key in members.keys {
        #expect(members[key]?.value == aloneMembers[key]?.value, "\(text) \(key)")
      }
    }
    // Different payloads at different places are not equal.
    #expect(
      JSONPayload(checkedBytes: shared, range: ranges[0])
        != JSONPayload(checkedBytes: shared, range: ranges[3])
    )
  }
}
