/// Why a command was refused.
///
/// Nothing was appended.
public struct CommandError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  /// What to do instead, when there is something useful to say.
  public var hint: String?

  public init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }

  public var description: String {
    hint.map { "error: \(message)\nhint: \($0)" } ?? "error: \(message)"
  }
}
