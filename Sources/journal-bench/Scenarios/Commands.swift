import Foundation
import JournalCore
import JournalProjections

// B10–B12: fresh `journal` processes of everyday commands on a copy of the generated
// journal, each against the process floor (`journal help`) measured in the same rounds, and
// the peak resident set of each. The first command after the saved state is removed (the
// cold start, a full read) is reported too.

extension Bench {
  func commandScenarios(size: Int) throws {
    let binary = executableDirectory.appendingPathComponent("journal")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      report.log("B10–B12: skipped: no '\(binary.path)'; build the 'journal' product too")
      return
    }
    let generated = try journal(size: size)
    let url = scratch.appendingPathComponent("commands-\(size)")
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.copyItem(at: generated.url, to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let run = { (arguments: [String]) in
      try Self.runMeasured(binary, arguments + ["--journal", url.path])
    }

    // The cold start: no saved state, so the first command reads everything and saves it.
    try? FileManager.default.removeItem(at: url.appendingPathComponent(SavedState.folder))
    let coldStart = Date()
    let cold = try run(["status", "--json"])
    let coldSeconds = Date().timeIntervalSince(coldStart)
    guard
      let latest = try JSONSerialization.jsonObject(with: Data(cold.output.utf8)) as? [String: Any],
      let split = latest["splitID"] as? String,
      let logs = latest["logs"] as? [[String: Any]],
      let exercise = logs.first?["exerciseName"] as? String, let workout = latest["id"] as? String
    else { throw BenchError("B10: the latest workout names no split or exercise") }
    _ = try run(["start", split, "--device", "bench", "--time-zone", "UTC"])

    var peaks: [String: Int] = ["status (cold start)": cold.peakKilobytes]
    let measured = { (name: String, arguments: [[String]]) in
      {
        var peak = 0
        let seconds = try time {
          for command in arguments { peak = max(peak, try run(command).peakKilobytes) }
        }
        peaks[name] = max(peaks[name] ?? 0, peak)
        return seconds
      }
    }
    let commands: [(String, [[String]])] = [
      ("help", [["help"]]),
      ("done + undo", [["done", "--device", "bench"], ["undo", "--device", "bench"]]),
      ("status", [["status"]]),
      ("today", [["today"]]),
      ("history", [["history", workout]]),
      ("records --exercise (whole history)", [["records", "--exercise", exercise]]),
    ]
    let samples = try measure(size: size, commands.map { measured($0.0, $0.1) })
    let floor = samples[0]
    for (index, (name, arguments)) in commands.enumerated().dropFirst() {
      let budget: Budget
      switch (name, size >= Self.largeSize) {
      case ("done + undo", true): budget = .atMost(6)  // two processes, each ≤ 3× the floor
      case ("status", true), ("today", true), ("history", true): budget = .atMost(3)
      default: budget = .none
      }
      report.add(
        Result(
          scenario: name == "done + undo" ? "B10" : "B11",
          name: "command.\(name.split(separator: " ").first ?? "")",
          size: size,
          subject: "journal " + arguments.map { $0.first ?? "" }.joined(separator: " + "),
          baseline: "journal help\(arguments.count > 1 ? " ×\(arguments.count)" : "")",
          ratios: Samples(
            values: zip(samples[index].values, floor.values).map {
              $0 / ($1 * Double(arguments.count))
            }
          ),
          subjectSeconds: samples[index],
          baselineSeconds: floor,
          budget: budget,
          notes: ["peak \(peaks[name].map { "\($0 / 1024) MB" } ?? "?")"]
        )
      )
    }
    for (name, kilobytes) in peaks.sorted(by: { $0.key < $1.key }) {
      let megabytes = Double(kilobytes) / 1024
      let whole = name.contains("whole history") || name.contains("cold")
      report.add(
        Result(
          scenario: "B12",
          name: "memory.\(name.split(separator: " ").first ?? "")",
          size: size,
          subject: "peak RSS, journal \(name)",
          baseline: "1 MB",
          ratios: Samples(values: [megabytes]),
          subjectSeconds: Samples(values: [megabytes]),
          baselineSeconds: Samples(values: [1]),
          budget: size >= Self.largeSize && !whole ? .atMost(40) : .none,
          unit: " MB",
          notes: name.contains("cold") ? ["cold start \(formatSeconds(coldSeconds))"] : []
        )
      )
    }
  }
}
