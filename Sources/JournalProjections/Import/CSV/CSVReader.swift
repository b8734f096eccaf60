import Foundation

/// One record of a CSV file: its fields and the line it starts on.
struct CSVRecord: Sendable, Hashable {
  /// The 1-based line of the file the record starts on (a quoted field may span lines).
  var line: Int
  var fields: [String]
}

/// What makes a CSV file unreadable, with the line it was found on.
struct CSVError: Error, Sendable, Hashable, CustomStringConvertible {
  var line: Int
  var reason: String

  var description: String { "line \(line): \(reason)" }
}

/// A reader of RFC 4180 CSV, as the trackers export it.
///
/// - Fields are separated by `separator` (a comma or a semicolon); records end at LF, CRLF or
///   a lone CR, and the last record may end without one.
/// - A field in double quotes may hold separators, quotes (written twice) and line breaks,
///   which are kept as they are written.
/// - A UTF-8 byte order mark at the start is skipped; the file must be UTF-8.
/// - Empty lines are skipped (they hold no record).
///
/// A quote inside an unquoted field is taken as text, as every tracker's reader does; text
/// after a closing quote, or a quoted field still open at the end of the file, is an error.
enum CSVReader {
  /// The records of `data`.
  ///
  /// - Throws: ``CSVError`` naming the line of the first malformed record, or of bytes that
  ///   are not UTF-8.
  static func records(_ data: Data, separator: UInt8) throws(CSVError) -> [CSVRecord] {
    var bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    return try records(bytes: bytes, separator: separator)
  }

  /// The separator of a file whose first line is `header`: the one of `,` and `;` found
  /// outside quotes more often (a comma when neither is).
  static func separator(ofHeader data: Data) -> UInt8 {
    var commas = 0
    var semicolons = 0
    var quoted = false
    for byte in data {
      if byte == UInt8(ascii: "\"") {
        quoted.toggle()
      } else if !quoted {
        if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
        if byte == UInt8(ascii: ",") { commas += 1 }
        if byte == UInt8(ascii: ";") { semicolons += 1 }
      }
    }
    return semicolons > commas ? UInt8(ascii: ";") : UInt8(ascii: ",")
  }

  private static func records(bytes: [UInt8], separator: UInt8) throws(CSVError) -> [CSVRecord] {
    let quote = UInt8(ascii: "\"")
    let lf = UInt8(ascii: "\n")
    let cr = UInt8(ascii: "\r")
    var records: [CSVRecord] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var line = 1
    var recordLine = 1
    var index = 0
    let count = bytes.count
    // Whether the record under way has anything: a field, a separator or a quote.
    var started = false

    // The whole file is checked once; only a file that is not UTF-8 is checked field by
    // field, to name the line.
    let isUTF8 = String(validating: bytes, as: UTF8.self) != nil
    func text(_ field: [UInt8], line: Int) throws(CSVError) -> String {
      if isUTF8 { return String(decoding: field, as: UTF8.self) }
      guard let string = String(validating: field, as: UTF8.self) else {
        throw CSVError(line: line, reason: "not UTF-8 text")
      }
      return string
    }

    while index < count {
      let byte = bytes[index]
      if byte == quote, field.isEmpty {
        // A quoted field: up to the closing quote, with doubled quotes inside.
        started = true
        let openedOn = line
        index += 1
        var closed = false
        while index < count {
          let b = bytes[index]
          if b == quote {
            if index + 1 < count, bytes[index + 1] == quote {
              field.append(quote)
              index += 2
              continue
            }
            closed = true
            index += 1
            break
          }
          if b == lf || (b == cr && (index + 1 == count || bytes[index + 1] != lf)) { line += 1 }
          field.append(b)
          index += 1
        }
        guard closed else {
          throw CSVError(line: openedOn, reason: "a quoted field is not closed")
        }
        if index < count {
          let next = bytes[index]
          guard next == separator || next == lf || next == cr else {
            throw CSVError(line: line, reason: "text after the closing quote of a field")
          }
        }
        continue
      }
      if byte == separator {
        started = true
        fields.append(try text(field, line: line))
        field.removeAll(keepingCapacity: true)
        index += 1
        continue
      }
      if byte == lf || byte == cr {
        if started || !field.isEmpty {
          fields.append(try text(field, line: line))
          records.append(CSVRecord(line: recordLine, fields: fields))
        }
        fields.removeAll()
        field.removeAll(keepingCapacity: true)
        started = false
        index += byte == cr && index + 1 < count && bytes[index + 1] == lf ? 2 : 1
        line += 1
        recordLine = line
        continue
      }
      field.append(byte)
      index += 1
    }
    if started || !field.isEmpty {
      fields.append(try text(field, line: line))
      records.append(CSVRecord(line: recordLine, fields: fields))
    }
    return records
  }

  /// `fields` as one record of RFC 4180 CSV, quoting a field only where it must.
  ///
  /// Looked at scalar by scalar, as the reader reads bytes: a quote or a separator followed
  /// by a combining mark is one `Character`, and must still be quoted.
  static func line(_ fields: [String], separator: Unicode.Scalar = ",") -> String {
    fields.map { field in
      let scalars = field.unicodeScalars
      guard scalars.contains(where: { $0 == separator || $0 == "\"" || $0 == "\n" || $0 == "\r" })
      else { return field }
      var quoted = String.UnicodeScalarView()
      quoted.append("\"")
      for scalar in scalars {
        if scalar == "\"" { quoted.append("\"") }
        quoted.append(scalar)
      }
      quoted.append("\"")
      return String(quoted)
    }
    .joined(separator: String(separator))
  }
}
