import Foundation
import JournalProjections

/// The HTML page of `journal report`: one self-contained file (inline CSS and SVG, no
/// script, font or network), built as plain strings with every journal-supplied text
/// escaped.
///
/// The bytes depend on the journal and the options only: times are written in each
/// workout's own time zone, nothing reads the clock, and every list is in a stable order.
/// Sections: overview, exercises, recent workouts, the story behind the numbers, time.
struct ReportPage {
  var content: ReportContent
  /// Where the page goes.
  let out: PageOutput
  /// Dates in named zones, one formatter per zone.
  var dates = ZonedDates()

  /// How many sessions the time section lists, the newest; its weeks cover them all.
  static let sessionLimit = ReportReads.listed

  /// The page's sections: id and heading, in order.
  static let sections = [
    ("overview", "Overview"), ("exercises", "Exercises"), ("recent", "Recent workouts"),
    ("story", "The story behind the numbers"), ("time", "Time"),
  ]

  /// The whole page, handed to `write` a piece at a time (``PageOutput``), so that a page
  /// of years of training is never held whole.
  ///
  /// - Throws: what `write` throws; nothing is written after it threw.
  static func render(_ content: ReportContent, _ write: (String) throws -> Void) throws {
    try withoutActuallyEscaping(write) { write in
      var page = ReportPage(content: content, out: PageOutput(write))
      page.html()
      try page.out.finish()
    }
  }

  mutating func html() {
    let range = rangeText()
    out += """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>Training report · \(h(range))</title>
      <style>
      \(Self.style)</style>
      </head>
      <body>
      <header>
      <h1>Training report</h1>
      <p class="range">\(h(range))</p>
      <nav aria-label="Sections"><ul>
      """
    out += "\n"
    for (id, title) in Self.sections { out += "<li><a href=\"#\(id)\">\(h(title))</a></li>\n" }
    out += "</ul></nav>\n</header>\n<main>\n"
    overview()
    exercises()
    recent()
    story()
    time()
    out += "</main>\n<footer><p>"
    out += h(
      "Made by journal report from \(content.eventCount) events"
        + (DisplayUnit.current.map { "; weights in \($0.rawValue)" } ?? "; weights as recorded")
        + ". Every figure is one of the journal's reads (audit, records, chart); "
        + "times are in each workout's own time zone."
    )
    out += "</p></footer>\n</body>\n</html>\n"
  }

  /// `2026-06-01 – 2026-10-30`: the range as given (`--since`, `--until`), else the days of
  /// the first and last session.
  func rangeText() -> String {
    let days = content.summary.days
    let first = content.sinceText ?? days.first.map(\.day.description)
    let last = content.untilText ?? days.last.map(\.day.description)
    guard let first, let last else { return "no workouts" }
    return "\(first) – \(last)"
  }

  // MARK: - Overview

  mutating func overview() {
    let summary = content.summary
    out += section("overview")
    stats([
      ("Workouts", "\(summary.workouts)"), ("Sets", "\(summary.sets)"),
      ("Volume", DisplayUnit.weight(summary.volume)),
      ("Time trained", Self.duration(summary.duration)),
    ])
    guard let first = summary.days.first?.day, let last = summary.days.last?.day else {
      out += "<p>No sets in this range.</p>\n</section>\n"
      return
    }
    let peak = summary.days.map(\.volume).max() ?? 0
    out += "<figure id=\"calendar\">\n<figcaption>Sessions by day, shaded by volume</figcaption>\n"
    let years = Set(summary.days.map { Self.year($0.day) }).sorted()
    for year in years {
      let from = max(first, CivilDay(number: Self.firstDay(of: year)))
      let through = min(last, CivilDay(number: Self.firstDay(of: year + 1) - 1))
      out += ReportSVG.calendar(
        title: "Sessions in \(year), by day",
        days: summary.days.filter { Self.year($0.day) == year },
        from: from,
        through: through,
        peak: peak
      )
    }
    out +=
      "<p class=\"legend\">Less <span class=\"swatch l0\"></span><span class=\"swatch l1\"></span>"
    out += "<span class=\"swatch l2\"></span><span class=\"swatch l3\"></span>"
    out += "<span class=\"swatch l4\"></span> more volume</p>\n"
    table(
      caption: "Sessions by day",
      headers: ["Day", "Workouts", "Sets", "Volume"],
      numeric: [1, 2, 3],
      rows: summary.days.lazy.map {
        [
          Self.h($0.day.description), "\($0.workouts)", "\($0.sets)",
          Self.h(DisplayUnit.weight($0.volume)),
        ]
      }
    )
    out += "</figure>\n"
    out += "<figure id=\"weekly-volume\">\n<figcaption>Volume per week</figcaption>\n"
    out += ReportSVG.bars(
      title: "Volume per week",
      values: summary.weeks.map(\.volume),
      labels: summary.weeks.map { "week of \($0.day)" },
      format: DisplayUnit.weight
    )
    table(
      caption: "Volume per week",
      headers: ["Week of", "Workouts", "Sets", "Volume"],
      numeric: [1, 2, 3],
      rows: summary.weeks.lazy.map {
        [
          Self.h($0.day.description), "\($0.workouts)", "\($0.sets)",
          Self.h(DisplayUnit.weight($0.volume)),
        ]
      }
    )
    out += "</figure>\n</section>\n"
  }

