import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

@Suite struct RecoveryTests {
  private let segment = "devices/phone/000001.jsonl"

  /// Cut the file at every byte offset inside the last record: reading never fails, the
  /// writer either keeps the record or sets exactly the cut bytes aside, and appends go on.
  @Test func cuttingTheLastRecordAtEveryOffsetNeverLosesBytes() throws {
    let source = try makeLog("cut-source")
    let written = try fill(source, device: "phone", count: 3)
    let full = try contents(source, segment)
    let lastStart = (full[0..<full.count - 1].lastIndex(of: 0x0A) ?? -1) + 1
    #expect(full[lastStart - 1] == 0x0A && lastStart < full.count)

    let log = try makeLog("cut")
    let folder = log.deviceFolder("phone")
    for cut in lastStart...full.count {
      try? FileManager.default.removeItem(at: folder)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let cutBytes = Array(full[0..<cut])
      try overwrite(log, segment, cutBytes)

      // A reader keeps whole records only, and says when it leaves bytes unread.
      let read = try log.readDevice("phone")
      #expect(read.stoppedBy == nil, "cut \(cut)")
      let expectedCount = cut == full.count ? 3 : 2
      #expect(read.records == Array(written[0..<expectedCount]), "cut \(cut)")
      let partial = cut != full.count && cut != lastStart
      #expect(read.notices.count == (partial ? 1 : 0), "cut \(cut)")
      #expect(try contents(log, segment) == cutBytes, "readers never modify files")

      // The writer sets the partial record aside: kept bytes + side file == the cut file.
      let writer = try log.openWriter(device: "phone", options: testOptions(seed: 5))
      let kept = try contents(log, segment)
      if partial {
        let notice = try #require(writer.recoveryNotices.first)
        #expect(notice.kind == .tornTailSetAside)
        #expect(notice.line == 3)
        #expect(notice.sideFile == "\(segment).torn")
        let side = try contents(log, "\(segment).torn")
        #expect(kept + side == cutBytes, "cut \(cut)")
        #expect(notice.byteCount == side.count)
      } else {
        #expect(writer.recoveryNotices.isEmpty)
        #expect(kept == cutBytes)
      }
      let next = try writer.append(sampleEvent(9))
      writer.close()
      #expect(next.sequence == UInt64(expectedCount + 1))
      let report = try log.verify()
      #expect(report.isClean, "cut \(cut): \(report.problems)")
    }
  }

  @Test func sideFilesAreNumberedNeverOverwritten() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 2)
    for round in 1...3 {
      var bytes = try contents(log, segment)
      bytes += Array(#"{"id":"torn \#(round)"#.utf8)
      try overwrite(log, segment, bytes)
      let writer = try log.openWriter(device: "phone", options: testOptions())
      writer.close()
      let expected = round == 1 ? "\(segment).torn" : "\(segment).torn.\(round)"
      #expect(writer.recoveryNotices.map(\.sideFile) == [expected])
      #expect(try contents(log, expected) == Array(#"{"id":"torn \#(round)"#.utf8))
    }
    let report = try log.verify()
    #expect(report.isClean)
    #expect(report.notes.count == 3)
  }

  @Test func aLastRecordWithABadChecksumIsSetAside() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 3)
    var bytes = try contents(log, segment)
    bytes[bytes.count - 30] ^= 0x04
    try overwrite(log, segment, bytes)
    let report = try log.verify()
    #expect(report.problems.map(\.line) == [3])
    #expect(report.problems.first?.cause.hasPrefix("torn tail") == true)
    let writer = try log.openWriter(device: "phone", options: testOptions())
    writer.close()
    #expect(writer.recoveryNotices.first?.cause.hasPrefix("checksum mismatch") == true)
    #expect(writer.lastSequence == 2)
    #expect(try log.verify().isClean)
  }

  @Test func corruptionBeforeTheTailStopsTheDeviceThere() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 5)
    try fill(log, device: "watch", count: 2)
    var bytes = try contents(log, segment)
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    let secondLine = lines[0].count + 1
    bytes[secondLine + 10] ^= 0x20
    try overwrite(log, segment, bytes)

    let read = try log.readDevice("phone")
    #expect(read.records.map(\.sequence) == [1])
    let error = try #require(read.stoppedBy)
    #expect(error.kind == .corruptRecord)
    #expect(error.file == segment && error.line == 2)
    #expect(error.description.hasPrefix("\(segment):2: error: checksum mismatch"))
    #expect(try contents(log, segment) == bytes)

    let history = try log.readHistory()
    #expect(history.records.count == 3)
    #expect(history.errors == [error])
    #expect(try log.verify().problems.map(\.description).first?.hasPrefix("\(segment):2:") == true)
  }

  @Test func otherDevicesPartialTailsAreNotReadNorModified() throws {
    let log = try makeLog()
    try fill(log, device: "watch", count: 2)
    let path = "devices/watch/000001.jsonl"
    let bytes = try contents(log, path) + Array(#"{"id":"01"#.utf8)
    try overwrite(log, path, bytes)
    let history = try log.readHistory()
    #expect(history.records.count == 2)
    #expect(history.notices.map(\.kind) == [.tornTailNotRead])
    #expect(history.notices.first?.line == 3)
    #expect(try contents(log, path) == bytes)
  }

  @Test func anEmptyLastSegmentContinuesFromTheSealedOne() throws {
    let log = try makeLog()
    let first = try fill(log, device: "phone", count: 2)
    try overwrite(log, "devices/phone/000002.jsonl", [])
    let writer = try log.openWriter(device: "phone", options: testOptions())
    let record = try writer.append(sampleEvent(3))
    writer.close()
    #expect(record.sequence == 3)
    #expect(record.previousHash == first[1].hash)
    #expect(record.location.file == "devices/phone/000002.jsonl")
    #expect(try log.verify().isClean)
  }

  @Test func segmentAndSideFileNames() {
    #expect(Segment.fileName(1) == "000001.jsonl")
    #expect(Segment.fileName(999_999) == "999999.jsonl")
    #expect(Segment.number(of: "000042.jsonl") == 42)
    for name in ["000000.jsonl", "42.jsonl", "00004a.jsonl", "000001.json", "000001.jsonl.torn"] {
      #expect(Segment.number(of: name) == nil, "\(name)")
    }
    #expect(Segment.isSideFile("000001.jsonl.torn"))
    #expect(Segment.isSideFile("000001.jsonl.torn.7"))
    #expect(!Segment.isSideFile("notes.jsonl.torn"))
    #expect(DeviceWriter.nextSideFileName(for: "000003.jsonl", existing: []) == "000003.jsonl.torn")
    #expect(
      DeviceWriter.nextSideFileName(
        for: "000003.jsonl",
        existing: ["000003.jsonl.torn", "000003.jsonl.torn.2"]
      )
        == "000003.jsonl.torn.3"
    )
  }
}
