import Foundation
import JournalCore

/// The journal's events kept the way an app would keep them in SQLite: one row per event in a
/// database in WAL mode with `synchronous=FULL`, so that a committed transaction is on the
/// drive.
///
/// Each row holds the envelope's fields in columns and the payload as its compact JSON text.
/// The event id is `UNIQUE`, the database's way of refusing a redelivered event (the journal
/// skips duplicates when it reads).
final class SQLiteEventTable {
  let database: SQLiteDatabase
  private let insert: SQLiteStatement
  private let begin: SQLiteStatement
  private let commit: SQLiteStatement

  static let schema = """
    CREATE TABLE IF NOT EXISTS events (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      device TEXT NOT NULL,
      ms INTEGER NOT NULL,
      counter INTEGER NOT NULL,
      stream TEXT NOT NULL,
      type TEXT NOT NULL,
      version INTEGER NOT NULL,
      payload TEXT NOT NULL
    );
    """

  /// Opens (creating) the database at `path` in WAL mode with `synchronous=FULL`.
  init(path: String) throws {
    database = try SQLiteDatabase(path: path)
    let mode = try database.text("PRAGMA journal_mode=WAL")
    guard mode == "wal" else { throw SQLiteError("journal_mode is \(mode ?? "unknown"), not wal") }
    try database.execute("PRAGMA synchronous=FULL")
    try database.execute(Self.schema)
    insert = try database.prepare(
      "INSERT INTO events (id, device, ms, counter, stream, type, version, payload) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    )
    begin = try database.prepare("BEGIN IMMEDIATE")
    commit = try database.prepare("COMMIT")
  }

  /// Appends `events` of `device` in one transaction, stamped with the wall clock as a writer
  /// stamps them; returns when the commit is durable.
  ///
  /// Each payload is serialized here, as the journal's writer serializes it.
  func append(_ events: some Collection<NewEvent>, device: String) throws {
    let milliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    try run(begin)
    do {
      for event in events {
        guard let id = event.id else { throw SQLiteError("an event without an id") }
        try insert.bind(1, id.description)
        try insert.bind(2, device)
        try insert.bind(3, milliseconds)
        try insert.bind(4, 0)
        try insert.bind(5, event.stream)
        try insert.bind(6, event.type)
        try insert.bind(7, Int64(event.version))
        try insert.bind(8, try event.payload.serialized())
        try run(insert)
      }
    } catch {
      try? database.execute("ROLLBACK")
      throw error
    }
    try run(commit)
  }

  /// Copies `records` in one transaction, keeping their devices and clocks, then moves the
  /// write-ahead log into the database file.
  func copy(_ records: [EventRecord]) throws {
    try run(begin)
    for record in records {
      try insert.bind(1, record.id.description)
      try insert.bind(2, record.device)
      try insert.bind(3, record.time.milliseconds)
      try insert.bind(4, Int64(record.time.counter))
      try insert.bind(5, record.stream)
      try insert.bind(6, record.type)
      try insert.bind(7, Int64(record.version))
      try insert.bind(8, try record.payload.serialized())
      try run(insert)
    }
    try run(commit)
    try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
  }

  private func run(_ statement: SQLiteStatement) throws {
    defer { statement.reset() }
    try statement.step()
  }

  /// One row read back: the envelope decoded as ``EventRecord`` holds it.
  struct Row {
    var id: ULID
    var device: String
    var time: HybridTime
    var stream: String
    var type: String
    var version: Int
    var payload: JSONValue
  }

  /// Every row of the database at `path` in append order, on a fresh read-only connection:
  /// each id parsed as a ULID, each payload parsed by the journal's JSON parser.
  static func readAll(path: String) throws -> [Row] {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    let select = try database.prepare(
      "SELECT id, device, ms, counter, stream, type, version, payload FROM events ORDER BY seq"
    )
    var rows: [Row] = []
    while try select.step() {
      guard let id = ULID(select.text(0)) else {
        throw SQLiteError("row \(rows.count + 1): the id is not a ULID")
      }
      rows.append(
        Row(
          id: id,
          device: select.text(1),
          time: HybridTime(
            milliseconds: select.int64(2),
            counter: UInt32(truncatingIfNeeded: select.int64(3))
          ),
          stream: select.text(4),
          type: select.text(5),
          version: Int(select.int64(6)),
          payload: try JSONValue.parse(select.bytes(7))
        )
      )
    }
    return rows
  }
}
