import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A device's files written in two places.
///
/// The sync service keeps one version as the segment and the other as a copy. Both branches are read, every event once, in an order
/// that does not depend on which version the service kept as the original; the device's
/// next append heals the fork (docs/OnDiskFormat.md, "Forks").
@Suite struct ForkTests {}

/// How each service names the copy of `000001.jsonl` it keeps.
enum SyncService: String, CaseIterable, Sendable {
  case dropbox
  case iCloudDrive
  case syncthing

  func copyName(of segment: String) -> String {
    let stem = String(segment.dropLast(".jsonl".count))
    switch self {
    case .dropbox: return "\(stem) (Lifter's MacBook's conflicted copy 2026-01-01).jsonl"
    case .iCloudDrive: return "\(stem) 2.jsonl"
    case .syncthing: return "\(stem).sync-conflict-20260101-120000-ABCDEF.jsonl"
    }
  }
}

/// One seeded fork: a common history on `phone` (and some on `watch`), then two branches of
/// `phone` written apart, as two journal folders.
struct ForkScenario {
  let base: URL
  let first: URL
  let second: URL
  /// Every event id acknowledged anywhere.
  let acknowledged: Set<ULID>
  let firstCount: Int
  let secondCount: Int

  init(seed: UInt64, segmentSizeLimit: Int = 4 << 20) throws {
    var random = SplitMix64(seed: seed)
    func draw(_ range: ClosedRange<Int>) -> Int {
      range.lowerBound + Int(random.next() % UInt64(range.count))
    }
    base = try makeTemporaryDirectory("fork-base")
    let log = try EventLog.create(at: base)
    let start = Int64(1_700_000_000_000)
    let options = { (clock: ManualClock, step: Int64, seed: UInt64) in
      testOptions(clock: clock, step: step, seed: seed, segmentSizeLimit: segmentSizeLimit)
    }
    let common = try append(
      log,
      "phone",
      draw(1...20),
      options(ManualClock(start), 1_000, seed)
    )
    let watch = try append(
      log,
      "watch",
      draw(0...10),
      options(ManualClock(start + 500), 1_000, seed &+ 1)
    )
    // Each branch's clock: sometimes the same readings on both sides, to exercise ties.
    let resume = start + 100_000
    let sameClock = draw(0...2) == 0
    first = try makeTemporaryDirectory("fork-first")
    second = try makeTemporaryDirectory("fork-second")
    for copy in [first, second] {
      try FileManager.default.removeItem(at: copy)
      try FileManager.default.copyItem(at: base, to: copy)
    }
    firstCount = draw(1...50)
    secondCount = draw(1...50)
    let firstRecords = try append(
      EventLog(at: first),
      "phone",
      firstCount,
      options(ManualClock(resume), Int64(draw(1...3_000)), seed &+ 2)
    )
    // The second branch sometimes repeats an event of the first (the same id): it is folded
    // once.
    let repeated = draw(0...1) == 0 ? firstRecords.randomElement(using: &random)?.id : nil
    let secondRecords = try append(
      EventLog(at: second),
      "phone",
      secondCount,
      options(
        ManualClock(sameClock ? resume : resume + Int64(draw(0...5_000))),
        sameClock ? 1 : Int64(draw(1...3_000)),
        seed &+ 3
      ),
      repeating: repeated
    )
    acknowledged = Set((common + watch + firstRecords + secondRecords).map(\.id))
  }

