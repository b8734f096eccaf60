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
    let state = url.appendingPathComponent(SavedState.folder)
    let arguments = { (command: [String]) in
      command == ["help"] ? command : command + ["--journal", url.path]
    }
    let run = { (command: [String]) in try Self.runProcess(binary, arguments(command)) }
    let peak = { (command: [String]) -> Int in try Self.peak(binary, arguments(command)) }

    // The cold start: no saved state, so the first command reads everything and saves it.
    try? FileManager.default.removeItem(at: state)
    let coldStart = Date()
    let cold = try run(["status", "--json"])
    let coldSeconds = Date().timeIntervalSince(coldStart)
    try? FileManager.default.removeItem(at: state)
    var peaks: [String: Int] = ["status (cold start)": try peak(["status"])]
    let (workout, exercise, start) = try Self.startAfterTheLast(cold, run: run)
    defer { unsetenv("WORKOUT_NOW") }
    // The other commands an hour later, so that `rewind --to` the start cancels what they did
    // and keeps the workout, and `diff --from` the start shows what they changed.
    setenv("WORKOUT_NOW", (start + 3_600).formatted(.iso8601), 1)
    let point = start.formatted(.iso8601)

    let commands: [(name: String, runs: [[String]])] = [
      ("help", [["help"]]),
      ("done + undo", [["done", "--device", "bench"], ["undo", "--device", "bench"]]),
      (
        "done + undo + redo",
        [
          ["done", "--device", "bench"], ["undo", "--device", "bench"],
          ["redo", "--device", "bench"],
        ]
      ),
      ("done + rewind", [["done", "--device", "bench"], ["rewind", "--to", point]]),
      ("status", [["status"]]),
      ("today", [["today"]]),
      ("history", [["history", workout]]),
      ("records", [["records"]]),
      ("records --exercise", [["records", "--exercise", exercise]]),
      ("chart", [["chart", exercise]]),
      ("blame", [["blame", workout]]),
      ("diff --from", [["diff", "--from", point]]),
    ]
    let samples = try measure(
      size: size,
      commands.map { entry in { try time { for command in entry.runs { _ = try run(command) } } } }
    )
    for (name, runs) in commands {
      for command in runs { peaks[name] = max(peaks[name] ?? 0, try peak(command)) }
    }
    // B12 only: the reads over the whole history, which stream their output (not timed: they
    // take seconds at 1M, not milliseconds). `audit --json` writes what `audit` does, each row
    // through JSONSerialization: minutes at 1M.
    for command in [["audit"], ["export"], ["export", "--format", "ndjson"]] {
      peaks[command.joined(separator: " ")] = try peak(command)
    }
    let floor = samples[0]
    for (index, (name, runs)) in commands.enumerated().dropFirst() {
      let budget: Budget
      switch (name, size >= Self.largeSize) {
      case ("done + undo", true): budget = .atMost(3)  // per process, as the floor is
      case ("status", true), ("today", true), ("history", true), ("records --exercise", true),
        ("chart", true):
        budget = .atMost(3)
      case ("records", true): budget = .atMost(5)
      default: budget = .none
      }
      report.add(
        Result(
          scenario: runs.count > 1 ? "B10" : "B11",
          name: "command." + name.replacingOccurrences(of: " --", with: "-"),
          size: size,
          subject: "journal "
            + runs.map { $0.prefix(2).joined(separator: " ") }.joined(separator: " + "),
          baseline: "journal help\(runs.count > 1 ? " ×\(runs.count)" : "")",
          ratios: Samples(
            values: zip(samples[index].values, floor.values).map {
              $0 / ($1 * Double(runs.count))
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
      let whole = name.contains("cold")
      report.add(
        Result(
          scenario: "B12",
          name: "memory." + name.replacingOccurrences(of: " --", with: "-"),
          size: size,
          subject: "peak RSS, journal \(name)",
          baseline: "–",
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
