import Foundation
import JournalProjections
import JournalTestSupport
import Testing

/// One command that must be refused, the words the refusal must contain, and
/// optionally a time to back-date it to (seconds relative to the harness clock).
struct RejectCase: Sendable, CustomTestStringConvertible {
  let id: String
  let command: JournalCommand
  let expected: String
  var atOffset: TimeInterval?
  var testDescription: String { id }

  init(_ id: String, _ command: JournalCommand, _ expected: String, at offset: TimeInterval? = nil)
  {
    self.id = id
    self.command = command
    self.expected = expected
    self.atOffset = offset
  }
}

private let bench = ExercisePlan(
  name: "Bench Press",
  sets: 3,
  reps: 5,
  weight: 100,
  loadType: .weight
)

private func split(_ name: String, _ plans: [ExercisePlan] = [bench]) -> JournalCommand {
  .createSplit(SplitSettings(name: name), exercises: plans)
}

private func plan(
  sets: Int = 3,
  reps: Int = 5,
  weight: Double = 50,
  load: LoadType = .weight,
  seconds: Int = 0
)
  -> ExercisePlan
{
  ExercisePlan(
    name: "Row",
    sets: sets,
    reps: reps,
    weight: weight,
    loadType: load,
    durationSeconds: seconds
  )
}

private func update(_ body: (inout SplitUpdated) -> Void) -> SplitUpdated {
  var update = SplitUpdated()
  body(&update)
  return update
}

private func done(_ exercise: String?, _ actuals: SetActuals = SetActuals()) -> JournalCommand {
  .completeSet(workout: nil, exercise: exercise, actuals)
}

