import Foundation

/// A fresh directory under the system's temporary folder, unique per call.
public func makeTemporaryDirectory(_ label: String = "test") throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("workout-journal-\(label)-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
