import Foundation
import JournalTestSupport
import Testing

/// `journal report` on the sample journal: the page is a golden file (and its copy in docs/),
/// its numbers are those of `audit`, `records` and `chart`, and its bytes depend on nothing
/// but the journal and the options.
@Suite struct ReportTests {
  static let docsCopy = SampleFreshnessTests.repository.appendingPathComponent(
    "docs/report/sample-report.html"
  )

  /// The sample's report, made in-process into a fresh folder.
  static func sampleReport(_ extra: [String] = []) throws -> (html: String, file: URL) {
    let folder = try makeTemporaryDirectory("report")
    let file = folder.appendingPathComponent("report.html")
    let result = try run(["report", "--out", file.path] + extra)
    #expect(result.status == 0, "\(result.err)")
    #expect(result.err.isEmpty, "\(result.err)")
    return (String(decoding: try Data(contentsOf: file), as: UTF8.self), file)
  }

  static func run(_ arguments: [String]) throws -> CLIResult {
    let cli = try CLIHarness()
    cli.environment["WORKOUT_JOURNAL"] = SampleReadsTests.journal.path
    return cli.run(arguments)
  }

  /// The JSON a read prints on the sample.
  static func json(_ arguments: String...) throws -> Any {
    let result = try run(arguments + ["--json"])
    #expect(result.status == 0, "\(arguments): \(result.err)")
    return try JSONSerialization.jsonObject(with: Data(result.out.utf8))
  }

