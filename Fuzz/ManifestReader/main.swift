// libFuzzer entry point: the rebuild's ownership manifest, as a damaged or hostile output
// folder could hold it. Its log is chained and its shards checked with XXH64 (format 3) or
// SHA-256 (format 2), which guard against accident only: whoever can write the folder can
// write a file whose checks pass, so the readers behind them must refuse bad bytes, never
// crash.
//
// Each input is read as a manifest log (as given, and with every `end` line's chain made
// right, so that the block parsers behind the chain are reached), as a shard (as given and
// sealed with its checksum), and as the record of the saved state the folder was rebuilt
// from (as given and sealed with its checksum). Whatever reads must write back to bytes that
// read the same.

import Foundation
import JournalCore

@testable import JournalProjections

/// One output folder for every input: its log is written afresh each time.
let folder: URL = {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("fuzz-manifest-\(ProcessInfo.processInfo.processIdentifier)")
  try? FileManager.default.createDirectory(
    at: url.appendingPathComponent(ProjectionManifest.shardsFolder),
    withIntermediateDirectories: true
  )
  return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifestReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let input = Array(UnsafeRawBufferPointer(start: data, count: size))

  for log in [input, chained(input)] { readLog(log) }

  let name = "Workouts+2026+01"
  for shard in [input, sealed(input, digest: ProjectionManifest.digest)] {
    if let entries = ProjectionManifest.decodeShard(shard, name: name) {
      let again = ProjectionManifest.decodeShard(
        ProjectionManifest.encodeShard(entries),
        name: name
      )
      guard again == entries else { fatalError("a shard does not read back as itself: \(input)") }
    }
  }

  for bytes in [input, sealed(input, digest: ProjectionManifest.digest)] {
    if let record = RebuildRecord(bytes) {
      guard RebuildRecord(record.encoded()) == record else {
        fatalError("a record does not read back as itself: \(input)")
      }
    }
  }
  return 0
}

/// Opens a manifest whose log holds `bytes`; refusing them is fine, reading them twice must
/// give the same manifest.
func readLog(_ bytes: [UInt8]) {
  let log = folder.appendingPathComponent(ProjectionManifest.logPath)
  guard (try? Data(bytes).write(to: log)) != nil else { fatalError("cannot write \(log.path)") }
  let writer = DocumentTreeWriter(root: folder)
  guard let first = try? ProjectionManifest.open(writer) else { return }
  guard let second = try? ProjectionManifest.open(writer),
    second.identity == first.identity, second.pending == first.pending,
    second.isInterrupted == first.isInterrupted
  else { fatalError("a log does not read the same twice: \(bytes)") }
}

/// `bytes` with each `end` line's chain replaced by the right one for the block before it, by
/// the hashing of the format the header names (XXH64 when it names none).
func chained(_ bytes: [UInt8]) -> [UInt8] {
  var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
  guard let header = lines.first else { return bytes }
  let words = header.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
  let hashing =
    words.count == 3 ? Int(words[1]).flatMap(ProjectionManifest.Hashing.init(format:)) : nil
  var identity = words.count == 3 ? words[2] : ""
  var block: [UInt8] = []
  for index in lines.indices.dropFirst() {
    if lines[index].starts(with: Array("end ".utf8)) {
      let chain = (hashing ?? .xxh64).hex(Array((identity + "\n").utf8) + block)
      lines[index] = ArraySlice(Array("end \(chain)".utf8))
      identity = chain
      block = []
    } else {
      block += lines[index] + [UInt8(ascii: "\n")]
    }
  }
  return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
}
