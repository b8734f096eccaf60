/// The sample's source of randomness: SplitMix64, so that a seed gives the
/// same numbers on every machine and every Swift version.
///
/// The helpers draw integers by plain modulo instead of the standard
/// library's `random(in:using:)`, whose algorithm is not a documented promise;
/// the tiny modulo bias does not matter for a sample.
struct SampleRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

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
