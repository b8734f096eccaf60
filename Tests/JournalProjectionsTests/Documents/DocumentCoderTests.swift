import Foundation
import Testing

@testable import JournalProjections

@Suite struct DocumentCoderTests {
  /// The golden cases: each document, its golden file name.
  static let goldenCases: [(String, @Sendable () throws -> Data)] = [
    ("split-minimal.json", { try DocumentCoder.encode(DocumentFixtures.minimalSplit) }),
    ("split-full.json", { try DocumentCoder.encode(DocumentFixtures.fullSplit) }),
    ("workout-minimal.json", { try DocumentCoder.encode(DocumentFixtures.minimalWorkout) }),
    ("workout-full.json", { try DocumentCoder.encode(DocumentFixtures.fullWorkout) }),
    (
      "workout-sparse-metrics.json",
      { try DocumentCoder.encode(DocumentFixtures.sparseMetricsWorkout) }
    ),
    (
      "stub-split.json",
      {
        try DocumentCoder.encode(
          Stub(document: DocumentFixtures.fullSplit, deletedAt: DocumentFixtures.updated)
        )
      }
    ),
    (
      "stub-workout.json",
      {
        try DocumentCoder.encode(
          Stub(document: DocumentFixtures.fullWorkout, deletedAt: DocumentFixtures.updated)
        )
      }
    ),
    (
      "tombstone.json",
      {
        try DocumentCoder.encode(
          Tombstone(id: "01HF0000000000000000000004", deletedAt: DocumentFixtures.created)
        )
      }
    ),
    (
      "tombstone-kind.json",
      {
        try DocumentCoder.encode(
          Tombstone(
            id: "01HF0000000000000000000004",
            deletedAt: DocumentFixtures.created,
            kind: "workout"
          )
        )
      }
    ),
  ]

  @Test(arguments: 0..<goldenCases.count)
  func goldenBytes(index: Int) throws {
    let (name, encode) = Self.goldenCases[index]
    expectDocumentGolden(try encode(), named: name)
  }

  /// The goldens are provably Foundation's bytes, not the fast encoder's.
  @Test func goldensAreFoundationBytes() throws {
    let fixtures = DocumentFixtures.self
    let pairs: [(Data, Data)] = [
      (
        try DocumentCoder.encode(fixtures.minimalSplit), try foundationEncode(fixtures.minimalSplit)
      ),
      (try DocumentCoder.encode(fixtures.fullSplit), try foundationEncode(fixtures.fullSplit)),
      (
        try DocumentCoder.encode(fixtures.minimalWorkout),
        try foundationEncode(fixtures.minimalWorkout)
      ),
      (try DocumentCoder.encode(fixtures.fullWorkout), try foundationEncode(fixtures.fullWorkout)),
      (
        try DocumentCoder.encode(fixtures.sparseMetricsWorkout),
        try foundationEncode(fixtures.sparseMetricsWorkout)
      ),
      (
        try DocumentCoder.encode(Stub(document: fixtures.fullSplit, deletedAt: fixtures.updated)),
        try foundationEncode(Stub(document: fixtures.fullSplit, deletedAt: fixtures.updated))
      ),
      (
        try DocumentCoder.encode(Stub(document: fixtures.fullWorkout, deletedAt: fixtures.updated)),
        try foundationEncode(Stub(document: fixtures.fullWorkout, deletedAt: fixtures.updated))
      ),
    ]
    for (index, (ours, foundation)) in pairs.enumerated() {
      #expect(ours == foundation, "pair \(index)")
    }
  }

  @Test func quirksOfTheFormat() throws {
    let text = String(
      decoding: try DocumentCoder.encode(DocumentFixtures.minimalWorkout),
      as: UTF8.self
    )
    #expect(text.contains("\"logs\" : [\n\n  ]"))
    #expect(!text.hasSuffix("\n"))
    let split = String(
      decoding: try DocumentCoder.encode(DocumentFixtures.fullSplit),
      as: UTF8.self
    )
    #expect(split.contains("\"name\" : \"Push \\/ Pull — Développé 💪 卧推\""))
    #expect(split.contains("\"weight\" : 42.5"))
    #expect(split.contains("\"weight\" : 45\n"))
    #expect(split.contains("\"machineSettings\" : [\n\n      ],"))
    let sparse = String(
      decoding: try DocumentCoder.encode(DocumentFixtures.sparseMetricsWorkout),
      as: UTF8.self
    )
    #expect(sparse.contains("\"deletedLogIDs\" : {\n\n  },"))
    #expect(sparse.contains("\"hrZoneSeconds\" : [\n\n    ],"))
  }

