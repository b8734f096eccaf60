import Foundation
import JournalCLI
import JournalCore
import JournalTestSupport
import Testing

/// What one in-process run of `journal` printed and returned.
struct CLIResult {
  var status: Int32
  var out: String
  var err: String
}

/// Runs `journal` in-process against one temporary journal, with a fixed
/// environment: no colour, 80 columns, device `phone`, zone Europe/Paris.
final class CLIHarness: @unchecked Sendable {
  let journal: URL
  var environment: [String: String]

  init() throws {
    journal = try makeTemporaryDirectory("cli").appendingPathComponent("Journal")
    environment = [
      "NO_COLOR": "1", "COLUMNS": "80", "WORKOUT_JOURNAL": journal.path, "WORKOUT_DEVICE": "phone",
    ]
  }

  @discardableResult
  func run(_ arguments: String...) -> CLIResult { run(arguments) }

  @discardableResult
  func run(_ arguments: [String]) -> CLIResult {
    let out = Buffer()
    let err = Buffer()
    let console = Console(
      isTerminal: false,
      environment: environment,
      out: { out.append($0) },
      err: { err.append($0) }
    )
    let status = JournalCLI.run(arguments: arguments, environment: environment, console: console)
    return CLIResult(status: status, out: out.text, err: err.text)
  }

  /// Runs and expects success, returning standard output.
  @discardableResult
  func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let result = run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.err)", sourceLocation: sourceLocation)
    return result.out
  }

  /// The journal's files and their bytes.
  func snapshot() throws -> [String: Data] {
    var files: [String: Data] = [:]
    let base = journal.path
    guard let walker = FileManager.default.enumerator(atPath: base) else { return files }
    for case let relative as String in walker {
      let path = base + "/" + relative
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
      }
    }
    return files
  }

  /// A journal with the split "Upper Body": Bench Press 3×5 @ 60, Push-up
  /// 2×15 (bodyweight), Plank 2×60 s.
  func makeUpperBody() {
    ok("init")
    ok("split", "add", "Upper Body", "--rest", "90")
    ok(
      "exercise",
      "add",
      "Upper Body",
      "Bench Press",
      "--sets",
      "3",
      "--reps",
      "5",
      "--weight",
      "60"
    )
    ok("exercise", "add", "Upper Body", "Push-up", "--sets", "2", "--reps", "15")
    ok("exercise", "add", "Upper Body", "Plank", "--sets", "2", "--seconds", "60")
  }

  /// The open workout's document, through `journal status --json`.
  func workout(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let out = ok("status", "--json", sourceLocation: sourceLocation)
    let object = try JSONSerialization.jsonObject(with: Data(out.utf8))
    return try #require(object as? [String: Any], sourceLocation: sourceLocation)
  }

  /// The log named `name` of the open workout.
  func log(
    _ name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [String: Any] {
    let logs = try #require(try workout(sourceLocation: sourceLocation)["logs"] as? [[String: Any]])
    return try #require(
      logs.first { $0["exerciseName"] as? String == name },
      sourceLocation: sourceLocation
    )
  }
}

/// Collects text written from any thread.
final class Buffer: @unchecked Sendable {
  private let lock = NSLock()
  private var storage = ""
  func append(_ text: String) { lock.withLock { storage += text } }
  var text: String { lock.withLock { storage } }
}
