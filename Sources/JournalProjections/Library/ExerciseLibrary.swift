import Foundation

/// One exercise of the bundled catalog: its name, how it is loaded, and whether it is done on
/// a machine.
package struct LibraryExercise: Sendable, Hashable {
  /// Where on the body an exercise works, which decides its starter split.
  package enum Region: String, Sendable, CaseIterable {
    /// Chest, back, shoulders and arms: the Upper Body starter.
    case upper
    /// Abdominals and lower back: the Core starter.
    case core
    /// Hips and legs: the Lower Body starter.
    case lower
  }

  /// The library name: what `ExerciseDocument.libraryName` (or, when nil, `name`) refers to.
  package var name: String
  /// How a set is measured: reps with a weight, reps alone (bodyweight), or seconds.
  package var loadType: LoadType
  /// A machine exercise: its documents carry `machineSettings` (empty until the lifter records
  /// a seat height or a pin).
  package var isMachineBased: Bool
  /// The region whose starter split it may be part of.
  package var region: Region
  /// Whether the region's starter split includes it.
  package var isInStarterSplit: Bool
  /// The sets a starter split plans for it.
  package var sets: Int
  /// The reps per set it starts with; 0 for a timed exercise.
  package var reps: Int
  /// The seconds per set of a timed exercise; 0 otherwise.
  package var durationSeconds: Int

  /// The plan an exercise of this name starts with (weights start at 0: the lifter sets them).
  package func plan(named displayName: String? = nil) -> ExercisePlan {
    ExercisePlan(
      name: displayName ?? name,
      sets: sets,
      reps: reps,
      weight: 0,
      loadType: loadType,
      durationSeconds: durationSeconds,
      machineSettings: isMachineBased ? [] : nil,
      libraryName: displayName == nil || displayName == name ? nil : name
    )
  }
}

/// A starter split: the split the app seeds a new user with, made from the catalog.
package struct StarterSplit: Sendable, Hashable {
  /// Its name, colour, symbol, activity type and rest.
  package var settings: SplitSettings
  /// Its exercises, in order, each named as in the catalog.
  package var exercises: [ExercisePlan]
}

