import Foundation
import JournalCore

/// What importing an export did, workout by workout.
public struct HistoryImportReport: Sendable, Hashable {
  /// One workout of the file, as the report names it.
  public struct Workout: Sendable, Hashable, CustomStringConvertible {
    public var id: String
    public var title: String
    /// The start as the file wrote it.
    public var start: String
    public var firstLine: Int
    public var lastLine: Int
    public var sets: Int
    /// Why it was not imported: the rows refused, or the conflict.
    public var reasons: [String] = []

    public var description: String {
      "'\(title)' of \(start) (lines \(firstLine)–\(lastLine))"
        + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; "))
    }
  }

  public var source: HistorySource
  public var file: String
  /// The zone the file's dates were read in.
  public var timeZone: String
  /// The unit the journal stores the weights in, and why that one.
  public var unit: WeightUnit
  public var unitReason: String
  /// The unit the file names, if it names one.
  public var fileUnit: WeightUnit?
  public var imported: [Workout] = []
  /// Already in the journal as they are in the file: nothing appended.
  public var unchanged: [Workout] = []
  /// In the journal, but different (edited in the tracker since the last import, or deleted
  /// in the journal): the journal keeps its version.
  public var conflicts: [Workout] = []
  /// Workouts with a row that could not be read: not imported.
  public var refused: [Workout] = []
  /// Rows that belong to no workout.
  public var strayRows: [RefusedRow] = []
  /// Splits made by `--splits`, by name.
  public var splitsCreated: [String] = []
  public var appendedEvents = 0
  /// How many durable batches (and actions) the events were appended in: each `undo`
  /// cancels one, the last first.
  public var batches = 0
  public var isDryRun: Bool

  /// Whether any row or workout was refused (the command exits 1).
  public var hasRefusals: Bool { !refused.isEmpty || !strayRows.isEmpty }
}

/// Imports the CSV export of another tracker (Strong, Hevy) as the journal's own events.
///
/// Each workout becomes `workout.started` (a log per exercise, its plan the sets that were
/// done), `workout.imported` (where it came from, and what the documents have no field
/// for), a `set.completed` per set with its actuals, and `log.completed` per log at the
/// workout's end, which ends the workout. A workout's id comes from its source, start and
/// title, so importing again appends only the workouts that are new. The events are
/// appended in durable batches of whole workouts (about 8,000 events each), each one
/// action: `undo` cancels the last batch, which for most files is the whole import.
///
/// ```swift
/// let importer = HistoryImporter(device: "cli", timeZone: TimeZone(identifier: "Europe/Paris")!)
/// let report = try importer.importFile(data, named: "strong.csv", into: journal, now: Date())
/// ```
///
/// The rules, format by format, are in docs/Import.md.
public struct HistoryImporter: Sendable {
  public var device: String
  /// The zone the file's dates are read in (neither tracker writes one).
  public var timeZone: TimeZone
  /// The format, when not recognised from the header.
  public var format: HistorySource?
  /// The unit to store weights in (`--unit`); nil: the journal's, else the file's.
  public var unit: WeightUnit?
  /// Where ``unit`` came from, for the report (`--unit`, `$WORKOUT_UNIT`).
  public var unitSource = "--unit"
  /// Whether to create a split per workout name (`--splits`).
  public var createsSplits: Bool
  /// Plan and report only.
  public var dryRun: Bool

  public init(
    device: String,
    timeZone: TimeZone,
    format: HistorySource? = nil,
    unit: WeightUnit? = nil,
    createsSplits: Bool = false,
    dryRun: Bool = false
  ) {
    self.device = device
    self.timeZone = timeZone
    self.format = format
    self.unit = unit
    self.createsSplits = createsSplits
    self.dryRun = dryRun
  }

  /// Pounds in a kilogram's terms.
  static let kilogramsPerPound = 0.45359237

