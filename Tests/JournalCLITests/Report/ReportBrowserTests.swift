import Foundation
import JournalTestSupport
import Testing

/// The sample's report in a real browser: headless Chromium loads it without a console
/// message, its DOM holds every section and one chart per exercise, and it renders at a
/// desktop's and a phone's width.
///
/// Runs where Chromium is installed; with `WJ_REQUIRE_SHELLS=1` (CI) a missing Chromium fails
/// the tests instead of skipping them.
@Suite(.enabled(if: Chromium.isRequiredOrPresent)) struct ReportBrowserTests {
  /// The browser, or a recorded failure.
  func chromium() throws -> Chromium {
    try #require(Chromium.find(), "chromium is not installed: apt-get install chromium")
  }

  @Test func theSamplesReportLoadsWithoutConsoleMessagesAndHoldsEverySection() throws {
    let browser = try chromium()
    let (html, file) = try ReportTests.sampleReport()
    let folder = file.deletingLastPathComponent()
    let run = try browser.run(["--dump-dom"], page: file, in: folder)
    #expect(run.status == 0, "\(run.err)")
    #expect(run.consoleLines.isEmpty, "\(run.consoleLines)")
    let dom = String(decoding: run.out, as: UTF8.self)
    for id in ["overview", "calendar", "weekly-volume", "exercises", "recent", "story", "time"] {
      #expect(dom.contains(" id=\"\(id)\""), "no #\(id)")
    }
    // One chart per exercise with weighted sets to chart; the others say why there is none.
    let articles = dom.components(separatedBy: "<article class=\"exercise\"").dropFirst()
    let audit = try #require(try ReportTests.json("audit") as? [String: Any])
    let exercises = try #require((audit["totals"] as? [String: Any])?["exercises"] as? [Any])
    #expect(articles.count == exercises.count)
    #expect(articles.count > 5)
    for article in articles {
      let body = article.components(separatedBy: "</article>").first ?? ""
      let charts = ReportTests.count("<svg class=\"chart progression\"", in: body)
      let note = body.contains("no progression to chart")
      #expect(charts + (note ? 1 : 0) == 1, "\(body.prefix(80))")
    }
    #expect(ReportTests.count("<svg class=\"chart progression\"", in: dom) > 5)
    // The browser read the page as written: no element was moved or dropped by the parser.
    for tag in [
      "<section", "<article", "<figure", "<svg", "<table", "<tr", "<td", "<rect", "<circle",
    ] {
      #expect(ReportTests.count(tag, in: dom) == ReportTests.count(tag, in: html), "\(tag)")
    }
  }

  @Test func aConsoleMessageIsSeen() throws {
    // The check above must be able to fail: a page that logs an error is caught.
    let browser = try chromium()
    let folder = try makeTemporaryDirectory("browser-console")
    let page = folder.appendingPathComponent("error.html")
    try Data(
      "<!DOCTYPE html><title>x</title><script>console.error('report broke')</script>".utf8
    ).write(to: page)
    let run = try browser.run(["--dump-dom"], page: page, in: folder)
    #expect(run.consoleLines.contains { $0.contains("report broke") }, "\(run.err)")
  }

  @Test(arguments: [1280, 390])
  func itRendersAtAWidth(_ width: Int) throws {
    let browser = try chromium()
    let (_, file) = try ReportTests.sampleReport()
    let folder = file.deletingLastPathComponent()
    let shot = folder.appendingPathComponent("report-\(width).png")
    let run = try browser.run(
      ["--window-size=\(width),1600", "--screenshot=\(shot.path)"],
      page: file,
      in: folder
    )
    #expect(run.status == 0, "\(run.err)")
    #expect(run.consoleLines.isEmpty, "\(run.consoleLines)")
    let png = try Data(contentsOf: shot)
    let size = try #require(Chromium.pngSize(png))
    #expect(size.width == width)
    #expect(size.height == 1600)
    #expect(png.count > 20_000)  // a page was drawn, not a blank
  }
}
