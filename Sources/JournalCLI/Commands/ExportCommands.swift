import Foundation
import JournalCore
import JournalProjections

/// `export`: the journal in formats other tools read.
enum ExportCommands {
  static let all: [Command] = [export]

  /// The columns of the Strong app's CSV export, which other trackers import.
  static let strongColumns = [
    "Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps", "Distance",
    "Seconds", "Notes", "Workout Notes", "RPE",
  ]

  static let export = Command(
    ["export"],
    abstract: "Export every set as CSV (Strong's columns) or the events as NDJSON",
    discussion: """
      csv: one row per set of every live workout (the effective sets: recorded,
      adjusted, or filled in from the plan), dates in the workout's own zone,
      RFC 4180 quoting. ndjson: one line per event in effect (reverted events
      left out), in history order.
      """,
    options: [
      OptionSpec("format", value: "csv|ndjson", help: "The format (default csv)"),
      OptionSpec("as-of", value: "EVENT|TIME", help: "Export the journal as it was then"),
    ]
  ) { invocation in
    let format = invocation.string("format") ?? "csv"
    guard invocation.string("as-of") == nil, ["csv", "ndjson"].contains(format) else {
      return try wholeExport(invocation, format: format)
    }
    let session = try JournalSession(invocation, scope: StateScope(splits: false))
    try invocation.expectPositionals(atMost: 0)
    let out = ChunkedOutput(invocation.console)
    defer { out.flush() }
    if format == "ndjson" {
      // The saved state's files merged; the events handed on at the last key printed.
      var last: (key: FoldEvent.MergeKey, ids: Set<String>)?
      do {
        try session.journal.forEachEventInEffect { e in
          out.print(try ndjson(e))
          if last?.key == e.mergeKey { last?.ids.insert(e.id) } else { last = (e.mergeKey, [e.id]) }
        }
      } catch is ScopeTooNarrow {
        // A damaged file of the saved state: the rest from the device files, read twice.
        let history = try StreamedHistory(store: session.store)
        try history.forEachEvent { e in
          guard history.cancelled[e.storedID] == nil else { return }
          if let last, e.mergeKey < last.key || e.mergeKey == last.key && last.ids.contains(e.id) {
            return
          }
          out.print(try ndjson(e))
        }
      }
      return ExitStatus.success
    }
    out.write(strongColumns.joined(separator: ",") + "\r\n")
    // The slices hand on the workouts in the order of `liveWorkouts`: by start, then id.
    var last: (start: Date, id: String)?
    do {
      try session.journal.forEachSlice { state, _ in
        for workout in state.liveWorkouts {
          for line in csvLines(workout) { out.write(line + "\r\n") }
          last = (workout.document.start, workout.document.id)
        }
      }
    } catch is ScopeTooNarrow {
      // A damaged file of the saved state: the rest from the whole history.
      let whole = try JournalSession(invocation, scope: .all).state()
      for workout in whole.liveWorkouts
      where last.map({ $0 < (workout.document.start, workout.document.id) }) ?? true {
        for line in csvLines(workout) { out.write(line + "\r\n") }
      }
    }
    return ExitStatus.success
  }

  /// `export` of a history held whole: as of a point (`--as-of`).
  static func wholeExport(_ invocation: Invocation, format: String) throws -> Int32 {
    let session = try JournalSession(invocation)
    try invocation.expectPositionals(atMost: 0)
    let point = try invocation.string("as-of").map {
      try Points.parse($0, in: session.journal, now: session.now)
    }
    switch format {
    case "csv":
      invocation.console.write(csv(session.journal.state(upTo: point)))
    case "ndjson":
      let events = Replayer.prefix(session.journal.history, upTo: point)
      let cancelled = Replayer.cancelledEvents(in: events)
      for e in events where cancelled[e.storedID] == nil {
        invocation.console.print(try ndjson(e))
      }
    case let other:
      throw UsageError("unknown format '\(other)': use 'csv' or 'ndjson'")
    }
    return ExitStatus.success
  }

  /// One row per effective set, in Strong's columns.
  static func csv(_ state: JournalState) -> String {
    let lines = [strongColumns.joined(separator: ",")] + state.liveWorkouts.flatMap(csvLines)
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// The rows of one workout's effective sets, without their line ends.
  static func csvLines(_ workout: WorkoutState) -> [String] {
    var lines: [String] = []
    let d = workout.document
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.calendar = Calendar(identifier: .gregorian)
    format.timeZone = workout.timeZone
    format.dateFormat = "yyyy-MM-dd HH:mm:ss"
    let date = format.string(from: d.start)
    let length = WorkoutTiming(of: workout).duration.map(duration) ?? ""
    for log in d.logs {
      for (index, entry) in log.effectiveSetEntries.enumerated() {
        let fields = [
          date, d.splitName ?? "Workout", length, log.exerciseName, String(index + 1),
          entry.weight.map(WeightUnit.number) ?? (log.loadType == .none ? "0" : ""),
          entry.reps.map(String.init) ?? "", "0", entry.seconds.map(String.init) ?? "0",
          log.notes ?? "", "", "",
        ]
        lines.append(fields.map(AuditTable.csvField).joined(separator: ","))
      }
    }
    return lines
  }

  /// `1h 2m`, `47m`, as Strong writes durations.
  static func duration(_ seconds: TimeInterval) -> String {
    let minutes = max(0, Int(seconds / 60))
    return minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
  }

  /// One event as a compact JSON line with sorted keys.
  static func ndjson(_ e: FoldEvent) throws -> String {
    var object: [String: JSONValue] = [
      "id": .string(e.id), "device": .string(e.device), "sequence": .int(Int64(e.sequence)),
      "ms": .int(e.milliseconds), "lc": .int(Int64(e.counter)), "stream": .string(e.stream),
      "type": .string(e.event.typeName), "at": .int(e.at.milliseconds), "data": e.event.payload,
    ]
    if let action = e.action { object["action"] = .string(action) }
    return try JSONValue.object(object).serializedString()
  }
}
