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
        libraryName: plan.libraryName))
    sortExercises()
    return nil
  }

  mutating func updateExercise(_ update: ExerciseUpdated) -> String? {
    guard let index = exercises.firstIndex(where: { $0.id == update.exerciseID }) else {
      return "no exercise '\(update.exerciseID)' in the split"
    }
    var exercise = exercises[index]
    exercise.name = update.name.applied(to: exercise.name) ?? exercise.name
    exercise.sets = update.sets.applied(to: exercise.sets) ?? exercise.sets
    exercise.reps = update.reps.applied(to: exercise.reps) ?? exercise.reps
    exercise.weight = update.weight.applied(to: exercise.weight) ?? exercise.weight
    exercise.loadType = update.loadType.applied(to: exercise.loadType) ?? exercise.loadType
    exercise.durationSeconds =
      update.durationSeconds.applied(to: exercise.durationSeconds) ?? exercise.durationSeconds
    exercise.machineSettings = update.machineSettings.applied(to: exercise.machineSettings)
    exercise.libraryName = update.libraryName.applied(to: exercise.libraryName)
    exercises[index] = exercise
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
