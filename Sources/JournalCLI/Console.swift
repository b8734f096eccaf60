import Foundation

/// Where a command writes: standard output and standard error, plus what the terminal supports.
///
/// Tests pass buffers; the executable passes the real streams.
public final class Console: @unchecked Sendable {
  private let writeOut: (String) -> Void
  private let writeErr: (String) -> Void
  /// Whether standard output is a terminal (progress bars, colour).
  public let isTerminal: Bool
  /// Whether to colour output: only on a terminal, never with `NO_COLOR`.
  public let usesColor: Bool
  /// The terminal width, from `COLUMNS`, else 80.
  public let width: Int

  public init(
    isTerminal: Bool,
    environment: [String: String],
    out: @escaping (String) -> Void,
    err: @escaping (String) -> Void
  ) {
    self.writeOut = out
    self.writeErr = err
    self.isTerminal = isTerminal
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    self.usesColor = isTerminal && !noColor && environment["TERM"] != "dumb"
    self.width = environment["COLUMNS"].flatMap(Int.init).map { max(20, $0) } ?? 80
  }

  /// Writes `text` and a newline to standard output.
  public func print(_ text: String = "") { writeOut(text + "\n") }

  /// Writes `text` as is to standard output.
  public func write(_ text: String) { writeOut(text) }

  /// Writes `text` and a newline to standard error.
  public func error(_ text: String) { writeErr(text + "\n") }

  /// Writes `text` as is to standard error (progress bars).
  public func writeError(_ text: String) { writeErr(text) }

  /// `text` in an ANSI style when colour is on, else unchanged.
  public func styled(_ text: String, _ style: Style) -> String {
    usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
  }

  /// ANSI styles used by the tool.
  public enum Style: String, Sendable {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case blue = "34"
    case magenta = "35"
    case cyan = "36"
  }
}
