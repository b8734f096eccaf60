import Foundation
import Testing

/// Headless Chromium, as Debian installs it (`chromium`), run on a local file.
///
/// Each run is a fresh process with its own profile folder, no sandbox (containers refuse
/// one) and no GPU. Console messages reach standard error through `--enable-logging=stderr`
/// as lines with `:CONSOLE`.
struct Chromium {
  let executable: URL

  /// Where Debian puts it, or `$CHROMIUM`.
  static func find() -> Chromium? {
    var candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium"]
    if let path = ProcessInfo.processInfo.environment["CHROMIUM"] { candidates.insert(path, at: 0) }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map {
      Chromium(executable: URL(fileURLWithPath: $0))
    }
  }

  /// Whether the browser tests run: Chromium is here, or `WJ_REQUIRE_SHELLS=1` (CI) says it
  /// must be, so that a missing one fails instead of skipping.
  static var isRequiredOrPresent: Bool {
    ProcessInfo.processInfo.environment["WJ_REQUIRE_SHELLS"] == "1" || find() != nil
  }

  /// What one run printed.
  struct Run {
    var status: Int32
    var out: Data
    var err: String

    /// The page's console messages (errors, warnings, logs) as Chromium logged them.
    var consoleLines: [String] {
      err.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
    }
  }

  /// Runs Chromium headless on `page` with `arguments` before it (such as `--dump-dom`).
  func run(_ arguments: [String], page: URL, in folder: URL) throws -> Run {
    let profile = folder.appendingPathComponent("profile-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = executable
    process.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
        "--disable-extensions", "--enable-logging=stderr", "--v=0",
        "--user-data-dir=\(profile.path)",
      ] + arguments + [page.absoluteString]
    process.currentDirectoryURL = folder
    // Files rather than pipes: nothing can block on a full pipe.
    let name = UUID().uuidString
    let outURL = folder.appendingPathComponent("\(name).out")
    let errURL = folder.appendingPathComponent("\(name).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    defer {
      try? out.close()
      try? err.close()
    }
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus,
      out: try Data(contentsOf: outURL),
      err: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
    )
  }

  /// The width and height of a PNG file, from its header.
  static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data.prefix(24))
    guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    else { return nil }
    func int(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (int(16), int(20))
  }
}
