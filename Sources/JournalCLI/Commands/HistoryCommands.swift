import Foundation
import JournalProjections

/// `undo`, `redo`, `rewind`: going back, by appending reverts.
enum HistoryCommands {
  static let all: [Command] = [undo, redo, rewind]

  static let undo = Command(
    ["undo"],
    abstract: "Undo the last action of this device (appends a revert; nothing is erased)",
    discussion: """
      An action is everything one command appended. Undo is refused when later
      events depend on the action (undo those first, or rewind). 'journal redo'
      brings it back.
      """,
    options: [
      OptionSpec(
        "workout",
        short: "w",
        value: "ID",
        help: "Undo the last action in this workout (id prefix, or split name: its latest)"
      ),
      OptionSpec("count", short: "n", value: "N", help: "Undo the last N actions (default 1)"),
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    let workout = invocation.string("workout")
    let count = try invocation.int("count") ?? 1
    // The streams this device acted on last hold its latest actions; when the undo has to go
    // further back than they reach, it runs again on the whole history.
    let device = try JournalSession.device(invocation)
    let scope =
      workout.map { StateScope(workouts: [$0], splits: false) }
      ?? StateScope(recentActionsOf: device, splits: false)
    func undo(_ session: JournalSession) throws -> Journal.Reversal {
      try session.journal.undo(
        device: session.device,
        workout: workout,
        count: count,
        now: session.now
      )
    }
    var session = try JournalSession.naming(workout: workout, invocation, scope: scope)
    let reversal: Journal.Reversal
    do {
      reversal = try undo(session)
    } catch is ScopeTooNarrow {
      session = try JournalSession(invocation)
      reversal = try undo(session)
    }
    return report(reversal, verb: "undid", in: invocation)
  }

  static let redo = Command(["redo"], abstract: "Redo what the last undo of this device cancelled")
  { invocation in
    try invocation.expectPositionals(atMost: 0)
    // The streams this device acted on last hold its latest undo; when they cannot tell, the
    // redo runs again on the whole history.
    let scope = StateScope(recentActionsOf: try JournalSession.device(invocation))
    let reversal: Journal.Reversal
    do {
      let session = try JournalSession(invocation, scope: scope)
      reversal = try session.journal.redo(device: session.device, now: session.now)
    } catch is ScopeTooNarrow {
      let session = try JournalSession(invocation)
      reversal = try session.journal.redo(device: session.device, now: session.now)
    }
    return report(reversal, verb: "redid", in: invocation)
  }

  static let rewind = Command(
    ["rewind"],
    abstract: "Cancel everything after an event or a time (one revert; undo brings it back)",
    options: [
      OptionSpec("to", value: "EVENT|TIME", help: "The last event (id prefix) or time to keep")
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    guard let target = invocation.string("to") else {
      throw UsageError("missing '--to EVENT|TIME'")
    }
    // The saved state finds the events after the point without folding any stream.
    let reversal = try ChartCommands.answered(invocation) { session in
      let point = try Points.parse(target, in: session.journal, now: session.now)
      return try session.journal.rewind(to: point, device: session.device, now: session.now)
    }
    return report(reversal, verb: "rewound", in: invocation)
  }

  static func report(_ reversal: Journal.Reversal, verb: String, in invocation: Invocation) -> Int32
  {
    if invocation.wantsJSON {
      invocation.printJSON(["revert": reversal.revert.id, "cancelled": reversal.eventIDs])
      return ExitStatus.success
    }
    let c = invocation.console
    let count = reversal.eventIDs.count
    c.print("\(verb): \(count) event\(count == 1 ? "" : "s") cancelled by \(reversal.revert.id)")
    for e in reversal.cancelled.prefix(10) {
      c.print(c.styled("  \(e.id.prefix(12))  \(e.device)  ", .dim) + e.event.typeName)
    }
    if reversal.cancelled.count > 10 {
      c.print(c.styled("  … and \(reversal.cancelled.count - 10) more", .dim))
    }
    return ExitStatus.success
  }
}

/// Reads `--as-of`, `--to`, `--from`: an event id prefix, or a time.
enum Points {
  static func parse(_ text: String, in journal: Journal, now: Date) throws -> Replayer.Point {
    let upper = text.uppercased()
    if upper.count >= 4, upper.allSatisfy({ $0.isLetter || $0.isNumber }) {
      let matches = try journal.events(withIDPrefix: upper)
      let stored = Set(matches.map(\.storedID))
      if stored.count == 1, let first = matches.last { return .event(first.id) }
      if stored.count > 1 {
        throw CommandError("event id prefix '\(text)' is ambiguous: \(stored.count) match")
      }
    }
    do {
      return .time(try TimeParser.parse(text, now: now))
    } catch {
      throw CommandError("'\(text)' is neither an event id prefix nor a time")
    }
  }
}
