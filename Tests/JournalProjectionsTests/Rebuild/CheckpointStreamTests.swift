import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// The checkpoint's stream files (`Checkpoint+Streams.swift`): exact round
/// trips, a fixed byte form, and bytes that are not a state refused.
@Suite struct CheckpointStreamTests {
  /// Dates with a fraction of a second that ISO-8601 would lose.
  static let t0 = Date(timeIntervalSinceReferenceDate: 789_000_000.123_456_7)

  /// A workout with every optional field set, and awkward values.
  static func fullWorkout() -> WorkoutState {
    let entry = SetEntry(reps: 5, weight: -0.0, seconds: 30, completedAt: t0 + 60.5)
    let log = WorkoutLogDocument(
      id: "log-1",
      exerciseName: "Bench \"press\" / ünïcode \n",
      order: 0,
      sets: 3,
      reps: 5,
      weight: 102.5,
      loadType: .weight,
      durationSeconds: 0,
      currentStateIndex: 1,
      status: .inProgress,
      notes: "felt \\ heavy",
      date: t0,
      machineSettings: [MachineSetting(name: "seat", value: "4")],
      startedAt: t0 + 1,
      completedAt: t0 + 2,
      setEntries: [entry, SetEntry(completedAt: t0 + 0.000_1)],
      updatedAt: t0 + 3,
      libraryName: "Bench Press"
    )
    let document = WorkoutDocument(
      id: "01JWORKOUT",
      splitID: "01JSPLIT",
      splitName: "Upper",
      start: t0,
      end: t0 + 3600.25,
      status: .completed,
      createdAt: t0,
      updatedAt: t0 + 7,
      logs: [
        log,
        WorkoutLogDocument(
          id: "log-2",
          exerciseName: "Plank",
          order: 1,
          sets: 1,
          reps: 0,
          weight: 0,
          loadType: .duration,
          durationSeconds: 60,
          date: t0
        ),
      ],
      metrics: WorkoutMetrics(
        activeEnergyKcal: 321.5,
        avgHeartRate: 120,
        maxHeartRate: 171.25,
        minHeartRate: 1e-7,
        totalVolume: 1e17,
        hrZoneSeconds: [0, 1.5, 2, 3, 4],
        healthKitWorkoutUUID: "UUID-1",
        source: .watch,
        recordedAt: t0 + 9
      ),
      deletedLogIDs: ["gone": t0 + 5, "gone-too": t0 - 1e9],
      restSeconds: 90,
      autoAdvance: true,
      targetHeartRate: 150
    )
    return WorkoutState(
      document: document,
      timeZone: TimeZone(identifier: "Pacific/Kiritimati") ?? .gmt,
      deletedAt: t0 + 10,
      provenance: [
        "log-1": [
          EntryProvenance(
            kind: .recorded,
            event: EventID("01JEVENT"),
            device: "watch",
            original: entry,
            adjustments: ["01JADJUST", "01JADJUST2"],
            startedAt: t0 + 30.25
          ),
          EntryProvenance(
            kind: .filledFromPlan,
            event: EventID("01JDONE"),
            filled: 1,
            device: "phone",
            original: SetEntry(completedAt: t0)
          ),
        ]
      ],
      recordedVolume: 512.5
    )
  }

  static func fullSplit() -> SplitState {
    SplitState(
      document: SplitDocument(
        id: "01JSPLIT",
        name: "Upper",
        color: "#ff0000",
        systemImage: "dumbbell",
        order: -2,
        createdAt: t0,
        updatedAt: t0 + 0.5,
        exercises: [
          ExerciseDocument(
            id: "e1",
            name: "Row",
            order: 0,
            sets: 3,
            reps: 8,
            weight: 60.25,
            loadType: .weight,
            durationSeconds: 0,
            machineSettings: [MachineSetting(name: "pin", value: "3")],
            libraryName: "Seated Row"
          ),
          ExerciseDocument(
            id: "e2",
            name: "Plank",
            order: 1,
            sets: 1,
            reps: 0,
            weight: 0,
            loadType: .duration,
            durationSeconds: 45
          ),
        ],
        activityType: 1,
        restSeconds: 120,
        autoAdvance: false,
        targetHeartRate: 140
      ),
      isStarter: true,
      deletedAt: t0 + 86_400.75
    )
  }

