import JournalProjections

/// A progression chart drawn with block characters: one bar per workout,
/// eight steps per row, the newest workouts when they do not all fit, scaled to
/// the bars drawn.
enum ChartText {
  static let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  /// The chart of `values` (oldest first) labelled with `dates`, at most
  /// `width` columns wide and `height` rows tall.
  static func render(
    title: String,
    values: [Double],
    dates: [String],
    width: Int,
    height: Int = 8
  ) -> String {
    guard !values.isEmpty else { return "\(title)\nno data" }
    // Each workout gets up to three columns and a gap; the newest when not all fit. The axis
    // is labelled with the highest and lowest bar drawn, and its labels take room from the
    // bars: widened until the labels of the bars that fit fit.
    var axis = 1
    var (room, barWidth, step) = (1, 1, 1)
    var (shown, high, low, labels) = ([Double](), 0.0, 0.0, [String]())
    while true {
      room = max(1, width - axis - 2)
      barWidth = max(1, min(3, room / values.count - 1))
      step = barWidth == 1 ? 1 : barWidth + 1
      shown = Array(values.suffix(max(1, room / step)))
      (high, low) = (shown.max() ?? 0, shown.min() ?? 0)
      labels = [DisplayUnit.weight(rounded(high)), DisplayUnit.weight(rounded(low))]
      let needed = labels.map(\.count).max() ?? 1
      if needed <= axis { break }
      axis = needed
    }
    let shownDates = Array(dates.suffix(shown.count))
    // The bars start a little below the lowest value so that it still shows.
    let base = high == low ? low - 1 : low - (high - low) / Double(height)
    let span = high - base
    let levels = shown.map { Int(((($0 - base) / span) * Double(height * 8)).rounded()) }
    var lines = [title]
    for row in 0..<height {
      let floor = (height - 1 - row) * 8
      let bars = levels.map { level in
        String(repeating: blocks[min(8, max(0, level - floor))], count: barWidth)
      }
      var text = bars.joined(separator: step == 1 ? "" : " ")
      while text.last == " " { text.removeLast() }
      let label = row == 0 ? labels[0] : row == height - 1 ? labels[1] : ""
      let padded = String(repeating: " ", count: axis - label.count) + label
      lines.append("\(padded) ┤\(text)")
    }
    let plotWidth = shown.count * step - (step == 1 ? 0 : 1)
    lines.append(
      String(repeating: " ", count: axis) + " └" + String(repeating: "─", count: plotWidth)
    )
    if let first = shownDates.first, let last = shownDates.last {
      let count = "\(shown.count) workout\(shown.count == 1 ? "" : "s")"
      let span = first == last ? first : "\(first) → \(last)"
      lines.append(String(repeating: " ", count: axis + 2) + "\(span) (\(count))")
    }
    return lines.joined(separator: "\n")
  }

  static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
