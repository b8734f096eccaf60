/// A plain-text table whose columns shrink, with an ellipsis, to fit a width.
enum TextTable {
  /// The table as lines: a header, a rule, then the rows.
  ///
  /// - Parameters:
  ///   - headers: the column titles.
  ///   - rows: the cells, row by row.
  ///   - rightAligned: columns aligned right (numbers).
  ///   - shrinkable: columns that may be cut, tried in this order.
  ///   - droppable: columns left out, in this order, when cutting is not enough.
  ///   - minimums: the narrowest a shrinkable column may be cut to (default:
  ///     its header, and at least 6).
  ///   - width: the widest a line may be.
  /// - Returns: the lines joined, without a final newline.
  static func render(
    headers: [String],
    rows: [[String]],
    rightAligned: Set<Int> = [],
    shrinkable: [Int] = [],
    droppable: [Int] = [],
    minimums: [Int: Int] = [:],
    width: Int
  ) -> String {
    var widths = headers.map(\.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.count)
      }
    }
    let gap = 2
    var excess = widths.reduce(0, +) + gap * (widths.count - 1) - width
    var shown = Array(widths.indices)
    let natural = widths
    for drop in [nil] + droppable.map(Optional.some) {
      if let drop {
        guard excess > 0 else { break }
        shown.removeAll { $0 == drop }
        widths = natural
        excess = shown.reduce(0) { $0 + widths[$1] } + gap * (shown.count - 1) - width
      }
      for index in shrinkable where excess > 0 && shown.contains(index) {
        let floor = minimums[index] ?? max(headers[index].count, 6)
        let cut = min(excess, max(0, widths[index] - floor))
        widths[index] -= cut
        excess -= cut
      }
    }
    // Nothing left to leave out: cut below the minimums rather than overflow.
    for index in shrinkable where excess > 0 && shown.contains(index) {
      let cut = min(excess, max(0, widths[index] - max(headers[index].count, 6)))
      widths[index] -= cut
      excess -= cut
    }
    func line(_ cells: [String]) -> String {
      var parts: [String] = []
      for index in shown {
        let width = widths[index]
        var cell = index < cells.count ? cells[index] : ""
        if cell.count > width { cell = String(cell.prefix(max(0, width - 1))) + "…" }
        let pad = String(repeating: " ", count: width - cell.count)
        parts.append(rightAligned.contains(index) ? pad + cell : cell + pad)
      }
      var text = parts.joined(separator: String(repeating: " ", count: gap))
      while text.last == " " { text.removeLast() }
      return text
    }
    let rule = widths.map { String(repeating: "-", count: $0) }
    return ([line(headers), line(rule)] + rows.map(line)).joined(separator: "\n")
  }
}
