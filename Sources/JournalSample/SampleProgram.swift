import JournalProjections

/// One exercise of the sample lifter's program: its plan as the journal
/// knows it, and what the journal never sees — how strong the lifter really
/// is at it, which decides the reps of each set.
struct SampleExercise {
  /// Stable within the generator, whatever the exercise is renamed to.
  let key: String
  var name: String
  var libraryName: String?
  /// 0 Push, 1 Pull, 2 Legs; -1 for an exercise added to one workout only.
  let split: Int
  var exerciseID = ""
  var sets: Int
  var reps: Int
  /// The planned weight in half kilograms, so every weight is exact.
  var halfKilos: Int
  let loadType: LoadType
  var seconds: Int = 0
  var machineSettings: [MachineSetting]?
  /// How much the plan grows after a good session, in half kilograms; before
  /// the app stored fractional weights, by `legacyStep` (whole kilograms).
  var step: Int = 5
  var legacyStep: Int = 10
  /// Weighted: the half kilograms the lifter moves for the planned reps when
  /// fresh; bodyweight: tenths of reps on a first set; timed: seconds.
  var capacity: Int
  /// Sessions in a row with missed reps; two in a row bring a deload.
  var misses = 0
  /// Written only by the first version of the app (`category`).
  var category = "other"
  var isMainLift = false
  var maxReps = 12

  var weight: Double { Double(halfKilos) / 2 }

  var plan: ExercisePlan {
    ExercisePlan(
      name: name,
      sets: sets,
      reps: reps,
      weight: weight,
      loadType: loadType,
      durationSeconds: seconds,
      machineSettings: machineSettings,
      libraryName: libraryName
    )
  }
}

/// What the lifter did in one set.
struct SampleAttempt {
  var reps: Int
  var halfKilos: Int
  var seconds: Int
  /// Whether the set met the plan.
  var hit: Bool

  func actuals(for loadType: LoadType) -> SetActuals {
    switch loadType {
    case .weight: SetActuals(reps: reps, weight: Double(halfKilos) / 2)
    case .none: SetActuals(reps: reps)
    case .duration: SetActuals(seconds: seconds)
    }
  }
}

extension SampleExercise {
  /// Set `index` (0-based) of a log planned at `reps` × `halfKilos` or `seconds`.
  func attempt(
    set index: Int,
    reps planned: Int,
    halfKilos: Int,
    seconds: Int,
    isLast: Bool,
    random: inout SampleRandom
  ) -> SampleAttempt {
    switch loadType {
    case .weight:
      // Per mille of headroom, less fatigue, plus a good or bad day.
      let score =
        1000 - halfKilos * 1000 / max(capacity, 1) - index * 12 + random.int(-35...35)
      if score >= 0 {
        let bonus = isLast && score > 90 && random.chance(25) ? 1 : 0
        return SampleAttempt(reps: planned + bonus, halfKilos: halfKilos, seconds: 0, hit: true)
      }
      var reps = planned - 1 - (-score - 1) / 30
      var weight = halfKilos
      if score < -60, random.chance(40) {
        weight -= step  // stripped a plate rather than grind
        reps = planned - 1
      }
      return SampleAttempt(
        reps: max(reps, max(1, planned / 2)),
        halfKilos: weight,
        seconds: 0,
        hit: false
      )
    case .none:
      let possible = capacity / 10 - index + random.int(-1...1)
      if possible >= planned {
        let bonus = isLast && possible > planned && random.chance(20) ? 1 : 0
        return SampleAttempt(reps: planned + bonus, halfKilos: 0, seconds: 0, hit: true)
      }
      return SampleAttempt(reps: max(1, possible), halfKilos: 0, seconds: 0, hit: false)
    case .duration:
      let possible = capacity - index * 4 + random.int(-6...10)
      let held = min(possible, seconds + random.int(0...12))
      return SampleAttempt(
        reps: 0,
        halfKilos: 0,
        seconds: max(20, held),
        hit: held >= seconds
      )
    }
  }

  /// The lifter gets a little stronger at what they trained.
  mutating func adapt(random: inout SampleRandom) {
    switch loadType {
    case .weight: capacity += max(1, capacity * random.int(4...10) / 1000)
    case .none: capacity += random.int(1...3)
    case .duration: capacity += random.int(0...2)
    }
  }

  /// Moves the plan on after a session.
  ///
  /// Progress when every set met the plan, deload after two missed sessions
  /// in a row. Returns whether the plan changed.
  mutating func progress(allHit: Bool, legacy: Bool, random: inout SampleRandom) -> Bool {
    if allHit {
      misses = 0
      switch loadType {
      case .weight:
        guard random.chance(70) else { return false }
        halfKilos += legacy ? legacyStep : step
      case .none:
        guard reps < maxReps, random.chance(60) else { return false }
        reps += 1
      case .duration:
        guard seconds < 90, random.chance(60) else { return false }
        seconds += 5
      }
      return true
    }
    misses += 1
    guard misses >= 2, loadType == .weight else { return false }
    misses = 0
    let deload = legacy ? legacyStep * 2 : step * 2
    halfKilos = max(halfKilos - deload, step)
    return true
  }
}

