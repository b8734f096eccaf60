import Foundation

/// A fresh directory under this test process's scratch folder, unique per call.
///
/// Every such directory lives in one folder per process, removed when the process exits
/// (`atexit`), so a run of the suite leaves nothing behind in the system's temporary
/// folder. Set `WJ_KEEP_TEST_DIRECTORIES=1` to keep them for a look after a failure; the
/// folder's path is then printed at exit.
package func makeTemporaryDirectory(_ label: String = "test") throws -> URL {
  let url = TestScratch.root
    .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

enum TestScratch {
  /// Made on first use; `removeAtExit` is registered at the same time.
  static let root: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "workout-journal-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)",
      isDirectory: true
    )
    atexit { TestScratch.removeAtExit() }
    return root
  }()

  private static func removeAtExit() {
    if ProcessInfo.processInfo.environment["WJ_KEEP_TEST_DIRECTORIES"] == "1" {
      print("Test directories kept in \(root.path)")
      return
    }
    try? FileManager.default.removeItem(at: root)
  }
}
