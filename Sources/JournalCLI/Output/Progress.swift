/// A progress bar on standard error, drawn only on a terminal.
final class Progress: @unchecked Sendable {
  private let console: Console
  private let label: String
  private var lastDrawn = -1

  init(_ label: String, console: Console) {
    self.label = label
    self.console = console
  }

  /// Redraws the bar for `done` of `total`, at most once per percent.
  func update(_ done: Int, of total: Int) {
    guard console.isTerminal, total > 0 else { return }
    let percent = min(100, done * 100 / total)
    guard percent != lastDrawn else { return }
    lastDrawn = percent
    let width = max(10, min(40, console.width - label.count - 12))
    let filled = width * percent / 100
    let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
    console.writeError("\r\(label) \(bar) \(percent)%")
  }

  /// Clears the bar's line.
  func finish() {
    guard console.isTerminal, lastDrawn >= 0 else { return }
    console.writeError("\r" + String(repeating: " ", count: console.width - 1) + "\r")
  }
}
