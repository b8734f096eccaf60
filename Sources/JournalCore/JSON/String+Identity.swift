extension String {
  /// Whether the two strings are one value bit for bit: the same storage (one string read
  /// once and shared, as ``RecentStrings`` shares them), or the same inline small string (up
  /// to fifteen bytes).
  ///
  /// True means equal, and costs two word comparisons. False says nothing: equal text may lie
  /// in two storages. A search that expects to meet the very string it looks for tries every
  /// candidate this way first, then compares text: `==` on two different strings calls into
  /// the standard library, where this reads no byte of text.
  @inlinable public func isIdentical(to other: String) -> Bool {
    #if arch(x86_64) || arch(arm64)
    unsafeBitCast(self, to: (UInt64, UInt64).self)
      == unsafeBitCast(other, to: (UInt64, UInt64).self)
    #else
    // Elsewhere a string need not be two words: never identical, every search compares text.
    false
    #endif
  }
}