  /// The journal the sync service leaves: `original`'s folder, with the other branch's
  /// segments as copies named by `service`.
  func synced(original isFirst: Bool, service: SyncService) throws -> EventLog {
    let (kept, other) = isFirst ? (first, second) : (second, first)
    let url = try makeTemporaryDirectory("fork-synced")
    try FileManager.default.removeItem(at: url)
    try FileManager.default.copyItem(at: kept, to: url)
    let folder = "devices/phone"
    let names = try FileManager.default.contentsOfDirectory(
      atPath: other.appendingPathComponent(folder).path
    )
    let keptNames = Set(
      try FileManager.default.contentsOfDirectory(atPath: kept.appendingPathComponent(folder).path)
    )
    for name in names where name.hasSuffix(".jsonl") {
      let theirs = try Data(contentsOf: other.appendingPathComponent("\(folder)/\(name)"))
      if keptNames.contains(name) {
        let ours = try Data(contentsOf: kept.appendingPathComponent("\(folder)/\(name)"))
        if ours == theirs { continue }
        try theirs.write(
          to: url.appendingPathComponent("\(folder)/\(service.copyName(of: name))")
        )
      } else {
        try theirs.write(to: url.appendingPathComponent("\(folder)/\(name)"))
      }
    }
    return try EventLog(at: url)
  }
}

private func append(
  _ log: EventLog,
  _ device: String,
  _ count: Int,
  _ options: DeviceWriter.Options,
  repeating repeated: ULID? = nil
) throws -> [EventRecord] {
  let writer = try log.openWriter(device: device, options: options)
  defer { writer.close() }
  var records: [EventRecord] = []
  for index in 0..<count {
    var event = sampleEvent(index)
    if index == count / 2, let repeated { event.id = repeated }
    records.append(try writer.append(event))
  }
  return records
}

// MARK: - Reading both branches

extension ForkTests {
  @Test(arguments: 0..<24 as Range<UInt64>)
  func bothBranchesAreReadTheSameWhicheverIsTheOriginal(seed: UInt64) throws {
    let scenario = try ForkScenario(seed: seed)
    var orders: [[ULID]] = []
    for service in SyncService.allCases {
      for original in [true, false] {
        let log = try scenario.synced(original: original, service: service)
        let history = try expectUnchanged(log.url) { try log.readHistory() }
        let ids = history.records.map(\.id)
        #expect(Set(ids) == scenario.acknowledged, "\(service) original: \(original)")
        #expect(ids.count == Set(ids).count)
        #expect(history.errors.isEmpty)
        let forks = history.forks
        #expect(forks.count == 1)
        #expect(forks.first?.isHeld == false)
        let (here, there) =
          original
          ? (scenario.secondCount, scenario.firstCount)
          : (scenario.firstCount, scenario.secondCount)
        #expect(forks.first?.branchCount == here)
        #expect(forks.first?.mainCount == there)
        #expect(history.notices.filter { $0.kind == .forkRead }.count == 1)
        // The streamed merge reads the same.
        var merged = try log.mergedRecords()
        var streamed: [ULID] = []
        while case let batch = try merged.next(7), !batch.isEmpty {
          streamed += batch.map(\.id)
        }
        #expect(streamed == ids)
        #expect(merged.forks == forks)
        let report = try log.verify()
        #expect(report.isClean, "\(report.problems)")
        #expect(report.unhealedForks.count == 1)
        orders.append(ids)
      }
    }
    #expect(Set(orders.map { $0.map(\.description).joined() }).count == 1)
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func theNextAppendHealsTheForkAndTheCopyMayThenBeDeleted(seed: UInt64) throws {
    let scenario = try ForkScenario(seed: seed)
    var orders: [[ULID]] = []
    for original in [true, false] {
      let service = SyncService.allCases[Int(seed) % SyncService.allCases.count]
      let log = try scenario.synced(original: original, service: service)
      let before = try log.readHistory().records.map(\.id)
      let writer = try log.openWriter(
        device: "phone",
        options: testOptions(clock: ManualClock(1_700_000_000_000), seed: seed)
      )
      #expect(writer.forks.count == 1)
      let heal = try writer.append(sampleEvent(99))
      writer.close()
      // The heal sorts after both branches.
      let healed = try log.readHistory()
      #expect(healed.records.map(\.id) == before + [heal.id])
      #expect(healed.notices.allSatisfy { $0.kind != .forkRead }, "\(healed.notices)")
      let report = try log.verify()
      #expect(report.isClean, "\(report.problems)")
      #expect(report.unhealedForks.isEmpty)
      #expect(report.notes.contains { $0.cause.contains("it may be deleted") }, "\(report.notes)")
      // The copy goes: nothing is lost, and the journal still verifies clean.
      let copy = log.url.appendingPathComponent(
        "devices/phone/\(service.copyName(of: "000001.jsonl"))"
      )
      try FileManager.default.removeItem(at: copy)
      #expect(try log.readHistory().records.map(\.id) == before + [heal.id])
      let after = try log.verify()
      #expect(after.isClean, "\(after.problems)")
      #expect(after.unhealedForks.isEmpty)
      // A second append names nothing more.
      let next = try log.openWriter(device: "phone", options: testOptions(seed: seed &+ 9))
      #expect(next.forks.count == 1)
      try next.append(sampleEvent(100))
      next.close()
      #expect(try log.verify().isClean)
      orders.append(before)
    }
    #expect(orders[0] == orders[1])
  }

  @Test func aForkAcrossSegmentsIsReadAndHealed() throws {
    // Small segments: the branches roll over, so the copy of a later segment continues the
    // last record of the one before.
    let scenario = try ForkScenario(seed: 5, segmentSizeLimit: 1_500)
    let log = try scenario.synced(original: true, service: .syncthing)
    let history = try log.readHistory()
    #expect(Set(history.records.map(\.id)) == scenario.acknowledged)
    let writer = try log.openWriter(device: "phone", options: testOptions(seed: 77))
    try writer.append(sampleEvent(1))
    writer.close()
    let report = try log.verify()
    #expect(report.isClean, "\(report.problems)")
    #expect(report.unhealedForks.isEmpty, "\(report.notes)")
    #expect(Set(try log.readHistory().records.map(\.id)).isSuperset(of: scenario.acknowledged))
  }
}

// MARK: - Copies that are not branches

extension ForkTests {
  @Test func aCopyThatHoldsNothingMoreIsNotReadAgain() throws {
    let log = try makeLog()
    let records = try fill(log, device: "phone", count: 5)
    let segment = try contents(log, "devices/phone/000001.jsonl")
    let lines = segment.split(separator: 0x0A).map { Array($0) + [0x0A] }
    try overwrite(log, "devices/phone/000001 2.jsonl", Array(lines[0..<3].joined()))
    let history = try log.readHistory()
    #expect(history.records.map(\.id) == records.map(\.id))
    #expect(history.forks.isEmpty)
    #expect(
      history.notices.map(\.description) == [
        "devices/phone/000001 2.jsonl: note: duplicate of '000001.jsonl' left by a file-sync "
          + "service holds no record the device's segments lack; not read"
      ]
    )
  }

