import Foundation
import JournalProjections

/// A standalone SVG line chart of a progression: deterministic bytes (fixed
/// size, coordinates rounded to 0.1, no dates of the run), for files.
enum ChartSVG {
  static let width = 640.0
  static let height = 320.0
  static let left = 56.0
  static let right = 16.0
  static let top = 40.0
  static let bottom = 40.0

  /// The SVG document of `values` (oldest first) labelled with `dates`.
  static func render(title: String, values: [Double], dates: [String], solid: [Bool]) -> Data {
    var svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
      viewBox="0 0 \(n(width)) \(n(height))" font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="#ffffff"/>
      <text x="\(n(left))" y="24" font-size="14" font-weight="bold">\(escape(title))</text>

      """
    let plotW = width - left - right
    let plotH = height - top - bottom
    svg += line(left, top + plotH, left + plotW, top + plotH, "#888888")
    svg += line(left, top, left, top + plotH, "#888888")
    guard let high = values.max(), let low = values.min() else {
      return Data(
        (svg + "<text x=\"\(n(left + 8))\" y=\"\(n(top + 20))\">no data</text>\n</svg>\n").utf8
      )
    }
    let pad = high == low ? max(1, high * 0.05) : (high - low) * 0.1
    let yMin = low - pad
    let yMax = high + pad
    func x(_ i: Int) -> Double {
      values.count == 1 ? left + plotW / 2 : left + plotW * Double(i) / Double(values.count - 1)
    }
    func y(_ v: Double) -> Double { top + plotH * (1 - (v - yMin) / (yMax - yMin)) }
    for v in high == low ? [high] : [low, high] {
      svg += line(left, y(v), left + plotW, y(v), "#e0e0e0")
      svg +=
        "<text x=\"\(n(left - 6))\" y=\"\(n(y(v) + 4))\" text-anchor=\"end\">\(escape(DisplayUnit.weight(ChartText.rounded(v))))</text>\n"
    }
    let points = values.indices.map { "\(n(x($0))),\(n(y(values[$0])))" }.joined(separator: " ")
    svg += "<polyline fill=\"none\" stroke=\"#1f6feb\" stroke-width=\"2\" points=\"\(points)\"/>\n"
    for (i, v) in values.enumerated() {
      let fill = i < solid.count && !solid[i] ? "#ffffff" : "#1f6feb"
      svg +=
        "<circle cx=\"\(n(x(i)))\" cy=\"\(n(y(v)))\" r=\"3\" fill=\"\(fill)\" stroke=\"#1f6feb\"/>\n"
    }
    if let first = dates.first, let last = dates.last {
      svg += "<text x=\"\(n(left))\" y=\"\(n(height - 16))\">\(escape(first))</text>\n"
      if dates.count > 1 {
        svg +=
          "<text x=\"\(n(left + plotW))\" y=\"\(n(height - 16))\" text-anchor=\"end\">\(escape(last))</text>\n"
      }
    }
    svg += "</svg>\n"
    return Data(svg.utf8)
  }

  static func line(
    _ x1: Double,
    _ y1: Double,
    _ x2: Double,
    _ y2: Double,
    _ color: String
  ) -> String {
    "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(color)\"/>\n"
  }

  /// A coordinate rounded to 0.1, without a trailing `.0`.
  static func n(_ value: Double) -> String { WeightUnit.number((value * 10).rounded() / 10) }

  /// `text` with `&`, `<`, `>` and `"` escaped, for XML and HTML text and attribute values.
  static func escape(_ text: String) -> String {
    // Most text has none of them: returned as it is, without four searches.
    guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 })
    else { return text }
    return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
      of: "<",
      with: "&lt;"
    )
    .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
