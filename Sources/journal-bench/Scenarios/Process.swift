import Foundation
import JournalCore
import JournalProjections

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// B6: a fresh `journal today` process on the journal, against the same binary printing its
// help (the floor of starting a process). B8: the peak resident set of a full rebuild, in a
// child process, for the journal and for the same workouts with 10× the undo/redo churn.

extension Bench {
  func coldStartScenario(size: Int) throws {
    let generated = try journal(size: size)
    let binary = executableDirectory.appendingPathComponent("journal")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      report.log("B6: skipped: no '\(binary.path)'; build the 'journal' product too")
      return
    }
    let today = {
      try time { try Self.runProcess(binary, ["today", "--journal", generated.url.path]) }
    }
    let help = { try time { try Self.runProcess(binary, ["help"]) } }
    // The first `today` on a journal finds no cache: it reads the whole history and writes
    // the cache (`.cache/today`), which every later one starts from.
    try? FileManager.default.removeItem(
      at: generated.url.appendingPathComponent(TodayCache.folder)
    )
    let first = try today()
    let samples = try measure(size: size, [help, today])
    report.add(
      Result(
        scenario: "B6",
        name: "coldStart.today",
        size: size,
        subject: "journal today",
        baseline: "50 ms",
        ratios: Samples(values: samples[1].values.map { $0 * 1000 }),
        subjectSeconds: samples[1],
        baselineSeconds: Samples(values: samples[1].values.map { _ in 0.05 }),
        budget: size >= 1_000_000 ? .atMost(50) : .none,
        unit: " ms",
        notes: [
          "process floor (journal help) \(formatSeconds(samples[0].median))",
          "first run, no cache yet: \(formatSeconds(first))",
        ]
      )
    )
  }

  func memoryScenario(size: Int) throws {
    let base = try journal(size: size)
    let churned = try journal(size: size, churn: true)
    var peaks: [Samples] = []
    for (generated, key) in [(base, "\(size)"), (churned, "\(size)-churn")] {
      var kilobytes = Samples()
      // The first rebuild into the folder writes every document (B4 may have done it
      // already); the later ones fold and encode everything and find the bytes unchanged.
      let output = scratch.appendingPathComponent("rebuild-full-\(key)")
      // Peak memory hardly varies between runs: at most 3 runs per journal, 1 at 1M and in
      // the smoke run.
      let runs = size >= Self.largeSize || options.quick ? 1 : min(3, options.repetitions)
      for _ in 0..<runs {
        let printed = try Self.runProcess(
          URL(fileURLWithPath: CommandLine.arguments[0]),
          ["--rss-child", generated.url.path, output.path]
        )
        guard let value = Double(printed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
          throw BenchError("the memory child printed '\(printed)'")
        }
        kilobytes.values.append(value)
      }
      peaks.append(kilobytes)
    }
    let megabytes = { (samples: Samples) in String(format: "%.0f MB", samples.median / 1024) }
    report.add(
      Result(
        scenario: "B8",
        name: "memory.rebuild.full",
        size: size,
        subject: "peak RSS",
        baseline: "1 MB",
        ratios: Samples(values: peaks[0].values.map { $0 / 1024 }),
        subjectSeconds: Samples(values: peaks[0].values.map { _ in .nan }),
        baselineSeconds: Samples(values: peaks[0].values.map { _ in .nan }),
        budget: .none,
        unit: " MB",
        notes: ["\(base.events) events, \(base.workouts) workouts"]
      )
    )
    report.add(
      Result(
        scenario: "B8",
        name: "memory.rebuild.churn10x",
        size: size,
        subject: "peak RSS, 10× undo/redo",
        baseline: "peak RSS",
        ratios: ratios(peaks[1], peaks[0]),
        subjectSeconds: Samples(values: peaks[1].values.map { _ in .nan }),
        baselineSeconds: Samples(values: peaks[0].values.map { _ in .nan }),
        budget: .atMost(1.05),
        notes: [
          "\(megabytes(peaks[1])) vs \(megabytes(peaks[0]))",
          "\(churned.events) vs \(base.events) events, \(churned.workouts) workouts",
        ]
      )
    )
  }

  /// Runs `executable` to its end and returns its standard output; throws when it fails.
  @discardableResult
  static func runProcess(_ executable: URL, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError(
        "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) "
          + "exited with \(process.terminationStatus)"
      )
    }
    return String(decoding: data, as: UTF8.self)
  }
}

/// The child of the memory scenario.
enum MemoryChild {
  /// Opens the journal, rebuilds every document into `output`, and returns the peak resident
  /// set size in kilobytes.
  static func run(journal url: URL, output: URL) throws -> Int {
    let journal = try Journal(store: try FileEventStore(url: url), newID: readOnlyID)
    try Rebuild.run(journal: journal, output: output, full: true)
    return peakResidentKilobytes()
  }

  static func peakResidentKilobytes() -> Int {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
      for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.dropFirst(6).filter(\.isNumber)
        if let kilobytes = Int(digits) { return kilobytes }
      }
    }
    #endif
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    #if canImport(Darwin)
    return Int(usage.ru_maxrss) / 1024  // bytes on Apple platforms
    #else
    return Int(usage.ru_maxrss)  // kilobytes on Linux
    #endif
  }
}