  @Test func everyFieldRoundTripsExactly() throws {
    let workout = Self.fullWorkout()
    let split = Self.fullSplit()
    let workoutBytes = try Checkpoint.encodeState(workout)
    let splitBytes = try Checkpoint.encodeState(split)
    let workoutBack = try Checkpoint.decodeState(WorkoutState.self, from: workoutBytes)
    #expect(workoutBack == workout)
    #expect(try Checkpoint.decodeState(SplitState.self, from: splitBytes) == split)
    // Exact bits: -0.0 stays negative, fractions of a second stay.
    let weight = try #require(workoutBack.document.logs[0].setEntries?[0].weight)
    #expect(weight.sign == .minus)
    #expect(workoutBack.document.end == workout.document.end)
    // Same state, same bytes, whatever the dictionaries' order.
    #expect(try Checkpoint.encodeState(workoutBack) == workoutBytes)
  }

  /// The writer puts members in key order and numbers in their canonical form: parsing a
  /// stream file and serializing it again gives the same bytes.
  @Test func theBytesAreCanonical() throws {
    var session = try RandomSession(seed: 11)
    for _ in 0..<80 { session.step() }
    let state = session.journal.state()
    var files = [
      try Checkpoint.encodeState(Self.fullWorkout()), try Checkpoint.encodeState(Self.fullSplit()),
    ]
    files += try state.workouts.values.map { try Checkpoint.encodeState($0) }
    files += try state.splits.values.map { try Checkpoint.encodeState($0) }
    for bytes in files {
      #expect(try JSONValue.parse(bytes).serialized() == bytes)
    }
    #expect(files.count > 4)
  }

