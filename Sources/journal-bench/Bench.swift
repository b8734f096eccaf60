import Foundation
import JournalCore
import JournalProjections

/// One run of the benchmark: the scratch folder, the generated journals, the results.
final class Bench {
  let options: Options
  let report: Report
  let scratch: URL
  private let ownsScratch: Bool
  private var journals: [String: GeneratedJournal] = [:]

  init(options: Options) throws {
    self.options = options
    self.report = Report(quiet: false)
    if let directory = options.directory {
      scratch = directory
      ownsScratch = false
    } else {
      scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("journal-bench-\(ProcessInfo.processInfo.processIdentifier)")
      ownsScratch = true
    }
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  func cleanUp() {
    if ownsScratch { try? FileManager.default.removeItem(at: scratch) }
  }

  var machine: [String: String] {
    var info = [
      "processors": String(ProcessInfo.processInfo.activeProcessorCount),
      "memoryBytes": String(ProcessInfo.processInfo.physicalMemory),
      "os": ProcessInfo.processInfo.operatingSystemVersionString,
      "repetitions": String(options.repetitions),
      "seed": String(options.seed),
    ]
    #if DEBUG
    info["build"] = "debug"
    #else
    info["build"] = "release"
    #endif
    return info
  }

  func wants(_ scenario: String) -> Bool { options.scenarios.contains(scenario) }

  func run() throws {
    #if DEBUG
    report.log("warning: a debug build; measure with -c release")
    #endif
    report.log(
      "journal-bench: sizes \(options.sizes.map(formatSize).joined(separator: ", ")), "
        + "\(options.repetitions) repetitions, scratch \(scratch.path)"
    )
    if wants("B1") || wants("B2") { try appendScenarios() }
    for size in options.sizes {
      if wants("B3") || wants("B7") { try replayScenarios(size: size) }
      if wants("B4") { try encodingScenarios(size: size) }
      if wants("B5") { try incrementalScenario(size: size) }
      if wants("B6") { try coldStartScenario(size: size) }
      if wants("B8") { try memoryScenario(size: size) }
    }
  }

  /// The generated journal of `size` events (`churn`: the same workouts with 10× the
  /// undo/redo), made once per run.
  func journal(size: Int, churn: Bool = false) throws -> GeneratedJournal {
    let key = "\(size)\(churn ? "-churn" : "")"
    if let journal = journals[key] { return journal }
    let url = scratch.appendingPathComponent("journal-\(key)")
    try? FileManager.default.removeItem(at: url)
    var generator = Generator(seed: options.seed)
    let generated: GeneratedJournal
    if churn {
      let base = try journal(size: size)
      generator.undoRate *= 10
      generated = try generator.generate(at: url, workouts: base.workouts)
    } else {
      generated = try generator.generate(at: url, events: size)
    }
    report.log(
      "generated \(key): \(generated.events) events, \(generated.workouts) workouts, "
        + "\(generated.reverts) reverts, \(generated.bytes / 1_000_000) MB "
        + "in \(formatSeconds(generated.seconds))"
    )
    journals[key] = generated
    return generated
  }

  /// The folder of this executable, where `journal` is built too.
  var executableDirectory: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
  }

  /// A fresh, empty folder in the scratch folder.
  func freshFolder(_ name: String) throws -> URL {
    let url = scratch.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

/// Keeps a value alive so that the work producing it is not optimised away.
@inline(never)
func consume<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// A fresh id for journals opened only to read.
func readOnlyID() -> String { "01HZZZZZZZZZZZZZZZZZZZZZZZ" }
