import Testing

@testable import JournalCore

@Suite struct HybridLogicalClockTests {
  @Test func followsTheWallClockWhenItAdvances() {
    var clock = HybridLogicalClock()
    #expect(clock.tick(wall: 1_000) == HybridTime(milliseconds: 1_000))
    #expect(clock.tick(wall: 1_005) == HybridTime(milliseconds: 1_005))
  }

  @Test func clockSteppingBackwardsKeepsOrder() {
    var clock = HybridLogicalClock()
    let walls: [Int64] = [1_000, 1_000, 400, 999, 1_000, 1_001, 50, 2_000]
    let readings = walls.map { clock.tick(wall: $0) }
    for (a, b) in zip(readings, readings.dropFirst()) { #expect(a < b) }
    #expect(readings[2] == HybridTime(milliseconds: 1_000, counter: 2))
    #expect(readings[5] == HybridTime(milliseconds: 1_001))
    #expect(readings[6] == HybridTime(milliseconds: 1_001, counter: 1))
    #expect(readings.last == HybridTime(milliseconds: 2_000))
  }

  @Test func notBeforeSortsAfterObservedEvents() {
    var clock = HybridLogicalClock()
    _ = clock.tick(wall: 1_000)
    let observed = HybridTime(milliseconds: 5_000, counter: 3)
    let next = clock.tick(wall: 1_001, notBefore: observed)
    #expect(next == HybridTime(milliseconds: 5_000, counter: 4))
    #expect(clock.tick(wall: 1_002) == HybridTime(milliseconds: 5_000, counter: 5))
    clock.observe(HybridTime(milliseconds: 9_000))
    #expect(clock.tick(wall: 1_003) == HybridTime(milliseconds: 9_000, counter: 1))
  }

  @Test func counterOverflowMovesToTheNextMillisecond() {
    var clock = HybridLogicalClock(last: HybridTime(milliseconds: 10, counter: .max))
    #expect(clock.tick(wall: 5) == HybridTime(milliseconds: 11))
  }
}