let rejectCases: [RejectCase] = [
  // Splits
  RejectCase("empty split name", split(""), "split name is empty"),
  RejectCase("blank split name", split("   "), "split name is empty"),
  RejectCase("duplicate split name", split("upper body"), "exists already"),
  RejectCase("over-long split name", split(String(repeating: "x", count: 201)), "longer than 200"),
  RejectCase("control character in name", split("Leg\u{7}s"), "control characters"),
  RejectCase(
    "unknown activity type",
    .createSplit(SplitSettings(name: "Run", activityType: 9)),
    "unknown activity type 9"
  ),
  RejectCase(
    "negative rest",
    .createSplit(SplitSettings(name: "Run", restSeconds: -1)),
    "rest of -1"
  ),
  RejectCase(
    "absurd heart-rate target",
    .createSplit(SplitSettings(name: "Run", targetHeartRate: 400)),
    "target heart rate 400"
  ),
  RejectCase("zero sets", split("New", [plan(sets: 0)]), "0 sets is outside"),
  RejectCase("negative planned reps", split("New", [plan(reps: -1)]), "-1 reps is outside"),
  RejectCase("NaN planned weight", split("New", [plan(weight: .nan)]), "not a number"),
  RejectCase("infinite planned weight", split("New", [plan(weight: .infinity)]), "not a number"),
  RejectCase("negative planned weight", split("New", [plan(weight: -5)]), "weight -5 is outside"),
  RejectCase(
    "timed exercise without seconds",
    split("New", [plan(load: .duration)]),
    "needs its duration"
  ),
  RejectCase(
    "unknown split",
    .updateSplit(split: "Legs", update { $0.color = .set("red") }),
    "unknown split 'Legs'"
  ),
  RejectCase(
    "ambiguous split prefix",
    .updateSplit(split: "Lower", update { $0.color = .set("red") }),
    "ambiguous"
  ),
  RejectCase(
    "nothing to change",
    .updateSplit(split: "Upper Body", SplitUpdated()),
    "nothing to change"
  ),
  RejectCase(
    "rename onto another split",
    .updateSplit(split: "Upper Body", update { $0.name = .set("Lower Back") }),
    "exists already"
  ),
  RejectCase(
    "split position 0",
    .moveSplit(split: "Upper Body", position: 0),
    "position 0 is outside"
  ),
  RejectCase(
    "split position past the end",
    .moveSplit(split: "Upper Body", position: 9),
    "position 9 is outside"
  ),
  RejectCase("delete an unknown split", .deleteSplit(split: "Arms"), "unknown split 'Arms'"),
  // Exercises
  RejectCase("exercise into unknown split", .addExercise(split: "Arms", bench), "unknown split"),
  RejectCase(
    "exercise position past the end",
    .addExercise(split: "Upper Body", bench, position: 20),
    "position 20"
  ),
  RejectCase(
    "update an unknown exercise",
    .updateExercise(split: "Upper Body", exercise: "Squat", ExerciseUpdated(exerciseID: "")),
    "unknown exercise 'Squat'"
  ),
  RejectCase(
    "absurd planned sets",
    .updateExercise(
      split: "Upper Body",
      exercise: "Bench Press",
      {
        var u = ExerciseUpdated(exerciseID: "")
        u.sets = .set(500)
        return u
      }()
    ),
    "500 sets is outside"
  ),
  RejectCase(
    "remove an unknown exercise",
    .removeExercise(split: "Upper Body", exercise: "Squat"),
    "unknown exercise"
  ),
  RejectCase(
    "exercise position 0",
    .moveExercise(split: "Upper Body", exercise: "Plank", position: 0),
    "position 0"
  ),
  RejectCase(
    "duplicate in unknown split",
    .duplicateExercise(split: "Arms", exercise: "Plank"),
    "unknown split"
  ),
  // Starting
  RejectCase(
    "start an unknown split",
    .startWorkout(split: "Arms", timeZone: "UTC"),
    "unknown split"
  ),
  RejectCase(
    "unknown time zone",
    .startWorkout(split: "Upper Body", timeZone: "Mars/Base"),
    "unknown time zone"
  ),
  RejectCase(
    "start an empty split",
    .startWorkout(split: "Empty", timeZone: "UTC"),
    "has no exercises"
  ),
  // Sets
  RejectCase("set on a skipped log", done("Push-up"), "was skipped"),
  RejectCase("set on a completed log", done("Face Pull"), "is completed"),
  RejectCase("negative reps", done("Bench Press", SetActuals(reps: -1)), "-1 reps is outside"),
  RejectCase("absurd reps", done("Bench Press", SetActuals(reps: 5000)), "5000 reps is outside"),
  RejectCase("NaN weight", done("Bench Press", SetActuals(weight: .nan)), "not a number"),
  RejectCase(
    "infinite weight",
    done("Bench Press", SetActuals(weight: -.infinity)),
    "not a number"
  ),
  RejectCase(
    "negative weight",
    done("Bench Press", SetActuals(weight: -20)),
    "weight -20 is outside"
  ),
  RejectCase("absurd weight", done("Bench Press", SetActuals(weight: 1e9)), "is outside"),
  RejectCase(
    "seconds on a weight exercise",
    done("Bench Press", SetActuals(seconds: 30)),
    "takes no seconds"
  ),
  RejectCase("reps on a timed exercise", done("Plank", SetActuals(reps: 3)), "takes no reps"),
  RejectCase(
    "weight on a bodyweight exercise",
    done("Dip", SetActuals(weight: 10)),
    "takes no weight"
  ),
  RejectCase("unknown exercise in the workout", done("Deadlift"), "unknown exercise 'Deadlift'"),
  RejectCase("ambiguous exercise in the workout", done("Row"), "ambiguous"),
  RejectCase(
    "adjust a set that does not exist",
    .adjustSet(workout: nil, exercise: "Bench Press", set: 5, SetActuals(reps: 4)),
    "has no set 5"
  ),
  RejectCase(
    "adjust a log with no sets",
    .adjustSet(workout: nil, exercise: "Plank", set: nil, SetActuals(seconds: 4)),
    "no recorded set"
  ),
  RejectCase(
    "adjust with no values",
    .adjustSet(workout: nil, exercise: "Bench Press", set: 1, SetActuals()),
    "nothing to adjust"
  ),
  RejectCase("unknown workout", .endWorkout(workout: "ZZZZ"), "unknown workout 'ZZZZ'"),
  RejectCase("a deleted workout", .deleteWorkout(workout: "DELETED"), "is deleted"),
  RejectCase(
    "a time before the workout started",
    done("Bench Press"),
    "before the workout started",
    at: -86_400
  ),
  RejectCase("a time in the future", done("Bench Press"), "in the future", at: 86_400),
  RejectCase(
    "skip a skipped log",
    .skipLog(workout: nil, exercise: "Push-up"),
    "cannot be skipped"
  ),
  RejectCase(
    "reset a log not started",
    .resetLog(workout: nil, exercise: "Plank"),
    "nothing to reset"
  ),
  RejectCase(
    "finish a completed log",
    .completeLog(workout: nil, exercise: "Face Pull"),
    "is completed already"
  ),
  RejectCase(
    "start a log in progress",
    .startLog(workout: nil, exercise: "Bench Press"),
    "cannot be started"
  ),
  RejectCase("every planned set done", done("Curl Finished"), "are done"),
  RejectCase(
    "absurd heart rate",
    .recordMetrics(workout: nil, MetricsRecorded(maxHeartRate: 500, source: .watch)),
    "heart rate 500"
  ),
  RejectCase(
    "three heart-rate zones",
    .recordMetrics(workout: nil, MetricsRecorded(hrZoneSeconds: [1, 2, 3], source: .watch)),
    "5 values"
  ),
  RejectCase(
    "plan below the sets done",
    .editPlan(
      workout: nil,
      exercise: "Curl Finished",
      {
        var edit = PlanEdited(logID: "")
        edit.sets = .set(1)
        return edit
      }()
    ),
    "cannot drop below"
  ),
]

