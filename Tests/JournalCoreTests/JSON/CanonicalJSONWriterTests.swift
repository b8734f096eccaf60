import JournalTestSupport
import Testing

@testable import JournalCore

/// The writer gives the bytes of ``JSONValue/serialized()`` for the same value, members
/// written in key order.
@Suite struct CanonicalJSONWriterTests {
  /// Writes `value` member by member, as a caller that knows its shape does.
  func write(_ value: JSONValue, to writer: inout CanonicalJSONWriter) throws {
    switch value {
    case .null: writer.null()
    case .bool(let bool): writer.value(bool)
    case .int(let int): writer.value(int)
    case .double(let double): try writer.value(double)
    case .string(let string): writer.value(string)
    case .array(let elements):
      writer.beginArray()
      for element in elements { try write(element, to: &writer) }
      writer.endArray()
    case .object(let members):
      writer.beginObject()
      for key in members.keys.sorted(by: CanonicalJSONWriter.precedes) {
        writer.key(key)
        try write(members[key] ?? .null, to: &writer)
      }
      writer.endObject()
    }
  }

  @Test(arguments: 0..<8 as Range<UInt64>)
  func writesTheCanonicalBytes(seed: UInt64) throws {
    var random = SplitMix64(seed: seed ^ 0xC0DE)
    for _ in 0..<300 {
      let value = randomJSONValue(&random, depth: 0)
      var writer = CanonicalJSONWriter()
      try write(value, to: &writer)
      #expect(writer.bytes == (try value.serialized()))
    }
  }

  @Test func membersOfStaticKeysSkipNil() throws {
    var writer = CanonicalJSONWriter()
    writer.beginObject()
    writer.member("a", 1)
    writer.member("b", nil as String?)
    writer.member("c", true)
    try writer.member("d", -0.0)
    writer.member("e", "x\"y")
    try writer.member("f", nil as Double?)
    writer.key("g")
    writer.beginArray()
    writer.null()
    writer.beginObject()
    writer.endObject()
    writer.endArray()
    writer.key("h")
    try writer.value(JSONValue.object(["z": .int(1), "y": .array([])]))
    writer.endObject()
    let expected = #"{"a":1,"c":true,"d":-0.0,"e":"x\"y","g":[null,{}],"h":{"y":[],"z":1}}"#
    #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
  }

  @Test func aNonFiniteNumberIsRefused() {
    var writer = CanonicalJSONWriter()
    #expect(throws: JournalError.self) { try writer.value(Double.infinity) }
    #expect(throws: JournalError.self) { try writer.member("x", Double.nan) }
  }
}
