import Foundation
import JournalProjections

/// What `journal run` shows: the flow's page at a time, as lines that fit the window.
///
/// A pure function of the flow, the time and the window, so that tests read the screen
/// without a terminal. ASCII only, so that any terminal shows it; styles only with colour.
enum RunScreen {
  /// The lines of the screen: at most `height` lines of at most `width` characters.
  static func lines(
    _ flow: RunFlow,
    at now: Date,
    width: Int,
    height: Int,
    color: Bool
  ) -> [String] {
    let style = Styler(color: color)
    let document = flow.workout.document
    let resolved = flow.logs.filter { $0.status.isResolved }.count
    var lines = [
      style.bold(document.splitName ?? "Workout") + " - "
        + document.status.describedForPeople + " - \(resolved)/\(flow.logs.count) exercises"
        + (flow.flowMode ? " - flow mode" : ""),
      String(repeating: "-", count: width),
    ]
    let footer = footer(flow, width: width, style: style)
    let room = max(1, height - lines.count - footer.count)
    lines += Array(body(flow, at: now, room: room, style: style).prefix(room))
    while lines.count < height - footer.count { lines.append("") }
    lines += footer
    return lines.prefix(height).map { fit($0, width: width) }
  }

  // MARK: - Pages

  static func body(_ flow: RunFlow, at now: Date, room: Int, style: Styler) -> [String] {
    switch flow.page {
    case .list:
      return list(flow, room: room, style: style)
    case .ready(let until):
      guard let log = flow.currentLog else { return [] }
      return [
        "",
        style.bold("READY?") + "  " + setTitle(log),
        "",
        "  starts in \(RunFlow.remaining(until, at: now))",
        "  plan " + WorkoutOutput.plan(log),
      ]
    case .work(let since):
      guard let log = flow.currentLog else { return [] }
      let elapsed = now.timeIntervalSince(since)
      let clock: String
      if log.loadType == .duration {
        let left = TimeInterval(flow.draft.seconds ?? log.durationSeconds) - elapsed
        clock =
          left > 0
          ? TimingText.clock(left.rounded(.up)) + " left" : "time! +" + TimingText.clock(-left)
      } else {
        clock = TimingText.clock(max(0, elapsed))
      }
      return [
        "",
        style.bold("WORK") + "  " + setTitle(log),
        "",
        "  " + style.bold(clock),
        "  record " + WorkoutOutput.describe(flow.draft, of: log) + "  (plan "
          + WorkoutOutput.plan(log) + ")",
        "  done   " + WorkoutOutput.entries(log),
      ]
    case .rest(let until, let then):
      let left = RunFlow.remaining(until, at: now)
      let text = "REST  " + TimingText.clock(TimeInterval(left)) + " left"
      var lines = ["", left <= 3 ? style.flash(text) : style.bold(text), ""]
      if let log = flow.currentLog {
        switch then {
        case .nextSet:
          lines.append(
            "  next   set \((log.setEntries?.count ?? 0) + 1) of \(log.sets) of '\(log.exerciseName)'"
          )
        case .nextExercise:
          lines.append("  next   '\(log.exerciseName)' (flow mode)")
        }
        if then == .nextSet, let last = log.setEntries?.last {
          lines.append("  last   " + WorkoutOutput.describe(last, of: log))
        }
        if let correction = flow.correction {
          lines.append(
            "  correct to " + WorkoutOutput.describe(correction, of: log) + "  (a saves)"
          )
        }
      }
      return lines
    case .finish(let doneAt):
      guard let log = flow.currentLog else { return [] }
      var lines = [
        "",
        style.bold("FINISH") + "  '\(log.exerciseName)': \(log.setEntries?.count ?? 0) of "
          + "\(log.sets) sets done",
        "",
        "  m One More    d Done",
        "  done   " + WorkoutOutput.entries(log),
      ]
      if let doneAt { lines.append("  Done in \(RunFlow.remaining(doneAt, at: now))") }
      return lines
    case .complete, .left:
      let timing = WorkoutTiming(of: flow.workout)
      return [
        "",
        style.bold(
          flow.workout.document.status == .inProgress ? "WORKOUT IN PROGRESS" : "WORKOUT DONE"
        ) + "  " + flow.workout.document.status.describedForPeople,
        "",
        "  duration "
          + (timing.duration == nil ? "? (in progress)" : TimingText.clock(timing.duration)),
        "  volume   " + DisplayUnit.weight(timing.volume),
        "  density  " + TimingText.density(timing.density),
      ]
    }
  }

