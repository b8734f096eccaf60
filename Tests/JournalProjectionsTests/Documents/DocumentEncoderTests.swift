import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The hand-written encoder against Foundation's `JSONEncoder`: identical bytes.
@Suite struct DocumentEncoderTests {
  // MARK: Random documents

  /// Hundreds of seeded random splits, workouts and stubs, every optional
  /// present or absent, weird strings, extreme doubles and many dates.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func randomDocumentsMatchFoundation(seed: UInt64) throws {
    var random = DocumentGenerator(seed: seed)
    var fastPaths = 0
    for index in 0..<150 {
      let split = random.split(index: index)
      let workout = random.workout(index: index)
      let deletedAt = random.date()
      fastPaths += try expectIdentical(split) { try $0.write(split, deletedAt: nil) }
      fastPaths += try expectIdentical(workout) { try $0.write(workout, deletedAt: nil) }
      let splitStub = Stub(document: split, deletedAt: deletedAt)
      fastPaths += try expectIdentical(splitStub) { try $0.write(split, deletedAt: deletedAt) }
      let workoutStub = Stub(document: workout, deletedAt: deletedAt)
      fastPaths += try expectIdentical(workoutStub) { try $0.write(workout, deletedAt: deletedAt) }
      let tombstone = Tombstone(
        id: random.string(),
        deletedAt: deletedAt,
        kind: random.maybe { $0.string() }
      )
      fastPaths += try expectIdentical(tombstone) { try $0.write(tombstone) }
    }
    // Most documents stay in range, so the fast path itself is what is proven.
    #expect(fastPaths > 600)
  }

  /// Every fixture and golden case through both encoders.
  @Test func fixturesMatchFoundation() throws {
    let fixtures = DocumentFixtures.self
    for split in [fixtures.minimalSplit, fixtures.fullSplit] {
      #expect(try DocumentEncoder.encode(split) == DocumentCoder.encodeWithFoundation(split))
    }
    for workout in [fixtures.minimalWorkout, fixtures.fullWorkout, fixtures.sparseMetricsWorkout] {
      #expect(try DocumentEncoder.encode(workout) == DocumentCoder.encodeWithFoundation(workout))
      let stub = Stub(document: workout, deletedAt: fixtures.beforeEpoch)
      #expect(try DocumentEncoder.encode(stub) == DocumentCoder.encodeWithFoundation(stub))
    }
  }

  // MARK: Doubles

  /// Whole values up to 2^53 print as integers, beyond with an exponent; the
  /// rest in the shortest form that reads back; negative zero as `-0`.
  @Test func doublesMatchFoundation() throws {
    var generator = SplitMix64(seed: 0xD0_0B1E)
    var values: [Double] = [
      0, -0.0, 1, -1, 45, 42.5, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 1e-4, 1e-5, 9.999e-5, 1e-7,
      .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
      .leastNormalMagnitude.nextDown, .greatestFiniteMagnitude,
      -.greatestFiniteMagnitude, 1e15, 1e15 + 0.5, 1e16, 1e17, 1e20, 1e21, 1e22, 1e23,
      123_456_789.125,
      9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994, -9_007_199_254_740_992,
      -9_007_199_254_740_994, 4_503_599_627_370_495.5, 4_503_599_627_370_496, 0.000_1, 0.001,
      999_999_999_999_999.9, 1_234_567.891, 100, 1000, 12_345_678.9, 2.5e-3, 6.02214076e23,
    ]
    for exponent in -1074...1023 {
      values.append(Double(sign: .plus, exponent: exponent, significand: 1))
      values.append(Double(sign: .minus, exponent: exponent, significand: 1.5))
    }
    for power in -30...30 {
      let ten = pow(10, Double(power))
      values += [ten, ten.nextUp, ten.nextDown, -ten]
    }
    for _ in 0..<20_000 {
      let bits = Double(bitPattern: generator.next())
      if bits.isFinite { values.append(bits) }
      values.append(Double(Int64(bitPattern: generator.next()) >> 10) / 4)
      values.append(Double.random(in: -1_000...1_000, using: &generator))
      values.append((Double.random(in: 0...500, using: &generator) * 4).rounded() / 4)
    }
    for chunk in stride(from: 0, to: values.count, by: 500) {
      let zones = Array(values[chunk..<min(chunk + 500, values.count)])
      let workout = WorkoutDocument(
        id: "W",
        start: DocumentFixtures.created,
        createdAt: DocumentFixtures.created,
        updatedAt: DocumentFixtures.created,
        metrics: WorkoutMetrics(
          totalVolume: zones[0],
          hrZoneSeconds: zones,
          source: .watch,
          recordedAt: DocumentFixtures.created
        )
      )
      _ = try expectIdentical(workout) { try $0.write(workout, deletedAt: nil) }
    }
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, .signalingNaN])
  func nonFiniteDoublesThrowLikeFoundation(value: Double) {
    let workout = WorkoutDocument(
      id: "W",
      start: DocumentFixtures.created,
      createdAt: DocumentFixtures.created,
      updatedAt: DocumentFixtures.created,
      logs: [
        WorkoutLogDocument(
          id: "L",
          exerciseName: "X",
          order: 0,
          sets: 1,
          reps: 1,
          weight: value,
          loadType: .weight,
          durationSeconds: 0,
          date: DocumentFixtures.created
        )
      ]
    )
    #expect(throws: EncodingError.self) { try DocumentEncoder.encode(workout) }
    #expect(throws: EncodingError.self) { try DocumentCoder.encode(workout) }
    #expect(throws: EncodingError.self) { try DocumentCoder.encodeWithFoundation(workout) }
  }

  // MARK: Strings and keys

  /// Every byte below 0x80, and non-ASCII text, in values and in dictionary keys.
  @Test func stringsMatchFoundation() throws {
    var strings = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
    strings += [
      "", "a/b", "http://x/y", "\"quoted\"", "back\\slash", "é", "e\u{301}", "😀", "👩‍👩‍👧",
      "卧推", "\u{2028}\u{2029}", "\u{FEFF}", "\u{FFFF}", "\u{10FFFF}", "\u{7F}\u{80}\u{9F}",
      "Tab\tNew\nReturn\rFeed\u{0C}Back\u{08}", String(repeating: "/", count: 100),
      String(repeating: "x", count: 10_000),
    ]
    var dates: [String: Date] = [:]
    for (index, string) in strings.enumerated() {
      dates[string] = Date(timeIntervalSince1970: Double(index))
    }
    let workout = WorkoutDocument(
      id: "W",
      splitName: strings.joined(),
      start: DocumentFixtures.created,
      createdAt: DocumentFixtures.created,
      updatedAt: DocumentFixtures.created,
      logs: strings.enumerated().map { index, string in
        WorkoutLogDocument(
          id: string,
          exerciseName: string,
          order: index,
          sets: 0,
          reps: 0,
          weight: 0,
          loadType: .none,
          durationSeconds: 0,
          notes: string,
          date: DocumentFixtures.created,
          machineSettings: [MachineSetting(name: string, value: string)],
          libraryName: string
        )
      },
      deletedLogIDs: dates
    )
    _ = try expectIdentical(workout) { try $0.write(workout, deletedAt: nil) }
  }

  /// Keys sort by their UTF-8 bytes, not as people sort: digits, upper case,
  /// `_`, lower case, then non-ASCII by code point.
  @Test func deletedLogKeysSortByUTF8Bytes() throws {
    let keys = [
      "a", "B", "_x", "é", "10", "9", "", "A", "ab", "Ab", "~", "\u{7F}", "😀", "\u{FFFF}",
    ]
    let workout = WorkoutDocument(
      id: "W",
      start: DocumentFixtures.created,
      createdAt: DocumentFixtures.created,
      updatedAt: DocumentFixtures.created,
      deletedLogIDs: Dictionary(uniqueKeysWithValues: keys.map { ($0, DocumentFixtures.created) })
    )
    _ = try expectIdentical(workout) { try $0.write(workout, deletedAt: nil) }
    let text = String(decoding: try DocumentEncoder.encode(workout), as: UTF8.self)
    let order = text.split(separator: "\n").filter { $0.hasPrefix("    \"") }
      .map { String($0.dropFirst(5).prefix { $0 != "\"" }) }
    #expect(
      order == [
        "", "10", "9", "A", "Ab", "B", "_x", "a", "ab", "~", "\u{7F}", "é", "\u{FFFF}", "😀",
      ]
    )
  }

  // MARK: Dates

  /// Whole seconds, dropped toward the past, across 1970, 2001, leap years,
  /// the Gregorian reform and the edges of the four-digit years.
  @Test func datesMatchFoundation() throws {
    var generator = SplitMix64(seed: 0xDA7E)
    var seconds: [Double] = [
      0, -0.0, 0.5, -0.5, -1, -1.000_001, 0.999_999_999, 978_307_200, 978_307_199.999_999,
      978_307_200.000_001, 951_782_400, 951_868_800, 4_107_542_400, 1_709_164_800,
      -12_219_292_800, -12_219_292_800.5, -12_219_292_799.5, -12_219_292_801, -62_135_596_800,
      -62_167_219_200, -30_610_224_000, 253_402_300_799, 253_402_300_799.999, 253_402_300_800,
      -1e12, 1e12, 1e15,
    ]
    for _ in 0..<5_000 {
      seconds.append(Double.random(in: -12_219_292_800...253_402_300_800, using: &generator))
      seconds.append(Double(Int.random(in: -200_000...200_000, using: &generator)) * 86_400)
      let whole = Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator))
      seconds += [whole, whole + 0.5, whole - 1e-6, whole + 1e-6, whole.nextDown, whole.nextUp]
    }
    var dates = seconds.map { Date(timeIntervalSince1970: $0) }
    dates += [.distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: -0.000_001)]
    dates += [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 0.5)]
    var inRange = 0
    for date in dates {
      let tombstone = Tombstone(id: "x", deletedAt: date)
      inRange += try expectIdentical(tombstone) { try $0.write(tombstone) }
    }
    #expect(inRange > dates.count * 9 / 10)
  }

  @Test func civilDatesMatchTheGregorianCalendar() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "GMT"))
    for days in stride(from: -141_427, through: 2_932_896, by: 97) {
      let date = Date(timeIntervalSince1970: Double(days) * 86_400)
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      let civil = DocumentWriter.civil(fromDays: days)
      #expect([civil.year, civil.month, civil.day] == [parts.year, parts.month, parts.day])
    }
  }

  // MARK: Empty containers at every depth

  @Test func emptyContainersAtEveryDepth() throws {
    let emptySplit = SplitDocument(
      id: "S",
      name: "S",
      color: "c",
      systemImage: "i",
      order: 0,
      createdAt: DocumentFixtures.created,
      updatedAt: DocumentFixtures.created,
      exercises: [
        ExerciseDocument(
          id: "E",
          name: "E",
          order: 0,
          sets: 0,
          reps: 0,
          weight: 0,
          loadType: .none,
          durationSeconds: 0,
          machineSettings: []
        )
      ]
    )
    _ = try expectIdentical(emptySplit) { try $0.write(emptySplit, deletedAt: nil) }
    let emptyWorkout = WorkoutDocument(
      id: "W",
      start: DocumentFixtures.created,
      createdAt: DocumentFixtures.created,
      updatedAt: DocumentFixtures.created,
      logs: [
        WorkoutLogDocument(
          id: "L",
          exerciseName: "L",
          order: 0,
          sets: 0,
          reps: 0,
          weight: 0,
          loadType: .none,
          durationSeconds: 0,
          date: DocumentFixtures.created,
          machineSettings: [],
          setEntries: []
        )
      ],
      metrics: WorkoutMetrics(hrZoneSeconds: [], source: .watch, recordedAt: .distantFuture),
      deletedLogIDs: [:]
    )
    _ = try expectIdentical(emptyWorkout) { try $0.write(emptyWorkout, deletedAt: nil) }
    let text = String(decoding: try DocumentEncoder.encode(emptyWorkout), as: UTF8.self)
    #expect(text.contains("\"deletedLogIDs\" : {\n\n  },"))
    #expect(text.contains("\"machineSettings\" : [\n\n      ],"))
    #expect(text.contains("\"setEntries\" : [\n\n      ],"))
    #expect(text.contains("\"hrZoneSeconds\" : [\n\n    ],"))
  }

  // MARK: Helpers

  /// Expects the public encoder and Foundation to agree on `value`, and
  /// returns 1 when the fast path wrote it itself (0 when it was out of range).
  private func expectIdentical<T: Encodable>(
    _ value: T,
    sourceLocation: SourceLocation = #_sourceLocation,
    fast: (inout DocumentWriter) throws -> Void
  ) throws -> Int {
    let foundation = try DocumentCoder.encodeWithFoundation(value)
    let ours = try DocumentCoder.encode(value)
    if ours != foundation {
      Issue.record(
        "differs from Foundation: \(firstDifference(foundation, ours))",
        sourceLocation: sourceLocation
      )
    }
    var writer = DocumentWriter()
    do {
      try fast(&writer)
    } catch {
      return 0
    }
    #expect(Data(writer.bytes) == foundation, sourceLocation: sourceLocation)
    return 1
  }
}

