import CSQLite
import Foundation

/// A connection to an SQLite database: just what the benchmark needs.
final class SQLiteDatabase {
  private var handle: OpaquePointer?
  let path: String

  /// Opens (creating when `readOnly` is false) the database at `path`.
  init(path: String, readOnly: Bool = false) throws {
    self.path = path
    let flags =
      readOnly
      ? SQLITE_OPEN_READONLY
      : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    let status = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
    guard status == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(handle)
      throw SQLiteError("cannot open \(path): \(message)")
    }
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs one or more statements that return no rows.
  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "error"
      sqlite3_free(message)
      throw SQLiteError("\(sql): \(text)")
    }
  }

  /// The first column of the first row of `sql`, as text.
  func text(_ sql: String) throws -> String? {
    let statement = try prepare(sql)
    guard try statement.step() else { return nil }
    return statement.text(0)
  }

  /// Compiles `sql`.
  func prepare(_ sql: String) throws -> SQLiteStatement {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw SQLiteError("\(sql): \(errorMessage)")
    }
    return SQLiteStatement(statement, database: self)
  }

  var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// A compiled statement, finalized when released.
final class SQLiteStatement {
  private let statement: OpaquePointer
  private let database: SQLiteDatabase

  fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
    self.statement = statement
    self.database = database
  }

  deinit { sqlite3_finalize(statement) }

  /// Binds text (1-based `index`); SQLite copies the bytes.
  func bind(_ index: Int32, _ bytes: [UInt8]) throws {
    let status = bytes.withUnsafeBytes { buffer in
      sqlite3_bind_text(
        statement,
        index,
        buffer.baseAddress?.assumingMemoryBound(to: CChar.self),
        Int32(buffer.count),
        transient
      )
    }
    try check(status)
  }

  /// Binds text (1-based `index`).
  func bind(_ index: Int32, _ text: String) throws { try bind(index, Array(text.utf8)) }

  /// Binds an integer (1-based `index`).
  func bind(_ index: Int32, _ value: Int64) throws {
    try check(sqlite3_bind_int64(statement, index, value))
  }

  /// Runs the statement to its next row: true for a row, false when done.
  @discardableResult
  func step() throws -> Bool {
    switch sqlite3_step(statement) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw SQLiteError("step: \(database.errorMessage)")
    }
  }

  /// Makes the statement ready to run again with new bindings.
  func reset() { sqlite3_reset(statement) }

  /// The integer in column `index` (0-based) of the current row.
  func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

  /// The UTF-8 bytes of column `index` (0-based) of the current row, valid until the next step.
  func bytes(_ index: Int32) -> UnsafeRawBufferPointer {
    // The pointer first, then its length, as SQLite's documentation asks.
    guard let base = sqlite3_column_blob(statement, index) else {
      return UnsafeRawBufferPointer(start: nil, count: 0)
    }
    return UnsafeRawBufferPointer(start: base, count: Int(sqlite3_column_bytes(statement, index)))
  }

  /// The text in column `index` (0-based) of the current row.
  func text(_ index: Int32) -> String {
    String(decoding: bytes(index), as: UTF8.self)
  }

  private func check(_ status: Int32) throws {
    guard status == SQLITE_OK else { throw SQLiteError("bind: \(database.errorMessage)") }
  }
}

/// `SQLITE_TRANSIENT`, a C macro Swift does not import: SQLite copies what is bound.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

struct SQLiteError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
