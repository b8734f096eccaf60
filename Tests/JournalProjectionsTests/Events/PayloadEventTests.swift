import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore
@testable import JournalProjections

/// The one-pass reading of payloads in the writer's spelling against the general decoder.
@Suite struct PayloadEventTests {
  /// What a reading gives, comparable.
  struct Reading: Equatable, CustomStringConvertible {
    var event: JournalEvent
    var at: Int64?
    var action: String?

    init(_ decoded: PayloadEvent) {
      (event, at, action) = (decoded.event, decoded.at, decoded.action)
    }

    var description: String { "\(event) at \(at.map(String.init) ?? "-") \(action ?? "-")" }
  }

  @Test func everyCommonPayloadTheSampleWritesIsReadInOnePass() throws {
    let sample = try GeneratedSample.shared.get()
    var read = 0
    // Shared by every payload, as by the events of a run when a journal is read.
    var strings = RecentStrings()
    let current = JournalEvent.currentVersions
    for record in sample.records
    where JournalEvent.onePassTypes.contains(record.type) && current[record.type] == record.version
    {
      let payload = record.storedPayload
      let onePass = PayloadEvent(writtenSpelling: record.type, payload: payload, strings: &strings)
      #expect(onePass != nil, "\(record.location) was left to the general decoder")
      let general = try PayloadEvent(type: record.type, reading: payload)
      #expect(onePass.map(Reading.init) == Reading(general), "\(record.location)")
      read += 1
    }
    #expect(read > 1_000)
  }

  /// Seeded payloads in the writer's spelling and its near misses agree.
  ///
  /// The near misses: escapes, whitespace, other number forms, nulls, unknown, repeated or
  /// missing members, metadata. Wherever the one-pass reading gives an event, the general
  /// decoder gives the same; both sides are taken often.
  @Test func seededSpellingsReadAsTheGeneralDecoderReadsThem() throws {
    var random = SplitMix64(seed: 0x5EED_0F_0E)
    var (onePass, general, refused) = (0, 0, 0)
    var types = JournalEvent.onePassTypes
    types.append(JournalEvent.TypeName.workoutEnded)
    var strings = RecentStrings()
    for _ in 0..<6_000 {
      let type = types[Int(random.next() % UInt64(types.count))]
      let text = Self.payloadText(for: type, using: &random)
      guard let payload = try? JSONPayload(checking: Array(text.utf8)) else { continue }
      let expected = Result { () throws(PayloadError) in
        Reading(try PayloadEvent(type: type, reading: payload))
      }
      if let read = PayloadEvent(writtenSpelling: type, payload: payload, strings: &strings) {
        #expect(Result.success(Reading(read)) == expected, "\(type) \(text)")
        onePass += 1
      } else if case .success = expected {
        general += 1
      } else {
        refused += 1
      }
      // The public decoder gives what the general decoder gives, from bytes and from a value.
      let value = try JSONValue.parse(Array(text.utf8))
      let fromBytes = Result { () throws(PayloadError) in
        try JournalEvent(type: type, payload: payload)
      }
      let fromValue = Result { () throws(PayloadError) in
        try JournalEvent(type: type, payload: value)
      }
      #expect(fromBytes == expected.map(\.event), "\(type) \(text)")
      #expect(fromValue == fromBytes, "\(type) \(text)")
    }
    #expect(onePass > 500)
    #expect(general > 500)
    #expect(refused > 500)
  }