  /// The head's bytes, as docs/Rebuild.md describes them, and back.
  @Test func theHeadIsTheDocumentedForm() {
    var checkpoint = Checkpoint()
    checkpoint.build = "b"
    checkpoint.position = 3
    checkpoint.lastID = "L"
    checkpoint.prefixDigest = "p"
    checkpoint.now = Date(timeIntervalSinceReferenceDate: 1.5)
    checkpoint.eventCount = 2
    checkpoint.quarantined = ["workout:Q"]
    checkpoint.splits = ["split:S": Checkpoint.StreamEntry(digest: "d", expiry: nil)]
    checkpoint.expiring = ["workout:W": Date(timeIntervalSinceReferenceDate: -2)]
    checkpoint.pages = ["1": "f", "0": "e"]
    let body = """
      workout-journal-checkpoint 4
      build b
      position 3
      last L
      prefix p
      now 3ff8000000000000
      rendered -
      events 2
      anomalies 0
      manifest -
      quarantined workout:Q
      split split:S d -
      expiring workout:W c000000000000000
      page 0 e
      page 1 f

      """
    let bytes = checkpoint.encodedHead()
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == body + "checksum \(XXH64.hex(Array(body.utf8)))\n"
    )
    #expect(Checkpoint.decodeHead(bytes) == .success(checkpoint))
  }

  @Test func minimalStatesRoundTrip() throws {
    let split = SplitState(
      document: SplitDocument(
        id: "s",
        name: "",
        color: "",
        systemImage: "",
        order: 0,
        createdAt: Self.t0,
        updatedAt: Self.t0
      ),
      isStarter: false,
      deletedAt: nil
    )
    #expect(
      try Checkpoint.decodeState(SplitState.self, from: Checkpoint.encodeState(split)) == split
    )
    let workout = WorkoutState(
      document: WorkoutDocument(id: "w", start: Self.t0, createdAt: Self.t0, updatedAt: Self.t0),
      timeZone: .gmt,
      deletedAt: nil
    )
    let bytes = try Checkpoint.encodeState(workout)
    #expect(try Checkpoint.decodeState(WorkoutState.self, from: bytes) == workout)
  }

  /// The byte form documented in docs/Rebuild.md: compact, keys sorted, nil
  /// left out, doubles with a fraction, dates as their bits.
  @Test func theBytesAreTheDocumentedForm() throws {
    let date = Date(timeIntervalSinceReferenceDate: 1.5)
    let split = SplitState(
      document: SplitDocument(
        id: "a/b",
        name: "N",
        color: "c",
        systemImage: "i",
        order: 1,
        createdAt: date,
        updatedAt: date,
        exercises: [
          ExerciseDocument(
            id: "e",
            name: "E",
            order: 0,
            sets: 2,
            reps: 3,
            weight: 45,
            loadType: .weight,
            durationSeconds: 0
          )
        ]
      ),
      isStarter: false,
      deletedAt: nil
    )
    let bits = Int64(bitPattern: (1.5).bitPattern)
    let expected =
      #"{"document":{"color":"c","createdAt":\#(bits),"exercises":[{"durationSeconds":0,"id":"e","#
      + #""loadType":1,"name":"E","order":0,"reps":3,"sets":2,"weight":45.0}],"id":"a/b","name":"N","#
      + #""order":1,"schemaVersion":3,"systemImage":"i","updatedAt":\#(bits)},"isStarter":false}"#
    #expect(String(decoding: try Checkpoint.encodeState(split), as: UTF8.self) == expected)
  }

  /// A set entry is `[completedAt, reps, weight, seconds]`, null for nil.
  @Test func aSetEntryIsAnArrayWithoutKeys() throws {
    var workout = Self.fullWorkout()
    let date = Date(timeIntervalSinceReferenceDate: 1.5)
    workout.document.logs[0].setEntries = [SetEntry(reps: 5, weight: 80, completedAt: date)]
    let text = String(decoding: try Checkpoint.encodeState(workout), as: UTF8.self)
    let bits = Int64(bitPattern: (1.5).bitPattern)
    #expect(text.contains(#""setEntries":[[\#(bits),5,80.0,null]]"#))
  }

  @Test func aNonFiniteNumberIsNotSaved() {
    var workout = Self.fullWorkout()
    workout.document.logs[0].weight = .nan
    #expect(throws: JournalError.self) { try Checkpoint.encodeState(workout) }
  }

  struct Corruption: Sendable, CustomTestStringConvertible {
    let name: String
    let edit: @Sendable (String) -> String
    var testDescription: String { name }
  }

  static let corruptions: [Corruption] = [
    Corruption(name: "not JSON") { String($0.dropLast()) },
    Corruption(name: "not an object") { "[" + $0 + "]" },
    Corruption(name: "missing field") { $0.replacingOccurrences(of: #""start":"#, with: #""x":"#) },
    Corruption(name: "string for a number") {
      $0.replacingOccurrences(of: #""restSeconds":90"#, with: #""restSeconds":"90""#)
    },
    Corruption(name: "fraction for an integer") {
      $0.replacingOccurrences(of: #""restSeconds":90"#, with: #""restSeconds":90.5"#)
    },
    Corruption(name: "unknown status") {
      $0.replacingOccurrences(of: #""status":"completed""#, with: #""status":"done""#)
    },
    Corruption(name: "unknown load type") {
      $0.replacingOccurrences(of: #""loadType":2"#, with: #""loadType":7"#)
    },
    Corruption(name: "unknown provenance") {
      $0.replacingOccurrences(of: #""kind":"recorded""#, with: #""kind":"guessed""#)
    },
    Corruption(name: "unknown time zone") {
      $0.replacingOccurrences(of: "Pacific/Kiritimati", with: "Mars/Olympus")
    },
    Corruption(name: "set entry too short") {
      $0.replacingOccurrences(of: ",30]", with: "]")
    },
    Corruption(name: "set entry with a string") {
      $0.replacingOccurrences(of: ",5,-0.0,30]", with: #","5",-0.0,30]"#)
    },
    Corruption(name: "a source key not made from its event id") {
      $0.replacingOccurrences(of: #""key":"01JDONE/1""#, with: #""key":"01JOTHER/1""#)
    },
    Corruption(name: "a filled source numbered 0") {
      $0.replacingOccurrences(of: #""key":"01JDONE/1""#, with: #""key":"01JDONE/0""#)
    },
    Corruption(name: "a filled source numbered below zero") {
      $0.replacingOccurrences(of: #""key":"01JDONE/1""#, with: #""key":"01JDONE/-1""#)
    },
    Corruption(name: "a filled source numbered with a leading zero") {
      $0.replacingOccurrences(of: #""key":"01JDONE/1""#, with: #""key":"01JDONE/01""#)
    },
    Corruption(name: "a filled source numbered with a letter") {
      $0.replacingOccurrences(of: #""key":"01JDONE/1""#, with: #""key":"01JDONE/1x""#)
    },
    Corruption(name: "a filled source numbered past the largest integer") {
      $0.replacingOccurrences(
        of: #""key":"01JDONE/1""#,
        with: #""key":"01JDONE/99999999999999999999""#
      )
    },
    Corruption(name: "a filled source without its number") {
      $0.replacingOccurrences(of: #""key":"01JDONE/1""#, with: #""key":"01JDONE/""#)
    },
    Corruption(name: "date as a double") {
      $0.replacingOccurrences(of: #""createdAt":"#, with: #""createdAt":0.5,"x":"#)
    },
  ]

  @Test(arguments: corruptions)
  func bytesThatAreNotAStateAreRefused(_ corruption: Corruption) throws {
    let text = String(decoding: try Checkpoint.encodeState(Self.fullWorkout()), as: UTF8.self)
    let damaged = corruption.edit(text)
    #expect(damaged != text, "the corruption must change the bytes")
    #expect(throws: (any Error).self) {
      try Checkpoint.decodeState(WorkoutState.self, from: Array(damaged.utf8))
    }
  }

  /// A stream file whose digest matches but whose bytes are not a state (a
  /// bug, or an edit with the digests fixed): the checkpoint is ignored and
  /// the tree is still the one the journal renders.
  @Test func anUndecodableStreamFileWithAMatchingDigestIsIgnored() throws {
    var session = try RandomSession(seed: 7)
    for _ in 0..<60 { session.step() }
    let out = try makeTemporaryDirectory("rebuild-undecodable")
    try Rebuild.run(journal: session.journal, output: out)
    let headURL = out.appendingPathComponent(Checkpoint.headPath)
    guard case .success(var head) = Checkpoint.decodeHead([UInt8](try Data(contentsOf: headURL)))
    else { throw CheckpointTestError("the saved head does not parse") }
    #expect(!head.splits.isEmpty)
    let bad = Array(#"{"document":{},"isStarter":false}"#.utf8)
    for stream in head.splits.keys {
      let path = try #require(Checkpoint.streamPath(stream))
      try Data(bad).write(to: out.appendingPathComponent(path))
      head.splits[stream]?.digest = Checkpoint.digest(bad)
    }
    try Data(head.encodedHead()).write(to: headURL)
    // A new split: the incremental fold loads every split.
    try session.harness.makeUpperBody(name: "After")
    let report = try Rebuild.run(journal: session.journal, output: out)
    #expect(report.mode == .full)
    #expect(report.checkpointIgnoredBecause == "a checkpoint stream file is unreadable")
    try expectTree(out, equals: try expectedTree(session.journal))
    #expect(try Rebuild.run(journal: session.journal, output: out).mode == .incremental)
  }
}

struct CheckpointTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The checkpoint's head and index pages: round trips and refusals.
@Suite struct CheckpointHeadTests {
  static let digest = String(repeating: "ab", count: 32)

  static func head() -> Checkpoint {
    var head = Checkpoint()
    head.position = 12
    head.lastID = "01JLAST"
    head.now = Date(timeIntervalSinceReferenceDate: 1.25)
    head.renderedNow = Date(timeIntervalSinceReferenceDate: 2.5)
    head.eventCount = 12
    head.anomalyCount = 1
    head.manifestDigest = digest
    head.quarantined = ["workout:Q"]
    head.splits = ["split:S": Checkpoint.StreamEntry(digest: digest, expiry: nil)]
    head.expiring = ["workout:W": Date(timeIntervalSinceReferenceDate: 3)]
    head.pages = ["0": digest, "f": digest]
    return head
  }

  @Test func aHeadRoundTrips() throws {
    let head = Self.head()
    guard case .success(let back) = Checkpoint.decodeHead(head.encodedHead()) else {
      throw CheckpointTestError("the head does not parse")
    }
    #expect(back == head)
  }

  @Test func aHeadWithAnUnknownOrShortLineIsRefused() throws {
    for line in ["page 0", "page 0 a b", "bucket 00 \(Self.digest)", "position"] {
      var text = String(decoding: Self.head().encodedHead(), as: UTF8.self)
      text = String(text[..<(try #require(text.range(of: "checksum ")).lowerBound)])
      text += line + "\n"
      let bytes = Array(text.utf8) + Array("checksum \(Checkpoint.digest(Array(text.utf8)))\n".utf8)
      #expect(Checkpoint.decodeHead(bytes) == .failure("the checkpoint is malformed"), "\(line)")
    }
  }

  /// The head ends with the XXH64 of the lines before it; a head of format 3, which ended
  /// with their SHA-256, is refused as another format.
  @Test func theHeadsChecksumIsXXH64AndAnOlderFormatIsSaidToBeOne() throws {
    let bytes = Self.head().encodedHead()
    let text = String(decoding: bytes, as: UTF8.self)
    let checksum = try #require(text.range(of: "checksum "))
    let body = Array(text[..<checksum.lowerBound].utf8)
    #expect(text[checksum.upperBound...] == "\(XXH64.hex(body))\n")

    let older = text[..<checksum.lowerBound].replacingOccurrences(
      of: "workout-journal-checkpoint 4\n",
      with: "workout-journal-checkpoint 3\n"
    )
    let olderBytes =
      Array(older.utf8) + Array("checksum \(SHA256Digest.hex(Array(older.utf8)))\n".utf8)
    #expect(Checkpoint.decodeHead(olderBytes) == .failure("the checkpoint has another format"))
    // Damage is still said to be damage.
    var damaged = bytes
    damaged[damaged.count - 5] ^= 1
    #expect(
      Checkpoint.decodeHead(damaged) == .failure("the checkpoint is corrupt (checksum mismatch)")
    )
  }

  /// A bucket is `stream digest expiry` lines sorted by stream, the expiry the hex of its
  /// date's bits without leading zeros (`-` for none); it reads back exactly.
  @Test func aBucketIsItsDocumentedFormAndRoundTrips() {
    let dates: [Date?] = [
      nil, Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: -0.0),
      Date(timeIntervalSinceReferenceDate: 1.5), Date(timeIntervalSinceReferenceDate: -2),
      Date(timeIntervalSinceReferenceDate: 789_000_000.123_456_7),
      Date(timeIntervalSinceReferenceDate: Double(bitPattern: 1)),
      Date(timeIntervalSinceReferenceDate: Double(bitPattern: 0x10)),
    ]
    var entries: [String: Checkpoint.StreamEntry] = [:]
    for (index, date) in dates.enumerated() {
      entries["workout:\(index * 7 % 5)\(index)"] = Checkpoint.StreamEntry(
        digest: XXH64.hex([UInt8(index)]),
        expiry: date
      )
    }
    let expected = entries.keys.sorted().map { stream in
      let entry = entries[stream]!
      let expiry = entry.expiry.map {
        String($0.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
      }
      return "\(stream) \(entry.digest) \(expiry ?? "-")\n"
    }.joined()
    let bytes = Checkpoint.encodeBucket(entries)
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
    let back = Checkpoint.decodeBucket(bytes)
    #expect(back == entries)
    // Bit for bit: `==` on dates would take -0.0 for 0.0.
    for (stream, entry) in entries {
      let bits = back?[stream]?.expiry?.timeIntervalSinceReferenceDate.bitPattern
      #expect(bits == entry.expiry?.timeIntervalSinceReferenceDate.bitPattern, "\(stream)")
    }
    for malformed in [
      "workout:a d", "workout:a d - x", "workout:a d 12345678901234567", "workout:a d +1",
      "workout:a d 1F", "workout:a d ", "workout:a d --",
    ] {
      #expect(Checkpoint.decodeBucket(Array((malformed + "\n").utf8)) == nil, "\(malformed)")
    }
    #expect(Checkpoint.decodeBucket([]) == [:])
  }

  @Test func aPageRoundTripsAndMalformedPagesAreRefused() {
    let page = ["0a": Self.digest, "0b": Self.digest]
    let bytes = Checkpoint.encodePage(page)
    #expect(String(decoding: bytes, as: UTF8.self) == "0a \(Self.digest)\n0b \(Self.digest)\n")
    #expect(Checkpoint.decodePage(bytes) == page)
    #expect(Checkpoint.decodePage(Array("0a\n".utf8)) == nil)
    #expect(Checkpoint.decodePage(Array("0a b c\n".utf8)) == nil)
    #expect(Checkpoint.page(of: "0a") == "0")
    #expect(Checkpoint.pagePath("0") == ".journal-checkpoint/index/page-0")
  }
}
