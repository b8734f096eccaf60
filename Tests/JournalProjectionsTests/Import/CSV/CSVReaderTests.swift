import Foundation
import JournalCore
import Testing

@testable import JournalProjections

@Suite struct CSVReaderTests {
  func read(_ text: String, separator: Character = ",") throws -> [CSVRecord] {
    try CSVReader.records(Data(text.utf8), separator: separator.asciiValue ?? 0)
  }

  @Test func quotesSeparatorsAndEmbeddedLineBreaks() throws {
    let records = try read("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\n1,,3")
    #expect(
      records == [
        CSVRecord(line: 1, fields: ["a", "b", "c"]),
        CSVRecord(line: 2, fields: ["x, y", "say \"hi\"", "two\r\nlines"]),
        CSVRecord(line: 4, fields: ["1", "", "3"]),
      ]
    )
  }

  @Test func byteOrderMarkLoneCRAndEmptyLines() throws {
    let data = Data([0xEF, 0xBB, 0xBF] + Array("h1;h2\r\r\n\"a\";\"b\"\r".utf8))
    let records = try CSVReader.records(data, separator: UInt8(ascii: ";"))
    #expect(
      records == [
        CSVRecord(line: 1, fields: ["h1", "h2"]), CSVRecord(line: 3, fields: ["a", "b"]),
      ]
    )
  }

  @Test func trailingSeparatorAndQuotedEmptyFieldAreFields() throws {
    #expect(
      try read("a,\n\"\"\n") == [
        CSVRecord(line: 1, fields: ["a", ""]), CSVRecord(line: 2, fields: [""]),
      ]
    )
  }

  @Test func aQuoteInsideAnUnquotedFieldIsText() throws {
    #expect(try read("5'10\",x") == [CSVRecord(line: 1, fields: ["5'10\"", "x"])])
  }

  @Test func malformedRecordsNameTheirLine() {
    #expect(throws: CSVError(line: 2, reason: "a quoted field is not closed")) {
      try read("a\n\"open\nstill open")
    }
    #expect(throws: CSVError(line: 1, reason: "text after the closing quote of a field")) {
      try read("\"a\"b,c")
    }
    #expect(throws: CSVError(line: 2, reason: "not UTF-8 text")) {
      try CSVReader.records(Data(Array("a\n".utf8) + [0xFF]), separator: UInt8(ascii: ","))
    }
  }

  @Test func separatorIsTheOneOutsideQuotes() {
    #expect(CSVReader.separator(ofHeader: Data("\"a,b\";\"c\";d\n1,2,3,4".utf8)) == 59)
    #expect(CSVReader.separator(ofHeader: Data("Date,Workout Name;x,y\n".utf8)) == 44)
    #expect(CSVReader.separator(ofHeader: Data("".utf8)) == 44)
  }

  /// Random tables written with random quoting, line ends and separators read back as the
  /// table (a reference model: the fields themselves).
  @Test(arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003] as [UInt64])
  func writtenTablesReadBack(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    // U+0301 and U+07A7 combine with the character before them, a quote or a separator too.
    let alphabet: [String] = [
      "a", "Z", "7", " ", ",", ";", "\"", "\n", "\r\n", "é", "💪", ".", "\u{0301}", "\u{07A7}",
    ]
    for _ in 0..<200 {
      let separator: Character = pick(2) == 0 ? "," : ";"
      let width = 1 + pick(5)
      var table: [[String]] = []
      for _ in 0..<(1 + pick(6)) {
        var row: [String] = []
        for _ in 0..<width {
          row.append((0..<pick(6)).map { _ in alphabet[pick(alphabet.count)] }.joined())
        }
        // A record of one empty field is an empty line, which holds no record.
        if width == 1, row[0].isEmpty { row[0] = "x" }
        table.append(row)
      }
      let lineEnd = pick(2) == 0 ? "\n" : "\r\n"
      var text = table.map { row in
        row.map { field -> String in
          let must = field.unicodeScalars.contains {
            $0 == separator.unicodeScalars.first || $0 == "\"" || $0 == "\n" || $0 == "\r"
          }
          guard must || pick(3) == 0 else { return field }
          var quoted = "\""
          for scalar in field.unicodeScalars {
            quoted.unicodeScalars.append(scalar)
            if scalar == "\"" { quoted.unicodeScalars.append("\"") }
          }
          return quoted + "\""
        }
        .joined(separator: String(separator))
      }
      .joined(separator: lineEnd)
      if pick(2) == 0 { text += lineEnd }
      let bom: [UInt8] = pick(4) == 0 ? [0xEF, 0xBB, 0xBF] : []
      let records = try CSVReader.records(
        Data(bom + Array(text.utf8)),
        separator: separator.asciiValue ?? 0
      )
      #expect(records.map(\.fields) == table, "\(text.debugDescription)")
      // Lines: each record starts after the line breaks of the records before it.
      var line = 1
      for (record, row) in zip(records, table) {
        #expect(record.line == line)
        line += 1 + row.reduce(0) { $0 + $1.count(where: { $0 == "\n" || $0 == "\r\n" }) }
      }
    }
  }

  /// Found by the `HistoryImport` fuzzer: a quote followed by a combining mark is one
  /// `Character` that is not `"`, but the reader reads the quote.
  @Test func aQuoteBeforeACombiningMarkIsStillQuoted() throws {
    let field = "a \"quoted\"\u{07A7}note"
    let written = CSVReader.line([field, "x"])
    #expect(written == "\"a \"\"quoted\"\"\u{07A7}note\",x")
    #expect(try read(written) == [CSVRecord(line: 1, fields: [field, "x"])])
    #expect(CSVReader.line([",\u{0301}"]) == "\",\u{0301}\"")
  }

  @Test func lineQuotesOnlyWhereItMust() {
    #expect(CSVReader.line(["a", "b,c", "d\"e", "f\ng"]) == "a,\"b,c\",\"d\"\"e\",\"f\ng\"")
    #expect(CSVReader.line(["a;b", "c"], separator: ";") == "\"a;b\";c")
  }
}