  /// Imports the export `data`, whose file name is `file`, into `journal`.
  ///
  /// - Throws: ``HistoryImportError`` when the file is refused whole (nothing appended);
  ///   store errors.
  public func importFile(
    _ data: Data,
    named file: String,
    into journal: Journal,
    now: Date
  ) throws -> HistoryImportReport {
    let export = try ExportFile(data: data, source: format, timeZone: timeZone)
    let source = export.layout.source
    let state = journal.state()
    let previous = Self.previousImports(journal.history, state: state)
    let fileUnit = Self.fileUnit(export)
    let stored: WeightUnit
    let reason: String
    if let unit {
      stored = unit
      reason = "\(unitSource) \(unit.rawValue)"
    } else if let journalUnit = previous.unit {
      if let fileUnit, fileUnit != journalUnit {
        throw HistoryImportError(
          "the file's weights are in \(fileUnit.rawValue), the journal's earlier imports in "
            + journalUnit.rawValue,
          hint: "pass --unit \(journalUnit.rawValue) to convert them, or --unit "
            + "\(fileUnit.rawValue) to keep them as they are"
        )
      }
      stored = journalUnit
      reason = "the unit of the journal's earlier imports"
    } else if let fileUnit {
      stored = fileUnit
      reason = "the file's unit"
    } else {
      stored = .kg
      reason = "the file names no unit: taken as kg (pass --unit lb for pounds)"
    }
    var report = HistoryImportReport(
      source: source,
      file: file,
      timeZone: timeZone.identifier,
      unit: stored,
      unitReason: reason,
      fileUnit: fileUnit,
      strayRows: export.strayRows,
      isDryRun: dryRun
    )
    var plans: [WorkoutPlan] = []
    for workout in export.workouts {
      var item = HistoryImportReport.Workout(
        id: "",
        title: workout.title,
        start: workout.startText,
        firstLine: workout.firstLine,
        lastLine: workout.lastLine,
        sets: workout.exercises.reduce(0) { $0 + $1.sets.count }
      )
      guard workout.refusals.isEmpty, let start = workout.start, let end = workout.end,
        let local = workout.localStart
      else {
        item.reasons = workout.refusals.map(\.description)
        report.refused.append(item)
        continue
      }
      let id = Self.workoutID(source: source, start: local, title: workout.title)
      item.id = id
      if let twin = plans.first(where: { $0.id == id }) {
        item.reasons = [
          "line \(workout.firstLine): another workout of the file has the same start and title "
            + "(line \(twin.firstLine))"
        ]
        report.refused.append(item)
        continue
      }
      let fingerprint = Self.fingerprint(workout)
      if let existing = state.workouts[id] {
        if existing.deletedAt != nil {
          item.reasons = ["deleted in the journal; not imported again"]
          report.conflicts.append(item)
        } else if previous.fingerprints[id] == fingerprint {
          report.unchanged.append(item)
        } else if existing.document.start != start {
          item.reasons = [
            "imported before with another start: its dates were read in "
              + "\(existing.timeZone.identifier); the journal keeps its version"
          ]
          report.conflicts.append(item)
        } else {
          item.reasons = [
            previous.fingerprints[id] == nil
              ? "the journal has another workout with this id"
              : "changed in \(source.displayName) since it was imported; the journal keeps its "
                + "version"
          ]
          report.conflicts.append(item)
        }
        continue
      }
      switch WorkoutPlan.make(
        workout,
        start: start,
        end: end,
        now: now,
        unit: stored,
        fileUnit: fileUnit
      ) {
      case .success(var plan):
        plan.id = id
        plan.fingerprint = fingerprint
        plans.append(plan)
        report.imported.append(item)
      case .failure(let refusal):
        item.reasons = [refusal.description]
        report.refused.append(item)
      }
    }
    var events: [ImportedEvent] = []
    var splitIDs: [String: String] = [:]
    if createsSplits {
      (events, splitIDs, report.splitsCreated) = Self.splits(
        for: plans,
        state: state,
        now: now,
        newID: journal.newID
      )
    }
    // Whole workouts in batches of about `batchSize` events, each one durable append and
    // one action: a revert names every event of the action it undoes, and must fit in one
    // record (1 MiB).
    var batches: [[ImportedEvent]] = []
    for plan in plans {
      events += plan.events(
        source: source,
        file: file,
        timeZone: timeZone,
        unit: stored,
        fileUnit: fileUnit,
        splitID: splitIDs[plan.title.lowercased()],
        newID: journal.newID
      )
      if events.count >= Self.batchSize {
        batches.append(events)
        events = []
      }
    }
    if !events.isEmpty { batches.append(events) }
    report.appendedEvents = batches.reduce(0) { $0 + $1.count }
    report.batches = batches.count
    if !dryRun {
      for batch in batches { try journal.appendImported(batch, device: device) }
    }
    return report
  }

