import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The times of one repeated measurement, in seconds.
struct Samples: Sendable {
  var values: [Double] = []

  var median: Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  var min: Double { values.min() ?? .nan }
  var max: Double { values.max() ?? .nan }
}

/// How a ratio is judged against its budget.
enum Budget: Sendable {
  /// The ratio must be at most this.
  case atMost(Double)
  /// The ratio must be at least this.
  case atLeast(Double)
  /// Reported only.
  case none

  func met(_ value: Double) -> Bool? {
    switch self {
    case .atMost(let limit): value <= limit
    case .atLeast(let limit): value >= limit
    case .none: nil
    }
  }

  var description: String {
    switch self {
    case .atMost(let limit): "≤ \(format(limit))"
    case .atLeast(let limit): "≥ \(format(limit))"
    case .none: "–"
    }
  }
}

/// One line of the results: a subject against its baseline, as a ratio.
struct Result: Sendable {
  var scenario: String
  var name: String
  var size: Int?
  var subject: String
  var baseline: String
  /// Per-repetition subject/baseline ratios.
  var ratios: Samples
  var subjectSeconds: Samples
  var baselineSeconds: Samples
  var budget: Budget
  /// How the figure reads: `×` for a ratio, or a unit for an absolute figure.
  var unit = "×"
  /// Extra figures: events/s, bytes, counts.
  var notes: [String] = []

  var verdict: String {
    switch budget.met(ratios.median) {
    case nil: "info"
    case true?: "met"
    case false?: "MISSED"
    }
  }
}

/// Runs each of `bodies` once per repetition, rotating which goes first, and returns the
/// seconds each reported.
func interleave(
  repetitions: Int,
  warmUp: Bool = true,
  _ bodies: [() throws -> Double]
) throws -> [Samples] {
  if warmUp { for body in bodies { _ = try body() } }
  var samples = Array(repeating: Samples(), count: bodies.count)
  for repetition in 0..<repetitions {
    for step in 0..<bodies.count {
      let index = (repetition + step) % bodies.count
      samples[index].values.append(try bodies[index]())
    }
  }
  return samples
}

/// Pairs two series of the same repetitions into ratios.
func ratios(_ subject: Samples, _ baseline: Samples) -> Samples {
  Samples(values: zip(subject.values, baseline.values).map { $0 / $1 })
}

/// The processor time (user and system) this process has used, in seconds.
func processorSeconds() -> Double {
  var usage = rusage()
  #if canImport(Glibc)
  getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
  getrusage(RUSAGE_SELF, &usage)
  #endif
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  return user + system
}

/// The seconds `body` takes.
func time(_ body: () throws -> Void) rethrows -> Double {
  let start = ContinuousClock.now
  try body()
  return seconds(since: start)
}

/// The seconds since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
  let elapsed = ContinuousClock.now - start
  let (whole, attoseconds) = elapsed.components
  return Double(whole) + Double(attoseconds) / 1e18
}

// MARK: - Formatting

func format(_ value: Double) -> String {
  guard value.isFinite else { return "–" }
  if value >= 100 { return String(format: "%.0f", value) }
  if value >= 10 { return String(format: "%.1f", value) }
  if value >= 0.1 { return String(format: "%.2f", value) }
  return String(format: "%.3f", value)
}

func formatSeconds(_ value: Double) -> String {
  guard value.isFinite else { return "–" }
  if value >= 1 { return String(format: "%.2f s", value) }
  if value >= 1e-3 { return String(format: "%.2f ms", value * 1e3) }
  return String(format: "%.1f µs", value * 1e6)
}

func formatCount(_ value: Double) -> String {
  guard value.isFinite else { return "–" }
  if value >= 1e6 { return String(format: "%.2fM", value / 1e6) }
  if value >= 1e3 { return String(format: "%.0fk", value / 1e3) }
  return String(format: "%.0f", value)
}

func formatSize(_ size: Int) -> String {
  if size >= 1_000_000 && size % 1_000_000 == 0 { return "\(size / 1_000_000)M" }
  if size >= 1_000 && size % 1_000 == 0 { return "\(size / 1_000)k" }
  return String(size)
}

