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
    // The generated story runs from 1980 into this century's second half (85 years at 1M):
    // ask about a day after its end, as a lifter asks about the present.
    let arguments = ["today", "--as-of", "2100-01-01T12:00:00Z", "--journal", generated.url.path]
    let today = { try time { try Self.runProcess(binary, arguments) } }
    let help = { try time { try Self.runProcess(binary, ["help"]) } }
    // The first `today` on a journal finds no saved state: it reads the whole history and
    // saves it, which every later command starts from.
    try? FileManager.default.removeItem(
      at: generated.url.appendingPathComponent(SavedState.folder)
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
          "first run, no saved state yet: \(formatSeconds(first))",
        ]
      )
    )
  }

  func memoryScenario(size: Int) throws {
    let base = try journal(size: size)
    let churned = try journal(size: size, churn: true)
    var peaks: [Samples] = []
    // The peaks of the runs that wrote every document into an empty folder, by journal.
    var firstWrites: [String] = []
    let megabytes = { (samples: Samples) in String(format: "%.0f MB", samples.median / 1024) }
    for (generated, key) in [(base, "\(size)"), (churned, "\(size)-churn")] {
      // The first rebuild into a folder writes every document, holding their bytes, and the
      // later ones fold and encode everything and find the bytes unchanged: the two journals
      // are compared in the same case, the later one. A folder that B4 or B5 did not fill is
      // filled first by a run of its own, whose peak is reported apart.
      let output = scratch.appendingPathComponent("rebuild-full-\(key)")
      let run = {
        let printed = try Self.runProcess(
          URL(fileURLWithPath: CommandLine.arguments[0]),
          ["--rss-child", generated.url.path, output.path]
        )
        guard let value = Double(printed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
          throw BenchError("the memory child printed '\(printed)'")
        }
        return value
      }
      if !FileManager.default.fileExists(atPath: output.path) {
        let first = try run()
        firstWrites.append("\(key) \(megabytes(Samples(values: [first]))) writing every document")
      }
      // Peak memory hardly varies between runs: at most 3 runs per journal, 1 at 1M and in
      // the smoke run.
      let runs = size >= Self.largeSize || options.quick ? 1 : min(3, options.repetitions)
      peaks.append(Samples(values: try (0..<runs).map { _ in try run() }))
    }
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
        ] + firstWrites
      )
    )
  }

  /// Runs `executable` to its end and returns its standard output; throws when it fails.
  ///
  /// Spawned with `posix_spawn` and reaped with `waitpid` rather than through Foundation's
  /// `Process`, whose wait adds tens of milliseconds here: B6 times the child, not the
  /// parent's bookkeeping.
  @discardableResult
  static func runProcess(_ executable: URL, _ arguments: [String]) throws -> String {
    try runMeasured(executable, arguments).output
  }

  /// The peak resident set in kilobytes of `executable` run with `arguments`, started from a
  /// small go-between (`journal-bench --peak-rss`; see main.swift): a child's peak counts the
  /// memory it shared with its parent before it started the command, and the benchmark
  /// itself holds far more than a command.
  static func peak(_ executable: URL, _ arguments: [String]) throws -> Int {
    let printed = try runProcess(
      URL(fileURLWithPath: CommandLine.arguments[0]),
      ["--peak-rss", executable.path] + arguments
    )
    guard let last = printed.split(separator: "\n").last, last.hasPrefix("peak-rss "),
      let kilobytes = Int(last.dropFirst(9))
    else { throw BenchError("the go-between printed '\(printed.suffix(200))'") }
    return kilobytes
  }

  /// Runs `executable` to its end, and returns what it printed (empty unless
  /// `keepingOutput`) and its peak resident set in kilobytes.
  static func runMeasured(
    _ executable: URL,
    _ arguments: [String],
    keepingOutput: Bool = true
  ) throws -> (output: String, peakKilobytes: Int) {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw BenchError("pipe failed: errno \(errno)") }
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t? = nil
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, executable.path, &actions, nil, argv, environ)
    close(pipeEnds[1])
    defer { close(pipeEnds[0]) }
    guard spawned == 0 else {
      throw BenchError("cannot start \(executable.lastPathComponent): errno \(spawned)")
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
      if count > 0 {
        if keepingOutput { output += buffer[..<count] }
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
    // Exited normally (low 7 bits zero) with status 0 (the next 8 bits).
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      throw BenchError(
        "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) "
          + "ended with wait status \(status)"
      )
    }
    #if canImport(Darwin)
    let peak = Int(usage.ru_maxrss) / 1024  // bytes on Apple platforms
    #else
    let peak = Int(usage.ru_maxrss)  // kilobytes on Linux
    #endif
    return (String(decoding: output, as: UTF8.self), peak)
  }
}

/// The child of the memory scenario.
enum MemoryChild {
  /// Rebuilds every document of the journal into `output` as `journal rebuild --full` does
  /// (reading the history as it folds it), and returns the peak resident set size in
  /// kilobytes.
  static func run(journal url: URL, output: URL) throws -> Int {
    let history = try StreamedHistory(store: try FileEventStore(url: url))
    try Rebuild.run(streamed: history, output: output)
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
