import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

/// `readHistory(after:)`: reading only what was appended after known positions.
@Suite struct TailReadTests {
  /// Appends `count` events to `device` with small segments, so that appends roll over.
  private func append(_ log: EventLog, _ device: String, _ count: Int, from first: Int) throws {
    let writer = try log.openWriter(
      device: device,
      options: testOptions(
        clock: ManualClock(1_700_000_000_000 + Int64(first) * 10),
        seed: UInt64(first + 1) &* 7919 &+ UInt64(CRC32C.checksum(Array(device.utf8))),
        segmentSizeLimit: 1_500
      )
    )
    defer { writer.close() }
    for n in first..<first + count { try writer.append(sampleEvent(n)) }
  }

  @Test func tailReadIsTheSuffixOfAFullRead() throws {
    let log = try makeLog()
    try append(log, "phone", 7, from: 0)
    try append(log, "watch", 3, from: 100)
    let before = try log.readHistory()
    #expect(Set(before.positions.keys) == ["phone", "watch"])
    try append(log, "phone", 9, from: 10)  // rolls over into new segments
    try append(log, "watch", 1, from: 200)
    try append(log, "ipad", 4, from: 300)  // a device added after the positions were taken

    let full = try log.readHistory()
    let tail = try log.readHistory(after: before.positions)
    let known = Set(before.records.map(\.id))
    #expect(tail.records == full.records.filter { !known.contains($0.id) })
    #expect(tail.records.count == 14)
    #expect(tail.positions == full.positions)
    #expect(tail.notices == full.notices)
    #expect(tail.errors.isEmpty)
    let phone = try #require(full.positions["phone"])
    #expect(phone.segment > before.positions["phone"]?.segment ?? 0)
    #expect(phone.sequence == 16)

    // Nothing new: nothing read, the same positions.
    let again = try log.readHistory(after: full.positions)
    #expect(again.records.isEmpty)
    #expect(again.positions == full.positions)
  }

  @Test func positionNamesTheEndOfTheLastRecordRead() throws {
    let log = try makeLog()
    try append(log, "phone", 5, from: 0)
    let history = try log.readHistory()
    let position = try #require(history.positions["phone"])
    let last = try #require(history.records.last)
    let file = Segment.fileName(position.segment)
    let bytes = try contents(log, "devices/phone/\(file)")
    #expect(last.location == RecordLocation(file: "devices/phone/\(file)", line: position.line))
    #expect(position.sequence == last.sequence)
    #expect(position.offset == bytes.count)
    #expect(bytes[position.offset - 1] == UInt8(ascii: "\n"))
    let line = Array(bytes[(position.offset - 1 - position.length)..<(position.offset - 1)])
    #expect(SHA256.hash(line) == position.hash)

    // A writer reports the same position when it opens, and the new end after an append.
    let writer = try log.openWriter(device: "phone", options: testOptions(seed: 9))
    defer { writer.close() }
    #expect(writer.position == position)
    let appended = try writer.append(sampleEvent(50))
    #expect(appended.previousHash == position.hash)
    #expect(writer.position == (try log.readHistory().positions["phone"]))
    #expect(try log.readHistory(after: ["phone": position]).records.count == 1)
  }

  @Test func tailReadReportsATornTailLikeAFullRead() throws {
    let log = try makeLog()
    try append(log, "phone", 3, from: 0)
    let before = try log.readHistory()
    let position = try #require(before.positions["phone"])
    try append(log, "phone", 2, from: 10)
    let file =
      "devices/phone/\(Segment.fileName(try #require(try log.readHistory().positions["phone"]).segment))"
    try overwrite(log, file, try contents(log, file) + Array(#"{"id":"01H"#.utf8))

    let full = try log.readHistory()
    let tail = try log.readHistory(after: ["phone": position])
    #expect(tail.notices == full.notices)
    #expect(tail.notices.map(\.kind) == [.tornTailNotRead])
    #expect(tail.records.count == 2)
    #expect(tail.positions == full.positions)
  }

  @Test func aChangedBoundaryRecordIsDetected() throws {
    let log = try makeLog()
    try append(log, "phone", 4, from: 0)
    let position = try #require(try log.readHistory().positions["phone"])
    let file = "devices/phone/\(Segment.fileName(position.segment))"
    var bytes = try contents(log, file)
    // One byte of the boundary record's payload changes.
    let index = position.offset - 1 - position.length + 40
    bytes[index] = bytes[index] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
    try overwrite(log, file, bytes)
    expectJournalError(.positionChanged, file: file, line: position.line) {
      _ = try log.readHistory(after: ["phone": position])
    }
  }

  @Test func aTruncatedSegmentIsDetected() throws {
    let log = try makeLog()
    try append(log, "phone", 4, from: 0)
    let position = try #require(try log.readHistory().positions["phone"])
    let file = "devices/phone/\(Segment.fileName(position.segment))"
    let bytes = try contents(log, file)
    try overwrite(log, file, Array(bytes[..<(position.offset - 1)]))
    expectJournalError(.positionChanged, file: file) {
      _ = try log.readHistory(after: ["phone": position])
    }
    try overwrite(log, file, [])
    expectJournalError(.positionChanged, file: file) {
      _ = try log.readHistory(after: ["phone": position])
    }
  }

  @Test func aReplacedOrMissingSegmentIsDetected() throws {
    let log = try makeLog()
    try append(log, "phone", 4, from: 0)
    let position = try #require(try log.readHistory().positions["phone"])
    let file = "devices/phone/\(Segment.fileName(position.segment))"

    // The same number of records of the same length, other bytes: another device's log.
    let other = try makeLog("other")
    try append(other, "phone", 4, from: 1)
    try overwrite(log, file, try contents(other, file))
    #expect(try contents(log, file).count == position.offset)
    expectJournalError(.positionChanged, file: file) {
      _ = try log.readHistory(after: ["phone": position])
    }

    try FileManager.default.removeItem(at: log.url.appendingPathComponent(file))
    expectJournalError(.positionChanged, file: file) {
      _ = try log.readHistory(after: ["phone": position])
    }
    try FileManager.default.removeItem(at: log.url.appendingPathComponent("devices/phone"))
    expectJournalError(.positionChanged) {
      _ = try log.readHistory(after: ["phone": position])
    }
  }

  @Test func positionsRoundTripThroughJSON() throws {
    let log = try makeLog()
    try append(log, "phone", 2, from: 0)
    let positions = try log.readHistory().positions
    let data = try JSONEncoder().encode(positions)
    #expect(try JSONDecoder().decode([String: DevicePosition].self, from: data) == positions)
    let bad = Data(
      #"{"segment":1,"offset":500,"line":2,"sequence":2,"length":250,"hash":"nothex"}"#.utf8
    )
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(DevicePosition.self, from: bad) }
  }
}
