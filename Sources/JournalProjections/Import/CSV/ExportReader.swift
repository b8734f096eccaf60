import Foundation
import JournalCore

/// A row of an export refused, with its line and why.
public struct RefusedRow: Error, Sendable, Hashable, CustomStringConvertible {
  /// The 1-based line of the file the row starts on.
  public var line: Int
  public var reason: String

  public var description: String { "line \(line): \(reason)" }
}

/// One set as an export wrote it, its weight in the file's unit.
struct ExportedSet: Sendable, Hashable {
  var line: Int
  var kind: SetKind
  var order: String
  var reps: Int?
  var weight: Double?
  var weightUnit: WeightUnit?
  var seconds: Int?
  var distance: Double?
  var distanceUnit: String?
  var rpe: Double?
  var notes: String?
  var restSeconds: Int?
}

/// The sets of one exercise, in the order the export wrote them.
struct ExportedExercise: Sendable, Hashable {
  var name: String
  var line: Int
  var notes: [String] = []
  var superset: String?
  var sets: [ExportedSet] = []
}

/// One workout read from an export: its rows, and why any of them was refused.
struct ExportedWorkout: Sendable, Hashable {
  var title: String
  /// The start as the file wrote it.
  var startText: String
  /// The start as a local time, before the time zone places it.
  var localStart: ExportValues.LocalTime?
  var start: Date?
  var end: Date?
  var notes: [String] = []
  var exercises: [ExportedExercise] = []
  var firstLine: Int
  var lastLine: Int
  /// Rows of the workout that could not be read; any refuses the whole workout.
  var refusals: [RefusedRow] = []
  /// The workout-level cells of its first row, which every row must repeat.
  var firstRowLine: Int
  var durationText: String?
  var endText: String?
}

/// An export read into workouts: what `journal import FILE.csv` reads before it makes events.
struct ExportFile: Sendable {
  var layout: ExportLayout
  var workouts: [ExportedWorkout]
  /// Rows that belong to no workout (too short to say which).
  var strayRows: [RefusedRow]

  /// Reads an export: its header decides the layout, each row becomes a set of a workout.
  ///
  /// - Throws: ``HistoryImportError`` for a file that is not CSV, not a known export, or
  ///   has no rows.
  init(data: Data, source: HistorySource?, timeZone: TimeZone) throws(HistoryImportError) {
    let separator = CSVReader.separator(ofHeader: data)
    let records: [CSVRecord]
    do {
      records = try CSVReader.records(data, separator: separator)
    } catch {
      throw HistoryImportError("not a readable CSV file: \(error)")
    }
    guard let header = records.first else { throw HistoryImportError("the file is empty") }
    let layout = try ExportLayout(header: header.fields, source: source)
    var reader = RowReader(
      layout: layout,
      timeZone: timeZone,
      decimalComma: separator == UInt8(ascii: ";")
    )
    for record in records.dropFirst() { reader.read(record) }
    self.layout = layout
    self.workouts = reader.finish()
    self.strayRows = reader.stray
  }
}

/// Reads the rows of an export in order, grouping them into workouts.
private struct RowReader {
  let layout: ExportLayout
  let timeZone: TimeZone
  let decimalComma: Bool
  var workouts: [ExportedWorkout] = []
  var indexByKey: [String: Int] = [:]
  var currentKey: String?
  var stray: [RefusedRow] = []
  var dates: [String: Date?] = [:]

  init(layout: ExportLayout, timeZone: TimeZone, decimalComma: Bool) {
    self.layout = layout
    self.timeZone = timeZone
    self.decimalComma = decimalComma
  }

  func cell(_ column: ExportColumn, _ record: CSVRecord) -> String? {
    guard let index = layout.columns[column], index < record.fields.count else { return nil }
    return record.fields[index]
  }

  /// Hevy writes a line break inside notes as the two characters `\n`.
  func text(_ column: ExportColumn, _ record: CSVRecord) -> String? {
    guard var value = cell(column, record)?.trimmedOfSpaces else {
      return nil
    }
    if layout.source == .hevy { value = value.replacingOccurrences(of: "\\n", with: "\n") }
    return value.isEmpty ? nil : value
  }

  mutating func date(_ text: String) -> Date? {
    if let known = dates[text] { return known }
    let parsed = ExportValues.localTime(text).flatMap { ExportValues.date($0, in: timeZone) }
    dates[text] = parsed
    return parsed
  }

