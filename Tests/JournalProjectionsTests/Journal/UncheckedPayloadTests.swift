import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore
@testable import JournalProjections

/// A journal read from files leaves the payloads of the types it reads in the writer's
/// spelling unchecked and checks them by decoding them (`PayloadTrust`): whatever a payload
/// holds, the journal is the one a read that checks every payload gives.
@Suite struct UncheckedPayloadTests {
  /// A journal of one workout with sets on the phone, and on the tablet three sets whose
  /// second payload is `change` in place of `"reps":5}` (the line sealed again); when
  /// `olderFirst`, the tablet's first set is stored at version 1, which is upcast (the journal
  /// is then decoded in chunks).
  func makeJournal(_ change: String, olderFirst: Bool) throws -> URL {
    let url = try makeTemporaryDirectory("unchecked")
    let journal = try makeWorkoutJournal(at: url, reps: [5, 4])
    let options = DeviceWriter.Options(durability: .none)
    let set = try #require(journal.history.last)
    guard case .setCompleted(let completed) = set.event else {
      Issue.record("the last event is not a set")
      return url
    }
    let writer = try EventLog(at: url).openWriter(device: "tablet", options: options)
    let version = try #require(JournalEvent.currentVersions["set.completed"])
    try writer.append(
      (0..<3).map { index in
        olderFirst && index == 0
          ? NewEvent(
            stream: set.stream,
            type: "set.completed",
            version: 1,
            payload: ["logID": .string(completed.logID), "index": 2]
          )
          : NewEvent(
            stream: set.stream,
            type: "set.completed",
            version: version,
            payload: ["logID": .string(completed.logID), "reps": 5]
          )
      }
    )
    writer.close()
    let segment = url.appendingPathComponent("devices/tablet/000001.jsonl")
    var lines = try Data(contentsOf: segment).split(separator: 0x0A).map { Array($0) }
    let body = String(decoding: lines[1].dropLast(checksumSuffixLength), as: UTF8.self)
    #expect(body.contains(#""reps":5}"#))
    let changed = Array(body.replacingOccurrences(of: #""reps":5}"#, with: change).utf8)
    lines[1] =
      changed + checksumPrefix + Array(hex8(CRC32C.checksum(changed)).utf8)
      + Array(#""}"#.utf8)
    try Data(lines.flatMap { $0 + [0x0A] }).write(to: segment)
    return url
  }

  /// What the journal read from files gives, against a journal of the events a checked read
  /// gives.
  func expectSameAsChecked(_ url: URL) throws -> Journal {
    let store = try FileEventStore(url: url)
    let journal = try Journal(store: store, newID: { "" })
    let checked = try store.readHistory()
    let memory = try Journal(store: InMemoryEventStore(events: checked.events), newID: { "" })
    #expect(journal.history == memory.history)
    #expect(journal.quarantined == memory.quarantined)
    #expect(journal.notices == checked.notices)
    #expect(journal.state().workouts == memory.state().workouts)
    return journal
  }

  /// Not JSON, though spelled as the writer spells: the tablet's history stops at the line,
  /// as a checked read stops it.
  @Test(arguments: [#""reps":5,}"#, #""reps":05}"#, #""reps":5}}"#, #""reps":5"#], [false, true])
  func aPayloadThatIsNotJSONStopsItsDevice(_ change: String, olderFirst: Bool) throws {
    let journal = try expectSameAsChecked(try makeJournal(change, olderFirst: olderFirst))
    #expect(journal.notices.contains { $0.hasPrefix("devices/tablet/000001.jsonl:2: ") })
    #expect(journal.history.filter { $0.device == "tablet" }.count == 1)
  }

  /// JSON in another spelling: decoded by the general reader after a checked read.
  @Test(
    arguments: [#""reps": 5}"#, #""reps":5.0}"#, #""reps":5 }"#, #""r\u0065ps":5}"#],
    [false, true]
  )
  func aPayloadInAnotherSpellingIsReadAfterAllChecked(_ change: String, olderFirst: Bool) throws {
    let journal = try expectSameAsChecked(try makeJournal(change, olderFirst: olderFirst))
    #expect(journal.history.filter { $0.device == "tablet" }.count == 3)
  }
}