/// Seeded random documents for the differential tests.
struct DocumentGenerator {
  var generator: SplitMix64

  init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  static let fragments = [
    "", "a", "Bench Press", "/", "\\", "\"", "é", "e\u{301}", "😀", "👍🏽", "卧推", "Développé",
    "\n", "\t", "\r", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\u{8}", "\u{C}", "\u{2028}", "45°",
    "3rd hole", " ", "_x", "B", "10", "9", "ÿ", "\u{FFFF}", "\u{10000}", "{}", "[]", ":", ",",
  ]

  mutating func bool() -> Bool { Bool.random(using: &generator) }

  mutating func pick<T>(_ choices: [T]) -> T {
    choices[Int.random(in: 0..<choices.count, using: &generator)]
  }

  mutating func maybe<T>(_ make: (inout Self) -> T) -> T? { bool() ? make(&self) : nil }

  mutating func int() -> Int {
    switch Int.random(in: 0..<10, using: &generator) {
    case 0: Int.min
    case 1: Int.max
    case 2: Int.random(in: -1_000...(-1), using: &generator)
    default: Int.random(in: 0...200, using: &generator)
    }
  }

  mutating func string() -> String {
    (0..<Int.random(in: 0...6, using: &generator)).map { _ in
      Self.fragments.randomElement(using: &generator) ?? ""
    }.joined()
  }