/// The bundled exercise catalog: bodyweight and machine-based exercises, written for this
/// project, from which the starter splits (Upper Body, Core, Lower Body) are made as the app
/// makes them.
///
/// ```swift
/// let machines = ExerciseLibrary.exercises.filter(\.isMachineBased)
/// let press = ExerciseLibrary.exercise(named: "Chest Press Machine")
/// ```
package enum ExerciseLibrary {
  /// Every exercise, by region, then as a person would list them.
  package static let exercises: [LibraryExercise] = [
    // Upper body
    e("Push-up", .none, region: .upper, starter: true, sets: 3, reps: 10),
    e("Incline Push-up", .none, region: .upper, sets: 3, reps: 12),
    e("Pike Push-up", .none, region: .upper, sets: 3, reps: 8),
    e("Bench Dip", .none, region: .upper, starter: true, sets: 3, reps: 10),
    e("Pull-up", .none, region: .upper, sets: 3, reps: 6),
    e("Chin-up", .none, region: .upper, sets: 3, reps: 6),
    e("Inverted Row", .none, region: .upper, starter: true, sets: 3, reps: 10),
    e(
      "Chest Press Machine",
      .weight,
      machine: true,
      region: .upper,
      starter: true,
      sets: 3,
      reps: 10
    ),
    e(
      "Shoulder Press Machine",
      .weight,
      machine: true,
      region: .upper,
      starter: true,
      sets: 3,
      reps: 10
    ),
    e(
      "Seated Row Machine",
      .weight,
      machine: true,
      region: .upper,
      starter: true,
      sets: 3,
      reps: 10
    ),
    e("Lat Pulldown", .weight, machine: true, region: .upper, sets: 3, reps: 10),
    e("Pec Deck", .weight, machine: true, region: .upper, sets: 3, reps: 12),
    e("Assisted Pull-up Machine", .weight, machine: true, region: .upper, sets: 3, reps: 8),
    e("Cable Triceps Pushdown", .weight, machine: true, region: .upper, sets: 3, reps: 12),
    e("Cable Biceps Curl", .weight, machine: true, region: .upper, sets: 3, reps: 12),
    // Core
    e("Plank", .duration, region: .core, starter: true, sets: 3, seconds: 45),
    e("Side Plank", .duration, region: .core, starter: true, sets: 2, seconds: 30),
    e("Hollow Hold", .duration, region: .core, sets: 3, seconds: 30),
    e("Dead Bug", .none, region: .core, starter: true, sets: 3, reps: 10),
    e("Crunch", .none, region: .core, sets: 3, reps: 15),
    e("Bicycle Crunch", .none, region: .core, sets: 3, reps: 20),
    e("Hanging Knee Raise", .none, region: .core, sets: 3, reps: 10),
    e("Mountain Climber", .duration, region: .core, sets: 3, seconds: 30),
    e("Bird Dog", .none, region: .core, sets: 3, reps: 10),
    e("Ab Crunch Machine", .weight, machine: true, region: .core, starter: true, sets: 3, reps: 12),
    e("Rotary Torso Machine", .weight, machine: true, region: .core, sets: 3, reps: 12),
    e("Back Extension", .none, region: .core, sets: 3, reps: 12),
    e("Captain's Chair Leg Raise", .none, machine: true, region: .core, sets: 3, reps: 10),
    // Lower body
    e("Bodyweight Squat", .none, region: .lower, starter: true, sets: 3, reps: 15),
    e("Lunge", .none, region: .lower, starter: true, sets: 3, reps: 10),
    e("Glute Bridge", .none, region: .lower, starter: true, sets: 3, reps: 15),
    e("Step-up", .none, region: .lower, sets: 3, reps: 10),
    e("Wall Sit", .duration, region: .lower, sets: 3, seconds: 45),
    e("Calf Raise", .none, region: .lower, sets: 3, reps: 15),
    e("Leg Press", .weight, machine: true, region: .lower, starter: true, sets: 3, reps: 10),
    e("Leg Extension", .weight, machine: true, region: .lower, starter: true, sets: 3, reps: 12),
    e("Seated Leg Curl", .weight, machine: true, region: .lower, starter: true, sets: 3, reps: 12),
    e("Hip Abduction Machine", .weight, machine: true, region: .lower, sets: 3, reps: 15),
    e("Hip Adduction Machine", .weight, machine: true, region: .lower, sets: 3, reps: 15),
    e("Seated Calf Raise Machine", .weight, machine: true, region: .lower, sets: 3, reps: 15),
    e("Treadmill Walk", .duration, machine: true, region: .lower, sets: 1, seconds: 600),
    e("Stationary Bike", .duration, machine: true, region: .lower, sets: 1, seconds: 600),
  ]

  /// The catalog's exercise called `name` exactly, ignoring case.
  package static func exercise(named name: String) -> LibraryExercise? {
    exercises.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
  }

  /// The exercise `reference` names by the journal's naming rule (exact name, else a unique
  /// prefix, ignoring case), nil when none fits.
  ///
  /// - Throws: ``CommandError`` listing the candidates when several fit.
  package static func exercise(matching reference: String) throws(CommandError) -> LibraryExercise?
  {
    guard
      let name = try JournalState.pickName(
        reference,
        among: exercises.map(\.name),
        what: "library exercise"
      )
    else { return nil }
    return exercise(named: name)
  }

  /// The starter splits, Upper Body, Core and Lower Body: each region's starter exercises, in
  /// catalog order, marked as starter when created.
  static let starterSplits: [StarterSplit] = [
    starter(
      "Upper Body",
      .upper,
      color: "blue",
      image: "figure.strengthtraining.traditional",
      activity: 0
    ),
    starter("Core", .core, color: "orange", image: "figure.core.training", activity: 3),
    starter("Lower Body", .lower, color: "green", image: "figure.step.training", activity: 1),
  ]

  static func starter(
    _ name: String,
    _ region: LibraryExercise.Region,
    color: String,
    image: String,
    activity: Int
  ) -> StarterSplit {
    StarterSplit(
      settings: SplitSettings(
        name: name,
        color: color,
        systemImage: image,
        activityType: activity,
        restSeconds: 60
      ),
      exercises: exercises.filter { $0.region == region && $0.isInStarterSplit }.map { $0.plan() }
    )
  }

  static func e(
    _ name: String,
    _ loadType: LoadType,
    machine: Bool = false,
    region: LibraryExercise.Region,
    starter: Bool = false,
    sets: Int,
    reps: Int = 0,
    seconds: Int = 0
  ) -> LibraryExercise {
    LibraryExercise(
      name: name,
      loadType: loadType,
      isMachineBased: machine,
      region: region,
      isInStarterSplit: starter,
      sets: sets,
      reps: reps,
      durationSeconds: seconds
    )
  }
}

extension JournalState {
  /// The starter splits a `split starter` would create now: those that no split marked as
  /// starter, live or deleted, already has the name of.
  ///
  /// A deleted starter keeps its stub forever and is never created again (the app's
  /// seed-resurrection veto); a live one is not created twice.
  package var missingStarterSplits: [StarterSplit] {
    let taken = Set(splits.values.filter(\.isStarter).map { $0.document.name.lowercased() })
    return ExerciseLibrary.starterSplits.filter { !taken.contains($0.settings.name.lowercased()) }
  }

  /// The starter splits that were deleted and are therefore never created again.
  public var vetoedStarterSplits: [String] {
    let deleted = Set(
      splits.values.filter { $0.isStarter && $0.deletedAt != nil }.map {
        $0.document.name.lowercased()
      }
    )
    return ExerciseLibrary.starterSplits.map(\.settings.name).filter {
      deleted.contains($0.lowercased())
    }
  }
}
