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

  /// A replay checks types and versions first, then decodes the records where they lie,
  /// letting go of them as it goes (`consumeIfAll`); the subscript reads one at a time.
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
    let names = history.records.map { "\($0.device)#\($0.sequence)" }
    for chunkSize in [1, 4, 1_000] {
      // Each chunk starts from its own state: counting in it numbers the chunk's records.
      var consumed = history
      let made = consumed.consumeIfAll(chunkSize: chunkSize, state: 0) { record, value, seen in
        seen += 1
        value.initialize(to: ("\(record.pointee.device)#\(record.pointee.sequence)", seen))
        return true
      }
      #expect(made?.map(\.0) == names)
      #expect(made?.allSatisfy { $0.1 >= 1 && $0.1 <= chunkSize } == true)
      #expect(consumed.count == 0 && consumed.records.isEmpty)
      // A false for any record gives nil, and lets go of what was made.
      var failing = history
      let counter = ConcurrentMapTests.Counter()
      let none = failing.consumeIfAll(chunkSize: chunkSize, state: ()) { record, value, _ in
        guard record.pointee.version != 2 else { return false }
        value.initialize(to: ConcurrentMapTests.Tracked(Int(record.pointee.sequence), counter))
        return true
      }
      #expect(none == nil)
      #expect(counter.alive == 0)
      #expect(failing.count == 0)
    }
    // Checked run by run: every type and version is asked about, a repeat in a run is not.
    let asked = ConcurrentMapTests.Counter()
    #expect(
      history.allSatisfy { _, _ in
        asked.add(1)
        return true
      }
    )
    let stored = Set(history.records.map { "\($0.type)/\($0.version)" })
    #expect(stored == ["set.completed/1", "set.completed/2"])
    #expect(asked.alive >= stored.count && asked.alive < history.count)
    // The one record at version 2, amid records of its type at version 1, is asked about.
    #expect(!history.allSatisfy { _, version in version == 1 })
    #expect(history.allSatisfy { _, version in version >= 1 })
  }

  /// The all-current check asks about each pair of type and version once.
  ///
  /// The merge gathers the records' pairs, however the types take turns. Past
  /// ``RecordTypes/limit`` pairs the check reads the records, where up to eight that passed
  /// are not asked about again in a run, and a ninth pushes out the oldest.
  @Test func theAllCurrentCheckAsksAboutEachTypeOnce() throws {
    // A journal of `types` types, four records of each, the types in turn.
    func asked(_ types: Int) throws -> Int {
      let log = try makeLog()
      let writer = try log.openWriter(
        device: "phone",
        options: testOptions(clock: ManualClock(1_000), step: 1, seed: 3)
      )
      defer { writer.close() }
      for round in 0..<4 {
        for type in 0..<types {
          var event = sampleEvent(round * types + type)
          event.type = "type.\(types).\(type)"
          try writer.append([event])
        }
      }
      let history = try log.readHistory()
      let counter = ConcurrentMapTests.Counter()
      #expect(
        history.allSatisfy { type, _ in
          if type.hasPrefix("type.\(types).") { counter.add(1) }
          return true
        }
      )
      return counter.alive
    }
    #expect(try asked(5) == 5)
    #expect(try asked(9) == 9)
    #expect(try asked(RecordTypes.limit) == RecordTypes.limit)
    // One more pair than are kept: read record by record, each of the types in turn pushes
    // out the one that comes next, so every record is asked about.
    let many = RecordTypes.limit + 1
    #expect(try asked(many) == 4 * many)
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