  mutating func double() -> Double {
    switch Int.random(in: 0..<8, using: &generator) {
    case 0:
      let value = Double(bitPattern: generator.next())
      return value.isFinite ? value : 0
    case 1:
      return [0, -0.0, 1e16, 1e21, 1e-5, .leastNonzeroMagnitude, 9_007_199_254_740_992, 0.1]
        .randomElement(
          using: &generator
        ) ?? 0
    case 2: return Double.random(in: -1e6...1e6, using: &generator)
    default: return Double(Int.random(in: 0...2_000, using: &generator)) / 4
    }
  }

  mutating func date() -> Date {
    switch Int.random(in: 0..<20, using: &generator) {
    case 0: return Date(timeIntervalSince1970: Double.random(in: -1e11...1e11, using: &generator))
    case 1: return Date(timeIntervalSince1970: Double(Int.random(in: -1...1, using: &generator)))
    default:
      return Date(
        timeIntervalSince1970: Double.random(in: -2e9...4e9, using: &generator).rounded()
          + pick([0, 0.5, 0.999, 0.001])
      )
    }
  }

  mutating func settings() -> [MachineSetting] {
    (0..<Int.random(in: 0...3, using: &generator)).map { _ in
      MachineSetting(name: string(), value: string())
    }
  }

  mutating func split(index: Int) -> SplitDocument {
    SplitDocument(
      schemaVersion: int(),
      id: string(),
      name: string(),
      color: string(),
      systemImage: string(),
      order: int(),
      createdAt: date(),
      updatedAt: date(),
      exercises: (0..<Int.random(in: 0...5, using: &generator)).map { _ in
        ExerciseDocument(
          id: string(),
          name: string(),
          order: int(),
          sets: int(),
          reps: int(),
          weight: double(),
          loadType: pick(LoadType.allCases),
          durationSeconds: int(),
          machineSettings: maybe { $0.settings() },
          libraryName: maybe { $0.string() }
        )
      },
      activityType: maybe { $0.int() },
      restSeconds: maybe { $0.int() },
      autoAdvance: maybe { $0.bool() },
      targetHeartRate: maybe { $0.int() }
    )
  }