  /// The events of one batch of an import, give or take a workout: an undo of it names
  /// them all in a revert of about 31 bytes an event, well within a record's 1 MiB.
  static let batchSize = 8_000

  /// The unit the file names: in its header, else in its first weight-unit cell.
  static func fileUnit(_ export: ExportFile) -> WeightUnit? {
    if let unit = export.layout.weightUnit { return unit }
    for workout in export.workouts {
      for exercise in workout.exercises {
        if let unit = exercise.sets.lazy.compactMap(\.weightUnit).first { return unit }
      }
    }
    return nil
  }

  /// The fingerprints of the workouts imported before, by id, and the unit of the latest
  /// import whose workout is live.
  static func previousImports(
    _ history: [FoldEvent],
    state: JournalState
  ) -> (fingerprints: [String: String], unit: WeightUnit?) {
    var fingerprints: [String: String] = [:]
    var unit: WeightUnit?
    for e in history {
      guard case .workoutImported(let imported) = e.event,
        let workout = state.workouts[e.streamID], workout.deletedAt == nil
      else { continue }
      fingerprints[e.streamID] = imported.fingerprint
      unit = imported.unit
    }
    return (fingerprints, unit)
  }

  /// The id of an imported workout: a ULID whose time is the workout's start as its local
  /// wall-clock reading and whose random part is a digest of its source, that reading and
  /// its title, so the same workout gets the same id in every import, in any time zone.
  static func workoutID(
    source: HistorySource,
    start: ExportValues.LocalTime,
    title: String
  ) -> String {
    let milliseconds = max(0, ExportValues.wallClockMilliseconds(start))
    let digest = SHA256.hash(Array("\(source.rawValue)\u{0}\(milliseconds)\u{0}\(title)".utf8))
    let bytes = Array(digest.description.utf8)
    // The digest's hex text, read back as 80 bits.
    func bits(_ range: Range<Int>) -> UInt64 {
      UInt64(String(decoding: bytes[range], as: UTF8.self), radix: 16) ?? 0
    }
    return ULID(
      milliseconds: UInt64(milliseconds),
      randomHigh: UInt16(bits(0..<4)),
      randomLow: bits(4..<20)
    ).description
  }

  /// A digest of what the file says of a workout, whatever its layout or line ends: a
  /// different one for the same id means the workout was edited in the tracker.
  static func fingerprint(_ workout: ExportedWorkout) -> String {
    var text = "\(workout.title)\u{1}\(workout.start?.milliseconds ?? 0)\u{1}"
    text += "\(workout.end?.milliseconds ?? 0)\u{1}\(workout.notes.joined(separator: "\n"))"
    func number(_ value: Double?) -> String { value.map { WeightUnit.number($0) } ?? "" }
    for exercise in workout.exercises {
      text += "\u{2}\(exercise.name)\u{1}\(exercise.notes.joined(separator: "\n"))"
      text += "\u{1}\(exercise.superset ?? "")"
      for set in exercise.sets {
        let fields = [
          set.kind.rawValue, set.reps.map(String.init) ?? "", number(set.weight),
          set.weightUnit?.rawValue ?? "", set.seconds.map(String.init) ?? "",
          number(set.distance), set.distanceUnit ?? "", number(set.rpe), set.notes ?? "",
          set.restSeconds.map(String.init) ?? "",
        ]
        text += "\u{3}" + fields.joined(separator: "\u{1}")
      }
    }
    return SHA256.hash(Array(text.utf8)).description
  }

