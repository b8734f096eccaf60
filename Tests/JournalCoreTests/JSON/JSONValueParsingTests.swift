import Foundation
import JournalCore
import JournalTestSupport
import Testing

@Suite struct JSONValueParsingTests {
  @Test func parsesEveryKindOfValue() throws {
    let value = try JSONValue.parse(
      #" { "a" : [1, -2, 3.5, 1e2, true, false, null], "b": "x\u00e9\ud83d\ude00\n\/" } "#
    )
    #expect(
      value
        == [
          "a": [1, -2, 3.5, 100.0, true, false, nil],
          "b": .string("xé😀\n/"),
        ]
    )
  }

  @Test func integersAndDoublesStayApart() throws {
    #expect(try JSONValue.parse("42") == .int(42))
    #expect(try JSONValue.parse("-0") == .int(0))
    #expect(try JSONValue.parse("42.0") == .double(42))
    #expect(try JSONValue.parse("4e1") == .double(40))
    #expect(try JSONValue.parse("9223372036854775807") == .int(.max))
    #expect(try JSONValue.parse("-9223372036854775808") == .int(.min))
    #expect(try JSONValue.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
    #expect(try JSONValue.parse("0.1") == .double(0.1))
    #expect(try JSONValue.parse("5e-324") == .double(Double.leastNonzeroMagnitude))
  }

  struct RejectCase: Sendable, CustomTestStringConvertible {
    let text: String
    let offset: Int
    var testDescription: String { text.debugDescription }
  }

  @Test(arguments: [
    RejectCase(text: "", offset: 0),
    RejectCase(text: "[1,]", offset: 3),
    RejectCase(text: "{\"a\":1,}", offset: 7),
    RejectCase(text: "01", offset: 1),
    RejectCase(text: "1.", offset: 2),
    RejectCase(text: ".5", offset: 0),
    RejectCase(text: "+1", offset: 0),
    RejectCase(text: "1e", offset: 2),
    RejectCase(text: "NaN", offset: 0),
    RejectCase(text: "Infinity", offset: 0),
    RejectCase(text: "1e400", offset: 0),
    RejectCase(text: "tru", offset: 0),
    RejectCase(text: "\"a", offset: 2),
    RejectCase(text: "\"\t\"", offset: 1),
    RejectCase(text: "\"\\x\"", offset: 2),
    RejectCase(text: "\"\\ud800\"", offset: 1),
    RejectCase(text: "\"\\udc00\"", offset: 1),
    RejectCase(text: "{\"a\":1,\"a\":2}", offset: 7),
    RejectCase(text: "[1] [2]", offset: 4),
    RejectCase(text: "{1:2}", offset: 1),
    RejectCase(text: "'a'", offset: 0),
  ])
  func rejectsNonStrictJSON(_ reject: RejectCase) {
    #expect {
      try JSONValue.parse(reject.text)
    } throws: { error in
      guard let error = error as? JournalError else { return false }
      return error.kind == .malformedJSON && error.message.hasPrefix("byte \(reject.offset):")
    }
  }

  @Test func rejectsInvalidUTF8() throws {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
      [0x22, 0xE2, 0x82, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
    ] {
      #expect(throws: JournalError.self) { try JSONValue.parse(bytes) }
    }
    #expect(try JSONValue.parse([0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22] as [UInt8]) == "😀")
  }

  @Test func depthIsLimited() throws {
    let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(throws: Never.self) { try JSONValue.parse(ok) }
    let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    #expect(throws: JournalError.self) { try JSONValue.parse(deep) }
  }

  @Test func acceptsDataAndSlices() throws {
    #expect(try JSONValue.parse(Data("[1]".utf8)) == [1])
    #expect(try JSONValue.parse(Array("x[2]".utf8).dropFirst()) == [2])
  }
}
