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

  /// A device's files written in two places (a copy of the journal on another machine
  /// writing as 'phone'), kept by Dropbox as a conflicted copy: both branches are read and
  /// the first command says so once; verify notes the fork (and fails with --strict); the
  /// other machine is refused until it adopts the device; the next append heals the fork.
  @Test func aForkedDeviceEndToEnd() throws {
    let folder = try makeTemporaryDirectory("binary-fork")
    let journal = folder.appendingPathComponent("Journal")
    let other = folder.appendingPathComponent("Other")
    for arguments in [["init"], ["split", "add", "Legs"]] {
      let result = try run(arguments, journal: journal)
      #expect(result.status == 0, "\(arguments): \(result.err)")
    }
    // The other machine starts from this journal's files, without this machine's own
    // (never synced) state.
    try FileManager.default.copyItem(at: journal, to: other)
    try FileManager.default.removeItem(at: other.appendingPathComponent(".journal-state"))
    #expect(try run(["exercise", "add", "Legs", "Squat"], journal: journal).status == 0)
    #expect(try run(["exercise", "add", "Legs", "Deadlift"], journal: other).status == 0)
    let segment = "devices/phone/000001.jsonl"
    let copy = "devices/phone/000001 (Lifter's MacBook's conflicted copy 2026-01-01).jsonl"
    try FileManager.default.copyItem(
      at: other.appendingPathComponent(segment),
      to: journal.appendingPathComponent(copy)
    )

    let first = try run(["split", "list"], journal: journal)
    #expect(first.status == 0, "\(first.err)")
    #expect(first.out.contains("Squat") && first.out.contains("Deadlift"), "\(first.out)")
    let forkLines = first.err.split(separator: "\n").filter { $0.contains("fork of device") }
    #expect(forkLines.count == 1, "\(first.err)")
    let second = try run(["split", "list"], journal: journal)
    #expect(!second.err.contains("fork"), "\(second.err)")
    let verify = try run(["verify"], journal: journal)
    #expect(verify.status == 0, "\(verify.err)")
    #expect(verify.out.contains("fork of device 'phone'"), "\(verify.out)")
    #expect(try run(["verify", "--strict"], journal: journal).status == 1)

    // The sync service gives the other machine this journal's version of the segment: its
    // last record there is not one it wrote.
    try FileManager.default.removeItem(at: other.appendingPathComponent(segment))
    try FileManager.default.copyItem(
      at: journal.appendingPathComponent(segment),
      to: other.appendingPathComponent(segment)
    )
    let before = try Data(contentsOf: other.appendingPathComponent(segment))
    let refused = try run(["exercise", "add", "Legs", "Lunge"], journal: other)
    #expect(refused.status == 1)
    #expect(refused.err.contains("another machine may be writing as 'phone'"), "\(refused.err)")
    #expect(try Data(contentsOf: other.appendingPathComponent(segment)) == before)
    let adopted = try run(["exercise", "add", "Legs", "Lunge", "--adopt"], journal: other)
    #expect(adopted.status == 0, "\(adopted.err)")

    // This machine's next append heals the fork; the copy may then go.
    #expect(try run(["exercise", "add", "Legs", "Calf raise"], journal: journal).status == 0)
    let healed = try run(["verify", "--strict"], journal: journal)
    #expect(healed.status == 0, "\(healed.out)\(healed.err)")
    #expect(healed.out.contains("may be deleted"), "\(healed.out)")
    try FileManager.default.removeItem(at: journal.appendingPathComponent(copy))
    let list = try run(["split", "list"], journal: journal)
    #expect(list.out.contains("Deadlift") && list.out.contains("Calf raise"), "\(list.out)")
    #expect(try run(["verify", "--strict"], journal: journal).status == 0)
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

  /// The rebuilds of the sample journal: the first into a folder (every stream of the saved
  /// state), the next (incremental: nothing changed) and `--full` (the history read as it is
  /// folded) all agree with the checked-in `Projections/`.
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