  /// A split per distinct workout title with no live split of that name, its exercises those
  /// of the latest workout of that name, in their order; and the split id of every title.
  static func splits(
    for plans: [WorkoutPlan],
    state: JournalState,
    now: Date,
    newID: () -> String
  ) -> ([ImportedEvent], [String: String], [String]) {
    var ids: [String: String] = [:]
    for split in state.liveSplits { ids[split.document.name.lowercased()] = split.document.id }
    var latest: [String: WorkoutPlan] = [:]
    var order: [String] = []
    for plan in plans {
      let key = plan.title.lowercased()
      if latest[key] == nil { order.append(key) }
      if latest[key].map({ $0.start <= plan.start }) ?? true { latest[key] = plan }
    }
    var events: [ImportedEvent] = []
    var created: [String] = []
    for key in order where ids[key] == nil {
      guard let plan = latest[key] else { continue }
      let id = newID()
      ids[key] = id
      created.append(plan.title)
      let stream = "split:\(id)"
      let name = plan.title.isEmpty ? "Workout" : plan.title
      events.append(
        ImportedEvent(
          id: newID(),
          stream: stream,
          event: .splitCreated(SplitCreated(settings: SplitSettings(name: name))),
          at: now
        )
      )
      for (index, log) in plan.logs.enumerated() {
        events.append(
          ImportedEvent(
            id: newID(),
            stream: stream,
            event: .exerciseAdded(
              ExerciseAdded(exerciseID: newID(), plan: log.plan, order: index)
            ),
            at: now
          )
        )
      }
    }
    return (events, ids, created)
  }
}

/// One workout ready to become events: its logs with their plans and the sets' actuals.
struct WorkoutPlan: Sendable {
  struct Log: Sendable {
    var plan: ExercisePlan
    var notes: String?
    var superset: String?
    var sets: [(actuals: SetActuals, set: ExportedSet, fileWeight: Double?, seconds: Int?)]
  }

  var id = ""
  var fingerprint = ""
  var title: String
  var start: Date
  var end: Date
  var notes: String?
  var firstLine: Int
  var lastLine: Int
  var logs: [Log]

  /// The most sets one imported workout may have: its `workout.imported` then stays far
  /// within a record's 1 MiB.
  static let maximumSets = 1000

  /// The plan of `workout`, its weights in `unit`; a refusal naming the line when a value
  /// is beyond what the journal takes.
  static func make(
    _ workout: ExportedWorkout,
    start: Date,
    end: Date,
    now: Date,
    unit: WeightUnit,
    fileUnit: WeightUnit?
  ) -> Result<WorkoutPlan, RefusedRow> {
    guard start.timeIntervalSince1970 >= 0 else {
      return .failure(RefusedRow(line: workout.firstLine, reason: "a date before 1970"))
    }
    guard start <= now.addingTimeInterval(86_400) else {
      return .failure(
        RefusedRow(line: workout.firstLine, reason: "a date after today: '\(workout.startText)'")
      )
    }
    let setCount = workout.exercises.reduce(0) { $0 + $1.sets.count }
    guard setCount <= maximumSets else {
      return .failure(
        RefusedRow(
          line: workout.firstLine,
          reason: "\(setCount) sets in one workout; the journal takes at most \(maximumSets)"
        )
      )
    }
    var logs: [Log] = []
    var notes = workout.notes
    for exercise in workout.exercises {
      guard !exercise.sets.isEmpty else {
        // An exercise with notes and no set: its notes are the workout's.
        notes += exercise.notes.map { "\(exercise.name): \($0)" }
        continue
      }
      guard Limits.sets.contains(exercise.sets.count) else {
        return .failure(
          RefusedRow(
            line: exercise.line,
            reason: "'\(exercise.name)' has \(exercise.sets.count) sets in a row; a log holds "
              + "at most \(Limits.sets.upperBound)"
          )
        )
      }
      let hasReps = exercise.sets.contains { ($0.reps ?? 0) > 0 }
      let hasWeight = exercise.sets.contains { ($0.weight ?? 0) > 0 }
      let hasSeconds = exercise.sets.contains { ($0.seconds ?? 0) > 0 }
      let loadType: LoadType =
        hasWeight ? .weight : hasReps ? .none : hasSeconds ? .duration : .none
      var sets: [(actuals: SetActuals, set: ExportedSet, fileWeight: Double?, seconds: Int?)] =
        []
      for set in exercise.sets {
        var weight: Double?
        var fileWeight: Double?
        if let raw = set.weight {
          let from = set.weightUnit ?? fileUnit ?? unit
          weight = convert(raw, from: from, to: unit)
          if from != unit { fileWeight = raw }
          guard let converted = weight, Limits.weight.contains(converted) else {
            return .failure(
              RefusedRow(
                line: set.line,
                reason: "weight \(WeightUnit.number(raw)) is beyond "
                  + "\(WeightUnit.number(Limits.weight.upperBound)) \(unit.rawValue)"
              )
            )
          }
        }
        let actuals: SetActuals
        var keptSeconds: Int?
        switch loadType {
        case .weight:
          actuals = SetActuals(reps: set.reps ?? 0, weight: weight ?? 0)
          keptSeconds = set.seconds.flatMap { $0 > 0 ? $0 : nil }
        case .none:
          actuals = SetActuals(reps: set.reps ?? 0)
          keptSeconds = set.seconds.flatMap { $0 > 0 ? $0 : nil }
        case .duration:
          actuals = SetActuals(seconds: set.seconds ?? 0)
        }
        sets.append((actuals, set, fileWeight, keptSeconds))
      }
      // The plan: the first working set, as many times as sets were done.
      let first = sets.first { $0.set.kind != .warmUp } ?? sets[0]
      let plan = ExercisePlan(
        name: exercise.name,
        sets: sets.count,
        reps: first.actuals.reps ?? 0,
        weight: first.actuals.weight ?? 0,
        loadType: loadType,
        durationSeconds: first.actuals.seconds ?? 0
      )
      logs.append(
        Log(
          plan: plan,
          notes: exercise.notes.isEmpty ? nil : exercise.notes.joined(separator: "\n"),
          superset: exercise.superset,
          sets: sets
        )
      )
    }
    return .success(
      WorkoutPlan(
        title: workout.title,
        start: start,
        end: end,
        notes: notes.isEmpty ? nil : notes.joined(separator: "\n"),
        firstLine: workout.firstLine,
        lastLine: workout.lastLine,
        logs: logs
      )
    )
  }