  /// The one-pass reading checks what it reads.
  ///
  /// Given bytes that were never checked (a read that trusts payloads, `PayloadTrust`), it
  /// gives an event only for JSON, and then the event the general decoder gives. Seeded
  /// payloads and near misses, damaged byte by byte.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func theOnePassReadingAcceptsOnlyJSON(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let types = JournalEvent.onePassTypes
    let alphabet = Array(#"{}[]",:0123456789.-+eE nulltruefalse\"#.utf8) + [0x09, 0x00, 0x1F, 0xC3]
    var strings = RecentStrings()
    var (accepted, refused) = (0, 0)
    for _ in 0..<6_000 {
      let type = types[Int(random.next() % UInt64(types.count))]
      var bytes = Array(Self.payloadText(for: type, using: &random).utf8)
      for _ in 0..<(random.next() % 3) { bytes.damageOneByte(from: alphabet, using: &random) }
      let unchecked = JSONPayload(checkedBytes: bytes)
      guard let read = PayloadEvent(writtenSpelling: type, payload: unchecked, strings: &strings)
      else {
        refused += 1
        continue
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let checked = try #require(try? JSONPayload(checking: bytes), "\(type) \(text)")
      #expect(Reading(read) == Reading(try PayloadEvent(type: type, reading: checked)), "\(text)")
      accepted += 1
    }
    #expect(accepted > 1_000)
    #expect(refused > 1_000)
  }

  /// A payload for `type`: mostly its own members with values of the form the writer gives
  /// them, sometimes without one, with another value, with metadata or with another member.
  static func payloadText(for type: String, using random: inout SplitMix64) -> String {
    typealias T = JournalEvent.TypeName
    let good: [String: [String]] = [
      "logID": [#""00AH2JBTZGE5B23WDH0T2BE1TB""#, #""L""#],
      "set": [#""00AH2KTSX8HHGGZNVC46QJWSN5""#],
      "reps": ["8", "0", "12"],
      "seconds": ["71", "5"],
      "weight": ["62.5", "110", "0", "-2.5", "1000000"],
      "events": [#"["00AH2KTSX8HHGGZNVC46QJWSN5"]"#, "[]", #"["A","B"]"#],
      "reason": [#""undo""#, #""redo""#],
      "at": ["1700000000123"],
      "action": [#""00AH2KTSX8HHGGZNVC46QJWSN5""#],
      "timeZone": [#""Europe/Berlin""#],
      "splitID": [#""0096B1Y580CDKZZ7153MRM4E9A""#],
      "splitName": [#""Legs""#],
      "restSeconds": ["120"],
      "autoAdvance": ["true", "false"],
      "targetHeartRate": ["140"],
      "logs": [
        "[]",
        #"[{"durationSeconds":0,"libraryName":"Squat","loadType":1,"logID":"L1","name":"Squat","#
          + #""order":0,"reps":5,"sets":5,"weight":112.5}]"#,
        #"[{"loadType":2,"logID":"L1","name":"Plank","order":0,"reps":1,"sets":3,"weight":0},"#
          + #"{"logID":"L2","loadType":1,"machineSettings":[{"name":"Seat","value":"4"}],"#
          + #""name":"Leg Press","notes":"slow","order":1,"reps":12,"sets":3,"weight":185}]"#,
        #"[{"loadType":1,"logID":"L1","name":"Row","order":0,"reps":8,"sets":4,"weight":null}]"#,
        #"[{"loadType":7,"logID":"L1","name":"Row","order":0,"reps":8,"sets":4,"weight":60}]"#,
        #"[{"loadType":1,"logID":"L1","name":"Row","order":0,"reps":8,"weight":60}]"#,
        #"[{"loadType":1,"logID":"L1","name":"Row","order":0,"reps":8,"sets":4,"weight":60,"#
          + #""machineSettings":[{"name":"Seat"}]}]"#,
        #"[{"loadType":1,"logID":"L1","name":"R\u00f6w","order":0,"reps":8,"sets":4,"weight":6,"#
          + #""extra":1}]"#,
        #"[{"loadType":1,"logID":"L1","name":"Row","order":0.5,"reps":8,"sets":4,"weight":6}]"#,
      ],
      "source": [#""watch""#, #""phoneEstimate""#, #""scale""#],
      "activeEnergyKcal": ["374", "107.5"],
      "avgHeartRate": ["107"],
      "maxHeartRate": ["180"],
      "minHeartRate": ["79"],
      "totalVolume": ["5120.5"],
      "hrZoneSeconds": ["[791,335,590]", "[]", "[1,null]", "[1,true]"],
      "healthKitWorkoutUUID": [#""00000000-0000-4000-8000-000000000000""#],
    ]
    let (required, optional): ([String], [String]) =
      switch type {
      case T.setCompleted: (["logID"], ["reps", "seconds", "weight"])
      case T.setAdjusted: (["logID", "set"], ["reps", "seconds", "weight"])
      case T.eventsReverted: (["events", "reason"], [])
      case T.workoutStarted:
        (
          ["timeZone", "logs"],
          ["splitID", "splitName", "restSeconds", "autoAdvance", "targetHeartRate"]
        )
      case T.metricsRecorded:
        (
          ["source"],
          [
            "activeEnergyKcal", "avgHeartRate", "maxHeartRate", "minHeartRate", "totalVolume",
            "hrZoneSeconds", "healthKitWorkoutUUID",
          ]
        )
      default: (["logID"], [])
      }
    let otherKeys = ["cursorOnly", "extra", #"log\u0049D"#, "notes", "actuals", "reps", "set"]
    let anyValues = [
      #""L\u0041""#, #""Zürich""#, #""""#, "-3", "12.0", "1e2", "2000000", "-1e7", "0.1",
      "9223372036854775807", "9223372036854775808", "1e400", "null", "true", "false", "[]",
      "[1]", #"["a",2]"#, "{}", #"{"a":1}"#, #""tab\t""#,
    ]
    func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    func pick(_ items: [String]) -> String { items[Int(random.next() % UInt64(items.count))] }
    var members: [String] = []
    func add(_ key: String, goodChance: UInt64) {
      var value = chance(goodChance) ? pick(good[key] ?? anyValues) : pick(anyValues)
      if key == "logs", chance(60) { value = logsText(using: &random) }
      members.append("\"\(key)\":\(value)")
    }
    for key in required where chance(92) { add(key, goodChance: 90) }
    for key in optional where chance(40) { add(key, goodChance: 80) }
    for key in ["at", "action"] where chance(10) { add(key, goodChance: 80) }
    if chance(12) { add(pick(otherKeys), goodChance: 0) }
    // The writer sorts the members; reading must not depend on it.
    if chance(50) { members.sort() } else { members.shuffle(using: &random) }
    let separator = chance(10) ? ", " : ","
    let text = "{" + members.joined(separator: separator) + "}"
    return chance(5) ? text.replacingOccurrences(of: ":", with: " : ") : text
  }

  /// A workout start's `logs`: one to three exercises, each with its members mostly in the
  /// writer's (sorted) order, sometimes shuffled, without one, with one twice, with a wrong
  /// value or another member.
  static func logsText(using random: inout SplitMix64) -> String {
    func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    func pick(_ items: [String]) -> String { items[Int(random.next() % UInt64(items.count))] }
    let members: [(key: String, required: Bool, good: [String], bad: [String])] = [
      ("durationSeconds", false, ["0", "65"], ["-1.5", #""0""#]),
      ("libraryName", false, [#""Squat""#, #""Row""#], ["1", "null"]),
      ("loadType", true, ["1", "2"], ["7", "1.5"]),
      ("logID", true, [#""00AH2JBTZGE5B23WDH0T2BE1TB""#, #""L2""#], ["2", "null"]),
      ("machineSettings", false, [#"[{"name":"Seat","value":"4"}]"#, "[]"], [#"[{"name":"S"}]"#]),
      ("name", true, [#""Squat""#, #""Leg Press""#, #""R\u00f6w""#], ["true"]),
      ("notes", false, [#""slow""#], ["3"]),
      ("order", true, ["0", "3"], ["0.5", #""1""#]),
      ("reps", true, ["5", "0"], ["-0.5", "null"]),
      ("sets", true, ["3", "5"], ["1e400"]),
      ("weight", true, ["112.5", "0", "null", "60"], [#""60""#, "true"]),
    ]
    var plans: [String] = []
    for _ in 0...(random.next() % 3) {
      var written: [String] = []
      for member in members where member.required ? chance(97) : chance(40) {
        let value = chance(95) ? pick(member.good) : pick(member.bad)
        written.append("\"\(member.key)\":\(value)")
        if chance(6) { written.append("\"\(member.key)\":\(pick(member.good))") }
      }
      if chance(3) { written.append(#""extra":1"#) }
      if chance(15) { written.shuffle(using: &random) }
      plans.append("{" + written.joined(separator: ",") + "}")
    }
    return "[" + plans.joined(separator: ",") + "]"
  }
}
