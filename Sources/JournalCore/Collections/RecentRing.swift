/// The last few elements kept, at most ``capacity``: once all places are taken, each new
/// element replaces the oldest.
///
/// The one rule of the small caches on a replay's paths (``RecentStrings``, `RecentTypes`,
/// `RecentTypeAnswers`), each of which looks through ``elements`` in its own way.
struct RecentRing<Element> {
  /// How many elements are kept.
  let capacity: Int
  /// The elements kept, the oldest not necessarily first.
  private(set) var elements: [Element] = []
  /// Where the next element goes once all places are taken: the oldest.
  private var next = 0

  /// An empty ring of `capacity` places.
  init(capacity: Int) {
    precondition(capacity > 0, "a ring keeps at least one element")
    self.capacity = capacity
    elements.reserveCapacity(capacity)
  }

  /// Keeps `element` in a free place, else in the oldest's; returns its index in
  /// ``elements``.
  @discardableResult
  mutating func keep(_ element: Element) -> Int {
    guard elements.count == capacity else {
      elements.append(element)
      return elements.count - 1
    }
    let index = next
    elements[index] = element
    next = (next + 1) % capacity
    return index
  }
}

extension RecentRing: Sendable where Element: Sendable {}
