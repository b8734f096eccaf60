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

// B5: an incremental rebuild after one new event against encoding and atomically writing the
// one document that event changes.

extension Bench {
  func incrementalScenario(size: Int) throws {
    let generated = try journal(size: size)
    // A copy: the new events must not reach the journals of the other scenarios.
    let url = scratch.appendingPathComponent("journal-\(size)-incremental")
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.copyItem(at: generated.url, to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let output = scratch.appendingPathComponent("rebuild-incremental-\(size)")
    try? FileManager.default.removeItem(at: output)
    defer { try? FileManager.default.removeItem(at: output) }
    let baselineFolder = try freshFolder("one-document-\(size)")

    let store = try FileEventStore(url: url)
    let newID = idSource()
    // The tree of the full rebuild (B4) of the same events; when B4 did not run, the full
    // rebuild runs (and is reported) here.
    let full = scratch.appendingPathComponent("rebuild-full-\(size)")
    if !FileManager.default.fileExists(atPath: full.path) {
      try fullRebuild(size: size, url: generated.url)
    }
    try FileManager.default.copyItem(at: full, to: output)
    // Brought up to date once from the saved state, untimed (building the state when the
    // journal has none, then folding every stream and finding every document unchanged), so
    // that every measured run starts from a record of the state.
    _ = try Rebuild.run(store: store, output: output)

    var weight = 100.0
    var changedPath = ""
    var lastReport = RebuildReport()
    // Each timed run's phases, for their medians: one run's are as noisy as its flushes.
    var phases: [RebuildReport.Timings] = []
    // The processor time (user and system) of each side, run by run: what the ratio holds
    // besides the flushes, which vary from host to host far more.
    var rebuildCPU: [Double] = []
    var documentCPU: [Double] = []
    // The journal of the last command, as `journal adjust` opens it: from the saved state,
    // which the command keeps up to date.
    var journal = try Journal.open(store: store, scope: .workout(nil), newID: newID)
    // One new event: a correction of the last set of the latest workout, a minute after the
    // journal's last event (a large journal's story runs past today), appended as a command
    // does. Not timed.
    func appendOne() throws {
      journal = try Journal.open(store: store, scope: .workout(nil), newID: newID)
      weight = weight == 100 ? 102.5 : 100
      let now = (journal.state().now ?? Date()).addingTimeInterval(60)
      let events: [FoldEvent]
      do {
        events = try journal.execute(
          .adjustSet(workout: nil, exercise: nil, set: nil, SetActuals(weight: weight)),
          device: "phone",
          now: now
        )
      } catch is CommandError {
        events = try journal.execute(
          .adjustSet(workout: nil, exercise: nil, set: nil, SetActuals(reps: Int(weight) % 7 + 3)),
          device: "phone",
          now: now
        )
      }
      guard let workout = journal.state().workouts[events.first?.streamID ?? ""] else {
        throw BenchError("the adjusted workout is missing")
      }
      changedPath = workout.path
    }
    let incremental = {
      try appendOne()
      let cpu = processorSeconds()
      let seconds = try time {
        lastReport = try Rebuild.run(store: store, output: output)
      }
      rebuildCPU.append(processorSeconds() - cpu)
      phases.append(lastReport.timings)
      return seconds
    }
    let oneDocument = {
      try appendOne()
      let state = journal.state()
      let id = String(changedPath.split(separator: "/").last?.dropLast(5) ?? "")
      guard let workout = state.workouts[id] else { throw BenchError("no workout \(id)") }
      let cpu = processorSeconds()
      let seconds = try time {
        let bytes = try DocumentCoder.encode(workout.renderedDocument(now: state.now ?? Date()))
        try writeAtomically(bytes, to: baselineFolder.appendingPathComponent("document.json"))
      }
      documentCPU.append(processorSeconds() - cpu)
      return seconds
    }
    let samples = try measure(size: size, [oneDocument, incremental])
    guard lastReport.mode == .incremental else {
      throw BenchError(
        "the rebuild was not incremental: \(lastReport.foldedEveryStreamBecause ?? "no record")"
      )
    }
    // The measured runs are the last ones: below 1M, `measure` runs a warm-up first.
    let count = samples[1].values.count
    let timed = phases.suffix(count)
    func median(_ phase: (RebuildReport.Timings) -> Double) -> Double {
      Samples(values: timed.map(phase)).median
    }
    let (fold, encode, write, record) = (
      median(\.fold), median(\.encode), median(\.write), median(\.record)
    )
    // What no phase covers, run by run: opening the saved state (the command that appended
    // the event brought it up to date), clearing temporary files, ending the run.
    let other = Samples(
      values: zip(samples[1].values, timed).map { total, t in
        total - t.fold - t.encode - t.write - t.record
      }
    ).median
    report.add(
      Result(
        scenario: "B5",
        name: "rebuild.incremental.oneEvent",
        size: size,
        subject: "Rebuild.run (incremental)",
        baseline: "encode+atomic write 1 doc",
        ratios: ratios(samples[1], samples[0]),
        subjectSeconds: samples[1],
        baselineSeconds: samples[0],
        budget: .atMost(2),
        notes: [
          "\(lastReport.written.count) written",
          "medians: fold \(formatSeconds(fold))", "encode \(formatSeconds(encode))",
          "write \(formatSeconds(write))", "record \(formatSeconds(record))",
          "other \(formatSeconds(other))",
          "processor time \(formatSeconds(Samples(values: rebuildCPU.suffix(count)).median)) "
            + "(one document \(formatSeconds(Samples(values: documentCPU.suffix(count)).median)))",
          "the event appended by a command that kept the saved state up to date",
        ]
      )
    )
  }

  /// Ids for the events the benchmark appends: ULIDs from the wall clock.
  func idSource() -> () -> String {
    var generator = ULIDGenerator(random: SplitMix64(seed: options.seed ^ 0xB5))
    return { generator.next(milliseconds: Date().milliseconds).description }
  }
}

/// Replaces `url` with `bytes` as the rebuild does: a temporary file, synced, renamed over the
/// document, then the folder synced.
func writeAtomically(_ bytes: Data, to url: URL) throws {
  let temporary = url.path + ".tmp"
  let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  guard descriptor >= 0 else { throw BenchError("cannot create \(temporary)") }
  let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  guard written == bytes.count, fsync(descriptor) == 0 else {
    close(descriptor)
    throw BenchError("cannot write \(temporary)")
  }
  close(descriptor)
  guard rename(temporary, url.path) == 0 else { throw BenchError("cannot rename \(temporary)") }
  let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
  guard folder >= 0 else { throw BenchError("cannot open the folder of \(url.path)") }
  _ = fsync(folder)
  close(folder)
}
