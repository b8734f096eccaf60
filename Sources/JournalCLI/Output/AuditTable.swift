import Foundation
import JournalProjections

/// Renders audit rows as a table that fits the terminal, as CSV (RFC 4180),
/// or as JSON objects.
enum AuditTable {
  static let headers = [
    "Date", "Workout", "Exercise", "Set", "Planned", "Actual", "Deviation", "Rest", "Work",
    "Device", "Provenance",
  ]

  /// The table of `audit`, at most `width` columns wide, then the totals.
  static func render(_ audit: Audit, width: Int) -> String {
    var columns = TextTable.Columns(headers: headers)
    var dates = ZonedDates()
    for row in audit.rows { columns.measure(cells(row, dates: &dates)) }
    var lines: [String] = []
    table(columns, width: width, isEmpty: audit.rows.isEmpty) {
      lines.append($0)
    } rows: { each, workout in
      for row in audit.rows { each(row) }
      for totals in audit.workoutTotals { workout(totals) }
      return audit.exerciseTotals
    } workouts: { each in
      for totals in audit.workoutTotals { each(totals) }
    }
    return lines.joined(separator: "\n")
  }

  /// The table of rows whose cells `columns` measured, a line at a time, then the totals.
  ///
  /// - Parameters:
  ///   - columns: the rows' cells measured (``cells(_:dates:)``).
  ///   - width: the widest a line may be.
  ///   - isEmpty: whether there is no row.
  ///   - line: gets each line, without its newline.
  ///   - rows: hands each row to its first argument in order, and each workout's totals to
  ///     its second in any order; returns the totals per exercise.
  ///   - workouts: hands each workout's totals to its argument in order.
  static func table(
    _ columns: TextTable.Columns,
    width: Int,
    isEmpty: Bool,
    line: @escaping (String) -> Void,
    rows: (_ row: (AuditRow) -> Void, _ workout: (AuditTotals) -> Void) throws -> [AuditTotals],
    workouts: ((AuditTotals) -> Void) throws -> Void
  ) rethrows {
    let layout = columns.layout(
      rightAligned: [3, 7, 8],
      shrinkable: [1, 2, 6, 10],
      droppable: [1, 9, 4, 8, 7],
      minimums: [10: 16],
      width: width
    )
    if isEmpty {
      line("no sets match")
    } else {
      line(layout.line(headers))
      line(layout.rule)
    }
    var dates = ZonedDates()
    var unknownStart = false
    let workoutCells = { (t: AuditTotals) in
      Array(totalCells(t).prefix(4))
        + [TimingText.clock(t.duration), TimingText.density(t.density), t.key]
    }
    var workoutColumns = TextTable.Columns(
      headers: ["Workout", "Sets", "Reps", "Volume", "Duration", "Density", "Id"]
    )
    var anyWorkout = false
    let exercises = try rows(
      { row in
        line(layout.line(cells(row, dates: &dates)))
        if row.timing?.startedAt == nil && row.timing?.isFilledFromPlan == false {
          unknownStart = true
        }
      },
      { totals in
        anyWorkout = true
        workoutColumns.measure(workoutCells(totals))
      }
    )
    if unknownStart {
      line("? = the set's start was not recorded: its work and rest are unknown")
    }
    guard anyWorkout else { return }
    line("")
    let workoutLayout = workoutColumns.layout(
      rightAligned: [1, 2, 3, 4, 5],
      shrinkable: [0],
      droppable: [6, 5],
      width: width
    )
    line(workoutLayout.line(workoutColumns.headers))
    line(workoutLayout.rule)
    try workouts { line(workoutLayout.line(workoutCells($0))) }
    line("")
    line(
      TextTable.render(
        headers: ["Exercise", "Sets", "Reps", "Volume"],
        rows: exercises.map { Array(totalCells($0).prefix(4)) },
        rightAligned: [1, 2, 3],
        shrinkable: [0],
        width: width
      )
    )
  }

  /// A row's cells in the table.
  static func cells(_ row: AuditRow, dates: inout ZonedDates) -> [String] {
    [
      dates.minute(row.date, in: row.timeZone),
      row.splitName ?? String(row.workoutID.prefix(10)),
      row.libraryName.map { $0 == row.exercise ? row.exercise : "\(row.exercise) (\($0))" }
        ?? row.exercise,
      row.setNumber.map(String.init) ?? "-",
      SetText.values(row.planned, row.loadType),
      SetText.values(row.actual, row.loadType),
      SetText.deviation(row.deviation),
      TimingText.rest(row.timing),
      TimingText.work(row.timing),
      row.device,
      provenance(row, dates: &dates),
    ]
  }

  static func totalCells(_ t: AuditTotals) -> [String] {
    [
      t.name, "\(t.sets)", "\(t.reps)",
      DisplayUnit.weight(t.volume) + (t.seconds > 0 ? " (\(t.seconds) s)" : ""), t.key,
    ]
  }