  @Test func aCopyWithABrokenChainIsReportedAndNotRead() throws {
    let log = try makeLog()
    let records = try fill(log, device: "phone", count: 6)
    let other = try makeLog("other")
    try fill(other, device: "phone", count: 4, options: testOptions(seed: 3))
    let segment = try contents(log, "devices/phone/000001.jsonl")
    let foreign = try contents(other, "devices/phone/000001.jsonl")
    var lines = segment.split(separator: 0x0A).map { Array($0) + [0x0A] }
    let foreignLines = foreign.split(separator: 0x0A).map { Array($0) + [0x0A] }
    // Shares two records, then a record of another history: no chain from the record in
    // common.
    lines = Array(lines[0..<2]) + [foreignLines[2], foreignLines[3]]
    try overwrite(
      log,
      "devices/phone/000001 (conflicted copy 2026-01-01).jsonl",
      Array(lines.joined())
    )
    // A copy of another history altogether: nothing in common.
    try overwrite(log, "devices/phone/000001.sync-conflict-20260101-120000-ABCDEF.jsonl", foreign)
    let history = try expectUnchanged(log.url) { try log.readHistory() }
    #expect(history.records.map(\.id) == records.map(\.id))
    #expect(history.forks.isEmpty)
    #expect(history.notices.count == 2)
    #expect(history.notices.allSatisfy { $0.description.hasSuffix("; not read") })
    let report = try log.verify()
    #expect(report.isClean, "\(report.problems)")
    #expect(report.notes.count == 2)
  }