  /// Dates keep whole seconds; the fraction is dropped toward the past, also
  /// before 1970 and across the 2001 reference date.
  @Test(arguments: [
    (1_700_000_000.75, "2023-11-14T22:13:20Z"),
    (1_700_000_000.999_999, "2023-11-14T22:13:20Z"),
    (0, "1970-01-01T00:00:00Z"),
    (-0.25, "1969-12-31T23:59:59Z"),
    (-1.5, "1969-12-31T23:59:58Z"),
    (978_307_199.5, "2000-12-31T23:59:59Z"),
    (978_307_200.5, "2001-01-01T00:00:00Z"),
    // Before the Gregorian reform (1582-10-15) Foundation's calendar is Julian.
    (-12_219_292_800, "1582-10-15T00:00:00Z"),
    (-12_219_292_801, "1582-10-04T23:59:59Z"),
    (-62_135_596_800, "0001-01-03T00:00:00Z"),
    (-30_610_224_000, "0999-12-27T00:00:00Z"),
    (253_402_300_799, "9999-12-31T23:59:59Z"),
  ])
  func datesKeepWholeSeconds(seconds: Double, expected: String) throws {
    let date = Date(timeIntervalSince1970: seconds)
    let tombstone = Tombstone(id: "x", deletedAt: date)
    let text = String(decoding: try DocumentCoder.encode(tombstone), as: UTF8.self)
    #expect(text.contains("\"deletedAt\" : \"\(expected)\""))
    #expect(try foundationEncode(tombstone) == DocumentCoder.encode(tombstone))
  }

