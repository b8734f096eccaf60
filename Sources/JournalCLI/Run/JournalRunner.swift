import Foundation
import JournalProjections

/// The run flow's way into a ``Journal``: the same `execute` and `undo` the typed commands
/// use (`journal done`, `journal undo -w`), scoped to one workout and one device.
struct JournalRunner: RunJournal {
  let journal: Journal
  let device: String
  let workoutID: String
  /// Whether the records' clock is fixed (`$WORKOUT_NOW`): each action then carries its own
  /// time as its `at`, as a back-dated command does; else the record's time is the action's.
  let stampsActionTimes: Bool

  func execute(_ command: JournalCommand, at now: Date) throws -> WorkoutState {
    try journal.execute(command, device: device, at: stampsActionTimes ? now : nil, now: now)
    return try workout()
  }

  func undo(at now: Date) throws -> WorkoutState {
    try journal.undo(device: device, workout: workoutID, now: now)
    return try workout()
  }

  /// The workout as the journal folds it now.
  func workout() throws -> WorkoutState {
    guard let workout = journal.state().workouts[workoutID], workout.deletedAt == nil else {
      throw CommandError("workout \(workoutID) can no longer be read")
    }
    return workout
  }
}