@Suite struct CommandValidatorTests {
  /// Upper Body (Bench 1/3 done, Push-up skipped, Plank not started, Face Pull
  /// completed, Curl Finished with all sets done but open, Dip, two Rows),
  /// Lower Body, Lower Back, an Empty split, and a deleted workout.
  static func prepared() throws -> (JournalHarness, deleted: String) {
    let h = try JournalHarness()
    try h.run(
      split(
        "Upper Body",
        [
          bench,
          ExercisePlan(name: "Push-up", sets: 2, reps: 15, weight: 0, loadType: .none),
          ExercisePlan(
            name: "Plank",
            sets: 2,
            reps: 0,
            weight: 0,
            loadType: .duration,
            durationSeconds: 60
          ),
          ExercisePlan(name: "Face Pull", sets: 2, reps: 12, weight: 20, loadType: .weight),
          ExercisePlan(name: "Curl Finished", sets: 2, reps: 10, weight: 10, loadType: .weight),
          ExercisePlan(name: "Dip", sets: 2, reps: 8, weight: 0, loadType: .none),
          plan(), plan(),
        ]
      )
    )
    try h.run(split("Lower Body"))
    try h.run(split("Lower Back"))
    try h.run(.createSplit(SplitSettings(name: "Empty")))
    try h.run(.startWorkout(split: "Lower Body", timeZone: "UTC"))
    let deleted = try #require(h.state.liveWorkouts.last?.document.id)
    try h.run(.deleteWorkout(workout: deleted))
    try h.run(.startWorkout(split: "Upper Body", timeZone: "Europe/Paris"))
    try h.run(done("Bench Press"))
    try h.run(.skipLog(workout: nil, exercise: "Push-up"))
    try h.run(.completeLog(workout: nil, exercise: "Face Pull"))
    try h.run(.completeSet(workout: nil, exercise: "Curl Finished", SetActuals()))
    try h.run(.completeSet(workout: nil, exercise: "Curl Finished", SetActuals(), keepOpen: true))
    return (h, deleted)
  }

  @Test(arguments: rejectCases)
  func rejected(_ c: RejectCase) throws {
    let (h, deleted) = try Self.prepared()
    var command = c.command
    if case .deleteWorkout("DELETED") = command { command = .deleteWorkout(workout: deleted) }
    h.expectRefused(command, at: c.atOffset.map { h.now + $0 }, containing: c.expected)
  }

  @Test func atLeastFortyRejections() {
    #expect(rejectCases.count >= 40)
  }

  @Test func noWorkoutInProgress() throws {
    let h = try JournalHarness()
    try h.run(split("Upper Body"))
    h.expectRefused(done(nil), containing: "no workout is in progress")
  }

  @Test func twoOpenWorkoutsMustBeNamed() throws {
    let h = try JournalHarness()
    try h.run(split("Upper Body"))
    try h.run(.startWorkout(split: "Upper Body", timeZone: "UTC"))
    try h.run(.startWorkout(split: "Upper Body", timeZone: "UTC"))
    h.expectRefused(done(nil), containing: "2 workouts are open")
  }
}
