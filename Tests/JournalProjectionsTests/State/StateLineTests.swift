import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The lines of the saved state's event files: the reader of the writer's spelling against
/// the general reader it stands in for.
@Suite struct StateLineTests {
  /// Strings that need escaping, are not ASCII, or look like the line's own syntax.
  static let awkward = [
    "", "plain", "with \"quotes\"", "back\\slash", "tab\tand\nnewline", "\u{1}\u{1f}",
    "ünïcødé 🏋️", ",\"sequence\":1,", "}{", "workout:01J0000000000000000000000",
  ]

  static func randomEvent(_ random: inout SplitMix64) -> StoredEvent {
    func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    let payloads: [JSONValue] = [
      .object([:]),
      .object(["reps": .int(8), "weight": .double(62.5)]),
      .object(["note": .string(pick(awkward)), "list": .array([.int(-1), .null, .bool(true)])]),
      .object(["nested": .object(["a": .double(1e-7), "b": .string(pick(awkward))])]),
    ]
    return StoredEvent(
      id: pick(["01J0000000000000000000000A", pick(awkward)]),
      device: pick(["phone", "watch", pick(awkward)]),
      sequence: pick([1, 7351, UInt64(Int64.max), UInt64.max]),
      milliseconds: pick([0, 1_700_000_000_123, -5, Int64.min, Int64.max]),
      counter: pick([0, 1, UInt32.max]),
      stream: pick(["workout:01J1", "split:01J2", pick(awkward)]),
      type: pick(["set.completed", "events.reverted", pick(awkward)]),
      version: pick([1, 2, 99]),
      payload: pick(payloads),
      location: pick(["devices/phone/000001.jsonl:12", pick(awkward)])
    )
  }

  /// Every line the state writes reads back as its event, by both readers alike.
  @Test(arguments: 1...40 as ClosedRange<UInt64>)
  func writtenLinesReadBackAlike(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for _ in 0..<25 {
      let event = Self.randomEvent(&random)
      let line = try SavedState.encodeEvent(event)
      // Read in the writer's order, not by the general reader.
      #expect(
        JSONPayload.canonicalMembers(
          of: line,
          prefixes: SavedState.linePrefixes,
          keeping: SavedState.linePayload
        ) != nil
      )
      let read = try #require(SavedState.decodeEvent(line[...]))
      #expect(read == event)
      #expect(read.location == event.location)
      #expect(SavedState.decodeEventReadingMembers(line) == read)
    }
  }

  /// A line spelled otherwise (whitespace, another order) is read by the general reader; a
  /// line that is not an event is refused by both.
  @Test func otherSpellingsAreReadAndNonEventsRefused() throws {
    var random = SplitMix64(seed: 9)
    let event = Self.randomEvent(&random)
    let line = try SavedState.encodeEvent(event)
    let text = String(decoding: line, as: UTF8.self)

    let spaced = Array(text.replacingOccurrences(of: "\"device\":", with: " \"device\" : ").utf8)
    #expect(
      JSONPayload.canonicalMembers(
        of: spaced,
        prefixes: SavedState.linePrefixes,
        keeping: SavedState.linePayload
      ) == nil
    )
    #expect(SavedState.decodeEvent(spaced[...]) == event)
    guard case .object(let members) = try JSONValue.parse(line) else {
      Issue.record("a line is an object")
      return
    }
    var reordered: [UInt8] = [UInt8(ascii: "{")]
    for (index, key) in members.keys.sorted(by: >).enumerated() {
      if index > 0 { reordered.append(UInt8(ascii: ",")) }
      reordered += try JSONValue.string(key).serialized() + [UInt8(ascii: ":")]
      reordered += try members[key]!.serialized()
    }
    reordered.append(UInt8(ascii: "}"))
    #expect(SavedState.decodeEvent(reordered[...]) == event)

    var missing = members
    missing["stream"] = nil
    var extra = members
    extra["more"] = .int(1)
    var wrongType = members
    wrongType["sequence"] = .string("7")
    let refused: [[UInt8]] = [
      Array(line.dropLast()), line + [UInt8(ascii: " ")], Array("{}".utf8),
      try JSONValue.object(missing).serialized(), try JSONValue.object(wrongType).serialized(),
      Array(text.replacingOccurrences(of: "\"payload\":{", with: "\"payload\":{,").utf8),
    ]
    for bytes in refused {
      #expect(
        SavedState.decodeEvent(bytes[...]) == nil,
        "\(String(decoding: bytes, as: UTF8.self))"
      )
      #expect(SavedState.decodeEventReadingMembers(bytes) == nil)
    }
    // A member this build does not know is ignored, as by the general reader.
    let withExtra = try JSONValue.object(extra).serialized()
    #expect(SavedState.decodeEvent(withExtra[...]) == event)
  }
}
