import Foundation
import JournalCore
import Testing

/// The built `journal` executable: `$JOURNAL_BINARY`, or next to the test bundle.
///
/// Records an issue (so a missing binary never passes silently) and throws
/// when it cannot be found.
package func journalBinary(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
  var candidates: [URL] = []
  if let path = ProcessInfo.processInfo.environment["JOURNAL_BINARY"] {
    candidates.append(URL(fileURLWithPath: path))
  }
  let bundle = Bundle.main.bundleURL
  candidates += [
    bundle.appendingPathComponent("journal"),
    bundle.deletingLastPathComponent().appendingPathComponent("journal"),
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("journal"),
  ]
  for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
    candidates.append(
      bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("journal")
    )
  }
  if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
  {
    return found
  }
  let message =
    "the 'journal' executable was not found next to the tests (looked in "
    + "\(candidates.map(\.path))); build it, or set JOURNAL_BINARY"
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  throw JournalError(.io, "journal executable not found")
}