  mutating func workout(index: Int) -> WorkoutDocument {
    WorkoutDocument(
      schemaVersion: int(),
      id: string(),
      splitID: maybe { $0.string() },
      splitName: maybe { $0.string() },
      start: date(),
      end: maybe { $0.date() },
      status: pick(WorkoutStatus.allCases),
      createdAt: date(),
      updatedAt: date(),
      logs: (0..<Int.random(in: 0...6, using: &generator)).map { _ in log() },
      metrics: maybe { $0.metrics() },
      deletedLogIDs: maybe { random in
        Dictionary(
          (0..<Int.random(in: 0...5, using: &random.generator)).map { _ in
            (random.string(), random.date())
          },
          uniquingKeysWith: { first, _ in first }
        )
      },
      restSeconds: maybe { $0.int() },
      autoAdvance: maybe { $0.bool() },
      targetHeartRate: maybe { $0.int() }
    )
  }

  mutating func log() -> WorkoutLogDocument {
    WorkoutLogDocument(
      id: string(),
      exerciseName: string(),
      order: int(),
      sets: int(),
      reps: int(),
      weight: double(),
      loadType: pick(LoadType.allCases),
      durationSeconds: int(),
      currentStateIndex: int(),
      status: pick(WorkoutStatus.allCases),
      notes: maybe { $0.string() },
      date: date(),
      machineSettings: maybe { $0.settings() },
      startedAt: maybe { $0.date() },
      completedAt: maybe { $0.date() },
      setEntries: maybe { random in
        (0..<Int.random(in: 0...5, using: &random.generator)).map { _ in
          SetEntry(
            reps: random.maybe { $0.int() },
            weight: random.maybe { $0.double() },
            seconds: random.maybe { $0.int() },
            completedAt: random.date()
          )
        }
      },
      updatedAt: maybe { $0.date() },
      libraryName: maybe { $0.string() }
    )
  }

  mutating func metrics() -> WorkoutMetrics {
    WorkoutMetrics(
      activeEnergyKcal: maybe { $0.double() },
      avgHeartRate: maybe { $0.double() },
      maxHeartRate: maybe { $0.double() },
      minHeartRate: maybe { $0.double() },
      totalVolume: maybe { $0.double() },
      hrZoneSeconds: maybe { random in (0..<5).map { _ in random.double() } },
      healthKitWorkoutUUID: maybe { $0.string() },
      source: pick(MetricSource.allCases),
      recordedAt: date()
    )
  }
}
