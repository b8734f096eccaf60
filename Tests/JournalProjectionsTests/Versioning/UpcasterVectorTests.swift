import Foundation
import JournalCore
import Testing

@testable import JournalProjections

/// Every step of the event registry against its vectors on disk:
/// `Golden/Upcasters/<type>.v<from>.json` holds the stored `input` payload, the
/// `expected` events after that one step, and the `chain` of events after every
/// step up to the current versions.
@Suite struct UpcasterVectorTests {
  struct Vector: Sendable, CustomTestStringConvertible {
    var type: String
    var from: Int
    var testDescription: String { "\(type) v\(from)" }

    var fileName: String { "\(type).v\(from).json" }
  }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Golden/Upcasters", isDirectory: true)

  static let vectors = EventUpcasters.steps.map { Vector(type: $0.type, from: $0.from) }

  static func load(_ vector: Vector) throws -> JSONValue {
    try JSONValue.parse(Data(contentsOf: folder.appendingPathComponent(vector.fileName)))
  }

  static func events(_ value: JSONValue?) throws -> [Event] {
    let array = try #require(value?.arrayValue, "expected an array of {type, payload}")
    return try array.map { item in
      Event(
        type: try #require(item["type"]?.stringValue),
        payload: try #require(item["payload"])
      )
    }
  }

  struct Event: Equatable, CustomStringConvertible {
    var type: String
    var payload: JSONValue
    var description: String {
      "\(type) \((try? payload.serializedString()) ?? "?")"
    }
  }

  @Test(arguments: vectors)
  func oneStepGivesTheExpectedEvents(_ vector: Vector) throws {
    let file = try Self.load(vector)
    let input = try #require(file["input"])
    let upcaster = try EventUpcasters.makeUpcaster()
    let lifted = upcaster.upcast(
      type: vector.type,
      version: vector.from,
      payload: input,
      upTo: vector.from + 1
    )
    #expect(
      lifted.map { Event(type: $0.type, payload: $0.payload) }
        == (try Self.events(file["expected"]))
    )
  }

  @Test(arguments: vectors)
  func theWholeChainReachesTheCurrentVersionAndDecodes(_ vector: Vector) throws {
    let file = try Self.load(vector)
    let input = try #require(file["input"])
    let upcaster = try EventUpcasters.makeUpcaster()
    let lifted = try upcaster.upcast(type: vector.type, version: vector.from, payload: input)
    #expect(
      lifted.map { Event(type: $0.type, payload: $0.payload) } == (try Self.events(file["chain"]))
    )
    for event in lifted {
      #expect(throws: Never.self) { try JournalEvent(type: event.type, payload: event.payload) }
    }
  }

  @Test func everyVectorFileBelongsToAStep() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".json") }
    #expect(Set(names) == Set(Self.vectors.map(\.fileName)))
  }
}
