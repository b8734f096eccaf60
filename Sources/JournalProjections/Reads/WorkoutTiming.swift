import Foundation

/// How long each set, rest, exercise and the whole workout took, read from the times its
/// events carry: the one place these durations are computed.
///
/// The rules (docs/RunFlow.md, "Timing"):
/// - A set is **done** at its entry's `completedAt`, the time of the `set.completed` that
///   recorded it. It **started** when its event says so (`set.completed` v3, written by
///   `journal run` or `journal done --started`); older events say nothing, and the start is
///   then unknown.
/// - A set's **work** is its done time minus its start.
/// - The **rest before** a set is its start minus the done time of the set done just before
///   it in the same workout, in any exercise. The first set of a workout has no rest before it.
/// - An **exercise** lasts from the start of its first set to the done time of its last.
/// - The **workout** lasts from its `start` to its `end` (stamped when every exercise is
///   resolved, or when it is ended); one still in progress has no duration yet.
/// - **Density** is volume (Σ reps × weight) per minute of that duration.
///
/// Sets filled in from the plan when an exercise was completed were not performed at a time of
/// their own: they count in volume, but have no start, no work and no rest. A time that is
/// not known is nil, never guessed; a negative span (two devices' clocks disagreeing) is nil
/// too. Nothing here reads the clock: the same state always gives the same timing.
///
/// ```swift
/// let timing = WorkoutTiming(of: try state.workout(nil))
/// for exercise in timing.exercises {
///   for set in exercise.sets { print(set.number, set.restBefore ?? .nan, set.work ?? .nan) }
/// }
/// ```
public struct WorkoutTiming: Codable, Sendable, Hashable {
  /// The timing of one set.
  public struct SetTiming: Codable, Sendable, Hashable {
    /// 1-based, as in the log's set entries.
    public var number: Int
    /// When the set was done.
    public var completedAt: Date
    /// When work on it began; nil when not known.
    public var startedAt: Date?
    /// Seconds of work (done − started); nil when the start is not known.
    public var work: TimeInterval?
    /// Seconds of rest since the set done before it in the workout; nil when not known or
    /// when it is the workout's first set.
    public var restBefore: TimeInterval?
    /// Whether the set was filled in from the plan rather than performed at a time of its own.
    public var isFilledFromPlan: Bool
    /// Whether it is the first set done in the workout: no rest comes before it.
    public var isFirstOfWorkout: Bool
  }

  /// The timing of one exercise (a log of the workout).
  public struct ExerciseTiming: Codable, Sendable, Hashable {
    public var logID: String
    /// The exercise's display name.
    public var exercise: String
    /// Seconds from its first set's start to its last set's done time; nil when not known.
    public var duration: TimeInterval?
    /// Σ reps × weight of its effective sets.
    public var volume: Double
    /// ``volume`` per minute of ``duration``; nil without a duration.
    public var density: Double?
    /// Its effective sets, in order.
    public var sets: [SetTiming]
  }

  public var workoutID: String
  /// When the workout began.
  public var start: Date
  /// When it was resolved or ended; nil while in progress.
  public var end: Date?
  /// Seconds from ``start`` to ``end``; nil while in progress.
  public var duration: TimeInterval?
  /// Σ reps × weight of every effective set.
  public var volume: Double
  /// ``volume`` per minute of ``duration``; nil without a duration.
  public var density: Double?
  /// One per log, in the workout's order.
  public var exercises: [ExerciseTiming]

