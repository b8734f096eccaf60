import Foundation
import JournalTestSupport
import Testing

/// `audit` and `export` written as the saved state is read, a workout at a time, print the
/// bytes the whole history read at once prints (`--as-of` a time after every event keeps the
/// whole replay), for every format and filter; the built binary prints the goldens.
@Suite struct StreamedReadsTests {
  /// A copy of the sample journal, so that its saved state is its own.
  static func sampleCopy() throws -> URL {
    let copy = try makeTemporaryDirectory("streamed-reads").appendingPathComponent("Journal")
    try FileManager.default.copyItem(at: SampleReadsTests.journal, to: copy)
    return copy
  }

  static let variants: [[String]] = [
    ["audit"], ["audit", "--json"], ["audit", "--format", "csv"],
    ["audit", "--exercise", "bench"], ["audit", "--split", "push", "--json"],
    ["audit", "--exercise", "Bench Press", "--split", "pull", "--format", "csv"],
    ["audit", "--since", "2026-07-01", "--until", "2026-08-15"],
    ["audit", "--since", "2026-09-20", "--json"], ["audit", "--until", "2000-01-01"],
    ["audit", "--until", "2000-01-01", "--json"], ["export"], ["export", "--format", "ndjson"],
  ]

  @Test(arguments: variants)
  func streamedOutputIsTheWholeReplays(_ arguments: [String]) throws {
    let cli = try CLIHarness()
    cli.environment["WORKOUT_JOURNAL"] = try Self.sampleCopy().path
    cli.environment["COLUMNS"] = "100"
    let streamed = cli.run(arguments)
    let whole = cli.run(arguments + ["--as-of", "2099-01-01"])
    #expect(streamed.status == 0 && whole.status == 0, "\(streamed.err) \(whole.err)")
    #expect(!streamed.out.isEmpty)
    #expect(
      streamed.out == whole.out,
      "\(arguments):\n\(firstDifference(Data(streamed.out.utf8), Data(whole.out.utf8)))"
    )
  }

  /// A file of the saved state damaged in the middle of the workouts: the read that meets it
  /// goes on from the whole history, and prints the same bytes.
  @Test(arguments: [["export"], ["export", "--format", "ndjson"], ["audit", "--json"], ["audit"]])
  func aDamagedStateFileChangesNothingPrinted(_ arguments: [String]) throws {
    let journal = try Self.sampleCopy()
    let cli = try CLIHarness()
    cli.environment["WORKOUT_JOURNAL"] = journal.path
    let whole = cli.run(arguments + ["--as-of", "2099-01-01"])
    #expect(cli.run(arguments).out == whole.out)
    let streams = journal.appendingPathComponent(".journal-state/streams")
    let names = try FileManager.default.contentsOfDirectory(atPath: streams.path)
      .filter { $0.hasPrefix("workout-") }.sorted()
    let file = streams.appendingPathComponent(try #require(names.dropFirst(names.count / 2).first))
    var bytes = try Data(contentsOf: file)
    bytes[bytes.count / 2] ^= 0x20
    try bytes.write(to: file)
    let streamed = cli.run(arguments)
    #expect(streamed.status == 0, "\(streamed.err)")
    #expect(
      streamed.out == whole.out,
      "\(arguments):\n\(firstDifference(Data(streamed.out.utf8), Data(whole.out.utf8)))"
    )
  }

  /// A name that names nothing is refused before anything is written.
  @Test func anUnknownExerciseIsRefusedBeforeAnyOutput() throws {
    let cli = try CLIHarness()
    cli.environment["WORKOUT_JOURNAL"] = try Self.sampleCopy().path
    let result = cli.run("audit", "--exercise", "Nothing At All", "--json")
    #expect(result.status != 0)
    #expect(result.out.isEmpty)
    #expect(result.err.contains("unknown exercise 'Nothing At All'"))
  }

  /// The built binary, whose standard output is written in chunks, prints the goldens.
  @Test func theBinaryPrintsTheGoldens() throws {
    let journal = try Self.sampleCopy()
    for (arguments, golden) in [
      (["audit", "--exercise", "Bench Press"], "sample-audit-bench.txt"),
      (["export"], "sample-export.csv"),
    ] {
      let process = Process()
      process.executableURL = try journalBinary()
      process.arguments = arguments
      process.environment = [
        "WORKOUT_JOURNAL": journal.path, "NO_COLOR": "1", "COLUMNS": "120",
      ]
      let out = Pipe()
      process.standardOutput = out
      process.standardError = FileHandle.nullDevice
      try process.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(arguments)")
      expectGolden(data, named: golden)
    }
  }
}
