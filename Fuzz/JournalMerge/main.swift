// libFuzzer entry point: a journal of two devices made from the input's lines → the whole read
// (each segment's records kept as decoded, merged into an order of places, redelivered ids
// looked for first on every core) against the streamed merge, read a few records and a short
// window at a time. The two must agree on the records, the duplicates, the notices, the errors
// and the positions; neither may crash.
//
// Each line is a record of `phone`, or of `watch` when it starts with `W` (dropped), sealed
// with a matching checksum so that the envelope is read. A line `--` starts a new segment on
// both devices.

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
  for line in input.split(separator: 0x0A, omittingEmptySubsequences: true) {
    if line.elementsEqual("--".utf8) {
      for device in segments.indices { segments[device].append([]) }
      continue
    }
    let device = line.first == UInt8(ascii: "W") ? 1 : 0
    let record = sealedRecordLine(Array(device == 1 ? line.dropFirst() : line[...]))
    segments[device][segments[device].count - 1] += record + [0x0A]
  }
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
  } catch {
    fatalError("cannot write the fuzzed journal: \(error)")
  }

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
  return 0
}
