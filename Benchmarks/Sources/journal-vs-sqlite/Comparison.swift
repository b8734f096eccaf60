import CSQLite
import Foundation
import JournalCore
import JournalProjections

/// One run: the events, the scratch folder, and the journal measured against SQLite on them.
final class Comparison {
  let options: Options
  let report = Report(quiet: false)
  private let scratchFolder: ScratchFolder

  init(options: Options) throws {
    self.options = options
    scratchFolder = try ScratchFolder(named: options.directory, prefix: "journal-vs-sqlite")
  }

  var scratch: URL { scratchFolder.url }

  func cleanUp() { scratchFolder.remove() }

  static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

  var machine: [String: String] {
    machineDescription([
      "repetitions": String(options.repetitions), "sqlite": Self.sqliteVersion,
    ])
  }

  func run() throws {
    #if DEBUG
    report.log("warning: a debug build; measure with -c release")
    #endif
    let journal = try options.journal ?? sampleJournal()
    let records = try Self.records(of: journal)
    guard !records.isEmpty else { throw SQLiteError("\(journal.path) holds no event") }
    report.log(
      "journal-vs-sqlite: \(records.count) events of \(journal.path), "
        + "\(options.repetitions) repetitions, SQLite \(Self.sqliteVersion), "
        + "scratch \(scratch.path)"
    )
    try appendScenarios(records)
    try readScenario(journal: journal, records: records)
  }

  /// A copy of the repository's sample journal (`Journal/`, what `journal sample` writes) in
  /// the scratch folder.
  private func sampleJournal() throws -> URL {
    let url = try freshFolder("sample").appendingPathComponent("Journal")
    let repository = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    try FileManager.default.copyItem(at: repository.appendingPathComponent("Journal"), to: url)
    report.log("copied the sample journal: \(try Self.records(of: url).count) events")
    return url
  }

  /// Every record of the journal at `url` in merge order; refuses a journal with errors.
  static func records(of url: URL) throws -> [EventRecord] {
    let history = try EventLog(at: url).readHistory()
    if let error = history.errors.first { throw error }
    return history.records
  }

  // MARK: - Appends

  /// Durable appends, one event per transaction and 64 per transaction, of the journal's
  /// events in turn (each with a fresh id), on the same disk, interleaved.
  private func appendScenarios(_ records: [EventRecord]) throws {
    let folder = try freshFolder("append")
    let log = try EventLog.create(at: folder.appendingPathComponent("journal"))
    let writer = try log.openWriter(device: "phone")
    defer { writer.close() }
    let table = try SQLiteEventTable(path: folder.appendingPathComponent("events.sqlite").path)
    let single = options.appends
    let batch = 64
    // Several batches per repetition: one flush alone is at the mercy of the disk's mood.
    let batches = 4

    // Each body appends the same events in the same order: body `n`'s events come from its own
    // cursor over the records. Ids are made outside the timed part.
    var ids = ULIDGenerator()
    var cursors = [0, 0, 0, 0]
    func events(_ count: Int, body: Int) -> [NewEvent] {
      let milliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
      defer { cursors[body] += count }
      return (cursors[body]..<cursors[body] + count).map { index in
        let record = records[index % records.count]
        return NewEvent(
          stream: record.stream,
          type: record.type,
          version: record.version,
          payload: record.payload,
          id: ids.next(milliseconds: milliseconds)
        )
      }
    }
    let journalOne = {
      let events = events(single, body: 0)
      return try time { for event in events { try writer.append(event) } } / Double(single)
    }
    let sqliteOne = {
      let events = events(single, body: 1)
      return try time {
        for event in events { try table.append(CollectionOfOne(event), device: "phone") }
      } / Double(single)
    }
    func groups(body: Int) -> [[NewEvent]] {
      (0..<batches).map { _ in events(batch, body: body) }
    }
    let journalBatch = {
      let groups = groups(body: 2)
      return try time { for group in groups { try writer.append(group) } }
        / Double(batch * batches)
    }
    let sqliteBatch = {
      let groups = groups(body: 3)
      return try time { for group in groups { try table.append(group, device: "phone") } }
        / Double(batch * batches)
    }
    let samples = try interleave(
      repetitions: options.repetitions,
      [journalOne, sqliteOne, journalBatch, sqliteBatch]
    )
    report.add(
      Result(
        scenario: "B9",
        name: "sqlite.append.durable.one",
        subject: "DeviceWriter.append",
        baseline: "SQLite INSERT+COMMIT",
        ratios: ratios(samples[0], samples[1]),
        subjectSeconds: samples[0],
        baselineSeconds: samples[1],
        budget: .atMost(1),
        notes: [
          "\(single) appends/rep",
          "journal \(formatCount(1 / samples[0].median)) appends/s",
          "SQLite \(formatCount(1 / samples[1].median)) appends/s",
        ]
      )
    )
    report.add(
      Result(
        scenario: "B9",
        name: "sqlite.append.durable.batch64",
        subject: "per event, 64/batch",
        baseline: "SQLite per event, 64 INSERTs/COMMIT",
        ratios: ratios(samples[2], samples[3]),
        subjectSeconds: samples[2],
        baselineSeconds: samples[3],
        budget: .atMost(1),
        notes: [
          "\(batches) batches/rep",
          "journal \(formatCount(1 / samples[2].median)) events/s",
          "SQLite \(formatCount(1 / samples[3].median)) events/s",
        ]
      )
    )
  }

