import Testing

@testable import JournalCore

/// The small caches' one rule: up to the capacity every element is kept, then each new one
/// replaces the oldest kept.
@Suite struct RecentRingTests {
  @Test(arguments: [1, 2, 3, 8, 16])
  func keepsTheLastElements(capacity: Int) {
    var ring = RecentRing<Int>(capacity: capacity)
    for value in 0..<(capacity * 3 + 1) {
      let index = ring.keep(value)
      #expect(ring.elements[index] == value)
      let kept = max(0, value + 1 - capacity)...value
      #expect(ring.elements.count == min(value + 1, capacity))
      #expect(Set(ring.elements) == Set(kept), "after \(value)")
    }
  }
}
