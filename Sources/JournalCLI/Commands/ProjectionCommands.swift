import Foundation
import JournalProjections

/// `rebuild` and `import`: between the journal and the app's documents.
enum ProjectionCommands {
  static let all: [Command] = [rebuild, importContainer]

  static let rebuild = Command(
    ["rebuild"],
    abstract: "Write the app's documents (Splits/, Workouts/, Stubs/) from the journal",
    discussion: """
      Only documents whose bytes change are replaced (atomically); documents the
      rebuild wrote and that no longer exist are removed; files it did not write
      are never touched (a differing one is reported as a conflict, exit 1).
      Documents of quarantined streams are left as they are. A rebuild starts
      from the journal's saved state and folds only the streams that changed
      since it last wrote the folder. --full replays the whole history instead,
      reading it twice rather than holding it: its memory grows with the
      documents, not with the events.
      """,
    options: [
      OptionSpec(
        "out",
        short: "o",
        value: "DIR",
        help: "The output folder (default ./Projections)"
      ),
      OptionSpec("as-of", value: "EVENT|TIME", help: "Write the documents as they were then"),
      OptionSpec("full", help: "Replay the whole history, not the saved state"),
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    let output = invocation.resolve(invocation.string("out") ?? "Projections")
    let full = invocation.arguments.flag("full")
    let progress = Progress("rebuilding", console: invocation.console)
    let report: RebuildReport
    if let asOf = invocation.string("as-of") {
      let session = try JournalSession(invocation)
      let point = try Points.parse(asOf, in: session.journal, now: session.now)
      report = try Rebuild.run(
        journal: session.journal,
        output: output,
        asOf: point,
        progress: { progress.update($0, of: $1) }
      )
    } else if full {
      // A rebuild that folds the whole history reads it as it folds it: its memory grows
      // with the documents, not with the history.
      let store = try FileEventStore(url: try JournalSession.journalURL(invocation))
      let history = try StreamedHistory(store: store)
      for notice in history.notices { invocation.console.error("warning: \(notice)") }
      report = try Rebuild.run(
        streamed: history,
        output: output,
        progress: { progress.update($0, of: $1) }
      )
    } else {
      let store = try FileEventStore(url: try JournalSession.journalURL(invocation))
      report = try Rebuild.run(
        store: store,
        output: output,
        progress: { progress.update($0, of: $1) }
      )
    }
    progress.finish()
    let c = invocation.console
    for (stream, reason) in report.quarantined.sorted(by: { $0.key < $1.key }) {
      c.error("warning: \(stream) quarantined, its documents left as they are: \(reason)")
    }
    for notice in report.notices { c.error("notice: \(notice)") }
    for conflict in report.conflicts { c.error("error: \(conflict)") }
    if invocation.wantsJSON {
      invocation.printJSON([
        "mode": report.mode == .full ? "full" : "incremental",
        "eventsFolded": report.eventsFolded,
        "written": report.written,
        "removed": report.removed,
        "adopted": report.adopted,
        "unchanged": report.unchangedCount,
        "keptQuarantined": report.keptQuarantined,
        "conflicts": report.conflicts.map(\.description),
        "anomalies": report.anomalyCount,
        "quarantined": report.quarantined,
      ])
    } else {
      let mode = report.mode == .full ? "full" : "incremental"
      var line =
        "\(mode) rebuild of \(output.lastPathComponent)/: \(report.written.count) written, "
        + "\(report.removed.count) removed, \(report.unchangedCount) unchanged"
      if !report.adopted.isEmpty { line += ", \(report.adopted.count) adopted" }
      if !report.keptQuarantined.isEmpty {
        line += ", \(report.keptQuarantined.count) kept (quarantined)"
      }
      line += " (\(report.eventsFolded) events folded)"
      c.print(line)
      if let reason = report.foldedEveryStreamBecause {
        c.print(c.styled("every stream folded: \(reason)", .dim))
      }
      if report.anomalyCount > 0 {
        c.print(
          c.styled(
            "\(report.anomalyCount) anomalies stepped over; 'journal status' and 'journal history' show them",
            .yellow
          )
        )
      }
    }
    return report.hasConflicts ? ExitStatus.failure : ExitStatus.success
  }

  static let importContainer = Command(
    ["import"],
    abstract: "Turn an app container, or a Strong or Hevy export, into events",
    arguments: "DIR|FILE",
    discussion: """
      A DIR (Splits/, Workouts/, Stubs/): documents at any schema version are
      upgraded first. Importing the same container again appends nothing; an
      invalid document, or one newer than this build knows, is reported with its
      path and skipped whole.
      """ + "\n\n" + HistoryImportCommand.discussion,
    options: [
      OptionSpec("dry-run", help: "Report what would be imported, append nothing"),
      OptionSpec(
        "time-zone",
        value: "TZ",
        help: "A DIR: prefer this zone for its workouts; a FILE: read its dates in it"
      ),
    ] + HistoryImportCommand.options
  ) { invocation in
    if HistoryImportCommand.handles(invocation) { return try HistoryImportCommand.run(invocation) }
    try HistoryImportCommand.expectNoExportOptions(invocation)
    let session = try JournalSession(invocation)
    try invocation.expectPositionals(atMost: 1)
    let folder = invocation.resolve(try invocation.positional(0, "container folder"))
    var zone: TimeZone?
    if let name = invocation.string("time-zone") {
      guard let found = TimeZone(identifier: name) else {
        throw UsageError("unknown time zone '\(name)'")
      }
      zone = found
    }
    let importer = ContainerImporter(
      device: session.device,
      preferredTimeZone: zone,
      dryRun: invocation.arguments.flag("dry-run")
    )
    let report = try importer.importContainer(at: folder, into: session.journal, now: session.now)
    let c = invocation.console
    for item in report.skipped { c.error("skipped: \(item)") }
    for item in report.conflicts { c.error("conflict: \(item)") }
    for item in report.inexact { c.error("inexact: \(item)") }
    if invocation.wantsJSON {
      invocation.printJSON([
        "imported": report.imported,
        "deleted": report.deleted,
        "unchanged": report.unchanged,
        "upgraded": report.upgraded.map(\.description),
        "skipped": report.skipped.map(\.description),
        "conflicts": report.conflicts.map(\.description),
        "inexact": report.inexact.map(\.description),
        "appendedEvents": report.appendedEvents,
        "dryRun": report.isDryRun,
      ])
    } else {
      let verb = report.isDryRun ? "would import" : "imported"
      c.print(
        "\(verb) \(report.imported.count) documents (\(report.upgraded.count) upgraded), "
          + "\(report.deleted.count) deletions, \(report.unchanged.count) unchanged, "
          + "\(report.skipped.count) skipped: \(report.appendedEvents) events"
      )
    }
    return report.skipped.isEmpty && report.conflicts.isEmpty
      ? ExitStatus.success : ExitStatus.failure
  }
}