  /// `weight` in `to`: unchanged but for float noise (to 0.0001) in the same unit, else
  /// converted and rounded to 0.01.
  static func convert(_ weight: Double, from: WeightUnit, to: WeightUnit) -> Double {
    switch (from, to) {
    case (.kg, .kg), (.lb, .lb): (weight * 10_000).rounded() / 10_000
    case (.lb, .kg): (weight * HistoryImporter.kilogramsPerPound * 100).rounded() / 100
    case (.kg, .lb): (weight / HistoryImporter.kilogramsPerPound * 100).rounded() / 100
    }
  }

  /// The workout's events, in the order they are appended.
  func events(
    source: HistorySource,
    file: String,
    timeZone: TimeZone,
    unit: WeightUnit,
    fileUnit: WeightUnit?,
    splitID: String?,
    newID: () -> String
  ) -> [ImportedEvent] {
    let stream = "workout:\(id)"
    let logIDs = logs.map { _ in newID() }
    let started = WorkoutStarted(
      splitID: splitID,
      splitName: title,
      timeZone: timeZone.identifier,
      logs: zip(logIDs, logs).enumerated().map { order, pair in
        LogPlan(logID: pair.0, order: order, plan: pair.1.plan, notes: pair.1.notes)
      }
    )
    var events = [
      ImportedEvent(id: newID(), stream: stream, event: .workoutStarted(started), at: start)
    ]
    var sets: [ImportedEvent] = []
    var imported: [ImportedSet] = []
    for (logID, log) in zip(logIDs, logs) {
      for entry in log.sets {
        let id = newID()
        sets.append(
          ImportedEvent(
            id: id,
            stream: stream,
            event: .setCompleted(SetCompleted(logID: logID, actuals: entry.actuals)),
            at: start
          )
        )
        var set = ImportedSet(
          setEventID: id,
          line: entry.set.line,
          kind: entry.set.kind,
          order: entry.set.order
        )
        set.rpe = entry.set.rpe
        set.distance = entry.set.distance
        set.distanceUnit = entry.set.distanceUnit
        set.seconds = entry.seconds
        set.fileWeight = entry.fileWeight
        set.notes = entry.set.notes
        set.restSeconds = entry.set.restSeconds
        set.superset = log.superset
        imported.append(set)
      }
    }
    let provenance = WorkoutImported(
      source: source,
      file: file,
      firstLine: firstLine,
      lastLine: lastLine,
      fingerprint: fingerprint,
      unit: unit,
      fileUnit: fileUnit,
      notes: notes,
      sets: imported
    )
    events.append(
      ImportedEvent(id: newID(), stream: stream, event: .workoutImported(provenance), at: start)
    )
    events += sets
    for logID in logIDs {
      events.append(
        ImportedEvent(id: newID(), stream: stream, event: .logCompleted(logID: logID), at: end)
      )
    }
    return events
  }
}
