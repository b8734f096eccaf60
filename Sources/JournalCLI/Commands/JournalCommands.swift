import Foundation
import JournalCore
import JournalProjections
import JournalSample

/// `init`, `verify` and the hidden `_append-loop`: the journal itself.
enum JournalCommands {
  static let all: [Command] = [initialize, verify, upgradeCheck, sample, appendLoop]

  static let initialize = Command(
    ["init"],
    abstract: "Create a journal folder",
    discussion: """
      Creates the folder and any missing folder above it (private to you) and its marker
      file. Running it again changes nothing. --starter also adds the app's starter splits
      (Upper Body, Core, Lower Body), as 'journal split starter' does.
      """,
    options: [
      OptionSpec("starter", help: "Add the starter splits made from the exercise catalog")
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    if invocation.arguments.flag("starter") { _ = try JournalSession.device(invocation) }
    let url = invocation.journalURL
    let existed = FileManager.default.fileExists(
      atPath: url.appendingPathComponent(EventLog.markerFileName).path
    )
    _ = try EventLog.create(at: url)
    var added: [String] = []
    if invocation.arguments.flag("starter") {
      added = try SplitCommands.addStarters(
        JournalSession(invocation, scope: .splits),
        invocation
      )
    }
    if invocation.wantsJSON {
      var object: [String: Any] = ["journal": url.path, "created": !existed]
      if invocation.arguments.flag("starter") { object["starterSplits"] = added }
      invocation.printJSON(object)
    } else {
      invocation.console.print(
        existed ? "journal already exists at \(url.path)" : "created journal at \(url.path)"
      )
      if !added.isEmpty {
        invocation.console.print("added starter splits: \(added.joined(separator: ", "))")
      }
    }
    return ExitStatus.success
  }

  static let verify = Command(
    ["verify"],
    abstract: "Check every record: checksums, hash chains, sequences, duplicates",
    discussion: """
      Exit status 0 when clean, 1 with every problem listed as 'file:line: cause'. A fork
      of a device's history (its files written in two places, kept by a sync service as a
      copy) is a note: both branches are read, and the device's next append heals it.
      --strict also fails while a fork is not healed.
      """,
    options: [OptionSpec("strict", help: "Also fail (exit 1) while a fork is not healed yet")]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    let log = try EventLog(at: invocation.journalURL)
    let report = try log.verify()
    let strict = invocation.arguments.flag("strict")
    let failed = !report.isClean || (strict && !report.unhealedForks.isEmpty)
    if invocation.wantsJSON {
      invocation.printJSON([
        "clean": report.isClean,
        "records": report.recordCount,
        "devices": report.deviceCount,
        "problems": report.problems.map(\.description),
        "notes": report.notes.map(\.description),
        "unhealedForks": report.unhealedForks.map(\.file),
      ])
    } else {
      let c = invocation.console
      for note in report.notes { c.print(c.styled("note: ", .yellow) + note.description) }
      for problem in report.problems { c.print(c.styled("error: ", .red) + problem.description) }
      let summary = "\(report.recordCount) records on \(report.deviceCount) devices"
      c.print(
        report.isClean
          ? c.styled("ok", .green) + ": \(summary), every chain intact"
          : "\(report.problems.count) problems in \(summary)"
      )
    }
    if !report.isClean {
      invocation.console.error("error: \(report.problems.count) problems found")
    } else if failed {
      invocation.console.error(
        "error: \(report.unhealedForks.count) forks not healed yet (--strict); the device's "
          + "next append heals them"
      )
    }
    return failed ? ExitStatus.failure : ExitStatus.success
  }

  static let upgradeCheck = Command(
    ["upgrade"],
    abstract: "Check that every stored event reads through the upgrade steps",
    discussion: """
      Stored events are never rewritten: old versions are upgraded each time they
      are read. With --check this lists how many events of each type and version
      are transformed, and fails (exit 1) when one cannot be read.
      """,
    options: [OptionSpec("check", help: "Only check (the only mode: events are upgraded on read)")]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    guard invocation.arguments.flag("check") else {
      throw UsageError(
        "events are upgraded on read and never rewritten; use 'journal upgrade --check'"
      )
    }
    let store = try FileEventStore(url: invocation.journalURL)
    let check = try UpgradeCheck(stored: try store.readHistory().events)
    if invocation.wantsJSON {
      invocation.printJSON([
        "transformed": check.transformed, "current": check.current, "unreadable": check.unreadable,
      ])
    } else {
      let c = invocation.console
      for (key, count) in check.transformed.sorted(by: { $0.key < $1.key }) {
        c.print(
          "  \(key.padding(toLength: 24, withPad: " ", startingAt: 0)) \(count) upgraded on read"
        )
      }
      for problem in check.unreadable { c.print(c.styled("error: ", .red) + problem) }
      let total = check.transformed.values.reduce(0, +)
      c.print(
        check.isClean
          ? "ok: \(total) events upgraded on read, \(check.current) at the current version"
          : "\(check.unreadable.count) events cannot be read by this build"
      )
    }
    if !check.isClean {
      invocation.console.error(
        "error: \(check.unreadable.count) events cannot be read by this build"
      )
    }
    return check.isClean ? ExitStatus.success : ExitStatus.failure
  }

  static let sample = Command(
    ["sample"],
    abstract: "Write the deterministic sample journal (five months, phone and watch)",
    arguments: "DIR",
    discussion: """
      The same seed gives the same bytes on every machine, in every time zone, at
      any time. The checked-in Journal/ is 'journal sample Journal'; regenerate it
      and Projections/ with Scripts/regenerate-sample.sh.
      """,
    options: [
      OptionSpec("seed", value: "N", help: "The seed (default \(SampleJournal.defaultSeed))")
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 1)
    let folder = invocation.resolve(try invocation.positional(0, "folder"))
    var seed = SampleJournal.defaultSeed
    if let text = invocation.string("seed") {
      guard let value = UInt64(text) else {
        throw UsageError("option '--seed' needs a whole number")
      }
      seed = value
    }
    let summary = try SampleJournal.generate(into: folder, seed: seed)
    if invocation.wantsJSON {
      invocation.printJSON([
        "journal": folder.path, "seed": summary.seed, "events": summary.eventCount,
        "workouts": summary.workoutCount, "sets": summary.setCount,
      ])
    } else {
      invocation.console.print("wrote \(folder.lastPathComponent)/: \(summary)")
    }
    return ExitStatus.success
  }

  static let appendLoop = Command(
    ["_append-loop"],
    abstract: "Append probe events durably, printing each acknowledged sequence (crash tests)",
    options: [
      OptionSpec("count", value: "N", help: "How many events")
    ],
    isHidden: true
  ) { invocation in
    let device = try JournalSession.device(invocation)
    try CrashProbe.appendLoop(
      journal: invocation.journalURL,
      device: device,
      count: try invocation.int("count") ?? 1000
    ) { line in invocation.console.print(line) }
    return ExitStatus.success
  }
}
