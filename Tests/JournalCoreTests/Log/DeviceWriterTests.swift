import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

@Suite struct DeviceWriterTests {
  @Test func appendedRecordsReadBackIdentically() throws {
    let log = try makeLog()
    let written = try fill(log, device: "phone", count: 10, batch: 3)
    #expect(written.map(\.sequence) == Array(1...10))
    let history = try log.readDevice("phone")
    #expect(history.records == written)
    #expect(history.notices.isEmpty && history.stoppedBy == nil)
    #expect(written[0].previousHash == .zero)
    for (a, b) in zip(written, written.dropFirst()) {
      #expect(b.previousHash == a.hash)
      #expect(a.time < b.time)
      #expect(a.id < b.id)
    }
    #expect(try log.verify().isClean)
  }

  @Test func reopeningContinuesSequenceChainAndClock() throws {
    let log = try makeLog()
    let clock = ManualClock()
    let first = try fill(log, device: "phone", count: 3, options: testOptions(clock: clock))
    clock.now -= 60_000  // the clock stepped back between runs
    let second = try fill(log, device: "phone", count: 3, options: testOptions(clock: clock))
    #expect(second.map(\.sequence) == [4, 5, 6])
    #expect(second[0].previousHash == first[2].hash)
    #expect(first[2].time < second[0].time)
    #expect(try log.verify().isClean)
  }