  /// A full stub is one object: the document's keys with `deletedAt` sorted among them.
  @Test func stubIsOneObjectWithDeletedAtAmongTheKeys() throws {
    let stub = Stub(document: DocumentFixtures.fullWorkout, deletedAt: DocumentFixtures.beforeEpoch)
    let data = try DocumentCoder.encode(stub)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["deletedAt"] as? String == "1969-12-31T23:59:58Z")
    #expect(object["id"] as? String == DocumentFixtures.fullWorkout.id)
    #expect(object["document"] == nil)
    let keys = String(decoding: data, as: UTF8.self).split(separator: "\n")
      .filter { $0.hasPrefix("  \"") }
      .map { $0.dropFirst(3).prefix { $0 != "\"" } }
    #expect(keys.map(String.init) == keys.map(String.init).sorted())
    #expect(keys.contains("deletedAt"))
    #expect(keys.firstIndex(of: "deletedAt") == keys.firstIndex(of: "createdAt").map { $0 + 1 })
  }

  // MARK: - Decoding

  @Test func roundTrip() throws {
    let fixtures = DocumentFixtures.self
    for split in [fixtures.minimalSplit, fixtures.fullSplit] {
      let decoded = try DocumentCoder.decode(
        SplitDocument.self,
        from: DocumentCoder.encode(split),
        file: "s.json"
      )
      #expect(decoded == Self.wholeSeconds(split))
    }
    for workout in [fixtures.minimalWorkout, fixtures.fullWorkout, fixtures.sparseMetricsWorkout] {
      let data = try DocumentCoder.encode(workout)
      let decoded = try DocumentCoder.decode(WorkoutDocument.self, from: data, file: "w.json")
      // Dates lose their fraction, so compare the re-encoded bytes.
      #expect(try DocumentCoder.encode(decoded) == data)
    }
    let stub = Stub(document: fixtures.fullWorkout, deletedAt: fixtures.updated)
    let stubData = try DocumentCoder.encode(stub)
    let decodedStub = try DocumentCoder.decode(
      Stub<WorkoutDocument>.self,
      from: stubData,
      file: "stub.json"
    )
    #expect(decodedStub.deletedAt == Date(timeIntervalSince1970: 1_700_001_801))
    #expect(try DocumentCoder.encode(decodedStub) == stubData)
  }

  /// A schema v3 workout (integer weight, no set entries) still decodes.
  @Test func integerWeightsDecodeAsDoubles() throws {
    let json = """
      {"id":"e","name":"Row","order":0,"sets":3,"reps":10,"weight":45,"loadType":1,\
      "durationSeconds":0}
      """
    let exercise = try DocumentCoder.decode(
      ExerciseDocument.self,
      from: Data(json.utf8),
      file: "e.json"
    )
    #expect(exercise.weight == 45)
    #expect(exercise.machineSettings == nil)
  }

  /// One way to break a valid workout, and what the reason must mention.
  struct Malformation: Sendable, CustomTestStringConvertible {
    var name: String
    var edit: @Sendable (inout [String: Any]) -> Void
    var mentions: [String]
    var testDescription: String { name }
  }

  static let malformations: [Malformation] = [
    Malformation(
      name: "missing field",
      edit: { $0["start"] = nil },
      mentions: ["missing field 'start'"]
    ),
    Malformation(
      name: "missing nested field",
      edit: { object in
        var logs = object["logs"] as? [[String: Any]] ?? []
        logs[0]["exerciseName"] = nil
        object["logs"] = logs
      },
      mentions: ["exerciseName", "logs[0]"]
    ),
    Malformation(
      name: "wrong type",
      edit: { $0["restSeconds"] = "ninety" },
      mentions: ["restSeconds"]
    ),
    Malformation(
      name: "wrong nested type",
      edit: { object in
        var logs = object["logs"] as? [[String: Any]] ?? []
        logs[1]["sets"] = [1]
        object["logs"] = logs
      },
      mentions: ["logs[1].sets"]
    ),
    Malformation(
      name: "bad enum raw value",
      edit: { $0["status"] = "paused" },
      mentions: ["status"]
    ),
    Malformation(
      name: "bad load type",
      edit: { object in
        var logs = object["logs"] as? [[String: Any]] ?? []
        logs[0]["loadType"] = 7
        object["logs"] = logs
      },
      mentions: ["logs[0].loadType"]
    ),
    Malformation(
      name: "bad date",
      edit: { $0["start"] = "2023-11-14 22:13:20" },
      mentions: ["'start'", "2023-11-14 22:13:20"]
    ),
    Malformation(
      name: "bad nested date",
      edit: { object in
        var logs = object["logs"] as? [[String: Any]] ?? []
        logs[0]["setEntries"] = [["completedAt": 12]]
        logs[1]["date"] = "2023-02-30T00:00:00Z"
        object["logs"] = logs
      },
      mentions: ["logs[0].setEntries[0].completedAt"]
    ),
    Malformation(
      name: "bad date in dictionary",
      edit: { $0["deletedLogIDs"] = ["a": "yesterday"] },
      mentions: ["'deletedLogIDs.a'", "yesterday"]
    ),
    Malformation(name: "null field", edit: { $0["id"] = NSNull() }, mentions: ["id"]),
    Malformation(
      name: "integer out of range",
      edit: { $0["restSeconds"] = 1e30 },
      mentions: ["restSeconds"]
    ),
    Malformation(
      name: "fractional integer",
      edit: { $0["schemaVersion"] = 5.5 },
      mentions: ["schemaVersion"]
    ),
  ]

  @Test(arguments: malformations)
  func malformedDocumentNamesFileAndField(_ malformation: Malformation) throws {
    let data = try DocumentCoder.encode(DocumentFixtures.fullWorkout)
    var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    malformation.edit(&object)
    let broken = try JSONSerialization.data(withJSONObject: object)
    let file = "Workouts/2023/11/01HF0000000000000000000004.json"
    let error = #expect(throws: DocumentError.self) {
      try DocumentCoder.decode(WorkoutDocument.self, from: broken, file: file)
    }
    #expect(error?.file == file)
    for mention in malformation.mentions {
      #expect(error?.reason.contains(mention) == true, "\(error?.reason ?? "no error")")
    }
    #expect(error?.description.hasPrefix(file + ": error: ") == true)
  }

  @Test(arguments: [
    ("not JSON", Data("hello".utf8)),
    ("empty", Data()),
    ("truncated", Data("{\"id\" : \"01HF\", \"name\" : \"Pu".utf8)),
    ("array", Data("[]".utf8)),
    ("invalid UTF-8", Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])),
    ("deeply nested", Data((String(repeating: "[", count: 100_000) + "]").utf8)),
    ("NUL bytes", Data(repeating: 0, count: 64)),
  ])
  func unreadableBytesGiveADocumentError(name: String, data: Data) {
    let error = #expect(throws: DocumentError.self) {
      try DocumentCoder.decode(SplitDocument.self, from: data, file: "Splits/x.json")
    }
    #expect(error?.file == "Splits/x.json")
    #expect(error?.reason.isEmpty == false)
  }

  @Test func truncatedDocumentIsNotJSON() throws {
    let data = try DocumentCoder.encode(DocumentFixtures.fullSplit)
    for length in stride(from: 0, to: data.count, by: 37) {
      let error = #expect(throws: DocumentError.self) {
        try DocumentCoder.decode(SplitDocument.self, from: data.prefix(length), file: "f")
      }
      #expect(error?.reason == "not valid JSON")
    }
  }

  private static func wholeSeconds(_ split: SplitDocument) -> SplitDocument {
    func floor(_ date: Date) -> Date {
      Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down))
    }
    var copy = split
    copy.createdAt = floor(split.createdAt)
    copy.updatedAt = floor(split.updatedAt)
    return copy
  }
}
