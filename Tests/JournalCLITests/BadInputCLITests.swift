import Foundation
import JournalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hostile arguments and a hostile journal folder through the command line: each is refused
/// with a clear message and the journal folder hashes the same before and after
/// (docs/BadInput.md).
@Suite struct BadInputCLITests {
  static let hostileArguments: [CLIRejectCase] = [
    CLIRejectCase(["done", "--weight", "1e308"], 1, "weight 1e+308 is outside"),
    CLIRejectCase(["done", "--weight", "1e400"], 1, "not a number"),
    CLIRejectCase(["done", "--weight", "-1e308"], 1, "is outside"),
    CLIRejectCase(["done", "--reps", "99999999999999999999"], 64, "needs a whole number"),
    CLIRejectCase(["done", "--reps", "1e3"], 64, "needs a whole number"),
    CLIRejectCase(["done", "--device", "/etc"], 64, "invalid device name"),
    CLIRejectCase(["done", "--device", "ph\u{2215}one"], 64, "invalid device name"),
    CLIRejectCase(
      ["done", "--device", String(repeating: "a", count: 65)],
      64,
      "invalid device name"
    ),
    CLIRejectCase(["done", "--device", "pho\u{0}ne"], 64, "invalid device name"),
    CLIRejectCase(
      ["start", "Upper Body", "--time-zone", "../../etc/passwd"],
      1,
      "unknown time zone"
    ),
    CLIRejectCase(["delete", "../../x"], 1, "unknown workout"),
  ]

  @Test(arguments: hostileArguments)
  func hostileArgumentsChangeNoByte(_ c: CLIRejectCase) throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("start", "Upper Body")
    cli.ok("done")
    let before = try JournalFingerprint(of: cli.journal)
    let result = cli.run(c.arguments)
    #expect(result.status == c.status, "stderr: \(result.err)")
    #expect(result.err.contains(c.message), "stderr: \(result.err)")
    try JournalFingerprint(of: cli.journal).expectUnchanged(from: before)
  }

  @Test func aJournalFolderOthersCanWriteIsRefusedWithTheFix() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    #expect(chmod(cli.journal.path, 0o775) == 0)
    let before = try JournalFingerprint(of: cli.journal)
    let result = cli.run("start", "Upper Body")
    #expect(result.status == 1)
    #expect(
      result.err.contains("can be written by others than its owner (mode 775)"),
      "\(result.err)"
    )
    #expect(result.err.contains("chmod 700 '\(cli.journal.path)'"), "\(result.err)")
    try JournalFingerprint(of: cli.journal).expectUnchanged(from: before)
    // Reading still works, and fixing the mode lets the command through.
    #expect(cli.run("split", "list").status == 0)
    #expect(chmod(cli.journal.path, 0o700) == 0)
    cli.ok("start", "Upper Body")
  }

  @Test func syncCopiesAreNoticesNotErrors() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    let device = cli.journal.appendingPathComponent("devices/phone")
    try FileManager.default.copyItem(
      at: device.appendingPathComponent("000001.jsonl"),
      to: device.appendingPathComponent("000001 2.jsonl")
    )
    let result = cli.run("split", "list")
    #expect(result.status == 0)
    #expect(
      result.err.contains(
        "devices/phone/000001 2.jsonl: note: duplicate of '000001.jsonl' left by a "
          + "file-sync service holds no record the device's segments lack; not read"
      ),
      "\(result.err)"
    )
    let verify = cli.run("verify")
    #expect(verify.status == 0, "\(verify.out)\(verify.err)")
  }
}
