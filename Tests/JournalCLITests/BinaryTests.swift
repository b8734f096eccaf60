import Foundation
import JournalTestSupport
import Testing

/// A few runs of the built `journal` executable: exit statuses, streams and
/// the environment as a shell would see them.
@Suite struct BinaryTests {
  func run(_ arguments: [String], journal: URL) throws -> (status: Int32, out: String, err: String)
  {
    let process = Process()
    process.executableURL = try journalBinary()
    process.arguments = arguments
    process.environment = [
      "WORKOUT_JOURNAL": journal.path, "WORKOUT_DEVICE": "phone", "NO_COLOR": "1",
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self),
      String(decoding: errData, as: UTF8.self)
    )
  }

  @Test func aWorkoutEndToEnd() throws {
    let journal = try makeTemporaryDirectory("binary").appendingPathComponent("Journal")
    for arguments in [
      ["init"], ["split", "add", "Legs"],
      ["exercise", "add", "Legs", "Squat", "--sets", "2", "--reps", "5", "--weight", "100"],
      ["start", "Legs", "--time-zone", "Europe/Berlin"], ["done", "--reps", "4"], ["done"],
      ["verify"],
    ] {
      let result = try run(arguments, journal: journal)
      #expect(result.status == 0, "\(arguments): \(result.err)")
    }
    let status = try run(["status"], journal: journal)
    #expect(status.out.contains("Squat"))
    #expect(status.out.contains("4 × 100 · 5 × 100"))
    let attributes = try FileManager.default.attributesOfItem(atPath: journal.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
  }

  @Test func statusesAndStreams() throws {
    let journal = try makeTemporaryDirectory("binary").appendingPathComponent("Journal")
    let help = try run(["--help"], journal: journal)
    #expect(help.status == 0)
    #expect(help.err.isEmpty)
    let usage = try run(["done", "--nope"], journal: journal)
    #expect(usage.status == 64)
    #expect(usage.out.isEmpty)
    #expect(usage.err.contains("See 'journal done --help'."))
    let failure = try run(["status"], journal: journal)
    #expect(failure.status == 1)
    #expect(failure.err.hasPrefix("error: no journal at"))
  }

  /// The rebuilds of the sample journal: the first into a folder (no checkpoint, so the
  /// history is read as it is folded), the next (incremental, held) and `--full` (read as it
  /// is folded) all agree with the checked-in `Projections/`.
  @Test func rebuildsOfTheSampleAgree() throws {
    let repository = SampleFreshnessTests.repository
    let folder = try makeTemporaryDirectory("binary-rebuild")
    let journal = folder.appendingPathComponent("Journal")
    try FileManager.default.copyItem(at: repository.appendingPathComponent("Journal"), to: journal)
    let expected = try SampleFreshnessTests.files(
      under: repository.appendingPathComponent("Projections")
    )
    let first = try run(
      ["rebuild", "--out", folder.appendingPathComponent("A").path],
      journal: journal
    )
    #expect(first.status == 0, "\(first.err)")
    #expect(first.err.isEmpty)
    #expect(
      first.out.hasPrefix(
        "full rebuild of A/: \(expected.keys.filter { !$0.hasPrefix(".") }.count) written, 0 removed, 0 unchanged"
      )
    )
    let again = try run(
      ["rebuild", "--out", folder.appendingPathComponent("A").path],
      journal: journal
    )
    #expect(again.out.hasPrefix("incremental rebuild of A/: 0 written, 0 removed"), "\(again.out)")
    let full = try run(
      ["rebuild", "--full", "--out", folder.appendingPathComponent("B").path],
      journal: journal
    )
    #expect(full.status == 0, "\(full.err)")
    for name in ["A", "B"] {
      SampleFreshnessTests.expectSame(
        try SampleFreshnessTests.files(under: folder.appendingPathComponent(name)),
        expected,
        name
      )
    }
  }
}
