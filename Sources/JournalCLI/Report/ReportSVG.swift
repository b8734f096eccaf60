import Foundation
import JournalProjections

/// The report's inline SVG charts: a calendar heatmap, bars and a progression line.
///
/// Colours are CSS classes the page's stylesheet defines for light and dark schemes, so the
/// same bytes follow `prefers-color-scheme`. Each chart scales to its container
/// (`viewBox`, no fixed size) and carries a `<title>`; the page puts a data table beside
/// it. Coordinates are rounded to 0.1 (``ChartSVG/n(_:)``), so the bytes depend on the data
/// only.
enum ReportSVG {
  /// The heatmap of one year: a column per week (Monday on top), a cell per day, shaded in
  /// five steps of the day's volume against `peak` (step 0 is a day without a session).
  static func calendar(
    title: String,
    days: [TrainingSummary.Period],
    from first: CivilDay,
    through last: CivilDay,
    peak: Double
  ) -> String {
    let cell = 14.0
    let step = 17.0
    let left = 32.0
    let top = 18.0
    let start = first.weekStart
    let weeks = (last.number - start.number) / 7 + 1
    let width = left + Double(weeks) * step + 4
    let height = top + 7 * step + 4
    var svg = open(width: width, height: height, title: title, kind: "calendar", natural: true)
    for (row, name) in [(0, "Mon"), (2, "Wed"), (4, "Fri")] {
      svg +=
        "<text class=\"axis\" x=\"0\" y=\"\(n(top + Double(row) * step + 11))\">\(name)</text>\n"
    }
    var byDay: [CivilDay: TrainingSummary.Period] = [:]
    for day in days { byDay[day.day] = day }
    var month = -1
    for week in 0..<weeks {
      let monday = CivilDay(number: start.number + week * 7)
      let label = String(monday.description.dropFirst(5).prefix(2))
      if let m = Int(label), m != month, week < weeks - 1 {
        month = m
        svg +=
          "<text class=\"axis\" x=\"\(n(left + Double(week) * step))\" y=\"11\">\(monthNames[m - 1])</text>\n"
      }
      for weekday in 0..<7 {
        let day = CivilDay(number: monday.number + weekday)
        guard day >= first, day <= last else { continue }
        let period = byDay[day]
        let shade = period.map { Self.level($0.volume, peak: peak) } ?? 0
        // Days of training carry their figures as a tooltip; rest days only their colour.
        let tip = period.map {
          "<title>\(day): \($0.workouts) workout\($0.workouts == 1 ? "" : "s"), "
            + "volume \(escape(DisplayUnit.weight($0.volume)))</title>"
        }
        svg +=
          "<rect class=\"l\(shade)\" x=\"\(n(left + Double(week) * step))\" "
          + "y=\"\(n(top + Double(weekday) * step))\" width=\"\(n(cell))\" height=\"\(n(cell))\" "
          + (tip.map { "rx=\"2\">\($0)</rect>\n" } ?? "rx=\"2\"/>\n")
      }
    }
    return svg + "</svg>\n"
  }

  /// 1…4 for a day with a session: its volume's quarter of `peak`.
  static func level(_ volume: Double, peak: Double) -> Int {
    guard peak > 0 else { return 1 }
    return min(4, 1 + Int(volume / peak * 4))
  }

  static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// Vertical bars of `values` labelled with `labels` (first and last under the axis), with the
  /// highest value on the axis; `format` writes a value for people.
  static func bars(
    title: String,
    values: [Double],
    labels: [String],
    format: (Double) -> String
  ) -> String {
    let width = 560.0
    let height = 200.0
    let left = 80.0
    let top = 12.0
    let bottom = 28.0
    let plotW = width - left - 8
    let plotH = height - top - bottom
    var svg = open(width: width, height: height, title: title, kind: "bars")
    let peak = values.max() ?? 0
    svg += axes(left: left, top: top, width: plotW, height: plotH)
    if peak > 0 {
      svg +=
        "<text class=\"axis\" x=\"\(n(left - 6))\" y=\"\(n(top + 4))\" text-anchor=\"end\">\(escape(format(peak)))</text>\n"
    }
    let slot = values.isEmpty ? plotW : plotW / Double(values.count)
    let gap = slot > 4 ? max(1, slot * 0.2) : 0
    for (i, value) in values.enumerated() {
      let h = peak > 0 ? plotH * value / peak : 0
      let label = i < labels.count ? labels[i] : ""
      svg +=
        "<rect class=\"bar\" x=\"\(n(left + Double(i) * slot + gap / 2))\" y=\"\(n(top + plotH - h))\" "
        + "width=\"\(n(max(0.5, slot - gap)))\" height=\"\(n(h))\"><title>"
        + escape("\(label): \(format(value))") + "</title></rect>\n"
    }
    svg += endLabels(labels, left: left, right: left + plotW, y: height - 8)
    return svg + "</svg>\n"
  }

  /// One point of a progression chart.
  struct Point {
    var label: String
    var topSet: Double
    var e1rm: Double
    /// Drawn solid when every set was actually recorded, hollow when some were filled in.
    var isAllActual: Bool
    /// The records this point holds (`heaviest`, `e1RM`), marked on the chart.
    var records: [String]
  }

