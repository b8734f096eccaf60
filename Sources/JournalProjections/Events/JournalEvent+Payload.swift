import Foundation
import JournalCore

// MARK: - Decoding

extension JournalEvent {
  /// Decodes a payload at the current version of `type`.
  ///
  /// - Throws: ``PayloadError`` for an unknown type or a malformed payload.
  init(type: String, payload: JSONValue) throws(PayloadError) {
    try self.init(type: type, payload: JSONPayload(payload))
  }

  /// Decodes a payload at the current version of `type` from the form the store keeps it in
  /// (the checked bytes of an event read from a log).
  ///
  /// - Throws: ``PayloadError`` for an unknown type or a malformed payload.
  init(type: String, payload: JSONPayload) throws(PayloadError) {
    try self.init(type: type, reader: PayloadReader(payload, type: type))
  }

  init(type: String, reader p: PayloadReader) throws(PayloadError) {
    typealias T = TypeName
    // A switch over strings compares them in turn: the types most journals are made of
    // come first.
    switch type {
    case T.setCompleted:
      let cursorOnly = try p.optionalBool("cursorOnly") ?? false
      // `start` is always written at version 3: null says the start is not known.
      guard p.has("start") else {
        throw PayloadError(type: type, message: "field 'start' must be present (null if unknown)")
      }
      self = .setCompleted(
        SetCompleted(
          logID: try p.string("logID"),
          actuals: cursorOnly ? nil : try SetActuals(p),
          startedAt: try p.optionalInt64("start").map(Date.init(milliseconds:))
        )
      )
    case T.logStarted:
      self = .logStarted(logID: try p.string("logID"))
    case T.logCompleted:
      self = .logCompleted(logID: try p.string("logID"))
    case T.eventsReverted:
      self = .eventsReverted(
        EventsReverted(eventIDs: try p.strings("events"), reason: try p.string("reason"))
      )
    case T.splitCreated:
      let settings = SplitSettings(
        name: try p.string("name"),
        color: try p.string("color"),
        systemImage: try p.string("systemImage"),
        activityType: try p.optionalInt("activityType"),
        restSeconds: try p.optionalInt("restSeconds"),
        autoAdvance: try p.optionalBool("autoAdvance"),
        targetHeartRate: try p.optionalInt("targetHeartRate")
      )
      self = .splitCreated(
        SplitCreated(
          settings: settings,
          order: try p.optionalInt("order"),
          isStarter: try p.optionalBool("starter") ?? false
        )
      )
    case T.splitUpdated:
      var update = SplitUpdated()
      update.name = try p.change("name", p.optionalString)
      update.color = try p.change("color", p.optionalString)
      update.systemImage = try p.change("systemImage", p.optionalString)
      update.activityType = try p.change("activityType", p.optionalInt)
      update.restSeconds = try p.change("restSeconds", p.optionalInt)
      update.autoAdvance = try p.change("autoAdvance", p.optionalBool)
      update.targetHeartRate = try p.change("targetHeartRate", p.optionalInt)
      self = .splitUpdated(update)
    case T.splitsReordered:
      self = .splitsReordered(SplitsReordered(splitIDs: try p.strings("splitIDs")))
    case T.splitDeleted:
      self = .splitDeleted
    case T.exerciseAdded:
      self = .exerciseAdded(
        ExerciseAdded(
          exerciseID: try p.string("exerciseID"),
          plan: try ExercisePlan(p),
          order: try p.optionalInt("order")
        )
      )
    case T.exerciseUpdated:
      var update = ExerciseUpdated(exerciseID: try p.string("exerciseID"))
      update.name = try p.change("name", p.optionalString)
      update.sets = try p.change("sets", p.optionalInt)
      update.reps = try p.change("reps", p.optionalInt)
      update.weight = try p.change("weight", p.optionalWeight)
      update.loadType = try p.change("loadType") { key throws(PayloadError) in try p.loadType(key) }
      update.durationSeconds = try p.change("durationSeconds", p.optionalInt)
      update.machineSettings = try p.change("machineSettings", p.optionalMachineSettings)
      update.libraryName = try p.change("libraryName", p.optionalString)
      self = .exerciseUpdated(update)
    case T.exerciseRemoved:
      self = .exerciseRemoved(ExerciseRemoved(exerciseID: try p.string("exerciseID")))
    case T.exerciseMoved:
      self = .exerciseMoved(
        ExerciseMoved(exerciseID: try p.string("exerciseID"), position: try p.int("position"))
      )
    case T.exerciseDuplicated:
      self = .exerciseDuplicated(
        ExerciseDuplicated(exerciseID: try p.string("exerciseID"), copyID: try p.string("copyID"))
      )
    case T.workoutStarted:
      var logs: [LogPlan] = []
      for log in try p.objects("logs") { logs.append(try LogPlan(log)) }
      self = .workoutStarted(
        WorkoutStarted(
          splitID: try p.optionalString("splitID"),
          splitName: try p.optionalString("splitName"),
          timeZone: try p.string("timeZone"),
          restSeconds: try p.optionalInt("restSeconds"),
          autoAdvance: try p.optionalBool("autoAdvance"),
          targetHeartRate: try p.optionalInt("targetHeartRate"),
          logs: logs
        )
      )
    case T.logAdded:
      self = .logAdded(try LogPlan(p))
    case T.logRemoved:
      self = .logRemoved(logID: try p.string("logID"))
    case T.planEdited:
      var edit = PlanEdited(logID: try p.string("logID"))
      edit.sets = try p.change("sets", p.optionalInt)
      edit.reps = try p.change("reps", p.optionalInt)
      edit.weight = try p.change("weight", p.optionalWeight)
      edit.durationSeconds = try p.change("durationSeconds", p.optionalInt)
      edit.notes = try p.change("notes", p.optionalString)
      edit.machineSettings = try p.change("machineSettings", p.optionalMachineSettings)
      self = .planEdited(edit)
    case T.setAdjusted:
      self = .setAdjusted(
        SetAdjusted(
          logID: try p.string("logID"),
          setEventID: try p.string("set"),
          actuals: try SetActuals(p)
        )
      )
    case T.setAdded:
      self = .setAdded(logID: try p.string("logID"))
    case T.logSkipped:
      self = .logSkipped(logID: try p.string("logID"))
    case T.logReset:
      self = .logReset(logID: try p.string("logID"))
    case T.workoutEnded:
      self = .workoutEnded
    case T.metricsRecorded:
      guard let source = MetricSource(rawValue: try p.string("source")) else {
        throw PayloadError(type: type, message: "field 'source' must be 'watch' or 'phoneEstimate'")
      }
      self = .metricsRecorded(
        MetricsRecorded(
          activeEnergyKcal: try p.optionalDouble("activeEnergyKcal"),
          avgHeartRate: try p.optionalDouble("avgHeartRate"),
          maxHeartRate: try p.optionalDouble("maxHeartRate"),
          minHeartRate: try p.optionalDouble("minHeartRate"),
          hrZoneSeconds: try p.optionalDoubles("hrZoneSeconds"),
          healthKitWorkoutUUID: try p.optionalString("healthKitWorkoutUUID"),
          source: source,
          totalVolume: try p.optionalDouble("totalVolume")
        )
      )
    case T.workoutDeleted:
      self = .workoutDeleted
    case T.workoutImported:
      self = .workoutImported(try WorkoutImported(p))
    default:
      throw PayloadError(type: type, message: "unknown event type")
    }
  }
}