  mutating func read(_ record: CSVRecord) {
    let line = record.line
    guard let startText = cell(.start, record), let title = cell(.title, record) else {
      stray.append(
        RefusedRow(
          line: line,
          reason: "has \(record.fields.count) fields, the header has \(layout.width): "
            + "no date or workout name to place it by"
        )
      )
      return
    }
    let number = cell(.workoutNumber, record) ?? ""
    let key = "\(number)\u{0}\(startText)\u{0}\(title)"
    var index: Int
    if let known = indexByKey[key] {
      index = known
      if currentKey != key {
        workouts[index].refusals.append(
          RefusedRow(
            line: line,
            reason: "a row of this workout after rows of another: its rows must be together "
              + "(first at line \(workouts[index].firstLine))"
          )
        )
      }
    } else {
      index = workouts.count
      indexByKey[key] = index
      var workout = ExportedWorkout(
        title: title.trimmingCharacters(in: .whitespaces),
        startText: startText,
        firstLine: line,
        lastLine: line,
        firstRowLine: line
      )
      workout.localStart = ExportValues.localTime(startText)
      workout.start = date(startText)
      if workout.start == nil {
        workout.refusals.append(
          RefusedRow(line: line, reason: "date '\(startText)' does not parse")
        )
      }
      workout.durationText = cell(.duration, record) ?? cell(.durationSeconds, record)
      workout.endText = cell(.end, record)
      workouts.append(workout)
    }
    currentKey = key
    workouts[index].lastLine = line
    if record.fields.count != layout.width {
      workouts[index].refusals.append(
        RefusedRow(
          line: line,
          reason: "has \(record.fields.count) fields, the header has \(layout.width)"
        )
      )
      return
    }
    // Taken out of the array while the row is read: a method of `self` handed a member of
    // `self.workouts` inout would copy the whole array at every row.
    var workout = workouts[index]
    workouts[index].exercises = []
    do {
      try readRow(record, into: &workout)
    } catch {
      workout.refusals.append(RefusedRow(line: line, reason: error.reason))
    }
    workouts[index] = workout
  }

  /// Reads one row's cells into its workout.
  func readRow(
    _ record: CSVRecord,
    into workout: inout ExportedWorkout
  ) throws(ExportValues.ValueError) {
    // The workout's own cells repeat on every row.
    let duration = cell(.duration, record) ?? cell(.durationSeconds, record)
    if duration != workout.durationText {
      throw ExportValues.ValueError(
        "duration '\(duration ?? "")' differs from line \(workout.firstRowLine) of the workout"
      )
    }
    if cell(.end, record) != workout.endText {
      throw ExportValues.ValueError(
        "end time '\(cell(.end, record) ?? "")' differs from line \(workout.firstRowLine) "
          + "of the workout"
      )
    }
    if let notes = text(.workoutNotes, record), !workout.notes.contains(notes) {
      workout.notes.append(notes)
    }
    guard let exercise = text(.exercise, record) else {
      throw ExportValues.ValueError("no exercise name")
    }
    var set = ExportedSet(line: record.line, kind: .normal, order: "")
    var isRest = false
    var isNote = false
    switch layout.source {
    case .strong:
      let order = cell(.setOrder, record)?.trimmedOfSpaces ?? ""
      set.order = order
      switch order.lowercased() {
      case "w": set.kind = .warmUp
      case "d": set.kind = .drop
      case "f": set.kind = .failure
      case "rest timer": isRest = true
      case "note": isNote = true
      default:
        guard let value = Int(order), value >= 0 else {
          throw ExportValues.ValueError(
            "set order '\(order)' is not a number, W, D, F, Rest Timer or Note"
          )
        }
      }
    case .hevy:
      let index = cell(.setIndex, record)?.trimmedOfSpaces ?? ""
      guard let value = Int(index), value >= 0 else {
        throw ExportValues.ValueError("set_index '\(index)' is not a whole number from 0")
      }
      set.order = index
      let type = cell(.setType, record)?.trimmedOfSpaces.lowercased() ?? ""
      switch type {
      case "normal", "": set.kind = .normal
      case "warmup": set.kind = .warmUp
      case "dropset": set.kind = .drop
      case "failure": set.kind = .failure
      default:
        throw ExportValues.ValueError(
          "set_type '\(type)' is not normal, warmup, dropset or failure"
        )
      }
    }
    let seconds = try wholeNumber(.seconds, record, range: 0...86_400, what: "seconds")
    if isRest {
      // A rest timer is the rest after the set before it.
      guard let last = workout.exercises.indices.last,
        let setIndex = workout.exercises[last].sets.indices.last
      else { throw ExportValues.ValueError("a rest timer before any set of the workout") }
      workout.exercises[last].sets[setIndex].restSeconds = seconds ?? 0
      return
    }
    if isNote {
      let note = text(.notes, record)
      var target = workout.exercises.last?.name == exercise ? workout.exercises.count - 1 : nil
      if target == nil {
        workout.exercises.append(ExportedExercise(name: exercise, line: record.line))
        target = workout.exercises.count - 1
      }
      if let note, let target, !workout.exercises[target].notes.contains(note) {
        workout.exercises[target].notes.append(note)
      }
      return
    }
    set.reps = try wholeNumber(.reps, record, range: 0...1000, what: "reps")
    if let weight = try number(.weight, record, what: "weight") {
      guard weight >= 0 else {
        throw ExportValues.ValueError("weight \(cell(.weight, record) ?? "") is negative")
      }
      set.weight = weight
    }
    set.weightUnit = layout.weightUnit
    if set.weightUnit == nil, let unit = text(.weightUnit, record) {
      guard let parsed = ExportLayout.weightUnit(unit) else {
        throw ExportValues.ValueError("weight unit '\(unit)' is not kg or lbs")
      }
      set.weightUnit = parsed
    }
    set.seconds = seconds
    if let distance = try number(.distance, record, what: "distance") {
      guard distance >= 0 else {
        throw ExportValues.ValueError("distance \(cell(.distance, record) ?? "") is negative")
      }
    }
    // Strong writes a distance of 0 on every set that has none.
    if let distance = try number(.distance, record, what: "distance"), distance > 0 {
      set.distance = distance
      set.distanceUnit = layout.distanceUnit ?? text(.distanceUnit, record)
    }
    if let rpe = try number(.rpe, record, what: "RPE") {
      guard (0...10).contains(rpe) else {
        throw ExportValues.ValueError("RPE \(cell(.rpe, record) ?? "") is not within 0…10")
      }
      set.rpe = rpe
    }
    set.notes = layout.source == .strong ? text(.notes, record) : nil
    let superset = text(.superset, record)
    if let last = workout.exercises.indices.last, workout.exercises[last].name == exercise,
      workout.exercises[last].superset == superset
    {
      workout.exercises[last].sets.append(set)
    } else {
      var added = ExportedExercise(name: exercise, line: record.line, superset: superset)
      added.sets.append(set)
      workout.exercises.append(added)
    }
    let last = workout.exercises.count - 1
    let exerciseNote = layout.source == .hevy ? text(.exerciseNotes, record) : set.notes
    if let exerciseNote, !workout.exercises[last].notes.contains(exerciseNote) {
      workout.exercises[last].notes.append(exerciseNote)
    }
  }

