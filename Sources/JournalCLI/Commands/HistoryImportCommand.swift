import Foundation
import JournalCore
import JournalProjections

/// `import FILE.csv`: a Strong or Hevy export, as the journal's own events.
///
/// `journal import` takes a container folder or an export file: a path to a regular file is
/// an export (``ProjectionCommands/importContainer`` hands it here).
enum HistoryImportCommand {
  /// The options an export import takes besides `--dry-run` and `--time-zone`.
  static let options: [OptionSpec] = [
    OptionSpec(
      "format",
      value: "strong|hevy",
      help: "The export's format (default: by its header)"
    ),
    OptionSpec(
      "unit",
      value: "kg|lb",
      help: "Store weights in this unit, converting the file's (default $WORKOUT_UNIT)"
    ),
    OptionSpec("splits", help: "Also create a split per workout name (exercises last performed)"),
  ]

  static let discussion = """
    A FILE (a Strong or Hevy CSV export) imports each workout as events: started
    with a plan equal to what was done, every set completed with its actuals, and
    ended at its end time. Dates are read in --time-zone (default: this machine's).
    Importing the same file again appends nothing; a workout edited in the tracker
    since is a conflict. A workout with a row that cannot be read is not imported
    (exit 1); the others are. docs/Import.md has the columns of each format.
    """

  /// Whether the invocation names an export file rather than a container folder.
  static func handles(_ invocation: Invocation) -> Bool {
    guard let path = invocation.arguments.positionals.first else { return false }
    var isDirectory: ObjCBool = false
    let url = invocation.resolve(path)
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
      return !isDirectory.boolValue
    }
    return url.pathExtension.lowercased() == "csv"
  }

  /// Refuses `--format`, `--unit` and `--splits` given with a container folder, which has
  /// no use for them.
  static func expectNoExportOptions(_ invocation: Invocation) throws(UsageError) {
    for option in options
    where invocation.arguments.value(option.name) != nil
      || invocation.arguments.flag(option.name)
    {
      throw UsageError("'--\(option.name)' is for an export FILE, not a container folder")
    }
  }

  static func run(_ invocation: Invocation) throws -> Int32 {
    try invocation.expectPositionals(atMost: 1)
    let url = invocation.resolve(try invocation.positional(0, "export file"))
    var format: HistorySource?
    if let name = invocation.string("format") {
      guard let found = HistorySource(rawValue: name.lowercased()) else {
        throw UsageError("unknown format '\(name)': use 'strong' or 'hevy'")
      }
      format = found
    }
    // The unit to store in: `--unit`, else `$WORKOUT_UNIT`, the unit the lifter labels the
    // journal's weights with (a later import in another unit is converted to it).
    var unit: WeightUnit?
    var unitSource = "--unit"
    var unitName = invocation.string("unit")
    if unitName == nil, let variable = invocation.environment["WORKOUT_UNIT"], !variable.isEmpty {
      unitName = variable
      unitSource = "$WORKOUT_UNIT"
    }
    if let name = unitName {
      switch name.lowercased() {
      case "kg": unit = .kg
      case "lb", "lbs": unit = .lb
      default: throw UsageError("unknown unit '\(name)' in \(unitSource): use 'kg' or 'lb'")
      }
    }
    var zone = TimeZone.current
    var zoneReason = "this machine's"
    if let name = invocation.string("time-zone") {
      guard let found = TimeZone(identifier: name) else {
        throw UsageError("unknown time zone '\(name)'")
      }
      zone = found
      zoneReason = "--time-zone"
    }
    let session = try JournalSession(invocation)
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw CommandError("cannot read '\(url.path)'", hint: "check the path and its permissions")
    }
    var importer = HistoryImporter(
      device: session.device,
      timeZone: zone,
      format: format,
      unit: unit,
      createsSplits: invocation.arguments.flag("splits"),
      dryRun: invocation.arguments.flag("dry-run")
    )
    importer.unitSource = unitSource
    let report: HistoryImportReport
    do {
      report = try importer.importFile(
        data,
        named: url.lastPathComponent,
        into: session.journal,
        now: session.now
      )
    } catch let error as HistoryImportError {
      throw CommandError("\(url.lastPathComponent): \(error.message)", hint: error.hint)
    }
    for notice in session.store.takeRepairNotices() {
      invocation.console.error("notice: \(notice)")
    }
    print(report, zoneReason: zoneReason, invocation: invocation)
    return report.hasRefusals ? ExitStatus.failure : ExitStatus.success
  }

  static func print(_ report: HistoryImportReport, zoneReason: String, invocation: Invocation) {
    let c = invocation.console
    for row in report.strayRows { c.error("refused: \(report.file) \(row)") }
    for workout in report.refused {
      c.error("refused: workout \(workout.description)")
    }
    for workout in report.conflicts { c.error("conflict: workout \(workout.description)") }
    if invocation.wantsJSON {
      func list(_ items: [HistoryImportReport.Workout]) -> [[String: Any]] {
        items.map { w in
          var object: [String: Any] = [
            "title": w.title, "start": w.start, "firstLine": w.firstLine,
            "lastLine": w.lastLine, "sets": w.sets,
          ]
          if !w.id.isEmpty { object["id"] = w.id }
          if !w.reasons.isEmpty { object["reasons"] = w.reasons }
          return object
        }
      }
      invocation.printJSON([
        "source": report.source.rawValue,
        "file": report.file,
        "timeZone": report.timeZone,
        "unit": report.unit.rawValue,
        "unitReason": report.unitReason,
        "imported": list(report.imported),
        "unchanged": list(report.unchanged),
        "conflicts": list(report.conflicts),
        "refused": list(report.refused),
        "refusedRows": report.strayRows.map(\.description),
        "splitsCreated": report.splitsCreated,
        "appendedEvents": report.appendedEvents,
        "batches": report.batches,
        "dryRun": report.isDryRun,
      ])
      return
    }
    let verb = report.isDryRun ? "would import" : "imported"
    let sets = report.imported.reduce(0) { $0 + $1.sets }
    c.print(
      "\(verb) \(report.imported.count) workouts (\(sets) sets) from \(report.source.displayName) "
        + "'\(report.file)': \(report.unchanged.count) unchanged, \(report.conflicts.count) "
        + "conflicts, \(report.refused.count) refused; \(report.appendedEvents) events"
    )
    if report.batches > 1, !report.isDryRun {
      c.print(
        "appended in \(report.batches) batches of whole workouts, each one action: "
          + "'journal undo' cancels the last; \(report.batches) of them cancel the whole import"
      )
    }
    c.print("dates read in \(report.timeZone) (\(zoneReason))")
    var unitLine = "weights stored in \(report.unit.rawValue) (\(report.unitReason))"
    if let fileUnit = report.fileUnit, fileUnit != report.unit {
      unitLine += ", converted from \(fileUnit.rawValue) and rounded to 0.01"
    }
    c.print(unitLine)
    if !report.splitsCreated.isEmpty {
      c.print("splits created: " + report.splitsCreated.joined(separator: ", "))
    }
    if report.isDryRun {
      for workout in report.imported {
        c.print("  \(workout.start)  \(workout.title)  \(workout.sets) sets  \(workout.id)")
      }
    }
  }
}