  static func list(_ flow: RunFlow, room: Int, style: Styler) -> [String] {
    let width = max(12, flow.logs.map(\.exerciseName.count).max() ?? 0)
    var lines = [""]
    for (index, log) in flow.logs.enumerated() {
      let mark = index == flow.cursor ? ">" : " "
      let name = log.exerciseName.padding(toLength: width, withPad: " ", startingAt: 0)
      let status = log.status.describedForPeople.padding(toLength: 11, withPad: " ", startingAt: 0)
      let progress = "\(log.setEntries?.count ?? 0)/\(log.sets)"
        .padding(toLength: 5, withPad: " ", startingAt: 0)
      let line = "\(mark) \(name)  \(status)  \(progress)  \(WorkoutOutput.plan(log))"
      lines.append(index == flow.cursor ? style.bold(line) : line)
    }
    // Keep the cursor in sight in a short window.
    if lines.count > room, flow.cursor + 2 > room {
      return Array(lines.dropFirst(flow.cursor + 2 - room))
    }
    return lines
  }

  /// `'Bench Press'  set 2 of 3`.
  static func setTitle(_ log: WorkoutLogDocument) -> String {
    "'\(log.exerciseName)'  set \(min(log.sets, (log.setEntries?.count ?? 0) + 1)) of \(log.sets)"
  }

  // MARK: - Footer

  /// The message, then the keys of the page, wrapped to the width.
  static func footer(_ flow: RunFlow, width: Int, style: Styler) -> [String] {
    var lines = [String(repeating: "-", count: width)]
    let message = flow.message ?? ""
    lines.append(flow.messageIsError ? style.error("error: " + message) : message)
    var line = ""
    for key in keys(flow.page) {
      if !line.isEmpty, line.count + 2 + key.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : "  ") + key
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// The keys a page takes, as shown.
  static func keys(_ page: RunFlow.Page) -> [String] {
    let common = ["u undo", "q leave", "e end"]
    switch page {
    case .list:
      return ["Enter start", "j/k move", "m One More", "d Done", "s skip", "r reset"] + common
    case .ready:
      return ["Enter start now", "d Done", "s skip", "r reset"] + common
    case .work:
      return [
        "Enter confirm", "+/- reps (s)", "[/] weight", "m One More", "d Done", "s skip",
        "r reset",
      ] + common
    case .rest:
      return [
        "Enter skip rest", "x +30 s", "+/- [/] correct last set", "a save", "m One More",
        "d Done", "s skip", "r reset",
      ] + common
    case .finish:
      return ["m One More", "d/Enter Done", "s skip", "r reset"] + common
    case .complete, .left:
      return ["Enter leave", "u undo", "q leave"]
    }
  }

  /// `text` cut to `width` visible characters (escape sequences do not count).
  static func fit(_ text: String, width: Int) -> String {
    var visible = 0
    var result = ""
    var inEscape = false
    for character in text {
      if character == "\u{1B}" { inEscape = true }
      if inEscape {
        result.append(character)
        if character == "m" { inEscape = false }
        continue
      }
      guard visible < width else { continue }
      result.append(character)
      visible += 1
    }
    return result
  }

  /// ANSI styles, or none.
  struct Styler {
    let color: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func error(_ text: String) -> String { wrap(text, "31") }
    /// The last seconds of a rest: reversed, so that they show without sound.
    func flash(_ text: String) -> String { color ? wrap(text, "7") : "*** \(text) ***" }

    private func wrap(_ text: String, _ code: String) -> String {
      color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
  }
}
