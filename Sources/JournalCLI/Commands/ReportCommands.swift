import Foundation
import JournalProjections

/// `report`: the journal as one self-contained HTML page.
enum ReportCommands {
  static let all: [Command] = [report]

  static let report = Command(
    ["report"],
    abstract: "Write the journal as one HTML page: overview, progressions, records, changes, time",
    discussion: """
      One self-contained file (inline CSS and SVG; no script, font or network) that any
      browser opens offline: an overview with a calendar of sessions and weekly volume;
      per exercise a progression chart of top-set weight and e1RM with its personal
      records; the recent workouts plan against actual; the corrections, undos, redos,
      resets, rewinds and sets filled in from the plan; and the time trained. Every
      figure is the audit's, records' and chart's. The same journal and options give the
      same bytes on any machine. The file is replaced atomically and readable by the owner
      only. --until takes a date as a whole day.
      """,
    options: [
      OptionSpec("out", value: "FILE", help: "The file to write (default report.html)"),
      OptionSpec("since", value: "DATE", help: "Sets done at or after this time"),
      OptionSpec(
        "until",
        value: "DATE",
        help: "Sets done up to this time (a date: that whole day)"
      ),
      AuditCommands.asOf,
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    let file = invocation.string("out") ?? "report.html"
    // Before any read: a report that cannot be written leaves the saved state as it was.
    try OwnerOnlyFile.check(invocation.resolve(file), example: "report.html")
    // From the saved state's report index (`--as-of` reads the whole history).
    let content = try ChartCommands.answered(invocation) { session in
      let point = try AuditCommands.point(invocation, session)
      let since = try invocation.string("since").map {
        (date: try TimeParser.parse($0, now: session.now), text: $0)
      }
      let until = try invocation.string("until").map {
        (date: try AuditCommands.untilTime($0, now: session.now), text: $0)
      }
      return try ReportContent(journal: session.journal, upTo: point, since: since, until: until)
    }
    let bytes = try OwnerOnlyFile.write(to: invocation.resolve(file), example: "report.html") {
      write in try ReportPage.render(content) { try write(Data($0.utf8)) }
    }
    if invocation.wantsJSON {
      invocation.printJSON(["file": file, "bytes": bytes] as [String: Any])
    } else {
      invocation.console.print("wrote \(file) (\(bytes) bytes)")
    }
    return ExitStatus.success
  }
}
