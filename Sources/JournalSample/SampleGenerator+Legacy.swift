import JournalCore
import JournalProjections

// The first four weeks, as the older app versions recorded them: no actuals
// (a set only moved the progress cursor), whole weights, and in the first
// version the per-log `completed` flag.

extension SampleGenerator {
  func legacySession(_ session: SampleSession) throws {
    let first = session.era == .firstVersion
    let phone = Self.phone
    var recorder = random.chance(25) ? Self.watch : phone
    if session.scene == .legacyWatch { recorder = Self.watch }
    if session.scene == .legacyReset { recorder = phone }
    let workoutID = ids.make()
    let stream = "workout:\(workoutID)"
    let members = exercises.indices.filter { exercises[$0].split == session.split }
    var logs: [(logID: String, exercise: Int)] = []
    var plans: [JSONValue] = []
    for (order, index) in members.enumerated() {
      let logID = ids.make()
      logs.append((logID, index))
      var plan = secondVersionPayload(exercises[index])
      plan["logID"] = .string(logID)
      plan["order"] = .int(Int64(order))
      if first {
        plan["machineSettings"] = nil
        plan["completed"] = false
      }
      plans.append(.object(plan))
    }
    let settings = SampleProgram.splits[session.split]
    try appendLegacy(
      JournalEvent.TypeName.workoutStarted,
      version: first ? 1 : 2,
      stream: stream,
      on: phone,
      [
        "splitID": .string(splitIDs[session.split]),
        "splitName": .string(settings.name),
        "timeZone": .string(session.zone.identifier),
        "restSeconds": .int(Int64(settings.restSeconds ?? 90)),
        "logs": .array(plans),
      ]
    )
    wait(120...300)
    var hits: [(exercise: Int, allHit: Bool)] = []
    for (position, log) in logs.enumerated() {
      let exercise = exercises[log.exercise]
      let logID: JSONValue = .string(log.logID)
      if session.scene == .legacySkip, position == logs.count - 1 {
        try appendLegacy(
          JournalEvent.TypeName.logSkipped,
          version: 1,
          stream: stream,
          on: recorder,
          ["logID": logID]
        )
        continue
      }
      if session.scene == .legacyEndEarly, position == 3 {
        try appendLegacy(
          JournalEvent.TypeName.workoutEnded,
          version: 1,
          stream: stream,
          on: phone,
          [:]
        )
        break
      }
      try appendLegacy(
        JournalEvent.TypeName.logStarted,
        version: 1,
        stream: stream,
        on: recorder,
        ["logID": logID]
      )
      var allHit = true
      var done = 0
      var wasReset = false
      while done < exercise.sets {
        let attempt = exercise.attempt(
          set: done,
          reps: exercise.reps,
          halfKilos: exercise.halfKilos,
          seconds: exercise.seconds,
          isLast: done == exercise.sets - 1,
          random: &lifter
        )
        wait(exercise.loadType == .duration ? attempt.seconds + 5 : random.int(20...50))
        allHit = allHit && attempt.hit
        done += 1
        try appendLegacy(
          JournalEvent.TypeName.setCompleted,
          version: 1,
          stream: stream,
          on: recorder,
          ["logID": logID, "index": .int(Int64(done))]
        )
        if session.scene == .legacyReset, position == 1, done == 2, !wasReset {
          // Wrong plates on the bar for two sets: start the exercise over.
          wait(20...40)
          try appendLegacy(
            JournalEvent.TypeName.logReset,
            version: 1,
            stream: stream,
            on: phone,
            ["logID": logID, "completed": false]
          )
          wasReset = true
          done = 0
          allHit = true
          wait(60...120)
          try appendLegacy(
            JournalEvent.TypeName.logStarted,
            version: 1,
            stream: stream,
            on: phone,
            ["logID": logID]
          )
          continue
        }
        if done < exercise.sets { wait(rest(settings.restSeconds)) }
      }
      var completed: [String: JSONValue] = ["logID": logID]
      if first { completed["completed"] = true }
      try appendLegacy(
        JournalEvent.TypeName.logCompleted,
        version: first ? 1 : 2,
        stream: stream,
        on: recorder,
        completed
      )
      hits.append((log.exercise, allHit))
      wait(60...150)
    }
    if recorder == Self.watch {
      wait(30...90)
      try appendLegacy(
        JournalEvent.TypeName.metricsRecorded,
        version: 1,
        stream: stream,
        on: Self.watch,
        JournalEvent.metricsRecorded(watchMetrics(since: session)).payload.objectValue ?? [:]
      )
    }
    wait(120...600)
    for (index, allHit) in hits {
      exercises[index].adapt(random: &lifter)
      guard exercises[index].progress(allHit: allHit, legacy: true, random: &lifter) else {
        continue
      }
      let exercise = exercises[index]
      var update: [String: JSONValue] = ["exerciseID": .string(exercise.exerciseID)]
      switch exercise.loadType {
      case .weight: update["weight"] = .int(Int64(exercise.halfKilos / 2))
      case .none: update["reps"] = .int(Int64(exercise.reps))
      case .duration: update["durationSeconds"] = .int(Int64(exercise.seconds))
      }
      try appendLegacy(
        JournalEvent.TypeName.exerciseUpdated,
        version: first ? 1 : 2,
        stream: "split:\(splitIDs[exercise.split])",
        on: phone,
        update
      )
      wait(5...20)
    }
  }

  /// A rest between sets: the split's rest, give or take.
  func rest(_ seconds: Int?) -> Int {
    max(30, (seconds ?? 90) + random.int(-20...40))
  }

  /// What the watch measured from the session's start to now.
  func watchMetrics(since session: SampleSession) -> MetricsRecorded {
    let start = SampleCalendar.milliseconds(
      day: session.day,
      minute: session.minute,
      zone: session.zone
    )
    let seconds = max(600, Int((actionTime - start) / 1000))
    let average = random.int(104...132)
    var zones = [seconds * random.int(8...12) / 100, seconds * random.int(25...32) / 100]
    zones += [seconds * random.int(30...36) / 100, seconds * random.int(10...15) / 100]
    zones.append(max(0, seconds - zones.reduce(0, +)))
    var uuid = ""
    for (offset, length) in [8, 4, 4, 4, 12].enumerated() {
      if offset > 0 { uuid += "-" }
      for _ in 0..<length { uuid += String(random.int(0...15), radix: 16, uppercase: true) }
    }
    return MetricsRecorded(
      activeEnergyKcal: Double(seconds * random.int(55...80) / 60) / 10,
      avgHeartRate: Double(average),
      maxHeartRate: Double(average + random.int(28...52)),
      minHeartRate: Double(random.int(64...84)),
      hrZoneSeconds: zones.map(Double.init),
      healthKitWorkoutUUID: uuid,
      source: .watch
    )
  }
}
