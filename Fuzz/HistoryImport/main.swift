// libFuzzer entry point: bytes → CSV records → a Strong or Hevy export → events in a journal.
//
// The steps `journal import FILE.csv` takes, held to their rules on any input:
// - the CSV reader reads the input with either separator, or refuses it with a line; what it
//   reads, written again with quotes where needed, reads back as the same records;
// - an export that reads imports into an empty journal (in memory) without a fold anomaly,
//   every imported workout completed with as many sets as the report says;
// - importing the same bytes again appends nothing.

import Foundation
import JournalCore

@testable import JournalProjections

/// A journal's events in memory: enough of a store for the importer.
final class MemoryStore: EventStore, @unchecked Sendable {
  var events: [StoredEvent] = []

  func readHistory() throws -> (events: [StoredEvent], notices: [String]) { (events, []) }

  func append(
    _ batch: [EventToAppend],
    device: String,
    notBefore: (Int64, UInt32)?
  ) throws -> [StoredEvent] {
    var clock = notBefore ?? (1_800_000_000_000, 0)
    var appended: [StoredEvent] = []
    for event in batch {
      clock.1 += 1
      appended.append(
        StoredEvent(
          id: event.id,
          device: device,
          sequence: UInt64(events.count + appended.count + 1),
          milliseconds: clock.0,
          counter: clock.1,
          stream: event.stream,
          type: event.type,
          version: event.version,
          payload: event.payload,
          location: "memory:\(events.count + appended.count + 1)"
        )
      )
    }
    events += appended
    return appended
  }
}

/// Fresh ULIDs from a counter: the same run of ids for every input.
final class Counter: @unchecked Sendable {
  var generator = ULIDGenerator(random: SplitMix64(seed: 42))
  func next() -> String { generator.next(milliseconds: 1_800_000_000_000).description }
}

let now = Date(timeIntervalSince1970: 1_800_000_000)
let utc = TimeZone(secondsFromGMT: 0) ?? .current

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHistoryImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(UnsafeRawBufferPointer(start: data, count: size))
  for separator in [UInt8(ascii: ","), UInt8(ascii: ";")] {
    guard let records = try? CSVReader.records(bytes, separator: separator) else { continue }
    let text = records.map {
      CSVReader.line($0.fields, separator: Unicode.Scalar(separator))
    }
    .joined(separator: "\n")
    let again = (try? CSVReader.records(Data(text.utf8), separator: separator)) ?? []
    // A record of one empty field is written as an empty line, which holds no record.
    let expected = records.map(\.fields).filter { $0 != [""] }
    precondition(again.map(\.fields).filter { $0 != [""] } == expected, "CSV round trip")
  }
  let store = MemoryStore()
  let ids = Counter()
  guard let journal = try? Journal(store: store, newID: ids.next) else { return 0 }
  let importer = HistoryImporter(device: "fuzz", timeZone: utc)
  guard let report = try? importer.importFile(bytes, named: "fuzz.csv", into: journal, now: now)
  else { return 0 }
  let state = journal.state()
  precondition(state.anomalies.isEmpty, "an import folds without anomalies: \(state.anomalies)")
  for workout in report.imported {
    guard let folded = state.workouts[workout.id] else { preconditionFailure("not imported") }
    precondition(folded.document.status == .completed, "an imported workout is completed")
    let sets = folded.document.logs.reduce(0) { $0 + ($1.setEntries?.count ?? 0) }
    precondition(sets == workout.sets, "every set of the file, none invented")
  }
  let count = store.events.count
  _ = try? importer.importFile(bytes, named: "fuzz.csv", into: journal, now: now)
  precondition(store.events.count == count, "importing again appends nothing")
  return 0
}
