// Exercise edits inside a split. Each returns an anomaly message, or nil when
// it applied. Orders: a new exercise goes last (or where its event says); a
// move renumbers the list 0…n-1; a duplicate goes right after its original
// and every later exercise moves one down. Removal leaves the other orders be.

extension SplitDocument {
  mutating func addExercise(_ added: ExerciseAdded) -> String? {
    guard !exercises.contains(where: { $0.id == added.exerciseID }) else {
      return "exercise '\(added.exerciseID)' exists already"
    }
    let plan = added.plan
    let order = added.order ?? ((exercises.map(\.order).max() ?? -1) + 1)
    exercises.append(
      ExerciseDocument(
        id: added.exerciseID,
        name: plan.name,
        order: order,
        sets: plan.sets,
        reps: plan.reps,
        weight: plan.weight,
        loadType: plan.loadType,
        durationSeconds: plan.durationSeconds,
        machineSettings: plan.machineSettings,
        libraryName: plan.libraryName
      )
    )
    sortExercises()
    return nil
  }

  mutating func updateExercise(_ update: ExerciseUpdated) -> String? {
    guard let index = exercises.firstIndex(where: { $0.id == update.exerciseID }) else {
      return "no exercise '\(update.exerciseID)' in the split"
    }
    exercises[index].apply(update)
    return nil
  }

  mutating func moveExercise(_ moved: ExerciseMoved) -> String? {
    guard let index = exercises.firstIndex(where: { $0.id == moved.exerciseID }) else {
      return "no exercise '\(moved.exerciseID)' in the split"
    }
    let exercise = exercises.remove(at: index)
    exercises.insert(exercise, at: min(max(moved.position, 0), exercises.count))
    for position in exercises.indices { exercises[position].order = position }
    return nil
  }

  mutating func duplicateExercise(_ duplicated: ExerciseDuplicated) -> String? {
    guard let index = exercises.firstIndex(where: { $0.id == duplicated.exerciseID }) else {
      return "no exercise '\(duplicated.exerciseID)' in the split"
    }
    guard !exercises.contains(where: { $0.id == duplicated.copyID }) else {
      return "exercise '\(duplicated.copyID)' exists already"
    }
    var copy = exercises[index]
    copy.id = duplicated.copyID
    copy.order = exercises[index].order + 1
    for position in exercises.indices where exercises[position].order >= copy.order {
      exercises[position].order += 1
    }
    exercises.insert(copy, at: index + 1)
    sortExercises()
    return nil
  }

  private mutating func sortExercises() {
    // Stable: equal orders keep their insertion order.
    exercises = exercises.enumerated()
      .sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }
      .map(\.element)
  }
}

extension ExerciseDocument {
  /// Applies the fields an update changes.
  mutating func apply(_ update: ExerciseUpdated) {
    name = update.name.applied(to: name) ?? name
    sets = update.sets.applied(to: sets) ?? sets
    reps = update.reps.applied(to: reps) ?? reps
    weight = update.weight.applied(to: weight) ?? weight
    loadType = update.loadType.applied(to: loadType) ?? loadType
    durationSeconds = update.durationSeconds.applied(to: durationSeconds) ?? durationSeconds
    machineSettings = update.machineSettings.applied(to: machineSettings)
    libraryName = update.libraryName.applied(to: libraryName)
  }
}
