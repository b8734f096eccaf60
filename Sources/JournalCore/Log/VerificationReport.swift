/// The result of ``EventLog/verify()``: every problem found in the journal.
public struct VerificationReport: Sendable, Hashable {
  /// One problem, at a file and usually a line.
  public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// The file, relative to the journal folder.
    public var file: String
    /// The 1-based line, when the problem concerns one line.
    public var line: Int?
    /// What is wrong, lowercase, such as `checksum mismatch (stored …, computed …)`.
    public var cause: String

    /// Creates a problem.
    public init(file: String, line: Int?, cause: String) {
      self.file = file
      self.line = line
      self.cause = cause
    }

    /// `file:line: cause`, or `file: cause` without a line.
    public var description: String {
      if let line { return "\(file):\(line): \(cause)" }
      return "\(file): \(cause)"
    }
  }

  /// Every problem, in device order, then file order, then line order.
  public var problems: [Problem]
  /// Facts that are not problems, such as side files holding torn tails set aside earlier.
  public var notes: [Problem]
  /// How many records passed their checksum and decoded.
  public var recordCount: Int
  /// How many device folders the journal has.
  public var deviceCount: Int
  /// The forks not healed yet (see ``Fork``).
  ///
  /// Branches read from copies a file-sync service left, or branch files whose head no record
  /// of the device names in `merge` yet. They are notes, not problems: every record of them
  /// is read.
  public var unhealedForks: [Fork] = []

  /// Creates a report.
  public init(problems: [Problem], notes: [Problem], recordCount: Int, deviceCount: Int) {
    self.problems = problems
    self.notes = notes
    self.recordCount = recordCount
    self.deviceCount = deviceCount
  }

  /// Whether no problem was found.
  public var isClean: Bool { problems.isEmpty }
}
