import Foundation
import JournalCore
import JournalProjections

/// `audit`, `history`, `blame`, `diff`: what was done, and which event did it.
enum AuditCommands {
  static let all: [Command] = [audit, history, blame, diff] + ChartCommands.all

  static let asOf = OptionSpec(
    "as-of",
    value: "EVENT|TIME",
    help: "Read the journal as it was then"
  )

  /// `--as-of`, read as a point of history.
  static func point(_ invocation: Invocation, _ session: JournalSession) throws -> Replayer.Point? {
    try invocation.string("as-of").map {
      try Points.parse($0, in: session.journal, now: session.now)
    }
  }

  static let audit = Command(
    ["audit"],
    abstract: "Every set performed: planned, actual, deviation, device and how it was recorded",
    discussion: """
      Provenance: 'recorded' live; 'adjusted from X' (when, on which device);
      'filled from plan' when completing a log filled the missing sets (not
      actually recorded); 'cursor only' for legacy progress events (plan values);
      'reverted by R' for sets cancelled by undo, redo or rewind (not counted in
      the totals). --until takes a date as a whole day.
      """,
    options: [
      OptionSpec(
        "exercise",
        value: "NAME",
        help: "Only this exercise (display or library name, or a unique prefix)"
      ),
      OptionSpec("split", value: "NAME", help: "Only workouts of this split (or a unique prefix)"),
      OptionSpec("since", value: "DATE", help: "Sets done at or after this time"),
      OptionSpec(
        "until",
        value: "DATE",
        help: "Sets done up to this time (a date: that whole day)"
      ),
      OptionSpec("format", value: "FORMAT", help: "table (default), csv or json"),
      asOf,
    ]
  ) { invocation in
    guard invocation.string("as-of") == nil else {
      return try wholeAudit(invocation, session: JournalSession(invocation))
    }
    do {
      return try streamedAudit(
        invocation,
        session: JournalSession(invocation, scope: StateScope(splits: false))
      )
    } catch is ScopeTooNarrow {
      return try wholeAudit(invocation, session: JournalSession(invocation, scope: .all))
    }
  }

  /// `audit`'s format, checked.
  static func auditFormat(_ invocation: Invocation) throws -> String {
    let format = invocation.wantsJSON ? "json" : invocation.string("format") ?? "table"
    guard ["table", "csv", "json"].contains(format) else {
      throw UsageError("unknown format '\(format)': use table, csv or json")
    }
    return format
  }

