import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

@Suite struct MergeTests {
  @Test func historyIsOrderedByClockThenDeviceThenSequence() throws {
    let log = try makeLog()
    let clock = ManualClock(1_000)
    let phone = try log.openWriter(
      device: "phone",
      options: testOptions(clock: clock, step: 0, seed: 1)
    )
    let watch = try log.openWriter(
      device: "watch",
      options: testOptions(clock: clock, step: 0, seed: 2)
    )
    try phone.append([sampleEvent(1), sampleEvent(2)])  // 1000.0, 1000.1
    try watch.append([sampleEvent(3)])  // 1000.0
    clock.now = 900  // the watch's clock steps back
    try watch.append([sampleEvent(4)])  // 1000.1
    clock.now = 2_000
    try phone.append([sampleEvent(5)])
    phone.close()
    watch.close()
    let order = try log.readHistory().records.map { "\($0.device)#\($0.sequence)@\($0.time)" }
    #expect(
      order == [
        "phone#1@1000.0", "watch#1@1000.0", "phone#2@1000.1", "watch#2@1000.1", "phone#3@2000.0",
      ]
    )
  }

  /// The subscript reads the records one at a time, in merge order.
  @Test func recordsAreReadOneAtATimeInMergeOrder() throws {
    let log = try makeLog()
    let clock = ManualClock(1_000)
    let writers = try ["phone", "watch"].enumerated().map { index, device in
      try log.openWriter(
        device: device,
        options: testOptions(clock: clock, step: 0, seed: UInt64(index))
      )
    }
    for n in 0..<30 {
      clock.now += Int64(n % 3) - 1
      var event = sampleEvent(n)
      if n == 17 { event.version = 2 }
      try writers[n % 2].append([event])
    }
    for writer in writers { writer.close() }
    let history = try log.readHistory()
    #expect((0..<history.count).map { history[$0] } == history.records)
  }

  /// The same files, copied into journals in different orders, give the same history.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func historyIsIndependentOfListingAndCopyOrder(seed: UInt64) throws {
    let source = try makeLog("merge-source")
    let clock = ManualClock()
    var random = SplitMix64(seed: seed)
    let devices = ["phone", "watch", "ipad", "laptop"]
    let writers = try devices.map {
      try source.openWriter(
        device: $0,
        options: testOptions(clock: clock, step: 0, seed: random.next())
      )
    }
    for n in 0..<80 {
      clock.now += Int64.random(in: -3...5, using: &random)
      let writer = try #require(writers.randomElement(using: &random))
      try writer.append(sampleEvent(n))
    }
    for writer in writers { writer.close() }
    let expected = try source.readHistory().records
    #expect(expected.count == 80)

    for order in [devices, devices.reversed(), devices.shuffled(using: &random)] {
      let copy = try makeLog("merge-copy")
      for device in order {
        try FileManager.default.copyItem(
          at: source.deviceFolder(device),
          to: copy.deviceFolder(device)
        )
      }
      #expect(try copy.readHistory().records == expected)
      // Devices handed over in any order, their records cut into runs anywhere.
      let shuffled = try order.map { device in
        var history = try copy.readDevice(device)
        var runs: [[EventRecord]] = []
        var rest = history.records[...]
        while !rest.isEmpty {
          let length = Int.random(in: 0...min(rest.count, 12), using: &random)
          runs.append(Array(rest.prefix(length)))
          rest = rest.dropFirst(length)
        }
        history.records = []
        return EventLog.DeviceRuns(history: history, runs: runs)
      }.shuffled(using: &random)
      #expect(EventLog.merge(shuffled).records == expected)
    }
  }

  @Test func redeliveredEventsAreHandedOnOnce() throws {
    let log = try makeLog()
    var event = sampleEvent(1)
    event.id = ULID("01HQ7Z4X8K9M2N3P4Q5R6S7T8V")
    let clock = ManualClock()
    let watch = try log.openWriter(device: "watch", options: testOptions(clock: clock, seed: 1))
    try watch.append(event)
    watch.close()
    let phone = try log.openWriter(device: "phone", options: testOptions(clock: clock, seed: 2))
    try phone.append([sampleEvent(0), event])
    phone.close()
    let history = try log.readHistory()
    #expect(history.records.count == 2)
    #expect(history.records.filter { $0.id == event.id }.map(\.device) == ["watch"])
    #expect(history.duplicates.count == 1)
    #expect(
      history.duplicates.first?.skipped
        == RecordLocation(file: "devices/phone/000001.jsonl", line: 2)
    )
  }
}
