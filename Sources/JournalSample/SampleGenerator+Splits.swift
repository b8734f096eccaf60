import JournalCore
import JournalProjections

/// The routine edits of the story, made at the gym just before the first
/// session on or after their day.
enum SampleEdit: CaseIterable, Sendable {
  /// The three splits, in the first app version (`split.created` v1 with
  /// embedded exercises).
  case createSplits
  /// `exercise.added` v1: with `category` and the weight-reminder fields.
  case addFacePull
  /// `exercise.updated` v1.
  case updateFacePull
  /// `exercise.added` v2: a machine, whole weights.
  case addLatPulldown
  /// `exercise.updated` v2: machine settings for the leg press.
  case legPressMachine
  /// A display name customised from a library exercise.
  case addRopePushdown
  /// A rename that keeps the library name.
  case renameIncline
  /// Pull-ups first on pull days.
  case movePullup
  /// Squat duplicated in place, the copy becoming "Pause Squat".
  case addPauseSquat
  /// Longer rests on leg days.
  case longerLegRests

  var day: Int {
    switch self {
    case .createSplits: 0
    case .addFacePull: SampleCalendar.day(month: 6, 8)
    case .updateFacePull: SampleCalendar.day(month: 6, 11)
    case .addLatPulldown: SampleCalendar.day(month: 6, 16)
    case .legPressMachine: SampleCalendar.day(month: 6, 18)
    case .addRopePushdown: SampleCalendar.day(month: 7, 6)
    case .renameIncline: SampleCalendar.day(month: 7, 20)
    case .movePullup: SampleCalendar.day(month: 8, 3)
    case .addPauseSquat: SampleCalendar.day(month: 9, 7)
    case .longerLegRests: SampleCalendar.day(month: 10, 1)
    }
  }
}

extension SampleGenerator {
  func makeDueEdits(before session: SampleSession) throws {
    while let edit = edits.first, edit.day <= session.day {
      edits.removeFirst()
      try make(edit)
      wait(30...150)
    }
  }

