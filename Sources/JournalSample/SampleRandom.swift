import JournalCore
import JournalProjections

/// The sample's source of randomness: ``SplitMix64``, so that a seed gives the
/// same numbers on every machine and every Swift version.
///
/// The helpers draw integers by plain modulo instead of the standard
/// library's `random(in:using:)`, whose algorithm is not a documented promise;
/// the tiny modulo bias does not matter for a sample.
struct SampleRandom: RandomNumberGenerator, Sendable {
  private var source: SplitMix64

  init(seed: UInt64) { source = SplitMix64(seed: seed) }

  mutating func next() -> UInt64 { source.next() }

  /// A number in `range`.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    let span = UInt64(range.upperBound - range.lowerBound) + 1
    return range.lowerBound + Int(next() % span)
  }

  /// True with a probability of `percent` in 100.
  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

  /// One element of a non-empty array.
  mutating func pick<T>(_ elements: [T]) -> T { elements[int(0...(elements.count - 1))] }

  /// An independent generator for one purpose, so that drawing more numbers
  /// for one purpose does not shift every other purpose's numbers.
  mutating func fork() -> SampleRandom { SampleRandom(seed: next()) }
}