  func number(
    _ column: ExportColumn,
    _ record: CSVRecord,
    what: String
  ) throws(ExportValues.ValueError) -> Double? {
    guard let text = cell(column, record) else { return nil }
    switch ExportValues.number(text, decimalComma: decimalComma) {
    case .success(let value): return value
    case .failure(let error): throw ExportValues.ValueError("\(what) \(error.reason)")
    }
  }

  /// A whole number: `10` and `10.0` read as 10; `10.5` is refused.
  func wholeNumber(
    _ column: ExportColumn,
    _ record: CSVRecord,
    range: ClosedRange<Int>,
    what: String
  ) throws(ExportValues.ValueError) -> Int? {
    guard let value = try number(column, record, what: what) else { return nil }
    guard value == value.rounded(), let whole = Int(exactly: value) else {
      throw ExportValues.ValueError("\(what) '\(cell(column, record) ?? "")' is not whole")
    }
    guard range.contains(whole) else {
      throw ExportValues.ValueError(
        "\(what) \(whole) is not within \(range.lowerBound)…\(range.upperBound)"
      )
    }
    return whole
  }

  /// The workouts with their ends: Strong's start plus its duration, Hevy's `end_time`.
  mutating func finish() -> [ExportedWorkout] {
    for index in workouts.indices {
      var workout = workouts[index]
      defer { workouts[index] = workout }
      guard let start = workout.start else { continue }
      if layout.columns[.end] != nil {
        let text = workout.endText ?? ""
        guard let end = date(text) else {
          workout.refusals.append(
            RefusedRow(line: workout.firstRowLine, reason: "end time '\(text)' does not parse")
          )
          continue
        }
        workout.end = end
      } else {
        guard let seconds = ExportValues.duration(workout.durationText ?? "") else {
          workout.refusals.append(
            RefusedRow(
              line: workout.firstRowLine,
              reason: "duration '\(workout.durationText ?? "")' is not like '1h 5m' or seconds"
            )
          )
          continue
        }
        workout.end = start.addingTimeInterval(TimeInterval(seconds))
      }
      if let end = workout.end, end < start {
        workout.refusals.append(
          RefusedRow(line: workout.firstRowLine, reason: "the workout ends before it starts")
        )
      }
      if !workout.exercises.contains(where: { !$0.sets.isEmpty }), workout.refusals.isEmpty {
        workout.refusals.append(
          RefusedRow(line: workout.firstRowLine, reason: "the workout has no sets")
        )
      }
    }
    return workouts
  }
}