  private func make(_ edit: SampleEdit) throws {
    let phone = Self.phone
    switch edit {
    case .createSplits:
      for (index, settings) in SampleProgram.splits.enumerated() {
        let id = ids.make()
        splitIDs.append(id)
        var embedded: [JSONValue] = []
        for exercise in exercises.indices where exercises[exercise].split == index {
          exercises[exercise].exerciseID = ids.make()
          var payload = firstVersionPayload(exercises[exercise])
          payload["order"] = .int(Int64(embedded.count))
          embedded.append(.object(payload))
        }
        try appendLegacy(
          JournalEvent.TypeName.splitCreated,
          version: 1,
          stream: "split:\(id)",
          on: phone,
          [
            "name": .string(settings.name),
            "color": .string(settings.color),
            "systemImage": .string(settings.systemImage),
            "activityType": .int(Int64(settings.activityType ?? 0)),
            "restSeconds": .int(Int64(settings.restSeconds ?? 90)),
            "order": .int(Int64(index)),
            "exercises": .array(embedded),
          ]
        )
        wait(40...120)
      }
    case .addFacePull:
      var facePull = SampleProgram.facePull
      facePull.exerciseID = ids.make()
      exercises.append(facePull)
      try appendLegacy(
        JournalEvent.TypeName.exerciseAdded,
        version: 1,
        stream: "split:\(splitIDs[1])",
        on: phone,
        firstVersionPayload(facePull)
      )
    case .updateFacePull:
      guard let index = exerciseIndex("facePull") else { return }
      exercises[index].reps = 12
      try appendLegacy(
        JournalEvent.TypeName.exerciseUpdated,
        version: 1,
        stream: "split:\(splitIDs[1])",
        on: phone,
        [
          "exerciseID": .string(exercises[index].exerciseID),
          "reps": 12,
          "category": "rear delts",
        ]
      )
    case .addLatPulldown:
      var pulldown = SampleProgram.latPulldown
      pulldown.exerciseID = ids.make()
      exercises.append(pulldown)
      var payload = secondVersionPayload(pulldown)
      payload["exerciseID"] = .string(pulldown.exerciseID)
      try appendLegacy(
        JournalEvent.TypeName.exerciseAdded,
        version: 2,
        stream: "split:\(splitIDs[1])",
        on: phone,
        payload
      )
    case .legPressMachine:
      guard let index = exerciseIndex("legPress") else { return }
      let settings = [
        MachineSetting(name: "Seat", value: "5"),
        MachineSetting(name: "Foot position", value: "high"),
      ]
      exercises[index].machineSettings = settings
      try appendLegacy(
        JournalEvent.TypeName.exerciseUpdated,
        version: 2,
        stream: "split:\(splitIDs[2])",
        on: phone,
        [
          "exerciseID": .string(exercises[index].exerciseID),
          "machineSettings": Self.json(settings),
        ]
      )
    case .addRopePushdown:
      var pushdown = SampleProgram.ropePushdown
      let events = try act(.addExercise(split: splitIDs[0], pushdown.plan), on: phone)
      if case .exerciseAdded(let added)? = events.first?.event {
        pushdown.exerciseID = added.exerciseID
      }
      exercises.append(pushdown)
    case .renameIncline:
      guard let index = exerciseIndex("incline") else { return }
      var update = ExerciseUpdated(exerciseID: exercises[index].exerciseID)
      update.name = .set("Incline DB Press")
      update.libraryName = .set(exercises[index].name)
      try act(
        .updateExercise(split: splitIDs[0], exercise: exercises[index].exerciseID, update),
        on: phone
      )
      exercises[index].libraryName = exercises[index].name
      exercises[index].name = "Incline DB Press"
    case .movePullup:
      guard let index = exerciseIndex("pullup") else { return }
      try act(
        .moveExercise(split: splitIDs[1], exercise: exercises[index].exerciseID, position: 1),
        on: phone
      )
    case .addPauseSquat:
      guard let index = exerciseIndex("squat") else { return }
      let squat = exercises[index]
      let events = try act(
        .duplicateExercise(split: splitIDs[2], exercise: squat.exerciseID),
        on: phone
      )
      guard case .exerciseDuplicated(let duplicated)? = events.first?.event else { return }
      wait(20...60)
      let pause = SampleExercise(
        key: "pauseSquat",
        name: "Pause Squat",
        libraryName: squat.name,
        split: 2,
        exerciseID: duplicated.copyID,
        sets: 2,
        reps: 3,
        halfKilos: (squat.halfKilos * 80 / 100) / 5 * 5,
        loadType: .weight,
        capacity: squat.capacity * 90 / 100
      )
      var update = ExerciseUpdated(exerciseID: pause.exerciseID)
      update.name = .set(pause.name)
      update.libraryName = .set(squat.name)
      update.sets = .set(pause.sets)
      update.reps = .set(pause.reps)
      update.weight = .set(pause.weight)
      try act(.updateExercise(split: splitIDs[2], exercise: pause.exerciseID, update), on: phone)
      exercises.insert(pause, at: index + 1)
    case .longerLegRests:
      var update = SplitUpdated()
      update.restSeconds = .set(180)
      try act(.updateSplit(split: splitIDs[2], update), on: phone)
    }
  }

  // MARK: - Old payload shapes

  /// An exercise as the first app version wrote it: `category`, weight
  /// reminders, a whole weight, no machine settings.
  func firstVersionPayload(_ exercise: SampleExercise) -> [String: JSONValue] {
    var payload: [String: JSONValue] = [
      "exerciseID": .string(exercise.exerciseID),
      "name": .string(exercise.name),
      "sets": .int(Int64(exercise.sets)),
      "reps": .int(Int64(exercise.reps)),
      "weight": .int(Int64(exercise.halfKilos / 2)),
      "loadType": .int(Int64(exercise.loadType.rawValue)),
      "durationSeconds": .int(Int64(exercise.seconds)),
      "category": .string(exercise.category),
      "weightReminder": .bool(exercise.isMainLift),
    ]
    if exercise.isMainLift { payload["weightReminderWeeks"] = 2 }
    return payload
  }

  /// An exercise or a log plan as the second app version wrote it: machine
  /// settings, still a whole weight.
  func secondVersionPayload(_ exercise: SampleExercise) -> [String: JSONValue] {
    var payload: [String: JSONValue] = [
      "name": .string(exercise.name),
      "sets": .int(Int64(exercise.sets)),
      "reps": .int(Int64(exercise.reps)),
      "weight": .int(Int64(exercise.halfKilos / 2)),
      "loadType": .int(Int64(exercise.loadType.rawValue)),
      "durationSeconds": .int(Int64(exercise.seconds)),
    ]
    if let settings = exercise.machineSettings { payload["machineSettings"] = Self.json(settings) }
    return payload
  }

  static func json(_ settings: [MachineSetting]) -> JSONValue {
    .array(settings.map { .object(["name": .string($0.name), "value": .string($0.value)]) })
  }
}