  /// The year of `day`.
  static func year(_ day: CivilDay) -> Int { Int(day.description.prefix(4)) ?? 1970 }

  /// The day number of 1 January of `year`.
  static func firstDay(of year: Int) -> Int {
    // Days from 1970 to `year`, counting leap days (proleptic Gregorian).
    func leaps(before y: Int) -> Int { (y - 1) / 4 - (y - 1) / 100 + (y - 1) / 400 }
    return (year - 1970) * 365 + leaps(before: year) - leaps(before: 1970)
  }

  // MARK: - Building blocks

  /// `<section id=…>` with its heading.
  func section(_ id: String) -> String {
    let title = Self.sections.first { $0.0 == id }?.1 ?? id
    return "<section id=\"\(id)\" aria-labelledby=\"\(id)-title\">\n"
      + "<h2 id=\"\(id)-title\">\(h(title))</h2>\n"
  }

  /// A row of figures with their labels.
  func stats(_ items: [(String, String)]) {
    out += "<dl class=\"stats\">\n"
    for (label, value) in items {
      out += "<div><dt>\(h(label))</dt><dd>\(h(value))</dd></div>\n"
    }
    out += "</dl>\n"
  }

  /// A data table in a `<details>` (open on wide screens is up to the reader); cells are HTML.
  func table(
    caption: String,
    headers: [String],
    numeric: Set<Int> = [],
    rows: some Sequence<[String]>,
    open: Bool = false
  ) {
    out += "<details class=\"data\"\(open ? " open" : "")><summary>\(h(caption)): table</summary>\n"
    plainTable(caption: caption, headers: headers, numeric: numeric, rows: rows)
    out += "</details>\n"
  }

  /// A table always shown; cells are HTML.
  ///
  /// Each row is written as it is made: `rows` may be lazy.
  func plainTable(
    caption: String,
    headers: [String],
    numeric: Set<Int> = [],
    rows: some Sequence<[String]>,
    rowIDs: [String?] = []
  ) {
    out += "<div class=\"scroll\"><table>\n<caption>\(h(caption))</caption>\n<thead><tr>"
    for (i, header) in headers.enumerated() {
      out += "<th scope=\"col\"\(numeric.contains(i) ? " class=\"num\"" : "")>\(h(header))</th>"
    }
    out += "</tr></thead>\n<tbody>\n"
    for (r, row) in rows.enumerated() {
      let id = r < rowIDs.count ? rowIDs[r].map { " id=\"\($0)\"" } ?? "" : ""
      var html = "<tr\(id)>"
      for (i, cell) in row.enumerated() {
        html += numeric.contains(i) ? "<td class=\"num\">\(cell)</td>" : "<td>\(cell)</td>"
      }
      out += html + "</tr>\n"
    }
    out += "</tbody>\n</table></div>\n"
  }

  /// Text escaped for HTML content and attribute values.
  func h(_ text: String) -> String { Self.h(text) }
  static func h(_ text: String) -> String { ChartSVG.escape(text) }

  /// `1:05` (minutes and seconds), `12:40`: a rest or a short span.
  static func clock(_ seconds: TimeInterval) -> String {
    let whole = Int(seconds.rounded())
    let rest = whole % 60
    return "\(whole / 60):\(rest < 10 ? "0" : "")\(rest)"
  }

  /// `1 h 05 min`, `48 min`, `—` for nothing.
  static func duration(_ seconds: TimeInterval) -> String {
    guard seconds > 0 else { return "—" }
    let minutes = Int((seconds / 60).rounded())
    guard minutes >= 60 else { return "\(minutes) min" }
    let rest = minutes % 60
    return "\(minutes / 60) h \(rest < 10 ? "0" : "")\(rest) min"
  }
}

/// Where `journal report`'s page goes, a piece at a time: text is held until there is
/// enough of it to hand on, so that the page is never held whole.
///
/// The first failure to hand a piece on is kept, and nothing more is handed on;
/// ``finish()`` throws it.
final class PageOutput {
  private var held = ""
  private var failure: (any Error)?
  private let write: (String) throws -> Void
  /// How much text is held before it is handed on.
  private static let piece = 1 << 16

  init(_ write: @escaping (String) throws -> Void) { self.write = write }

  static func += (out: PageOutput, text: String) {
    out.held += text
    if out.held.utf8.count >= piece { out.handOn() }
  }

  /// Hands on what is held, then throws the first failure, if any.
  func finish() throws {
    handOn()
    if let failure { throw failure }
  }

  private func handOn() {
    defer { held.removeAll(keepingCapacity: true) }
    guard failure == nil, !held.isEmpty else { return }
    do { try write(held) } catch { failure = error }
  }
}