  /// The provenance for people.
  ///
  /// `recorded`, `adjusted from 4 × 100 (watch, 2026-03-02 18:45)`, `filled from plan`…
  static func provenance(_ row: AuditRow, dates: inout ZonedDates) -> String {
    if let origin = row.origin, row.provenance == .recorded {
      return imported(origin)
    }
    switch row.provenance {
    case .recorded: return "recorded"
    case .adjusted:
      let from = row.original.map { SetText.values($0, row.loadType) } ?? "?"
      let last = row.adjustments.last
      let when = last.map { " (\($0.device), \(dates.minute($0.at, in: row.timeZone)))" } ?? ""
      let times = row.adjustments.count > 1 ? " \(row.adjustments.count)×" : ""
      return "adjusted\(times) from \(from)\(when)"
    case .filledFromPlan: return "filled from plan"
    case .cursorOnly: return "cursor only (plan values)"
    case .reverted: return "reverted by \(row.revertedBy ?? "?")"
    case .unattributed: return "unattributed"
    }
  }

  /// `imported from Strong (strong.csv line 12, warm-up), no set time`.
  static func imported(_ origin: AuditRow.Origin) -> String {
    var details = "\(origin.file) line \(origin.set.line)"
    if origin.set.kind != .normal { details += ", \(origin.set.kind.displayName)" }
    if let rpe = origin.set.rpe { details += ", RPE \(WeightUnit.number(rpe))" }
    return "imported from \(origin.source.displayName) (\(details)), no set time"
  }

  // MARK: - CSV

  static let csvHeaders = [
    "date", "workout_id", "split", "exercise", "library_name", "set", "load_type",
    "planned_reps", "planned_weight", "planned_seconds", "actual_reps", "actual_weight",
    "actual_seconds", "deviation_reps", "deviation_weight", "deviation_seconds", "device",
    "event_id", "provenance", "recorded_as", "original_reps", "original_weight",
    "original_seconds", "adjusted_at", "adjusted_on", "adjustment_ids", "reverted_by",
    "started_at", "work_seconds", "rest_seconds",
  ]

  /// RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break.
  static func csv(_ rows: [AuditRow]) -> String {
    var dates = ZonedDates()
    var lines = [csvHeader]
    for row in rows { lines.append(csvLine(row, dates: &dates)) }
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// The CSV header line, without its line end.
  static var csvHeader: String { csvHeaders.map(csvField).joined(separator: ",") }

  /// One row as a CSV line, without its line end.
  static func csvLine(_ row: AuditRow, dates: inout ZonedDates) -> String {
    let last = row.adjustments.last
    let fields: [String] =
      [
        dates.iso(row.date, in: row.timeZone), row.workoutID, row.splitName ?? "", row.exercise,
        row.libraryName ?? "", row.setNumber.map(String.init) ?? "", loadName(row.loadType),
      ]
      + numbers(row.planned) + numbers(row.actual) + numbers(row.deviation)
      + [row.device, row.eventID, row.provenance.rawValue, row.recordedAs?.rawValue ?? ""]
      + numbers(row.original ?? SetValues())
      + [
        last.map { dates.iso($0.at, in: row.timeZone) } ?? "", last?.device ?? "",
        row.adjustments.map(\.eventID).joined(separator: " "), row.revertedBy ?? "",
        row.timing?.startedAt.map { dates.iso($0, in: row.timeZone) } ?? "",
        seconds(row.timing?.work), seconds(row.timing?.restBefore),
      ]
    return fields.map(csvField).joined(separator: ",")
  }

  /// Seconds with their milliseconds, as CSV carries them; empty when not known.
  static func seconds(_ value: TimeInterval?) -> String {
    value.map { WeightUnit.number(($0 * 1000).rounded() / 1000) } ?? ""
  }

  static func numbers(_ v: SetValues) -> [String] {
    [
      v.reps.map(String.init) ?? "", v.weight.map(WeightUnit.number) ?? "",
      v.seconds.map(String.init) ?? "",
    ]
  }

  static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return text
    }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func loadName(_ type: LoadType) -> String {
    switch type {
    case .weight: "weight"
    case .none: "bodyweight"
    case .duration: "duration"
    }
  }

  // MARK: - JSON

  static func json(_ audit: Audit) -> [String: Any] {
    var dates = ZonedDates()
    return [
      "rows": audit.rows.map { json($0, dates: &dates) },
      "totals": [
        "workouts": audit.workoutTotals.map(workoutTotals),
        "exercises": audit.exerciseTotals.map(totals),
      ],
    ]
  }

