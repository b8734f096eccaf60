import Foundation

/// What a person asks the journal to do.
///
/// A command is validated against the folded state and turns into events only when it is valid.
///
/// References (`split`, `exercise`, `workout`) are what the person typed: a
/// name (case-insensitive) or an id prefix. A nil workout means the open one;
/// a nil exercise in a workout means the next one.
public enum JournalCommand: Sendable, Hashable {
  case createSplit(SplitSettings, exercises: [ExercisePlan] = [], isStarter: Bool = false)
  /// The starter splits not yet created (`missingStarterSplits`), as one action;
  /// nothing when every one exists or was deleted.
  case addStarterSplits
  case updateSplit(split: String, SplitUpdated)
  case moveSplit(split: String, position: Int)
  case deleteSplit(split: String)

  case addExercise(split: String, ExercisePlan, position: Int? = nil)
  case updateExercise(split: String, exercise: String, ExerciseUpdated)
  case removeExercise(split: String, exercise: String)
  case moveExercise(split: String, exercise: String, position: Int)
  case duplicateExercise(split: String, exercise: String)

  case startWorkout(split: String, timeZone: String)
  case startLog(workout: String?, exercise: String?)
  /// `done`: records the next set; with `keepOpen` false the last planned set
  /// also completes the log. `startedAt`, when known, is when work on the set began: not after
  /// the action's time, not before the workout's start.
  case completeSet(
    workout: String?,
    exercise: String?,
    SetActuals,
    keepOpen: Bool = false,
    startedAt: Date? = nil
  )
  /// `adjust`: corrects set `set` (1-based; nil: the last one) of a log.
  case adjustSet(workout: String?, exercise: String?, set: Int?, SetActuals)
  /// `more`: One More.
  case addSet(workout: String?, exercise: String?)
  case completeLog(workout: String?, exercise: String?)
  case skipLog(workout: String?, exercise: String?)
  case resetLog(workout: String?, exercise: String?)
  case editPlan(workout: String?, exercise: String?, PlanEdited)
  case addLog(workout: String?, ExercisePlan, notes: String? = nil)
  case removeLog(workout: String?, exercise: String)
  case endWorkout(workout: String?)
  case recordMetrics(workout: String?, MetricsRecorded)
  case deleteWorkout(workout: String)
}

/// An event a valid command produces, before it has an id and a clock.
struct PendingEvent: Sendable, Hashable {
  var stream: String
  var event: JournalEvent
}

/// The bounds a value must respect to be believable.
enum Limits {
  static let sets = 1...100
  static let reps = 0...1000
  static let weight = 0.0...5000.0
  static let seconds = 0...86_400
  static let restSeconds = 0...3600
  static let heartRate = 20...250
  static let nameLength = 1...200
  /// How far past "now" an `--at` time may be, for clocks slightly ahead.
  static let futureSlack: TimeInterval = 300
}
