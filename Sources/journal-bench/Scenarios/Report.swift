import Foundation
import JournalCore
import JournalProjections

// B13: `journal report` writing the whole journal as one HTML page, against `journal audit
// --json` of the same journal, both fresh processes of the release binary. Each report
// follows a set recorded in a workout after the journal's last, as a lifter's would: the
// report reads its saved state's report index, brought up to date for that year. The first
// report (which fills the index), the page's size and the report's peak resident set are
// noted.

extension Bench {
  func reportScenario(size: Int) throws {
    let binary = executableDirectory.appendingPathComponent("journal")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      report.log("B13: skipped: no '\(binary.path)'; build the 'journal' product too")
      return
    }
    let generated = try journal(size: size)
    let url = scratch.appendingPathComponent("report-\(size)")
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.copyItem(at: generated.url, to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let page = scratch.appendingPathComponent("report-\(size).html")
    defer { try? FileManager.default.removeItem(at: page) }
    let reporting = ["report", "--journal", url.path, "--out", page.path]
    let auditing = ["audit", "--json", "--journal", url.path]
    let run = { (command: [String]) in
      try Self.runProcess(binary, command + ["--journal", url.path])
    }
    // The first command on a copy builds its saved state: done once, before anything is
    // timed; the first report fills the report index.
    _ = try Self.startAfterTheLast(try run(["status", "--json"]), run: run)
    defer { unsetenv("WORKOUT_NOW") }
    let first = try time { try Self.runProcess(binary, reporting) }
    let samples = try measure(
      size: size,
      [
        {
          _ = try run(["done", "--device", "bench"])
          return try time { try Self.runProcess(binary, reporting) }
        },
        { try time { try Self.runProcess(binary, auditing) } },
      ]
    )
    let bytes = (try? FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int) ?? 0
    let peak = try Self.peak(binary, reporting)
    report.add(
      Result(
        scenario: "B13",
        name: "report.page",
        size: size,
        subject: "journal report (one HTML page) after a set",
        baseline: "journal audit --json",
        ratios: ratios(samples[0], samples[1]),
        subjectSeconds: samples[0],
        baselineSeconds: samples[1],
        budget: .none,
        notes: [
          "page \(bytes / 1000) kB", "report \(formatSeconds(samples[0].median))",
          "first report \(formatSeconds(first))", "peak \(peak / 1024) MB",
        ]
      )
    )
  }
}