  /// More points than this are drawn as lines, with only the hollow points marked.
  static let denseCount = ReportReads.pointsPerWorkoutLimit

  /// Top-set weight and best e1RM, one point each per workout (or week), oldest first.
  static func progression(title: String, points: [Point]) -> String {
    let width = 480.0
    let height = 250.0
    let left = 52.0
    let right = 12.0
    let top = 16.0
    let bottom = 30.0
    let plotW = width - left - right
    let plotH = height - top - bottom
    var svg = open(width: width, height: height, title: title, kind: "progression")
    svg += axes(left: left, top: top, width: plotW, height: plotH)
    let values = points.flatMap { [$0.topSet, $0.e1rm] }
    guard let high = values.max(), let low = values.min() else { return svg + "</svg>\n" }
    let pad = high == low ? max(1, high * 0.05) : (high - low) * 0.1
    let yMin = max(0, low - pad)
    let yMax = high + pad
    func x(_ i: Int) -> Double {
      points.count == 1 ? left + plotW / 2 : left + plotW * Double(i) / Double(points.count - 1)
    }
    func y(_ v: Double) -> Double { top + plotH * (1 - (v - yMin) / (yMax - yMin)) }
    for v in high == low ? [high] : [low, high] {
      svg +=
        "<line class=\"grid\" x1=\"\(n(left))\" y1=\"\(n(y(v)))\" x2=\"\(n(left + plotW))\" y2=\"\(n(y(v)))\"/>\n"
      svg +=
        "<text class=\"axis\" x=\"\(n(left - 6))\" y=\"\(n(y(v) + 4))\" text-anchor=\"end\">\(escape(DisplayUnit.weight(ChartText.rounded(v))))</text>\n"
    }
    for (series, value) in [("e1rm", \Point.e1rm), ("top", \Point.topSet)] {
      let line = points.indices.map { "\(n(x($0))),\(n(y(points[$0][keyPath: value])))" }
      svg += "<polyline class=\"\(series)\" points=\"\(line.joined(separator: " "))\"/>\n"
    }
    // A dense chart (a long history, per week) marks only the points that differ, without
    // tooltips: the table under it has every value.
    let dense = points.count > denseCount
    for (i, point) in points.enumerated() {
      let fill = point.isAllActual ? "" : " hollow"
      if dense {
        if !point.isAllActual {
          svg +=
            "<circle class=\"top hollow\" cx=\"\(n(x(i)))\" cy=\"\(n(y(point.topSet)))\" r=\"2.5\"/>\n"
        }
      } else {
        svg +=
          "<circle class=\"top\(fill)\" cx=\"\(n(x(i)))\" cy=\"\(n(y(point.topSet)))\" r=\"3.5\"><title>"
          + escape(
            "\(point.label): top set \(DisplayUnit.weight(point.topSet)), e1RM "
              + DisplayUnit.weight(ChartText.rounded(point.e1rm))
              + (point.isAllActual ? "" : " (some sets have the plan's values)")
          ) + "</title></circle>\n"
      }
      if !point.records.isEmpty {
        let value = point.records.contains("heaviest") ? point.topSet : point.e1rm
        svg +=
          "<text class=\"pr\" x=\"\(n(x(i)))\" y=\"\(n(y(value) - 8))\" text-anchor=\"middle\">PR</text>\n"
      }
    }
    svg += endLabels(points.map(\.label), left: left, right: left + plotW, y: height - 8)
    return svg + "</svg>\n"
  }

  // MARK: - Parts

  /// The `<svg>` start tag and title; a `natural` chart is drawn at its own size (narrowed to
  /// fit), the others fill the width they are given.
  static func open(
    width: Double,
    height: Double,
    title: String,
    kind: String,
    natural: Bool = false
  ) -> String {
    let size = natural ? " width=\"\(n(width))\" height=\"\(n(height))\"" : ""
    return "<svg class=\"chart \(kind)\" xmlns=\"http://www.w3.org/2000/svg\"\(size) "
      + "viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"\(escape(title))\">"
      + "<title>\(escape(title))</title>\n"
  }

  static func axes(left: Double, top: Double, width: Double, height: Double) -> String {
    "<line class=\"axisline\" x1=\"\(n(left))\" y1=\"\(n(top + height))\" x2=\"\(n(left + width))\" y2=\"\(n(top + height))\"/>\n"
      + "<line class=\"axisline\" x1=\"\(n(left))\" y1=\"\(n(top))\" x2=\"\(n(left))\" y2=\"\(n(top + height))\"/>\n"
  }

  /// The first and last of `labels` under the x axis, at its two ends.
  static func endLabels(_ labels: [String], left: Double, right: Double, y: Double) -> String {
    guard let first = labels.first, let last = labels.last else { return "" }
    var svg = "<text class=\"axis\" x=\"\(n(left))\" y=\"\(n(y))\">\(escape(first))</text>\n"
    if labels.count > 1 {
      svg +=
        "<text class=\"axis\" x=\"\(n(right))\" y=\"\(n(y))\" text-anchor=\"end\">\(escape(last))</text>\n"
    }
    return svg
  }

  static func n(_ value: Double) -> String { ChartSVG.n(value) }

  static func escape(_ text: String) -> String { ChartSVG.escape(text) }
}