/// The program: three splits trained in rotation, and the exercises that
/// join them later in the story.
enum SampleProgram {
  static let splitNames = ["Push", "Pull", "Legs"]

  static let splits: [SplitSettings] = [
    SplitSettings(
      name: "Push",
      color: "red",
      systemImage: "figure.strengthtraining.traditional",
      activityType: 0,
      restSeconds: 120
    ),
    SplitSettings(
      name: "Pull",
      color: "blue",
      systemImage: "figure.rower",
      activityType: 0,
      restSeconds: 120
    ),
    SplitSettings(
      name: "Legs",
      color: "green",
      systemImage: "figure.strengthtraining.functional",
      activityType: 1,
      restSeconds: 150
    ),
  ]

  /// The exercises the splits start with (June 1st, first app version).
  static func initialExercises() -> [SampleExercise] {
    [
      SampleExercise(
        key: "bench",
        name: "Bench Press",
        split: 0,
        sets: 4,
        reps: 6,
        halfKilos: 120,
        loadType: .weight,
        capacity: 140,
        category: "chest",
        isMainLift: true
      ),
      SampleExercise(
        key: "ohp",
        name: "Overhead Press",
        split: 0,
        sets: 3,
        reps: 8,
        halfKilos: 70,
        loadType: .weight,
        capacity: 80,
        category: "shoulders"
      ),
      SampleExercise(
        key: "incline",
        name: "Incline Dumbbell Press",
        split: 0,
        sets: 3,
        reps: 10,
        halfKilos: 40,
        loadType: .weight,
        step: 4,
        legacyStep: 4,
        capacity: 46,
        category: "chest"
      ),
      SampleExercise(
        key: "dips",
        name: "Dips",
        split: 0,
        sets: 3,
        reps: 8,
        halfKilos: 0,
        loadType: .none,
        capacity: 95,
        category: "triceps",
        maxReps: 15
      ),
      SampleExercise(
        key: "deadlift",
        name: "Deadlift",
        split: 1,
        sets: 3,
        reps: 5,
        halfKilos: 200,
        loadType: .weight,
        step: 10,
        legacyStep: 10,
        capacity: 240,
        category: "back",
        isMainLift: true
      ),
      SampleExercise(
        key: "row",
        name: "Barbell Row",
        split: 1,
        sets: 4,
        reps: 8,
        halfKilos: 100,
        loadType: .weight,
        capacity: 118,
        category: "back"
      ),
      SampleExercise(
        key: "pullup",
        name: "Pull-up",
        split: 1,
        sets: 4,
        reps: 5,
        halfKilos: 0,
        loadType: .none,
        capacity: 65,
        category: "back",
        maxReps: 10
      ),
      SampleExercise(
        key: "squat",
        name: "Squat",
        split: 2,
        sets: 4,
        reps: 5,
        halfKilos: 160,
        loadType: .weight,
        legacyStep: 10,
        capacity: 200,
        category: "legs",
        isMainLift: true
      ),
      SampleExercise(
        key: "rdl",
        name: "Romanian Deadlift",
        split: 2,
        sets: 3,
        reps: 8,
        halfKilos: 140,
        loadType: .weight,
        capacity: 166,
        category: "legs"
      ),
      SampleExercise(
        key: "legPress",
        name: "Leg Press",
        split: 2,
        sets: 3,
        reps: 10,
        halfKilos: 240,
        loadType: .weight,
        step: 10,
        legacyStep: 10,
        capacity: 300,
        category: "legs"
      ),
      SampleExercise(
        key: "plank",
        name: "Plank",
        split: 2,
        sets: 3,
        reps: 0,
        halfKilos: 0,
        loadType: .duration,
        seconds: 45,
        capacity: 60,
        category: "core"
      ),
    ]
  }

  /// Added to Pull in the first app version, with the fields it later dropped.
  static let facePull = SampleExercise(
    key: "facePull",
    name: "Face Pull",
    split: 1,
    sets: 3,
    reps: 15,
    halfKilos: 30,
    loadType: .weight,
    capacity: 36,
    category: "shoulders"
  )

  /// A machine: added to Pull once exercises could carry machine settings.
  static let latPulldown = SampleExercise(
    key: "latPulldown",
    name: "Lat Pulldown",
    split: 1,
    sets: 3,
    reps: 10,
    halfKilos: 90,
    loadType: .weight,
    machineSettings: [
      MachineSetting(name: "Seat height", value: "4"),
      MachineSetting(name: "Thigh pad", value: "3"),
    ],
    capacity: 104,
    category: "back"
  )

  /// Customised from the library's "Triceps Pushdown": a display name.
  static let ropePushdown = SampleExercise(
    key: "ropePushdown",
    name: "Rope Pushdown",
    libraryName: "Triceps Pushdown",
    split: 0,
    sets: 3,
    reps: 12,
    halfKilos: 45,
    loadType: .weight,
    capacity: 52
  )

  /// Done once instead of deadlifts, added to that workout only.
  static let backExtension = SampleExercise(
    key: "backExtension",
    name: "Back Extension",
    split: -1,
    sets: 3,
    reps: 12,
    halfKilos: 0,
    loadType: .none,
    capacity: 150
  )
}