  /// The timing of `workout`.
  ///
  /// - Complexity: O(n log n) in the number of sets of the workout.
  public init(of workout: WorkoutState) {
    let document = workout.document
    let provenance = workout.provenance
    // Every performed set, to find the one done just before a given set.
    var performed: [(completedAt: Date, exercise: Int, set: Int)] = []
    var exercises: [ExerciseTiming] = []
    for log in document.logs {
      let sources = provenance[log.id] ?? []
      let recorded = !(log.setEntries?.isEmpty ?? true)
      var sets: [SetTiming] = []
      for (offset, entry) in log.effectiveSetEntries.enumerated() {
        let source = recorded && offset < sources.count ? sources[offset] : nil
        let filled = source.map { $0.kind == .filledFromPlan } ?? true
        let started = filled ? nil : source?.startedAt
        sets.append(
          SetTiming(
            number: offset + 1,
            completedAt: entry.completedAt,
            startedAt: started,
            work: started.flatMap { Self.span(from: $0, to: entry.completedAt) },
            restBefore: nil,
            isFilledFromPlan: filled,
            isFirstOfWorkout: false
          )
        )
        if !filled { performed.append((entry.completedAt, exercises.count, offset)) }
      }
      let first = sets.first { !$0.isFilledFromPlan }
      let last = sets.last { !$0.isFilledFromPlan }
      let duration = first?.startedAt.flatMap { start in
        last.flatMap { Self.span(from: start, to: $0.completedAt) }
      }
      exercises.append(
        ExerciseTiming(
          logID: log.id,
          exercise: log.exerciseName,
          duration: duration,
          volume: log.volume,
          density: Self.density(log.volume, over: duration),
          sets: sets
        )
      )
    }
    // In the order they were done (ties in the workout's order: the sort is stable).
    performed.sort { $0.completedAt < $1.completedAt }
    if let first = performed.first {
      exercises[first.exercise].sets[first.set].isFirstOfWorkout = true
    }
    for (previous, set) in zip(performed, performed.dropFirst()) {
      guard let start = exercises[set.exercise].sets[set.set].startedAt else { continue }
      exercises[set.exercise].sets[set.set].restBefore = Self.span(
        from: previous.completedAt,
        to: start
      )
    }
    let duration = document.end.flatMap { Self.span(from: document.start, to: $0) }
    self.workoutID = document.id
    self.start = document.start
    self.end = document.end
    self.duration = duration
    self.volume = document.totalVolume
    self.density = Self.density(document.totalVolume, over: duration)
    self.exercises = exercises
  }

  /// The timing of the set `number` (1-based) of log `logID`, if the workout has it.
  public func set(_ number: Int, ofLog logID: String) -> SetTiming? {
    guard let exercise = exercises.first(where: { $0.logID == logID }),
      exercise.sets.indices.contains(number - 1)
    else { return nil }
    return exercise.sets[number - 1]
  }

  /// Seconds from `start` to `end`, or nil when `end` comes first.
  static func span(from start: Date, to end: Date) -> TimeInterval? {
    let seconds = end.timeIntervalSince(start)
    return seconds >= 0 ? seconds : nil
  }

  /// Volume per minute, when there is a positive duration.
  static func density(_ volume: Double, over duration: TimeInterval?) -> Double? {
    guard let duration, duration > 0 else { return nil }
    return volume / (duration / 60)
  }
}

// MARK: - Encoding

// Encoded with every member, null when not known: a reader sees that a time is unknown, not
// that it was left out.
extension WorkoutTiming.SetTiming {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(number, forKey: .number)
    try c.encode(completedAt, forKey: .completedAt)
    try c.encode(startedAt, forKey: .startedAt)
    try c.encode(work, forKey: .work)
    try c.encode(restBefore, forKey: .restBefore)
    try c.encode(isFilledFromPlan, forKey: .isFilledFromPlan)
    try c.encode(isFirstOfWorkout, forKey: .isFirstOfWorkout)
  }
}

extension WorkoutTiming.ExerciseTiming {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(logID, forKey: .logID)
    try c.encode(exercise, forKey: .exercise)
    try c.encode(duration, forKey: .duration)
    try c.encode(volume, forKey: .volume)
    try c.encode(density, forKey: .density)
    try c.encode(sets, forKey: .sets)
  }
}

extension WorkoutTiming {
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(workoutID, forKey: .workoutID)
    try c.encode(start, forKey: .start)
    try c.encode(end, forKey: .end)
    try c.encode(duration, forKey: .duration)
    try c.encode(volume, forKey: .volume)
    try c.encode(density, forKey: .density)
    try c.encode(exercises, forKey: .exercises)
  }
}
