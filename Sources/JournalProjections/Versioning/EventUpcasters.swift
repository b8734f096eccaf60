import JournalCore

/// The one registry of upgrade steps for stored events.
///
/// Shipped steps are frozen: a fix is a new step and a new version, never an edit. Each step has
/// input and expected-output vectors in `Tests/JournalProjectionsTests/Vectors/`.
///
/// The history mirrors the app's documents:
/// - `exercise.added` / `exercise.updated` v1 carried `category` and the
///   weight-reminder fields (removed in split schema v2); v2 carried whole
///   weights (`Int`), which became `Double` in split schema v3.
/// - `split.created` v1 embedded its exercises (v1-shaped); v2 announces each
///   as its own `exercise.added`.
/// - `workout.started` v1 logs carried the derived `completed` flag (removed in
///   workout schema v3); v2 logs carried whole weights (Double since v4).
/// - `log.completed` / `log.reset` v1 carried the `completed` flag too.
/// - `set.completed` v1 moved only the progress cursor (`index`), as logs did
///   before `SetEntry`: v2 marks it `cursorOnly`, and the fold fills the set
///   from the plan, marked as not actually recorded.
/// - `set.completed` v2 did not say when work on the set began: v3 always carries `start`
///   (milliseconds, or null when unknown), and every older set reads as null: its start is not
///   known, and no read invents one (``WorkoutTiming``).
package enum EventUpcasters {
  /// Every step, in one list.
  static let steps: [UpcastStep] = [
    UpcastStep(
      type: JournalEvent.TypeName.splitCreated,
      from: 1,
      summary: "embedded exercises become exercise.added events"
    ) { payload in
      guard case .object(var split) = payload else {
        return [(JournalEvent.TypeName.splitCreated, payload)]
      }
      let exercises = split.removeValue(forKey: "exercises")?.arrayValue ?? []
      var events = [(type: JournalEvent.TypeName.splitCreated, payload: JSONValue.object(split))]
      // The exercises happened with the split: they keep its time and action.
      let metadata = split.filter {
        $0.key == PayloadMetadata.at || $0.key == PayloadMetadata.action
      }
      for exercise in exercises {
        guard case .object(var added) = dropSplitV1Fields(exercise) else { continue }
        added.merge(metadata) { _, split in split }
        events.append((JournalEvent.TypeName.exerciseAdded, .object(added)))
      }
      return events
    },
    UpcastStep(
      type: JournalEvent.TypeName.exerciseAdded,
      from: 1,
      summary: "drop category and weight reminders (split schema v2)"
    ) { [(JournalEvent.TypeName.exerciseAdded, dropSplitV1Fields($0))] },
    UpcastStep(
      type: JournalEvent.TypeName.exerciseAdded,
      from: 2,
      summary: "whole weights become doubles (split schema v3)"
    ) { [(JournalEvent.TypeName.exerciseAdded, doubleWeight($0))] },
    UpcastStep(
      type: JournalEvent.TypeName.exerciseUpdated,
      from: 1,
      summary: "drop category and weight reminders (split schema v2)"
    ) { [(JournalEvent.TypeName.exerciseUpdated, dropSplitV1Fields($0))] },
    UpcastStep(
      type: JournalEvent.TypeName.exerciseUpdated,
      from: 2,
      summary: "whole weights become doubles (split schema v3)"
    ) { [(JournalEvent.TypeName.exerciseUpdated, doubleWeight($0))] },
    UpcastStep(
      type: JournalEvent.TypeName.workoutStarted,
      from: 1,
      summary: "drop the derived per-log completed flag (workout schema v3)"
    ) { payload in
      [(JournalEvent.TypeName.workoutStarted, mapLogs(payload) { removing("completed", from: $0) })]
    },
    UpcastStep(
      type: JournalEvent.TypeName.workoutStarted,
      from: 2,
      summary: "whole log weights become doubles (workout schema v4)"
    ) { payload in
      [(JournalEvent.TypeName.workoutStarted, mapLogs(payload, doubleWeight))]
    },
    UpcastStep(
      type: JournalEvent.TypeName.logCompleted,
      from: 1,
      summary: "drop the derived completed flag (workout schema v3)"
    ) { [(JournalEvent.TypeName.logCompleted, removing("completed", from: $0))] },
    UpcastStep(
      type: JournalEvent.TypeName.logReset,
      from: 1,
      summary: "drop the derived completed flag (workout schema v3)"
    ) { [(JournalEvent.TypeName.logReset, removing("completed", from: $0))] },
    UpcastStep(
      type: JournalEvent.TypeName.setCompleted,
      from: 1,
      summary: "a progress-cursor move without actuals becomes a cursor-only set"
    ) { payload in
      guard case .object(var set) = payload else {
        return [(JournalEvent.TypeName.setCompleted, payload)]
      }
      set["index"] = nil
      set["cursorOnly"] = .bool(true)
      return [(JournalEvent.TypeName.setCompleted, .object(set))]
    },
    UpcastStep(
      type: JournalEvent.TypeName.setCompleted,
      from: 2,
      summary: "every set states its start; sets recorded before version 3 have none (null)"
    ) { payload in
      guard case .object(var set) = payload else {
        return [(JournalEvent.TypeName.setCompleted, payload)]
      }
      if set["start"] == nil { set["start"] = .null }
      return [(JournalEvent.TypeName.setCompleted, .object(set))]
    },
  ]

  /// The validated registry for the current catalogue.
  static func makeUpcaster() throws(RegistryError) -> Upcaster {
    try Upcaster(steps: steps, currentVersions: JournalEvent.currentVersions)
  }

  // MARK: - Helpers (frozen with the steps that use them)

  static func removing(_ keys: String..., from payload: JSONValue) -> JSONValue {
    guard case .object(var object) = payload else { return payload }
    for key in keys { object[key] = nil }
    return .object(object)
  }

  static func dropSplitV1Fields(_ payload: JSONValue) -> JSONValue {
    removing("category", "weightReminder", "weightReminderWeeks", from: payload)
  }

  static func doubleWeight(_ payload: JSONValue) -> JSONValue {
    guard case .object(var object) = payload, let weight = object["weight"]?.doubleValue else {
      return payload
    }
    object["weight"] = .double(weight)
    return .object(object)
  }

  static func mapLogs(_ payload: JSONValue, _ transform: (JSONValue) -> JSONValue) -> JSONValue {
    guard case .object(var object) = payload, let logs = object["logs"]?.arrayValue else {
      return payload
    }
    object["logs"] = .array(logs.map(transform))
    return .object(object)
  }
}