  // MARK: - Reading back

  /// Everything read back: the journal's records against every row of a database holding the
  /// same events, each side from the page cache.
  private func readScenario(journal: URL, records: [EventRecord]) throws {
    let path = try freshFolder("read").appendingPathComponent("events.sqlite").path
    try SQLiteEventTable(path: path).copy(records)
    try Self.checkSame(records, try SQLiteEventTable.readAll(path: path))

    let journalRead = {
      try time {
        let history = try EventLog(at: journal).readHistory()
        withExtendedLifetime(history) {}
      }
    }
    let sqliteRead = {
      try time {
        let rows = try SQLiteEventTable.readAll(path: path)
        withExtendedLifetime(rows) {}
      }
    }
    let samples = try interleave(repetitions: options.repetitions, [journalRead, sqliteRead])
    let count = Double(records.count)
    report.add(
      Result(
        scenario: "B9",
        name: "sqlite.readAll",
        size: records.count,
        subject: "EventLog.readHistory",
        baseline: "SQLite SELECT all + parse",
        ratios: ratios(samples[0], samples[1]),
        subjectSeconds: samples[0],
        baselineSeconds: samples[1],
        budget: .none,
        notes: [
          "journal \(formatCount(count / samples[0].median)) events/s",
          "SQLite \(formatCount(count / samples[1].median)) events/s",
          "journal \(formatCount(Double(try Self.bytes(in: journal)))) B on disk",
          "SQLite \(formatCount(Double(try Self.bytes(in: URL(fileURLWithPath: path))))) B",
        ]
      )
    )
  }

  /// Refuses to compare unless the database gave back every record, in order, with the same
  /// envelope and payload.
  static func checkSame(_ records: [EventRecord], _ rows: [SQLiteEventTable.Row]) throws {
    guard records.count == rows.count else {
      throw SQLiteError("the database holds \(rows.count) rows for \(records.count) records")
    }
    for (index, (record, row)) in zip(records, rows).enumerated() {
      guard
        record.id == row.id, record.device == row.device, record.time == row.time,
        record.stream == row.stream, record.type == row.type, record.version == row.version,
        record.payload == row.payload
      else {
        throw SQLiteError("row \(index + 1) differs from event '\(record.id)'")
      }
    }
  }

  /// The bytes of the file at `url`, or of every file under it.
  static func bytes(in url: URL) throws -> Int {
    let keys: Set<URLResourceKey> = [.fileSizeKey, .isRegularFileKey]
    let values = try url.resourceValues(forKeys: keys)
    if values.isRegularFile == true { return values.fileSize ?? 0 }
    var total = 0
    let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: Array(keys))
    while let file = files?.nextObject() as? URL {
      let values = try file.resourceValues(forKeys: keys)
      if values.isRegularFile == true { total += values.fileSize ?? 0 }
    }
    return total
  }

  /// A fresh, empty folder in the scratch folder.
  func freshFolder(_ name: String) throws -> URL {
    let url = scratch.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
