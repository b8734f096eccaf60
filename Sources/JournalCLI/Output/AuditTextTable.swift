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
    var columns = Columns(headers: headers)
    for row in rows { columns.measure(row) }
    let layout = columns.layout(
      rightAligned: rightAligned,
      shrinkable: shrinkable,
      droppable: droppable,
      minimums: minimums,
      width: width
    )
    return ([layout.line(headers), layout.rule] + rows.map(layout.line)).joined(separator: "\n")
  }

  /// The widest cell of each column, measured a row at a time: a table too long to hold is
  /// measured in a first pass, then written a line at a time (``Layout/line(_:)``).
  struct Columns {
    let headers: [String]
    private var widths: [Int]

    init(headers: [String]) {
      self.headers = headers
      widths = headers.map(\.count)
    }

    /// Widens the columns to fit `cells`.
    mutating func measure(_ cells: [String]) {
      for (index, cell) in cells.enumerated() where index < widths.count {
        widths[index] = max(widths[index], cell.count)
      }
    }

    /// The columns shown and their widths, as ``TextTable/render(headers:rows:rightAligned:shrinkable:droppable:minimums:width:)``
    /// takes the options.
    func layout(
      rightAligned: Set<Int> = [],
      shrinkable: [Int] = [],
      droppable: [Int] = [],
      minimums: [Int: Int] = [:],
      width: Int
    ) -> Layout {
      var widths = self.widths
      let gap = Layout.gap
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
      return Layout(shown: shown, widths: widths, rightAligned: rightAligned)
    }
  }

  /// Which columns a table shows, and how wide.
  struct Layout {
    static let gap = 2
    let shown: [Int]
    let widths: [Int]
    let rightAligned: Set<Int>

    /// The rule under the header.
    var rule: String { line(widths.map { String(repeating: "-", count: $0) }) }

    /// One line of the table: the shown cells, cut or padded to their widths.
    func line(_ cells: [String]) -> String {
      var parts: [String] = []
      for index in shown {
        let width = widths[index]
        var cell = index < cells.count ? cells[index] : ""
        if cell.count > width { cell = String(cell.prefix(max(0, width - 1))) + "…" }
        let pad = String(repeating: " ", count: width - cell.count)
        parts.append(rightAligned.contains(index) ? pad + cell : cell + pad)
      }
      var text = parts.joined(separator: String(repeating: " ", count: Self.gap))
      while text.last == " " { text.removeLast() }
      return text
    }
  }
}
