import Foundation
import JournalProjections

/// The text of `history`, `blame`, `diff` and `records`.
enum AuditOutput {
  /// One line per event: mark, time, device, type, summary.
  static func history(_ entries: [WorkoutHistory.Entry], zone: String, width: Int) -> String {
    guard !entries.isEmpty else { return "no events" }
    var dates = ZonedDates()
    let rows = entries.map { e -> [String] in
      let mark =
        switch e.mark {
        case .effective: e.anomalies.isEmpty ? "+" : "!"
        case .reverted: "x"
        case .revert: "<"
        }
      var summary = e.summary
      if let by = e.revertedBy { summary += " [reverted by \(by)]" }
      for anomaly in e.anomalies { summary += " [anomaly: \(anomaly)]" }
      return [mark, dates.minute(e.at, in: zone), e.device, e.eventID, e.type, summary]
    }
    return TextTable.render(
      headers: ["", "Time", "Device", "Id", "Event", "Summary"],
      rows: rows,
      shrinkable: [5, 4],
      droppable: [4, 2],
      minimums: [5: 32, 4: 10],
      width: width
    )
  }

  /// One line per field: pointer, value, and the event credited.
  static func blame(_ lines: [Blame.Line], width: Int) -> String {
    var dates = ZonedDates()
    let rows = lines.map { line in
      [
        line.pointer, line.value.compactText, dates.minute(line.credit.at, in: "UTC") + "Z",
        line.credit.device, line.credit.eventID, line.credit.type,
      ]
    }
    return TextTable.render(
      headers: ["Field", "Value", "Time (UTC)", "Device", "Id", "Event"],
      rows: rows,
      shrinkable: [1, 0, 5],
      droppable: [5, 3],
      minimums: [1: 12, 0: 24],
      width: width
    )
  }

  /// `+ path` added, `- path` removed, `~ path` changed with its fields.
  static func diff(_ changes: [Diff.DocumentChange]) -> String {
    guard !changes.isEmpty else { return "no differences" }
    var lines: [String] = []
    for change in changes {
      switch change.kind {
      case .added: lines.append("+ \(change.path)")
      case .removed: lines.append("- \(change.path)")
      case .changed:
        lines.append("~ \(change.path)")
        for field in change.fields {
          let before = field.before?.compactText ?? "(none)"
          let after = field.after?.compactText ?? "(none)"
          lines.append("    \(field.pointer): \(before) → \(after)")
        }
      }
    }
    let counts = Dictionary(grouping: changes, by: \.kind).mapValues(\.count)
    lines.append(
      "\(counts[.added] ?? 0) added, \(counts[.removed] ?? 0) removed, \(counts[.changed] ?? 0) changed"
    )
    return lines.joined(separator: "\n")
  }

  /// Each exercise's records, with the date each was set.
  static func records(_ all: [ExerciseRecords]) -> String {
    guard !all.isEmpty else { return "no recorded sets yet" }
    var dates = ZonedDates()
    var lines: [String] = []
    for r in all {
      if !lines.isEmpty { lines.append("") }
      lines.append("\(r.exercise)  (\(r.sets) recorded set\(r.sets == 1 ? "" : "s"))")
      func set(
        _ label: String,
        _ record: ExerciseRecords.RecordSet?,
        _ value: (ExerciseRecords.RecordSet) -> String
      ) {
        guard let record else { return }
        let day = dates.day(record.date, in: record.timeZone)
        lines.append(
          "  \(label.padding(toLength: 18, withPad: " ", startingAt: 0))\(value(record))  \(day)"
        )
      }
      set("heaviest", r.heaviest) { "\(DisplayUnit.weight($0.weight)) × \($0.reps)" }
      set("best e1RM (Epley)", r.bestEstimatedOneRepMax) {
        "\(DisplayUnit.weight(ChartText.rounded($0.value))) from \(DisplayUnit.weight($0.weight)) × \($0.reps)"
      }
      set("best set volume", r.bestSetVolume) {
        "\(DisplayUnit.weight($0.value)) from \(DisplayUnit.weight($0.weight)) × \($0.reps)"
      }
      if let s = r.bestSession {
        let day = dates.day(s.date, in: s.timeZone)
        lines.append(
          "  \("best session".padding(toLength: 18, withPad: " ", startingAt: 0))\(DisplayUnit.weight(s.volume)) in \(s.sets) sets  \(day)"
        )
      }
      if !r.repsAtWeight.isEmpty {
        lines.append("  most reps at a weight:")
        for entry in r.repsAtWeight.prefix(8) {
          let weight = entry.weight == 0 ? "bodyweight" : DisplayUnit.weight(entry.weight)
          lines.append(
            "    \(weight) × \(entry.reps)  \(dates.day(entry.date, in: entry.timeZone))"
          )
        }
      }
    }
    return lines.joined(separator: "\n")
  }
}
