/// Items waiting to be handed on, the first by `precedes` on top: a binary heap, for reads
/// that merge items coming from many places in one order.
struct Heap<Item> {
  private var items: [Item] = []
  private let precedes: (Item, Item) -> Bool

  init(by precedes: @escaping (Item, Item) -> Bool) { self.precedes = precedes }

  var isEmpty: Bool { items.isEmpty }
  var first: Item? { items.first }

  mutating func insert(_ item: Item) {
    items.append(item)
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(items[child], items[parent]) else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  /// Takes the first item out; the heap must not be empty.
  mutating func removeFirst() -> Item {
    items.swapAt(0, items.count - 1)
    let first = items.removeLast()
    var parent = 0
    while true {
      var least = parent
      for child in [2 * parent + 1, 2 * parent + 2]
      where child < items.count && precedes(items[child], items[least]) {
        least = child
      }
      guard least != parent else { return first }
      items.swapAt(parent, least)
      parent = least
    }
  }
}