  @Test func aClockSteppingBackwardsKeepsTheDevicesOrder() throws {
    let log = try makeLog()
    let clock = ManualClock(10_000)
    let writer = try log.openWriter(device: "phone", options: testOptions(clock: clock, step: 0))
    defer { writer.close() }
    var records: [EventRecord] = []
    for (n, wall) in ([10_000, 10_000, 4_000, 9_999, 10_001, 3] as [Int64]).enumerated() {
      clock.now = wall
      records.append(try writer.append(sampleEvent(n)))
    }
    #expect(
      records.map(\.time.description) == [
        "10000.0", "10000.1", "10000.2", "10000.3", "10001.0", "10001.1",
      ]
    )
    #expect(try log.readHistory().records.map(\.sequence) == Array(1...6))
    #expect(try log.verify().isClean)
  }

  @Test func segmentsRollAtTheSizeLimitAndSealedOnesNeverChange() throws {
    let log = try makeLog()
    let options = testOptions(segmentSizeLimit: 1_000)
    try fill(log, device: "phone", count: 12, options: options)
    let sealed = try contents(log, "devices/phone/000001.jsonl")
    #expect(sealed.count <= 1_000)
    try fill(log, device: "phone", count: 12, batch: 2, options: options)
    #expect(try contents(log, "devices/phone/000001.jsonl") == sealed)
    let listing = try DeviceFolderListing(folder: log.deviceFolder("phone"))
    #expect(listing.segments.map(\.number) == Array(1...listing.segments.count))
    #expect(listing.segments.count > 3)
    let history = try log.readDevice("phone")
    #expect(history.records.map(\.sequence) == Array(1...24))
    #expect(try log.verify().isClean)
  }

  @Test func aBatchLargerThanTheLimitGoesWholeIntoOneSegment() throws {
    let log = try makeLog()
    let records = try fill(
      log,
      device: "phone",
      count: 20,
      batch: 20,
      options: testOptions(segmentSizeLimit: 500)
    )
    #expect(Set(records.map(\.location.file)) == ["devices/phone/000001.jsonl"])
  }

  @Test func filesAreOwnerOnly() throws {
    let root = try makeTemporaryDirectory("perm").appendingPathComponent("journal")
    let log = try EventLog.create(at: root)
    try fill(log, device: "phone", count: 1, options: testOptions(durability: .full))
    func mode(_ relative: String) throws -> Int {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: root.appendingPathComponent(relative).path
      )
      return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
    #expect(try mode("") == 0o700)
    #expect(try mode("devices") == 0o700)
    #expect(try mode("devices/phone") == 0o700)
    #expect(try mode("journal.json") == 0o600)
    #expect(try mode("devices/phone/.lock") == 0o600)
    #expect(try mode("devices/phone/000001.jsonl") == 0o600)
    #expect(
      try String(decoding: contents(log, "journal.json"), as: UTF8.self)
        == #"{"format":"workout-journal","version":1}"# + "\n"
    )
  }

  @Test func aSecondWriterWaitsThenFailsNamingTheDevice() throws {
    let log = try makeLog()
    let first = try log.openWriter(device: "phone", options: testOptions())
    let start = Date()
    expectJournalError(.deviceLocked) {
      _ = try log.openWriter(device: "phone", options: testOptions(lockTimeout: 0.2))
    }
    #expect(Date().timeIntervalSince(start) >= 0.2)
    do {
      _ = try log.openWriter(device: "phone", options: testOptions(lockTimeout: 0))
    } catch let error as JournalError {
      #expect(error.message.contains("'phone'"))
    }
    // Another device is not blocked.
    let watch = try log.openWriter(device: "watch", options: testOptions(lockTimeout: 0))
    watch.close()
    first.close()
    let again = try log.openWriter(device: "phone", options: testOptions(lockTimeout: 0))
    again.close()
  }

  @Test(arguments: [
    "", ".hidden", "Phone", "a/b", "ph one", String(repeating: "x", count: 65), "é",
  ])
  func invalidDeviceNamesAreRefused(_ name: String) throws {
    let log = try makeLog()
    expectJournalError(.invalidDeviceName) { _ = try log.openWriter(device: name) }
  }

  @Test(arguments: ["a", "phone", "watch-2", "ipad.mini_3", String(repeating: "x", count: 64)])
  func validDeviceNames(_ name: String) {
    #expect(EventLog.isValidDeviceName(name))
  }

  @Test func invalidEventsAppendNothing() throws {
    let log = try makeLog()
    let writer = try log.openWriter(device: "phone", options: testOptions())
    defer { writer.close() }
    try writer.append(sampleEvent(0))
    let bad: [(NewEvent, JournalError.Kind)] = [
      (NewEvent(stream: "", type: "t", version: 1, payload: [:]), .invalidEvent),
      (NewEvent(stream: "s", type: "", version: 1, payload: [:]), .invalidEvent),
      (NewEvent(stream: "s", type: "t", version: 0, payload: [:]), .invalidEvent),
      (NewEvent(stream: "s", type: "t", version: 1, payload: [1]), .invalidEvent),
      (NewEvent(stream: "s", type: "t", version: 1, payload: ["w": .double(.nan)]), .invalidValue),
    ]
    for (event, kind) in bad {
      expectJournalError(kind) { try writer.append([sampleEvent(1), event]) }
    }
    #expect(try writer.append(sampleEvent(2)).sequence == 2)
    #expect(try log.readDevice("phone").records.count == 2)
  }

  @Test func chosenIdsAndNotBeforeAreHonoured() throws {
    let log = try makeLog()
    let writer = try log.openWriter(device: "phone", options: testOptions())
    defer { writer.close() }
    var event = sampleEvent(0)
    event.id = ULID("01HQ7Z4X8K9M2N3P4Q5R6S7T8V")
    let observed = HybridTime(milliseconds: 1_800_000_000_000, counter: 4)
    let record = try writer.append(event, notBefore: observed)
    #expect(record.id == event.id)
    #expect(record.time == HybridTime(milliseconds: 1_800_000_000_000, counter: 5))
    writer.observe(HybridTime(milliseconds: 1_900_000_000_000))
    #expect(try writer.append(sampleEvent(1)).time.milliseconds == 1_900_000_000_000)
  }

  @Test func threadsSharingAWriterAppendEveryEventOnce() throws {
    let log = try makeLog()
    let writer = try log.openWriter(device: "phone", options: testOptions())
    defer { writer.close() }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for n in 0..<25 { _ = try? writer.append([sampleEvent(thread * 100 + n)]) }
    }
    let records = try log.readDevice("phone").records
    #expect(records.map(\.sequence) == Array(1...100))
    #expect(Set(records.compactMap { $0.payload["set"]?.intValue }).count == 100)
    #expect(try log.verify().isClean)
  }

  @Test func closedWritersRefuseToAppend() throws {
    let log = try makeLog()
    let writer = try log.openWriter(device: "phone", options: testOptions())
    writer.close()
    expectJournalError(.writerClosed) { try writer.append(sampleEvent(0)) }
  }

  @Test func openingSomethingThatIsNotAJournalFails() throws {
    let folder = try makeTemporaryDirectory("not")
    expectJournalError(.notAJournal) { _ = try EventLog(at: folder) }
    try Data("hello".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    expectJournalError(.notAJournal) { _ = try EventLog.create(at: folder) }
    let newer = try makeTemporaryDirectory("newer")
    try Data(#"{"format":"workout-journal","version":2}"#.utf8)
      .write(to: newer.appendingPathComponent("journal.json"))
    expectJournalError(.notAJournal, file: "journal.json") { _ = try EventLog(at: newer) }
  }
}