  /// `audit` of a history held whole: as of a point (`--as-of`), or when the saved state
  /// cannot answer.
  static func wholeAudit(_ invocation: Invocation, session: JournalSession) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let format = try auditFormat(invocation)
    let point = try point(invocation, session)
    let state = session.journal.state(upTo: point)
    let filter = AuditFilter(
      exercise: try invocation.string("exercise").map { try state.exerciseName($0) },
      split: try invocation.string("split").map { try state.splitName($0) },
      since: try invocation.string("since").map { try TimeParser.parse($0, now: session.now) },
      until: try invocation.string("until").map { try untilTime($0, now: session.now) }
    )
    let result = Audit(
      state: state,
      history: Array(Replayer.prefix(session.journal.history, upTo: point)),
      filter: filter
    )
    switch format {
    case "json":
      var object = AuditTable.json(result)
      DisplayUnit.label(&object)
      invocation.printJSON(object)
    case "csv": invocation.console.write(AuditTable.csv(result.rows))
    default: invocation.console.print(AuditTable.render(result, width: invocation.console.width))
    }
    return ExitStatus.success
  }

  /// `audit` of the whole history read from the saved state a workout at a time
  /// (``StreamedAudit``), written as it is read: the same bytes as ``wholeAudit(_:session:)``.
  ///
  /// The history is read twice for CSV (where each workout's rows start, then the rows),
  /// three times for JSON and the table (then each workout's totals, in their order), once
  /// more with `--exercise` or `--split` (their names first).
  static func streamedAudit(_ invocation: Invocation, session: JournalSession) throws -> Int32 {
    try invocation.expectPositionals(atMost: 0)
    let format = try auditFormat(invocation)
    let journal = session.journal
    let exercise = invocation.string("exercise")
    let split = invocation.string("split")
    // Names are resolved among the whole history's, which a first reading gathers.
    let named =
      exercise == nil && split == nil
      ? nil : try StreamedAudit(journal: journal, filter: AuditFilter())
    let filter = AuditFilter(
      exercise: try named.flatMap { audit in try exercise.map { try audit.names.exerciseName($0) }
      },
      split: try named.flatMap { audit in try split.map { try audit.names.splitName($0) } },
      since: try invocation.string("since").map { try TimeParser.parse($0, now: session.now) },
      until: try invocation.string("until").map { try untilTime($0, now: session.now) }
    )
    var columns = TextTable.Columns(headers: AuditTable.headers)
    var dates = ZonedDates()
    // The names' reading tells where rows start for any narrower filter, but the table's
    // widths are those of the rows the filter keeps.
    var survey: StreamedAudit
    if let named, format != "table" {
      survey = named
    } else {
      survey = try StreamedAudit(journal: journal, filter: filter) { row in
        if format == "table" { columns.measure(AuditTable.cells(row, dates: &dates)) }
      }
    }
    let out = ChunkedOutput(invocation.console)
    defer { out.flush() }
    switch format {
    case "json":
      var object: [String: Any] = [
        "rows": JSONOutput.placeholder("rows"),
        "totals": [
          "workouts": JSONOutput.placeholder("workouts"),
          "exercises": JSONOutput.placeholder("exercises"),
        ],
      ]
      DisplayUnit.label(&object)
      var exercises: [AuditTotals] = []
      try JSONOutput.write(
        object,
        arrays: [
          "rows": { each in
            exercises = try survey.forEachRow(of: journal, filter: filter) {
              each(AuditTable.json($0, dates: &dates))
            }
          },
          "exercises": { each in for t in exercises { each(AuditTable.totals(t)) } },
          "workouts": { each in
            try survey.forEachWorkoutTotals(of: journal, filter: filter) {
              each(AuditTable.workoutTotals($0))
            }
          },
        ],
        to: out
      )
    case "csv":
      out.write(AuditTable.csvHeader + "\r\n")
      _ = try survey.forEachRow(of: journal, filter: filter) {
        out.write(AuditTable.csvLine($0, dates: &dates) + "\r\n")
      }
    default:
      try AuditTable.table(
        columns,
        width: invocation.console.width,
        isEmpty: survey.rowCount == 0,
        line: out.print
      ) { each, workout in
        try survey.forEachRow(of: journal, filter: filter, workoutTotals: workout, each)
      } workouts: { each in
        try survey.forEachWorkoutTotals(of: journal, filter: filter, each)
      }
    }
    return ExitStatus.success
  }

  /// A bare date as `--until` means the end of that day.
  static func untilTime(_ text: String, now: Date) throws -> Date {
    let date = try TimeParser.parse(text, now: now)
    let isDay = text.count == 10 && text.filter { $0 == "-" }.count == 2
    return isDay ? Calendar.current.date(byAdding: .day, value: 1, to: date) ?? date : date
  }

  static let history = Command(
    ["history"],
    abstract: "The timeline of a workout: each event, effective or reverted",
    arguments: "[WORKOUT]",
    discussion: """
      WORKOUT defaults to the latest workout; it is an id prefix or a split's name (that
      split's latest workout), and a deleted workout is found by id prefix. Marks: '+' effective (it shapes the documents), 'x' reverted (with the
      revert that cancelled it), '<' a revert of events of this workout, '!' an
      anomaly the fold reported (the event then changed nothing).
      """,
    options: [
      OptionSpec("log", value: "EXERCISE", help: "Only this exercise (name or log id)"), asOf,
    ]
  ) { invocation in
    let reference = invocation.arguments.positionals.first
    let session = try JournalSession.naming(
      workout: reference,
      invocation,
      scope: StateScope(
        latestWorkout: reference == nil,
        workouts: reference.map { [$0] } ?? [],
        splits: false
      )
    )
    try invocation.expectPositionals(atMost: 1)
    let state = session.state()
    let workout: WorkoutState
    guard let reference else {
      guard let latest = state.latestLiveWorkout else {
        throw CommandError("no workout yet", hint: "start one with 'journal start SPLIT'")
      }
      return try history(of: latest, state: state, session: session, invocation)
    }
    do {
      workout = try state.workout(reference)
    } catch {
      // A deleted workout has a history too: found by id prefix.
      let deleted = state.workouts.values.filter {
        $0.deletedAt != nil && $0.document.id.hasPrefix(reference.uppercased())
      }
      guard deleted.count == 1, let only = deleted.first, reference.count >= 4 else { throw error }
      workout = only
    }
    return try history(of: workout, state: state, session: session, invocation)
  }

  static func history(
    of workout: WorkoutState,
    state: JournalState,
    session: JournalSession,
    _ invocation: Invocation
  ) throws -> Int32 {
    let logID = try invocation.string("log").map { try state.log($0, in: workout).id }
    let entries = WorkoutHistory.entries(
      workout: workout.document.id,
      log: logID,
      history: session.journal.history,
      upTo: try point(invocation, session)
    )
    var dates = ZonedDates()
    let zone = workout.timeZone.identifier
    if invocation.wantsJSON {
      invocation.printJSON(
        entries.map { e -> [String: Any] in
          var object: [String: Any] = [
            "event": e.eventID, "at": dates.iso(e.at, in: zone),
            "recordedAt": dates.iso(e.recordedAt, in: zone), "device": e.device, "type": e.type,
            "summary": e.summary, "mark": e.mark.rawValue, "anomalies": e.anomalies,
          ]
          object["log"] = e.logID
          object["revertedBy"] = e.revertedBy
          return object
        }
      )
      return ExitStatus.success
    }
    invocation.console.print(
      AuditOutput.history(entries, zone: zone, width: invocation.console.width)
    )
    return ExitStatus.success
  }

  static let blame = Command(
    ["blame"],
    abstract: "Which event last changed each field of a split or workout document",
    arguments: "WHAT [FIELD]",
    discussion: """
      WHAT is a split by name, a workout by its split's name (that split's latest
      workout), either by id prefix, or a document path relative to the tree:
      'Splits/<id>.json', 'Workouts/YYYY/MM/<id>.json' or 'Stubs/…'. A split's name
      means the split, unless FIELD starts with a field only workouts have (logs, start,
      end, status, metrics…): then it means that split's latest workout, as in
      'journal blame Push logs.Bench'. FIELD narrows it to one field and what it holds: a
      dotted path such as 'logs.Bench.setEntries.2.weight', where a list's element is
      named by its exercise's name (the usual rule) or its position from 1, or a JSON
      pointer such as '/logs/0/setEntries/1/weight' (positions from 0), as --field takes.
      """,
    options: [
      OptionSpec("field", value: "JSON-POINTER", help: "Only this field (and what it holds)"), asOf,
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 2)
    let what = try invocation.positional(0, "split, workout or document path")
    let positionalField = invocation.arguments.positionals.dropFirst().first
    if positionalField != nil, invocation.string("field") != nil {
      throw UsageError("give FIELD or '--field', not both")
    }
    let isPath = what.contains("/") || what.hasSuffix(".json")
    // A field only a workout has: the name is a split's, and means its latest workout.
    let workoutOnly =
      !isPath
      && (positionalField ?? invocation.string("field")).flatMap(firstSegment).map {
        workoutOnlyFields.contains($0.lowercased())
      } == true
    let session = try blameSession(what, isPath: isPath, workoutOnly: workoutOnly, invocation)
    let point = try point(invocation, session)
    let state = session.journal.state(upTo: point)
    let path: String
    if isPath {
      path = what
    } else if workoutOnly {
      path = try state.workout(what).path
    } else {
      path = try state.documentPath(what)
    }
    var field = invocation.string("field")
    if let field, !field.isEmpty, !field.hasPrefix("/") {
      throw UsageError("'\(field)' is not a JSON pointer: it starts with '/'")
    }
    if let dotted = positionalField {
      field =
        dotted.hasPrefix("/")
        ? dotted : try FieldPath.pointer(dotted, in: state.renderedDocument(at: path))
    }
    let lines = try session.journal.blame(path: path, field: field, upTo: point)
    var dates = ZonedDates()
    if invocation.wantsJSON {
      invocation.printJSON(
        lines.map { line -> [String: Any] in
          [
            "field": line.pointer, "value": line.value.compactText, "event": line.credit.eventID,
            "type": line.credit.type, "device": line.credit.device,
            "at": dates.iso(line.credit.at, in: "UTC"),
            "recordedAt": dates.iso(line.credit.recordedAt, in: "UTC"),
          ]
        }
      )
      return ExitStatus.success
    }
    invocation.console.print(AuditOutput.blame(lines, width: invocation.console.width))
    return ExitStatus.success
  }
  .completing([.documents])

  /// The journal opened for `blame WHAT`: the streams of the document WHAT names, as the
  /// naming rule finds it (``JournalState/documentPath(_:)``), else the whole history.
  ///
  /// A path names its stream; a workout named for a workout-only field is found as `history`
  /// finds it (``JournalSession/naming(workout:_:scope:)``); any other name is first looked
  /// for among the splits' names, which the splits hold, then as a workout.
  static func blameSession(
    _ what: String,
    isPath: Bool,
    workoutOnly: Bool,
    _ invocation: Invocation
  ) throws -> JournalSession {
    let workout = StateScope(workouts: [what], splits: false)
    if isPath { return try JournalSession(invocation, scope: .document(at: what)) }
    if workoutOnly { return try JournalSession.naming(workout: what, invocation, scope: workout) }
    let session = try JournalSession(invocation, scope: StateScope(workouts: [what]))
    let state = session.state()
    // A live split's whole id, or a workout's id, as the naming rule reads them.
    let id = what.uppercased()
    if StateScope.isWholeID(what), let split = state.splits[id], split.deletedAt == nil {
      return session
    }
    if state.workouts[id] != nil { return session }
    let splits = state.liveSplits.map(\.document.name)
    do {
      // A split's name: the splits alone decide.
      if try JournalState.pickName(what, among: splits, what: "split") != nil { return session }
    } catch {
      // A name that fits several splits: the error is the same from the whole history.
      return session
    }
    return try JournalSession.naming(workout: what, invocation, scope: workout)
  }

  /// Members of a workout document that a split document does not have: a FIELD starting
  /// with one makes blame read a split's name as its latest workout.
  static let workoutOnlyFields: Set<String> = [
    "logs", "start", "end", "status", "splitid", "splitname", "metrics", "deletedlogids",
  ]

  /// `logs` of `logs.Bench.setEntries` or of `/logs/0/setEntries`.
  static func firstSegment(_ field: String) -> String? {
    field.split(whereSeparator: { $0 == "." || $0 == "/" }).first.map(String.init)
  }

  static let diff = Command(
    ["diff"],
    abstract: "Documents added, removed and changed between two points, field by field",
    discussion: """
      Each point is an event id (prefix) or a time. Without --from the diff
      starts from the empty journal; without --to it ends now.
      """,
    options: [
      OptionSpec("from", value: "EVENT|TIME", help: "The earlier point"),
      OptionSpec("to", value: "EVENT|TIME", help: "The later point (default: now)"),
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    // Slice by slice from the saved state, whatever the points.
    let changes = try ChartCommands.answered(invocation) { session in
      let journal = session.journal
      let from = try invocation.string("from").map {
        try Points.parse($0, in: journal, now: session.now)
      }
      let to = try invocation.string("to").map {
        try Points.parse($0, in: journal, now: session.now)
      }
      return try journal.diff(from: from, to: to)
    }
    if invocation.wantsJSON {
      invocation.printJSON(
        changes.map { change -> [String: Any] in
          [
            "path": change.path, "kind": change.kind.rawValue,
            "fields": change.fields.map { f -> [String: Any] in
              var object: [String: Any] = ["field": f.pointer]
              object["before"] = f.before?.compactText
              object["after"] = f.after?.compactText
              return object
            },
          ]
        }
      )
      return ExitStatus.success
    }
    invocation.console.print(AuditOutput.diff(changes))
    return ExitStatus.success
  }
}
