import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@testable import JournalCLI

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct ChartOutputTests {
  func progression() throws -> Progression {
    let s = try ReadsCLIScenario()
    return s.audit.progression(of: "Bench Press", in: s.h.state)
  }

  func days(_ p: Progression) -> [String] {
    var dates = ZonedDates()
    return p.points.map { dates.day($0.date, in: $0.timeZone) }
  }

  @Test func theTextChartGolden() throws {
    let p = try progression()
    #expect(p.points.count == 6)
    let text = ChartText.render(
      title: "Bench Press: top-set weight",
      values: p.points.map(\.topSetWeight),
      dates: days(p),
      width: 60
    )
    expectReadsGolden(Data((text + "\n").utf8), named: "chart-weight.txt")
    let e1rm = ChartText.render(
      title: "Bench Press: best e1RM",
      values: p.points.map(\.bestEstimatedOneRepMax),
      dates: days(p),
      width: 60,
      height: 4
    )
    expectReadsGolden(Data((e1rm + "\n").utf8), named: "chart-e1rm.txt")
    #expect(ChartText.render(title: "t", values: [], dates: [], width: 40) == "t\nno data")
  }

  /// The axis spans the bars drawn: a heavier workout too old to fit does not flatten them.
  @Test func theTextChartIsScaledToTheBarsItDraws() {
    let values = [500.0] + (0..<100).map { 50 + Double($0 % 10) }
    let text = ChartText.render(
      title: "t",
      values: values,
      dates: values.map { _ in "2026-01-01" },
      width: 40
    )
    let lines = text.split(separator: "\n")
    #expect(lines[1].hasPrefix(DisplayUnit.weight(59)))
    #expect(lines[8].hasPrefix(DisplayUnit.weight(50)))
    #expect(!text.contains(DisplayUnit.weight(500)))
    // The bars fill the width: 40 columns less the axis's labels and its two characters.
    let axis = DisplayUnit.weight(59).count
    #expect(
      lines[9] == String(repeating: " ", count: axis) + " └"
        + String(repeating: "─", count: 40 - axis - 2)
    )
  }

  @Test func theSVGGoldenParsesAsXML() throws {
    let p = try progression()
    let svg = ChartSVG.render(
      title: "Bench Press: top-set weight <kg & lb>",
      values: p.points.map(\.topSetWeight),
      dates: days(p),
      solid: p.points.map(\.isAllActual)
    )
    expectReadsGolden(svg, named: "chart.svg")
    let parser = XMLParser(data: svg)
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    let again = ChartSVG.render(
      title: "Bench Press: top-set weight <kg & lb>",
      values: p.points.map(\.topSetWeight),
      dates: days(p),
      solid: p.points.map(\.isAllActual)
    )
    #expect(again == svg)
    let single = ChartSVG.render(title: "one", values: [100], dates: ["2026-01-01"], solid: [true])
    #expect(XMLParser(data: single).parse())
  }

  @Test func theSVGIsWrittenAtomicallyForTheOwnerOnly() throws {
    let folder = try makeTemporaryDirectory("chart")
    let url = folder.appendingPathComponent("bench.svg")
    try Data("old".utf8).write(to: url)
    try OwnerOnlyFile.write(Data("<svg/>".utf8), to: url, example: "bench.svg")
    #expect(try Data(contentsOf: url) == Data("<svg/>".utf8))
    let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(leftovers == ["bench.svg"])
    #expect(throws: CommandError.self) {
      try OwnerOnlyFile.write(Data(), to: folder, example: "bench.svg")
    }
  }
}
