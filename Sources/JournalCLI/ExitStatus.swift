/// The exit statuses of `journal`.
public enum ExitStatus {
  /// Success.
  public static let success: Int32 = 0
  /// The command ran and failed: a rejected action, a problem found.
  public static let failure: Int32 = 1
  /// The command was invoked wrongly (`EX_USAGE`).
  public static let usage: Int32 = 64
}