/// Collects the results and prints them as a table or as JSON.
final class Report {
  private(set) var results: [Result] = []
  let quiet: Bool

  init(quiet: Bool) { self.quiet = quiet }

  func add(_ result: Result) {
    results.append(result)
    guard !quiet else { return }
    var line = "  \(result.name): \(format(result.ratios.median))\(result.unit)"
    line += " [\(format(result.ratios.min))–\(format(result.ratios.max))]"
    line += " budget \(result.budget.description) \(result.verdict)"
    line += " · \(result.subject) \(formatSeconds(result.subjectSeconds.median))"
    line += " vs \(result.baseline) \(formatSeconds(result.baselineSeconds.median))"
    if !result.notes.isEmpty { line += " · " + result.notes.joined(separator: ", ") }
    log(line)
  }

  func log(_ text: String) {
    guard !quiet else { return }
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  func table() -> String {
    var lines = [
      "| scenario | size | ratio (median) | min–max | budget | verdict | subject | baseline | notes |",
      "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results {
      let size = r.size.map(formatSize) ?? "–"
      lines.append(
        "| \(r.name) | \(size) | \(format(r.ratios.median))\(r.unit) | "
          + "\(format(r.ratios.min))–\(format(r.ratios.max)) | \(r.budget.description) | "
          + "\(r.verdict) | \(r.subject) \(formatSeconds(r.subjectSeconds.median)) | "
          + "\(r.baseline) \(formatSeconds(r.baselineSeconds.median)) | "
          + "\(r.notes.joined(separator: ", ")) |"
      )
    }
    return lines.joined(separator: "\n")
  }

  func json(machine: [String: String]) throws -> String {
    var entries: [[String: Any]] = []
    for r in results {
      var entry: [String: Any] = [
        "scenario": r.scenario,
        "name": r.name,
        "subject": r.subject,
        "baseline": r.baseline,
        "ratio": ["median": r.ratios.median, "min": r.ratios.min, "max": r.ratios.max],
        "subjectSeconds": r.subjectSeconds.values,
        "baselineSeconds": r.baselineSeconds.values,
        "verdict": r.verdict,
        "unit": r.unit,
        "notes": r.notes,
      ]
      if let size = r.size { entry["size"] = size }
      switch r.budget {
      case .atMost(let limit): entry["budget"] = ["atMost": limit]
      case .atLeast(let limit): entry["budget"] = ["atLeast": limit]
      case .none: break
      }
      entries.append(entry)
    }
    let document: [String: Any] = ["machine": machine, "results": entries]
    let data = try JSONSerialization.data(
      withJSONObject: sanitized(document),
      options: [.prettyPrinted, .sortedKeys]
    )
    return String(decoding: data, as: UTF8.self)
  }

  /// JSON has no NaN: missing figures become null.
  private func sanitized(_ value: Any) -> Any {
    switch value {
    case let number as Double: return number.isFinite ? number : NSNull()
    case let array as [Any]: return array.map(sanitized)
    case let object as [String: Any]: return object.mapValues(sanitized)
    default: return value
    }
  }
}

/// The folder a run writes in: the one named with `--dir` (kept afterwards), or a fresh one
/// in the temporary folder, which ``remove()`` deletes.
struct ScratchFolder {
  let url: URL
  private let isOwned: Bool

  init(named directory: URL?, prefix: String) throws {
    if let directory {
      url = directory
      isOwned = false
    } else {
      url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(ProcessInfo.processInfo.processIdentifier)")
      isOwned = true
    }
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Deletes the folder when the run made it.
  func remove() {
    if isOwned { try? FileManager.default.removeItem(at: url) }
  }
}

/// What the JSON output says of the machine and the build, plus `extra`.
func machineDescription(_ extra: [String: String]) -> [String: String] {
  var info = [
    "processors": String(ProcessInfo.processInfo.activeProcessorCount),
    "memoryBytes": String(ProcessInfo.processInfo.physicalMemory),
    "os": ProcessInfo.processInfo.operatingSystemVersionString,
  ]
  #if DEBUG
  info["build"] = "debug"
  #else
  info["build"] = "release"
  #endif
  return info.merging(extra) { $1 }
}
