import JournalCore

/// Turns errors into what the user reads on standard error: the one place
/// where errors are rendered.
enum Diagnostics {
  static func report(_ error: any Error, to console: Console) {
    let text = String(describing: error)
    let message = text.contains(": error: ") || text.hasPrefix("error: ") ? text : "error: \(text)"
    console.error(message)
  }
}