  @Test func theSamplesReportIsGoldenAndCurrentInDocs() throws {
    let (html, file) = try Self.sampleReport()
    // The target's Golden/ (the folder it excludes), not one beside this file.
    let target = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
    expectGolden(
      Data(html.utf8),
      named: "sample-report.html",
      filePath: target.appendingPathComponent("Report.swift").path
    )
    let docs = try Data(contentsOf: Self.docsCopy)
    #expect(
      docs == Data(html.utf8),
      "docs/report/sample-report.html is stale: \(firstDifference(docs, Data(html.utf8))); run Scripts/update-report.sh"
    )
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
    // Self-contained: nothing is fetched and nothing runs.
    for outside in ["<script", "http://", "https://", "src=", "@import", "url("] {
      #expect(
        !html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains(outside),
        "\(outside)"
      )
    }
  }

  /// Every figure of the overview, the records and the progressions is what `audit`,
  /// `records` and `chart` say of the sample.
  @Test func itsNumbersAreThoseOfTheReads() throws {
    let (html, _) = try Self.sampleReport()
    let audit = try #require(try Self.json("audit") as? [String: Any])
    let totals = try #require(audit["totals"] as? [String: Any])
    let workouts = try #require(totals["workouts"] as? [[String: Any]])
    let sets = workouts.reduce(0) { $0 + ($1["sets"] as? Int ?? 0) }
    let volume = workouts.reduce(0.0) { $0 + ($1["volume"] as? Double ?? 0) }
    #expect(html.contains("<dt>Workouts</dt><dd>\(workouts.count)</dd>"))
    #expect(html.contains("<dt>Sets</dt><dd>\(sets)</dd>"))
    #expect(html.contains("<dt>Volume</dt><dd>\(Self.number(volume))</dd>"))

    let records = try #require(try Self.json("records") as? [[String: Any]])
    let exercises = try #require(totals["exercises"] as? [[String: Any]])
    #expect(Self.count("<article class=\"exercise\"", in: html) == exercises.count)
    for record in records {
      let name = try #require(record["exercise"] as? String)
      let article = try #require(Self.article(name, in: html), "\(name)")
      if let heaviest = record["heaviest"] as? [String: Any],
        let value = heaviest["value"] as? Double
      {
        #expect(
          article.contains("<td>Heaviest</td><td class=\"num\">\(Self.number(value))</td>"),
          "\(name)"
        )
      }
      if let session = record["bestSession"] as? [String: Any],
        let value = session["volume"] as? Double
      {
        #expect(
          article.contains("<td>Best session</td><td class=\"num\">\(Self.number(value))</td>"),
          "\(name)"
        )
      }
      #expect(
        article.contains("personal records from \(record["sets"] as? Int ?? -1) recorded sets")
      )
      let chart = try #require(try Self.json("chart", name) as? [String: Any])
      let points = try #require(chart["points"] as? [[String: Any]])
      let tops = points.compactMap { $0["topSetWeight"] as? Double }.map(Self.number)
      if tops.isEmpty {
        #expect(!article.contains("<svg"), "\(name)")
      } else {
        #expect(Self.count("<svg class=\"chart progression\"", in: article) == 1, "\(name)")
        #expect(Self.count("<circle class=\"top", in: article) == points.count, "\(name)")
        let cells = Self.firstNumericCells(in: article)
        #expect(cells == tops, "\(name)")
      }
    }
  }

  @Test func theBytesDependOnTheJournalOnly() throws {
    // The golden above is made in this process; the binary runs in another zone at another
    // wall-clock time, with a unit, and with a range that holds everything.
    let (html, _) = try Self.sampleReport()
    let folder = try makeTemporaryDirectory("report-binary")
    let binary = try journalBinary()
    func report(_ environment: [String: String], _ arguments: [String]) throws -> Data {
      let process = Process()
      process.executableURL = binary
      process.arguments = ["report", "--out", "r.html"] + arguments
      process.currentDirectoryURL = folder
      process.environment = environment.merging([
        "WORKOUT_JOURNAL": SampleReadsTests.journal.path, "PATH": "/usr/bin:/bin",
      ]) { $1 }
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      return try Data(contentsOf: folder.appendingPathComponent("r.html"))
    }
    let elsewhere = try report(
      ["TZ": "Pacific/Kiritimati", "WORKOUT_NOW": "2031-07-01T03:00:00Z"],
      []
    )
    #expect(elsewhere == Data(html.utf8), "\(firstDifference(Data(html.utf8), elsewhere))")
    let labelled = try report(["TZ": "America/Adak"], ["--unit", "lb"])
    #expect(String(decoding: labelled, as: UTF8.self).contains("weights in lb"))
    #expect(
      String(decoding: labelled, as: UTF8.self).contains("<dt>Volume</dt><dd>397736.5 lb</dd>")
    )
  }

  @Test func aRangeAndAPointNarrowIt() throws {
    let (all, _) = try Self.sampleReport()
    let (october, _) = try Self.sampleReport(["--since", "2026-10-01", "--until", "2026-10-31"])
    #expect(october.contains("<p class=\"range\">2026-10-01 – 2026-10-31</p>"))
    let audit = try #require(
      try Self.json("audit", "--since", "2026-10-01", "--until", "2026-10-31") as? [String: Any]
    )
    let workouts = try #require(
      (audit["totals"] as? [String: Any])?["workouts"] as? [[String: Any]]
    )
    #expect(october.contains("<dt>Workouts</dt><dd>\(workouts.count)</dd>"))
    #expect(october.count < all.count)
    let (early, _) = try Self.sampleReport(["--as-of", "2026-06-08"])
    let then = try #require(try Self.json("audit", "--as-of", "2026-06-08") as? [String: Any])
    let before = try #require((then["totals"] as? [String: Any])?["workouts"] as? [[String: Any]])
    #expect(!before.isEmpty && before.count < 70)
    #expect(early.contains("<dt>Workouts</dt><dd>\(before.count)</dd>"))
    #expect(!early.contains("<dt>Workouts</dt><dd>70</dd>"))
  }

  @Test func badInputChangesNothing() throws {
    let folder = try makeTemporaryDirectory("report-refused")
    let directory = try Self.run(["report", "--out", folder.path])
    #expect(directory.status == 1)
    #expect(directory.err.contains("is a directory"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    let missing = try Self.run(["report", "--out", folder.path + "/no/such/report.html"])
    #expect(missing.status == 1)
    #expect(missing.err.contains("cannot write"))
    #expect(try Self.run(["report", "--bogus"]).status == 64)
    #expect(try Self.run(["report", "extra"]).status == 64)
    let badDate = try Self.run([
      "report", "--out", folder.path + "/r.html", "--since", "yesterdayish",
    ])
    #expect(badDate.status != 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  // MARK: - Reading the page

  /// A number as the page writes it (`82.5`, `100`).
  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }

  static func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  /// The `<article>` of exercise `name`.
  static func article(_ name: String, in html: String) -> String? {
    guard let start = html.range(of: "<h3>\(name)</h3>") else { return nil }
    guard let end = html.range(of: "</article>", range: start.upperBound..<html.endIndex) else {
      return nil
    }
    return String(html[start.lowerBound..<end.upperBound])
  }

  /// The first numeric cell of each row of the progression's data table: the top sets.
  static func firstNumericCells(in article: String) -> [String] {
    guard let start = article.range(of: "<details class=\"data\">"),
      let end = article.range(of: "</details>", range: start.upperBound..<article.endIndex)
    else { return [] }
    return article[start.upperBound..<end.lowerBound].components(separatedBy: "<tr>").dropFirst(2)
      .compactMap { row in
        guard let cell = row.range(of: "<td class=\"num\">"),
          let close = row.range(of: "</td>", range: cell.upperBound..<row.endIndex)
        else { return nil }
        return String(row[cell.upperBound..<close.lowerBound])
      }
  }
}