  @Test func aBranchWhoseChainBreaksIsReadUpToTheBreakAndTheBreakIsCorruption() throws {
    let scenario = try ForkScenario(seed: 21)
    let log = try scenario.synced(original: true, service: .syncthing)
    let name = SyncService.syncthing.copyName(of: "000001.jsonl")
    let before = try log.readHistory()
    let copy = try contents(log, "devices/phone/\(name)")
    let lines = copy.split(separator: 0x0A).map { Array($0) + [0x0A] }
    // The last record again, then the one before it: the chain breaks at the first of them.
    try overwrite(
      log,
      "devices/phone/\(name)",
      copy + lines[lines.count - 1] + lines[lines.count - 2]
    )
    let history = try log.readHistory()
    #expect(history.records.map(\.id) == before.records.map(\.id))
    #expect(
      history.notices.contains { $0.description.contains("breaks the chain of a fork's branch") },
      "\(history.notices)"
    )
    let report = try log.verify()
    #expect(report.problems.map(\.file) == ["devices/phone/\(name)"], "\(report.problems)")
    #expect(report.problems.first?.line == lines.count + 1)
  }

  @Test func aBranchFileWithABrokenChainIsCorruption() throws {
    let scenario = try ForkScenario(seed: 3)
    let log = try scenario.synced(original: true, service: .iCloudDrive)
    let writer = try log.openWriter(device: "phone", options: testOptions(seed: 8))
    try writer.append(sampleEvent(1))
    writer.close()
    let folder = log.url.appendingPathComponent("devices/phone")
    let branch = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).first {
        $0.contains(".branch-")
      }
    )
    var bytes = try contents(log, "devices/phone/\(branch)")
    var lines = bytes.split(separator: 0x0A).map { Array($0) + [0x0A] }
    try #require(lines.count >= 1)
    lines.append(lines[0])
    bytes = Array(lines.joined())
    try overwrite(log, "devices/phone/\(branch)", bytes)
    let report = try log.verify()
    #expect(!report.isClean)
    #expect(report.problems.contains { $0.file == "devices/phone/\(branch)" }, "\(report.problems)")
  }
}

// MARK: - A second machine writing as the same device

extension ForkTests {
  @Test func aSecondWriterIsRefusedUnlessAdopted() throws {
    let log = try makeLog()
    let durable = testOptions(durability: .full)
    try fill(log, device: "laptop", count: 3, options: durable)
    // Another machine (a copy of this journal without this machine's local note) writes as
    // 'laptop', and its records arrive here.
    let other = try makeTemporaryDirectory("other-machine")
    try FileManager.default.removeItem(at: other)
    try FileManager.default.copyItem(at: log.url, to: other)
    try FileManager.default.removeItem(at: other.appendingPathComponent(".journal-state"))
    try fill(
      EventLog(at: other),
      device: "laptop",
      count: 2,
      options: testOptions(seed: 4, durability: .full)
    )
    let arrived = try contents(EventLog(at: other), "devices/laptop/000001.jsonl")
    try overwrite(log, "devices/laptop/000001.jsonl", arrived)

    try expectUnchanged(log.url) {
      expectJournalError(.secondWriter, file: "devices/laptop/000001.jsonl", line: 5) {
        _ = try log.openWriter(device: "laptop", options: testOptions(seed: 5, durability: .full))
      }
    }
    // Adopted: the writer continues the one chain in the file.
    var adopt = testOptions(seed: 5, durability: .full)
    adopt.adopt = true
    let writer = try log.openWriter(device: "laptop", options: adopt)
    let record = try writer.append(sampleEvent(9))
    writer.close()
    #expect(record.sequence == 6)
    #expect(try log.verify().isClean)
    // This machine now knows the device's last record.
    try fill(log, device: "laptop", count: 1, options: testOptions(seed: 6, durability: .full))
  }

