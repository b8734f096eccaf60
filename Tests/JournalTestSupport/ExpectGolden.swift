import Foundation
import Testing

/// Compares `actual` byte for byte with the golden file `name` in `Golden/` next to the calling
/// test file.
///
/// A missing file, or `JOURNAL_RECORD_GOLDEN=1`, records it and fails, so a recording is never
/// mistaken for a pass.
package func expectGolden(
  _ actual: Data,
  named name: String,
  filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden", isDirectory: true)
  let url = folder.appendingPathComponent(name)
  let record = ProcessInfo.processInfo.environment["JOURNAL_RECORD_GOLDEN"] == "1"
  guard !record, let expected = try? Data(contentsOf: url) else {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? actual.write(to: url)
    Issue.record(
      "recorded golden file Golden/\(name); rerun without JOURNAL_RECORD_GOLDEN",
      sourceLocation: sourceLocation
    )
    return
  }
  if actual != expected {
    Issue.record(
      "Golden/\(name) differs: \(firstDifference(expected, actual))",
      sourceLocation: sourceLocation
    )
  }
}

/// Describes the first line where two byte strings differ.
package func firstDifference(_ expected: Data, _ actual: Data) -> String {
  let left = String(decoding: expected, as: UTF8.self).split(
    separator: "\n",
    omittingEmptySubsequences: false
  )
  let right = String(decoding: actual, as: UTF8.self).split(
    separator: "\n",
    omittingEmptySubsequences: false
  )
  for index in 0..<max(left.count, right.count) {
    let l = index < left.count ? String(left[index]) : "<end>"
    let r = index < right.count ? String(right[index]) : "<end>"
    if l != r {
      return "line \(index + 1): expected \(l.debugDescription), got \(r.debugDescription)"
    }
  }
  return "same lines, different bytes (\(expected.count) vs \(actual.count) bytes)"
}
