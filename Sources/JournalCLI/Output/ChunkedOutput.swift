/// Standard output gathered into writes of about 64 KiB.
///
/// A command that streams many short lines makes few system calls. ``flush()`` writes what
/// is left.
final class ChunkedOutput {
  private let console: Console
  private var chunk = ""
  private static let size = 1 << 16

  init(_ console: Console) { self.console = console }

  /// Writes `text` as is.
  func write(_ text: String) {
    chunk += text
    if chunk.utf8.count >= Self.size { flush() }
  }

  /// Writes `text` and a newline.
  func print(_ text: String) {
    write(text)
    write("\n")
  }

  /// Writes what was gathered.
  func flush() {
    guard !chunk.isEmpty else { return }
    console.write(chunk)
    chunk = ""
  }
}