  /// The note is written over in place: longer bytes left in it are cut, so it reads as the
  /// note of the last append, and a note that does not read refuses nothing.
  @Test func theWriterNoteIsWrittenOverInPlace() throws {
    let log = try makeLog()
    let durable = testOptions(durability: .full)
    try fill(log, device: "laptop", count: 2, options: durable)
    let note = log.url.appendingPathComponent(".journal-state/writers/laptop")
    let written = try Data(contentsOf: note)
    #expect(String(decoding: written, as: UTF8.self).hasPrefix("previous "))

    try (Data("garbage that is not a note\n".utf8) + written + Data("more\n".utf8)).write(to: note)
    let writer = try log.openWriter(
      device: "laptop",
      options: testOptions(seed: 7, durability: .full)
    )
    let record = try writer.append(sampleEvent(5))
    writer.close()
    let rewritten = try Data(contentsOf: note)
    #expect(rewritten.count == written.count)
    let last = try #require(record.hash)
    #expect(String(decoding: rewritten, as: UTF8.self).hasSuffix("next \(last.hexString)\n"))
    #expect(
      try (FileManager.default.attributesOfItem(atPath: note.path)[.posixPermissions] as? Int)
        == 0o600
    )
  }
}

// MARK: - Faults while healing

extension ForkTests {
  /// The heal's system calls fail one at a time (ENOSPC, EIO, a short write then a failure,
  /// at every write, flush, open and folder creation of the append that heals): the
  /// append fails with an error, the journal reads as before (nothing acknowledged lost, no
  /// torn file), and the next writer heals it.
  @Test(arguments: [
    FaultyFileIO.Operation.write, .sync, .syncDirectory, .open, .makeDirectory,
  ])
  func aHealThatFailsLosesNothingAndTheNextOneHeals(operation: FaultyFileIO.Operation) throws {
    let scenario = try ForkScenario(seed: 11)
    let effects: [[FaultyFileIO.Effect]] =
      operation == .write
      ? [[.fail(ENOSPC)], [.fail(EIO)], [.shortWrite(5), .fail(ENOSPC)]]
      : [[.fail(ENOSPC)], [.fail(EIO)]]
    for effect in effects {
      var call = 1
      while true {
        let url = try scenario.synced(original: call % 2 == 0, service: .dropbox).url
        let faulty = FaultyFileIO()
        let log = try EventLog(at: url, fileIO: faulty)
        let before = try log.readHistory().records.map(\.id)
        let writer = try log.openWriter(
          device: "phone",
          options: testOptions(seed: 40, durability: .full)
        )
        for (offset, step) in effect.enumerated() {
          faulty.inject(operation, call: call + offset, step)
        }
        var failed = false
        do {
          try writer.append(sampleEvent(1))
        } catch let error as JournalError {
          failed = true
          #expect(error.kind == .io, "\(operation) \(call): \(error)")
          #expect(error.message.hasPrefix("cannot "), "\(error)")
        }
        writer.close()
        faulty.reset()
        let context = "\(operation) call \(call) \(effect)"
        let plain = try EventLog(at: url)
        if failed {
          #expect(try plain.readHistory().records.map(\.id) == before, "\(context)")
          let report = try plain.verify()
          #expect(report.isClean, "\(context): \(report.problems)")
          #expect(report.unhealedForks.count >= 1, "\(context)")
        }
        let next = try plain.openWriter(
          device: "phone",
          options: testOptions(seed: 41, durability: .full)
        )
        let record = try next.append(sampleEvent(2))
        next.close()
        let ids = try plain.readHistory().records.map(\.id)
        #expect(Set(ids).isSuperset(of: before) && ids.last == record.id, "\(context)")
        let report = try plain.verify()
        #expect(report.isClean, "\(context): \(report.problems)")
        #expect(report.unhealedForks.isEmpty, "\(context): \(report.notes)")
        // Once the fault is past the heal's last such call, every one of them was covered.
        if !failed { break }
        call += 1
      }
      #expect(call > 1, "the heal never reached a '\(operation)' call")
    }
  }
}
