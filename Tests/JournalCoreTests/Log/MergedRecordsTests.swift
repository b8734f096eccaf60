import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

/// The merge read a few segments at a time gives what reading every device whole gives.
@Suite struct MergedRecordsTests {
  /// A journal of `devices` with small segments, redelivered events, and (by seed) a torn
  /// tail, a corrupt record and a sync artefact.
  func makeJournal(seed: UInt64, devices: [String]) throws -> EventLog {
    let log = try makeLog("merged-\(seed)")
    let clock = ManualClock()
    var random = SplitMix64(seed: seed)
    let writers = try devices.map {
      try log.openWriter(
        device: $0,
        options: testOptions(
          clock: clock,
          step: 0,
          seed: random.next(),
          segmentSizeLimit: 400 + Int(random.next() % 1_200)
        )
      )
    }
    var written: [NewEvent] = []
    for n in 0..<Int(60 + random.next() % 140) {
      clock.now += Int64(random.next() % 9) - 3
      let writer = writers[Int(random.next() % UInt64(writers.count))]
      // Now and then another device's event arrives again (a redelivery).
      if !written.isEmpty, random.next() % 10 == 0 {
        try writer.append(written[Int(random.next() % UInt64(written.count))])
      } else {
        var event = sampleEvent(n)
        event.id = ULID(high: random.next(), low: random.next())
        written.append(event)
        try writer.append(event)
      }
    }
    for writer in writers { writer.close() }
    let files = try devices.map { device in
      try FileManager.default.contentsOfDirectory(atPath: log.deviceFolder(device).path)
        .filter { $0.hasSuffix(".jsonl") }.sorted()
    }
    if seed % 2 == 1, let last = files[0].last {
      // A torn tail on the first device.
      let url = log.deviceFolder(devices[0]).appendingPathComponent(last)
      let handle = try FileHandle(forWritingTo: url)
      try handle.seekToEnd()
      if seed % 5 == 1 {
        // Longer: lines that do not decode, then a partial one.
        for n in 0..<3 {
          try handle.write(contentsOf: Data((String(repeating: "x", count: 90 * n) + "\n").utf8))
        }
      }
      try handle.write(contentsOf: Data(#"{"v":1,"id":"01H"#.utf8))
      try handle.close()
    }
    if seed % 3 == 0, files[1].count > 2 {
      // A corrupt record in the middle of the second device: its history stops there.
      let url = log.deviceFolder(devices[1]).appendingPathComponent(files[1][1])
      var bytes = try Data(contentsOf: url)
      bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "7") ? 0x38 : 0x37
      try bytes.write(to: url)
    }
    if seed % 4 == 2 {
      try Data("copy".utf8).write(
        to: log.deviceFolder(devices[0]).appendingPathComponent("000001 (conflicted copy).jsonl")
      )
    }
    return log
  }

  @Test(arguments: 0..<16 as Range<UInt64>)
  func streamedMergeMatchesTheWholeRead(seed: UInt64) throws {
    let log = try makeJournal(seed: seed, devices: ["phone", "watch", "ipad"])
    let whole = try log.readHistory()
    var random = SplitMix64(seed: seed ^ 0xBA7C4)
    var merged = try log.mergedRecords()
    // Runs of a few records, decoded in chunks of one or more.
    merged.runLength = 1 + Int(seed % 9)
    // Windows shorter than a line (read longer), of a few lines, and the default.
    merged.windowSize = [1, 40, 250, 333, 700, 1_500, 1 << 20][Int(seed % 7)]
    var records: [EventRecord] = []
    while case let batch = try merged.next(1 + Int(random.next() % 40)), !batch.isEmpty {
      records += batch
    }
    #expect(records.count > 0)
    #expect(records == whole.records)
    // Read again as far, skipping the copies the first read found, without remembering ids.
    var again = try log.mergedRecords(limits: merged.counts, skipping: merged.duplicates)
    again.runLength = 1 + Int(seed % 5)
    var second: [EventRecord] = []
    while case let batch = try again.next(1 + Int(random.next() % 60)), !batch.isEmpty {
      second += batch
    }
    #expect(second == whole.records)
    #expect(again.duplicates == whole.duplicates)
    if var stale = whole.duplicates.first {
      // A copy whose place now holds another id is handed on.
      stale.id = ULID(milliseconds: 1, randomHigh: 0, randomLow: 0)
      var changed = try log.mergedRecords(limits: merged.counts, skipping: [stale])
      let all = try changed.next(.max)
      #expect(all.count == whole.records.count + whole.duplicates.count)
      #expect(changed.duplicates.isEmpty)
    }
    // The reference: every device's records in file order, the devices in name order, sorted
    // stably by time (each device's clock only goes forward), each event id kept the first
    // time it comes.
    var reference: [EventRecord] = []
    for device in ["ipad", "phone", "watch"] { reference += try log.readDevice(device).records }
    var seen = Set<ULID>()
    reference = reference.enumerated()
      .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
      .map(\.element)
      .filter { seen.insert($0.id).inserted }
    #expect(whole.records == reference)
    #expect(merged.duplicates == whole.duplicates)
    #expect(merged.notices == whole.notices)
    #expect(merged.errors == whole.errors)
    #expect(merged.positions == whole.positions)
    if seed % 10 != 0 { #expect(!whole.duplicates.isEmpty) }
    if seed % 2 == 1 {
      let torn = whole.notices.first { $0.kind == .tornTailNotRead }
      #expect(torn?.byteCount == (seed % 5 == 1 ? 16 + 3 + 90 + 180 : 16))
    }
    if seed % 3 == 0 { #expect(!whole.errors.isEmpty) }
    if seed % 4 == 2 { #expect(whole.notices.contains { $0.kind == .syncArtefactIgnored }) }
  }

  @Test func limitsStopEachDeviceWhereAnEarlierReadStopped() throws {
    let log = try makeJournal(seed: 4, devices: ["phone", "watch"])
    var first = try log.mergedRecords()
    let before = try first.next(.max)
    let counts = first.counts
    #expect(counts.values.reduce(0, +) == before.count + first.duplicates.count)

    // More records on both devices, and a new device.
    let clock = ManualClock(1_900_000_000_000)
    for (offset, device) in ["phone", "watch", "ipad"].enumerated() {
      let writer = try log.openWriter(
        device: device,
        options: testOptions(clock: clock, seed: 90 + UInt64(offset), segmentSizeLimit: 500)
      )
      try writer.append((0..<30).map { sampleEvent(1_000 + $0) })
      writer.close()
    }
    var again = try log.mergedRecords(limits: counts)
    again.runLength = 8
    var records: [EventRecord] = []
    while case let batch = try again.next(7), !batch.isEmpty { records += batch }
    #expect(records == before)
    #expect(again.counts == counts.merging(["ipad": 0]) { old, _ in old })
    #expect(try log.readHistory().records.count == before.count + 90)
  }

  @Test func anEmptyJournalMergesToNothing() throws {
    let log = try makeLog()
    var merged = try log.mergedRecords()
    #expect(try merged.next(10).isEmpty)
    #expect(merged.notices.isEmpty && merged.errors.isEmpty && merged.counts.isEmpty)
  }

  /// A segment that cannot be read (an I/O error on the n-th read) ends the streamed read
  /// with an error naming the file, as it ends a whole read; nothing crashes.
  @Test(arguments: 1...6)
  func aFailedSegmentReadIsAnErrorNamingItsFile(call: Int) throws {
    let source = try makeJournal(seed: 4, devices: ["phone", "watch"])
    for whole in [false, true] {
      let faulty = FaultyFileIO()
      let log = try EventLog(at: source.url, fileIO: faulty)
      faulty.inject(.read, call: call, .fail(EIO))
      do {
        if whole {
          _ = try log.readHistory()
        } else {
          var merged = try log.mergedRecords()
          // Windows of a few lines: a failed read can come in the middle of a segment.
          merged.windowSize = 200
          while case let batch = try merged.next(25), !batch.isEmpty {}
        }
        Issue.record("read \(call) failed but the \(whole ? "whole" : "streamed") read did not")
      } catch let error as JournalError {
        #expect(error.kind == .io)
        #expect(error.file?.hasPrefix("devices/") == true, "\(error)")
      }
    }
  }
}