extension LogPlan {
  init(_ p: PayloadReader) throws(PayloadError) {
    logID = try p.string("logID")
    order = try p.int("order")
    plan = try ExercisePlan(p)
    notes = try p.optionalString("notes")
  }

  func write(to writer: inout PayloadWriter) {
    writer.set("logID", logID)
    writer.set("order", order)
    plan.write(to: &writer)
    writer.set("notes", notes)
  }
}

extension SetActuals {
  init(_ p: PayloadReader) throws(PayloadError) {
    reps = try p.optionalInt("reps")
    weight = try p.optionalWeight("weight")
    seconds = try p.optionalInt("seconds")
  }

  func write(to writer: inout PayloadWriter) {
    writer.set("reps", reps)
    writer.set("weight", weight)
    writer.set("seconds", seconds)
  }
}

// MARK: - Encoding

extension JournalEvent {
  /// The payload written for this event at the current version.
  package var payload: JSONValue {
    var w = PayloadWriter()
    switch self {
    case .splitCreated(let created):
      let s = created.settings
      w.set("name", s.name)
      w.set("color", s.color)
      w.set("systemImage", s.systemImage)
      w.set("activityType", s.activityType)
      w.set("restSeconds", s.restSeconds)
      w.set("autoAdvance", s.autoAdvance)
      w.set("targetHeartRate", s.targetHeartRate)
      w.set("order", created.order)
      if created.isStarter { w.set("starter", true) }
    case .splitUpdated(let u):
      w.set("name", u.name, JSONValue.string)
      w.set("color", u.color, JSONValue.string)
      w.set("systemImage", u.systemImage, JSONValue.string)
      w.set("activityType", u.activityType) { .int(Int64($0)) }
      w.set("restSeconds", u.restSeconds) { .int(Int64($0)) }
      w.set("autoAdvance", u.autoAdvance, JSONValue.bool)
      w.set("targetHeartRate", u.targetHeartRate) { .int(Int64($0)) }
    case .splitsReordered(let reordered):
      w.set("splitIDs", reordered.splitIDs)
    case .splitDeleted, .workoutEnded, .workoutDeleted:
      break
    case .exerciseAdded(let added):
      w.set("exerciseID", added.exerciseID)
      added.plan.write(to: &w)
      w.set("order", added.order)
    case .exerciseUpdated(let u):
      w.set("exerciseID", u.exerciseID)
      w.set("name", u.name, JSONValue.string)
      w.set("sets", u.sets) { .int(Int64($0)) }
      w.set("reps", u.reps) { .int(Int64($0)) }
      w.set("weight", u.weight) { JSONValue(number: $0) }
      w.set("loadType", u.loadType) { .int(Int64($0.rawValue)) }
      w.set("durationSeconds", u.durationSeconds) { .int(Int64($0)) }
      w.set("machineSettings", u.machineSettings) { JSONValue(machineSettings: $0) }
      w.set("libraryName", u.libraryName, JSONValue.string)
    case .exerciseRemoved(let removed):
      w.set("exerciseID", removed.exerciseID)
    case .exerciseMoved(let moved):
      w.set("exerciseID", moved.exerciseID)
      w.set("position", moved.position)
    case .exerciseDuplicated(let duplicated):
      w.set("exerciseID", duplicated.exerciseID)
      w.set("copyID", duplicated.copyID)
    case .workoutStarted(let started):
      w.set("splitID", started.splitID)
      w.set("splitName", started.splitName)
      w.set("timeZone", started.timeZone)
      w.set("restSeconds", started.restSeconds)
      w.set("autoAdvance", started.autoAdvance)
      w.set("targetHeartRate", started.targetHeartRate)
      let logs = started.logs.map { log -> JSONValue in
        var inner = PayloadWriter()
        log.write(to: &inner)
        return inner.value
      }
      w.set("logs", JSONValue.array(logs))
    case .logAdded(let plan):
      plan.write(to: &w)
    case .logRemoved(let id), .logStarted(let id), .setAdded(let id), .logCompleted(let id),
      .logSkipped(let id), .logReset(let id):
      w.set("logID", id)
    case .planEdited(let e):
      w.set("logID", e.logID)
      w.set("sets", e.sets) { .int(Int64($0)) }
      w.set("reps", e.reps) { .int(Int64($0)) }
      w.set("weight", e.weight) { JSONValue(number: $0) }
      w.set("durationSeconds", e.durationSeconds) { .int(Int64($0)) }
      w.set("notes", e.notes, JSONValue.string)
      w.set("machineSettings", e.machineSettings) { JSONValue(machineSettings: $0) }
    case .setCompleted(let set):
      w.set("logID", set.logID)
      if let actuals = set.actuals { actuals.write(to: &w) } else { w.set("cursorOnly", true) }
      w.set("start", set.startedAt.map { JSONValue.int($0.milliseconds) } ?? .null)
    case .setAdjusted(let adjustment):
      w.set("logID", adjustment.logID)
      w.set("set", adjustment.setEventID)
      adjustment.actuals.write(to: &w)
    case .metricsRecorded(let m):
      w.set("activeEnergyKcal", m.activeEnergyKcal)
      w.set("avgHeartRate", m.avgHeartRate)
      w.set("maxHeartRate", m.maxHeartRate)
      w.set("minHeartRate", m.minHeartRate)
      w.set("hrZoneSeconds", m.hrZoneSeconds)
      w.set("healthKitWorkoutUUID", m.healthKitWorkoutUUID)
      w.set("source", m.source.rawValue)
      w.set("totalVolume", m.totalVolume)
    case .workoutImported(let imported):
      imported.write(to: &w)
    case .eventsReverted(let reverted):
      w.set("events", reverted.eventIDs)
      w.set("reason", reverted.reason)
    }
    return w.value
  }
}
