import Foundation
import JournalCore
import JournalProjections

/// `init`, `verify` and the hidden `_append-loop`: the journal itself.
enum JournalCommands {
  static let all: [Command] = [initialize, verify, sample, appendLoop]

  static let initialize = Command(
    ["init"],
    abstract: "Create a journal folder",
    discussion:
      "Creates the folder (private to you) and its marker file. Running it again changes nothing."
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    let url = invocation.journalURL
    let existed = FileManager.default.fileExists(
      atPath: url.appendingPathComponent(EventLog.markerFileName).path
    )
    _ = try EventLog.create(at: url)
    if invocation.wantsJSON {
      invocation.printJSON(["journal": url.path, "created": !existed])
    } else {
      invocation.console.print(
        existed ? "journal already exists at \(url.path)" : "created journal at \(url.path)"
      )
    }
    return ExitStatus.success
  }

  static let verify = Command(
    ["verify"],
    abstract: "Check every record: checksums, hash chains, sequences, duplicates",
    discussion: "Exit status 0 when clean, 1 with every problem listed as 'file:line: cause'."
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    let log = try EventLog(at: invocation.journalURL)
    let report = try log.verify()
    if invocation.wantsJSON {
      invocation.printJSON([
        "clean": report.isClean,
        "records": report.recordCount,
        "devices": report.deviceCount,
        "problems": report.problems.map(\.description),
        "notes": report.notes.map(\.description),
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
    return report.isClean ? ExitStatus.success : ExitStatus.failure
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