  /// One row as a JSON object.
  static func json(_ row: AuditRow, dates: inout ZonedDates) -> [String: Any] {
    var object: [String: Any] = [
      "date": dates.iso(row.date, in: row.timeZone),
      "timeZone": row.timeZone,
      "workout": row.workoutID,
      "log": row.logID,
      "exercise": row.exercise,
      "loadType": loadName(row.loadType),
      "planned": values(row.planned),
      "actual": values(row.actual),
      "deviation": values(row.deviation),
      "device": row.device,
      "event": row.eventID,
      "provenance": row.provenance.rawValue,
    ]
    object["split"] = row.splitName
    object["libraryName"] = row.libraryName
    object["set"] = row.setNumber
    object["recordedAs"] = row.recordedAs?.rawValue
    object["original"] = row.original.map(values)
    object["revertedBy"] = row.revertedBy
    if let origin = row.origin { object["imported"] = importedJSON(origin) }
    if let timing = row.timing {
      object["timing"] = [
        "startedAt": timing.startedAt.map { dates.iso($0, in: row.timeZone) } ?? NSNull(),
        "work": TimingText.json(timing.work),
        "restBefore": TimingText.json(timing.restBefore),
        "filledFromPlan": timing.isFilledFromPlan,
        "firstOfWorkout": timing.isFirstOfWorkout,
      ]
    }
    if !row.adjustments.isEmpty {
      object["adjustments"] = row.adjustments.map { a -> [String: Any] in
        [
          "event": a.eventID, "at": dates.iso(a.at, in: row.timeZone), "device": a.device,
          "values": values(a.values),
        ]
      }
    }
    return object
  }

  /// An imported set's origin: where it came from and what the file said beyond its values.
  static func importedJSON(_ origin: AuditRow.Origin) -> [String: Any] {
    let set = origin.set
    var object: [String: Any] = [
      "source": origin.source.rawValue, "file": origin.file, "line": set.line,
      "kind": set.kind.rawValue, "order": set.order, "setTime": false,
    ]
    object["rpe"] = set.rpe
    object["distance"] = set.distance
    object["distanceUnit"] = set.distanceUnit
    object["seconds"] = set.seconds
    object["fileWeight"] = set.fileWeight
    object["notes"] = set.notes
    object["restSeconds"] = set.restSeconds
    object["superset"] = set.superset
    return object
  }

  static func values(_ v: SetValues) -> [String: Any] {
    var object: [String: Any] = [:]
    object["reps"] = v.reps
    object["weight"] = v.weight
    object["seconds"] = v.seconds
    return object
  }

  static func totals(_ t: AuditTotals) -> [String: Any] {
    [
      "key": t.key, "name": t.name, "sets": t.sets, "reps": t.reps, "volume": t.volume,
      "seconds": t.seconds,
    ]
  }

  /// A workout's totals, with its whole duration and density (null while in progress).
  static func workoutTotals(_ t: AuditTotals) -> [String: Any] {
    var object = totals(t)
    object["duration"] = TimingText.json(t.duration)
    object["density"] = t.density.map { ($0 * 1000).rounded() / 1000 } ?? NSNull()
    return object
  }
}

/// Set values for people: `5 × 100`, `12 reps`, `45 s`.
enum SetText {
  static func values(_ v: SetValues, _ type: LoadType) -> String {
    switch type {
    case .weight: "\(v.reps.map(String.init) ?? "?") × \(v.weight.map(DisplayUnit.weight) ?? "?")"
    case .none: "\(v.reps.map(String.init) ?? "?") reps"
    case .duration: "\(v.seconds.map(String.init) ?? "?") s"
    }
  }

  /// `-1 rep +2.5 wt`; empty when the set went as planned.
  static func deviation(_ d: SetValues) -> String {
    var parts: [String] = []
    if let reps = d.reps, reps != 0 {
      parts.append(signed(Double(reps)) + (abs(reps) == 1 ? " rep" : " reps"))
    }
    if let weight = d.weight, weight != 0 {
      parts.append(signed(weight) + " " + (DisplayUnit.current?.rawValue ?? "wt"))
    }
    if let seconds = d.seconds, seconds != 0 { parts.append(signed(Double(seconds)) + " s") }
    return parts.joined(separator: " ")
  }

  static func signed(_ value: Double) -> String {
    (value > 0 ? "+" : "") + WeightUnit.number(value)
  }
}

/// Formats dates in a named time zone, keeping one formatter per zone.
struct ZonedDates {
  private var minutes: [String: DateFormatter] = [:]
  private var isos: [String: ISO8601DateFormatter] = [:]

  /// `2026-03-02 18:40` in `zone`.
  mutating func minute(_ date: Date, in zone: String) -> String {
    if minutes[zone] == nil {
      let f = DateFormatter()
      f.locale = Locale(identifier: "en_US_POSIX")
      f.calendar = Calendar(identifier: .gregorian)
      f.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)
      f.dateFormat = "yyyy-MM-dd HH:mm"
      minutes[zone] = f
    }
    return minutes[zone]?.string(from: date) ?? ""
  }

  /// `2026-03-02` in `zone`.
  mutating func day(_ date: Date, in zone: String) -> String {
    String(minute(date, in: zone).prefix(10))
  }

  /// `2026-03-02T18:40:00+01:00` in `zone`.
  mutating func iso(_ date: Date, in zone: String) -> String {
    if isos[zone] == nil {
      let f = ISO8601DateFormatter()
      f.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)
      f.formatOptions = [.withInternetDateTime]
      isos[zone] = f
    }
    return isos[zone]?.string(from: date) ?? ""
  }
}
