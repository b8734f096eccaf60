// libFuzzer entry point: a journal of two devices made from the input's lines → the whole read
// (each segment's records kept as decoded, merged into an order of places, redelivered ids
// looked for first on every core) against the streamed merge, read a few records and a short
// window at a time. The two must agree on the records, the duplicates, the notices, the errors
// and the positions; neither may crash.
//
// Each line is a record of `phone`, or of `watch` when it starts with `W` (dropped), sealed
// with a matching checksum so that the envelope is read. A line `--` starts a new segment on
// both devices.
//
// Lines starting with `F` make a second version of phone's first segment, as a sync service
// keeps it when the device's files were written in two places: the segment's first lines (how
// many the input's size picks), then a record per `F` line, each chained to the one before (a
// fork, when the line it continues is a record). Both reads must agree on the forks too; every
// record of the fork is read (once); and, when phone has one segment and the journal verifies
// clean, the journal with the two versions swapped (the other kept as the original) reads the
// same events in the same order.

import Foundation

@testable import JournalCore

/// The journal folder this process rewrites for each input.
nonisolated(unsafe) let journal: EventLog = {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("workout-journal-fuzz-merge-\(getpid())")
  try? FileManager.default.removeItem(at: url)
  do {
    return try EventLog.create(at: url)
  } catch {
    fatalError("cannot create the fuzzed journal: \(error)")
  }
}()

let devices = ["phone", "watch"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournalMerge(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  // For each device, its segments' bytes.
  var segments: [[[UInt8]]] = [[[]], [[]]]
  var forkLines: [[UInt8]] = []
  for line in input.split(separator: 0x0A, omittingEmptySubsequences: true) {
    if line.first == UInt8(ascii: "F") {
      forkLines.append(Array(line.dropFirst()))
      continue
    }
    if line.elementsEqual("--".utf8) {
      for device in segments.indices { segments[device].append([]) }
      continue
    }
    let device = line.first == UInt8(ascii: "W") ? 1 : 0
    let record = sealedRecordLine(Array(device == 1 ? line.dropFirst() : line[...]))
    segments[device][segments[device].count - 1] += record + [0x0A]
  }
  let copyName = [
    "000001 2.jsonl", "000001 (conflicted copy).jsonl", "000001.sync-conflict-1.jsonl",
  ][
    size % 3
  ]
  let (copy, forked) = forkedCopy(of: segments[0][0], lines: forkLines, size: size)
  write(segments, copy: forkLines.isEmpty ? nil : copy, named: copyName)

  guard let whole = try? journal.readHistory() else { return 0 }
  guard var merged = try? journal.mergedRecords() else {
    fatalError("the whole read worked, the streamed one could not start")
  }
  merged.runLength = 1 + size % 5
  merged.windowSize = [1, 64, 400, 1 << 18][size % 4]
  var records: [EventRecord] = []
  do {
    while case let batch = try merged.next(1 + size % 7), !batch.isEmpty { records += batch }
  } catch {
    fatalError("the whole read worked, the streamed one failed: \(error)")
  }
  guard records == whole.records, merged.duplicates == whole.duplicates,
    merged.notices == whole.notices, merged.errors == whole.errors,
    merged.positions == whole.positions
  else {
    fatalError(
      "whole and streamed reads disagree: \(whole.count) against \(records.count) records, "
        + "\(whole.duplicates.count) against \(merged.duplicates.count) duplicates"
    )
  }
  guard merged.forks == whole.forks else {
    fatalError("whole and streamed reads disagree on forks")
  }
  let ids = Set(whole.records.map(\.id))
  guard
    !whole.forks.contains(where: { !$0.isHeld && $0.branchCount == forked.count })
      || forked.allSatisfy({ ids.contains($0.id) })
  else { fatalError("a record of the fork was not read") }
  // The other version kept as the original: the same events, in the same order. A writer's
  // chain (what `verify` checks: sequences, links, a clock that increases) is what makes
  // either version a branch of the other, so only journals that verify clean both ways are
  // compared.
  if !whole.forks.isEmpty, segments[0].count == 1, (try? journal.verify())?.isClean == true {
    write([[copy], segments[1]], copy: segments[0][0], named: copyName)
    guard let swapped = try? journal.readHistory() else {
      fatalError("the journal with the versions swapped cannot be read")
    }
    if (try? journal.verify())?.isClean == true,
      swapped.records.map(\.id) != whole.records.map(\.id)
    {
      fatalError("the order depends on which version is the original")
    }
  }
  return 0
}

/// Writes the devices' segments, and `copy` beside phone's first segment.
func write(_ segments: [[[UInt8]]], copy: [UInt8]?, named name: String) {
  let folder = journal.url.appendingPathComponent(EventLog.devicesFolderName)
  try? FileManager.default.removeItem(at: folder)
  do {
    for (device, files) in zip(devices, segments) {
      let deviceFolder = folder.appendingPathComponent(device)
      try FileManager.default.createDirectory(at: deviceFolder, withIntermediateDirectories: true)
      for (index, bytes) in files.enumerated() where !bytes.isEmpty {
        let name = String(String(index + 1 + 1_000_000).dropFirst()) + ".jsonl"
        try Data(bytes).write(to: deviceFolder.appendingPathComponent(name))
      }
    }
    if let copy {
      try Data(copy).write(to: folder.appendingPathComponent("phone").appendingPathComponent(name))
    }
  } catch {
    fatalError("cannot write the fuzzed journal: \(error)")
  }
}

/// A second version of `segment`: its first lines (how many `size` picks), then a record per
/// line of `lines`, chained from the last line kept; and the records added.
func forkedCopy(
  of segment: [UInt8],
  lines: [[UInt8]],
  size: Int
) -> (bytes: [UInt8], records: [EventRecord]) {
  let kept = segment.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
  let count = kept.isEmpty ? 0 : size % (kept.count + 1)
  var bytes = Array(kept.prefix(count).map { Array($0) + [0x0A] }.joined())
  var previous = SHA256Digest.zero
  var sequence: UInt64 = 0
  var time = HybridTime(milliseconds: 0, counter: 0)
  if let last = kept.prefix(count).last {
    previous = last.withUnsafeBytes { SHA256.hash($0) }
    if let record = try? last.withUnsafeBytes({
      try EventRecord.decode(line: $0, location: RecordLocation(file: "", line: 0))
    }) {
      sequence = record.sequence
      time = record.time
    }
  }
  var records: [EventRecord] = []
  for (index, line) in lines.enumerated() {
    sequence += 1
    // A step of 0, 1 or 2 ms: readings that tie with the segment's happen.
    let step = Int64(line.first.map { $0 % 3 } ?? 0)
    time =
      step == 0
      ? HybridTime(milliseconds: time.milliseconds, counter: time.counter &+ 1)
      : HybridTime(milliseconds: time.milliseconds + step, counter: 0)
    var ids = ULIDGenerator(random: SplitMix64(seed: UInt64(index) &+ UInt64(size) &* 31))
    let event = NewEvent(
      stream: "workout:01HZZZZZZZZZZZZZZZZZZZZZZZ",
      type: "set.completed",
      version: 1,
      payload: ["note": .string(String(decoding: line, as: UTF8.self))]
    )
    guard
      let record = try? EventRecord.encode(
        id: ids.next(milliseconds: max(0, time.milliseconds)),
        device: "phone",
        sequence: sequence,
        time: time,
        event: event,
        previousHash: previous,
        location: RecordLocation(file: "", line: 0),
        appendingTo: &bytes
      )
    else { break }
    previous = record.hash ?? .zero
    records.append(record)
  }
  return (bytes, records)
}
