/// When an append's bytes must be on stable storage before the append returns.
public struct Durability: Sendable, Hashable, CustomStringConvertible {
  private enum Level: Hashable {
    case full
    case none
  }

  private let level: Level

  /// Each batch is flushed to the drive before its records are returned.
  ///
  /// `fdatasync` on
  /// Linux, `fcntl(F_FULLFSYNC)` on Apple platforms, and the folder is synced when a segment
  /// is created. The default.
  public static let full = Durability(level: .full)

  /// Nothing is flushed.
  ///
  /// The operating system writes the bytes back when it likes, and a
  /// power loss may lose acknowledged appends (a crash of the process alone does not). Only
  /// for generating sample journals and for benchmarks; never the default.
  public static let none = Durability(level: .none)

  /// Whether appends wait for stable storage.
  var syncs: Bool { level == .full }

  public var description: String { level == .full ? "full" : "none" }
}
