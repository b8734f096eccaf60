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

// B1 and B2: durable appends against a raw write + flush of the same bytes, on the same disk.

extension Bench {
  func appendScenarios() throws {
    let folder = try freshFolder("append")
    let appendsPerRepetition = options.quick ? 20 : 40
    let batch = 64
    let events = Self.sampleEvents(count: max(appendsPerRepetition, batch))

    // The baseline's bytes: the same events as a writer encodes them.
    let lines = try Self.encodedLines(events, in: folder.appendingPathComponent("encoded"))

    let log = try EventLog.create(at: folder.appendingPathComponent("journal"))
    let writer = try log.openWriter(device: "phone")
    defer { writer.close() }
    let rawPath = folder.appendingPathComponent("raw.jsonl").path
    let raw = open(rawPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard raw >= 0 else { throw BenchError("cannot open \(rawPath)") }
    defer { close(raw) }
    let batchBytes = lines.prefix(batch).flatMap { $0 }

    // Single appends go in pairs, the raw one and the writer's taking turns at going first,
    // so that both see the same disk from one moment to the next.
    var pairedRaw: [Double] = []
    // The processor time of each side (user and system), per append: what the ratio holds
    // besides the flush, which varies from host to host far more.
    var journalCPU = Samples()
    var rawCPU = Samples()
    let pairs = {
      var rawSeconds = 0.0
      var journalSeconds = 0.0
      var rawProcessor = 0.0
      var journalProcessor = 0.0
      for index in 0..<appendsPerRepetition {
        let rawFirst = (index + pairedRaw.count) % 2 == 0
        var cpu = processorSeconds()
        if rawFirst {
          rawSeconds += time { writeAndFlush(raw, lines[index]) }
          rawProcessor += processorSeconds() - cpu
          cpu = processorSeconds()
        }
        journalSeconds += try time { try writer.append(events[index]) }
        journalProcessor += processorSeconds() - cpu
        if !rawFirst {
          cpu = processorSeconds()
          rawSeconds += time { writeAndFlush(raw, lines[index]) }
          rawProcessor += processorSeconds() - cpu
        }
      }
      pairedRaw.append(rawSeconds / Double(appendsPerRepetition))
      rawCPU.values.append(rawProcessor / Double(appendsPerRepetition))
      journalCPU.values.append(journalProcessor / Double(appendsPerRepetition))
      return journalSeconds / Double(appendsPerRepetition)
    }
    let journalBatch = {
      try time { try writer.append(Array(events.prefix(batch))) } / Double(batch)
    }
    let rawBatch = { time { writeAndFlush(raw, batchBytes) } / Double(batch) }
    let samples = try measure(size: nil, [pairs, journalBatch, rawBatch])
    // The warm-up's pair is not a sample.
    let rawOneTimes = Samples(values: Array(pairedRaw.suffix(samples[0].values.count)))
    let journalOneCPU = Samples(values: Array(journalCPU.values.suffix(samples[0].values.count)))
    let rawOneCPU = Samples(values: Array(rawCPU.values.suffix(samples[0].values.count)))
    let (oneTimes, batchTimes, rawBatchTimes) = (samples[0], samples[1], samples[2])
    let lineBytes =
      lines.prefix(appendsPerRepetition).map(\.count).reduce(0, +)
      / appendsPerRepetition
    if wants("B1") {
      report.add(
        Result(
          scenario: "B1",
          name: "append.durable.one",
          subject: "DeviceWriter.append",
          baseline: "write+fdatasync",
          ratios: ratios(oneTimes, rawOneTimes),
          subjectSeconds: oneTimes,
          baselineSeconds: rawOneTimes,
          budget: .atMost(1.15),
          notes: [
            "\(appendsPerRepetition) appends/rep", "\(lineBytes) B/event",
            "\(formatCount(1 / oneTimes.median)) appends/s",
            "processor time per append \(formatSeconds(journalOneCPU.median)) "
              + "(raw \(formatSeconds(rawOneCPU.median)))",
          ]
        )
      )
    }
    if wants("B2") {
      report.add(
        Result(
          scenario: "B2",
          name: "append.durable.batch64",
          subject: "per event, 64/batch",
          baseline: "per event, 1/batch",
          ratios: ratios(batchTimes, oneTimes),
          subjectSeconds: batchTimes,
          baselineSeconds: oneTimes,
          budget: .atMost(0.05),
          notes: ["\(formatCount(1 / batchTimes.median)) events/s"]
        )
      )
      report.add(
        Result(
          scenario: "B2",
          name: "append.durable.batch64.vsRaw",
          subject: "per event, 64/batch",
          baseline: "raw 64 lines+fdatasync",
          ratios: ratios(batchTimes, rawBatchTimes),
          subjectSeconds: batchTimes,
          baselineSeconds: rawBatchTimes,
          budget: .none
        )
      )
    }
  }

  /// Typical events of a workout: sets completed with actuals.
  static func sampleEvents(count: Int) -> [NewEvent] {
    var ids = ULIDGenerator(random: SplitMix64(seed: 7))
    let workout = ids.next(milliseconds: 1_700_000_000_000).description
    let log = ids.next(milliseconds: 1_700_000_000_000).description
    return (0..<count).map { index in
      let event = JournalEvent.setCompleted(
        SetCompleted(logID: log, actuals: SetActuals(reps: 5 + index % 3, weight: 102.5))
      )
      return NewEvent(
        stream: "workout:\(workout)",
        type: event.typeName,
        version: JournalEvent.currentVersions[event.typeName] ?? 1,
        payload: event.payload
      )
    }
  }

  /// The lines a writer makes of `events`, appended without flushing to a throwaway log.
  static func encodedLines(_ events: [NewEvent], in folder: URL) throws -> [[UInt8]] {
    let log = try EventLog.create(at: folder)
    let writer = try log.openWriter(device: "phone", options: .init(durability: .none))
    try writer.append(events)
    writer.close()
    let segment = log.url.appendingPathComponent("devices/phone/000001.jsonl")
    let bytes = [UInt8](try Data(contentsOf: segment))
    return bytes.split(separator: 0x0A).map { Array($0) + [0x0A] }
  }
}

/// Writes all of `bytes` and flushes them to the drive, as the writer does.
private func writeAndFlush(_ descriptor: Int32, _ bytes: [UInt8]) {
  bytes.withUnsafeBytes { buffer in
    guard let base = buffer.baseAddress else { return }
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, base + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        fatalError("write failed: \(errno)")
      }
      offset += written
    }
  }
  #if canImport(Darwin)
  _ = fcntl(descriptor, F_FULLFSYNC)
  #else
  _ = fdatasync(descriptor)
  #endif
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
