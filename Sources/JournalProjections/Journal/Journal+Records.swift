import Foundation
import JournalCore

extension Journal {
  /// Personal records per exercise, as `journal records` shows them (``ExerciseRecords``).
  ///
  /// A journal opened with a scope (``open(store:scope:newID:readOnly:)``) answers from the
  /// saved state's exercise index without reading any workout; else from its whole history.
  ///
  /// - Parameters:
  ///   - reference: only the exercise this names (display or library name, or a unique
  ///     prefix: ``JournalState/exerciseName(_:)``); nil for every exercise.
  ///   - point: the history up to this point; nil for all of it.
  /// - Returns: the records of each exercise, by name (ignoring case).
  /// - Throws: ``CommandError`` for a name that names no exercise or several;
  ///   ``ScopeTooNarrow`` when a scoped journal cannot answer (a point in history, or a name
  ///   that matches some of an exercise's sets and not others): open it with
  ///   ``StateScope/all`` then.
  public func records(
    exercise reference: String?,
    upTo point: Replayer.Point? = nil
  ) throws
    -> [ExerciseRecords]
  {
    if let index = try exerciseIndex(upTo: point) {
      let exercises = try trusting { try index.exercises(named: reference) }
      return exercises.compactMap(\.records)
        .sorted { $0.exercise.lowercased() < $1.exercise.lowercased() }
    }
    let state = self.state(upTo: point)
    let audit = Audit(
      state: state,
      history: Array(Replayer.prefix(history, upTo: point)),
      filter: AuditFilter(
        exercise: try reference.map { try state.exerciseName($0) },
        includeReverted: false
      )
    )
    return ExerciseRecords.all(from: audit.rows)
  }

  /// The progression of one exercise, workout by workout, as `journal chart` draws it.
  ///
  /// Answers from the saved state as ``records(exercise:upTo:)`` does.
  ///
  /// - Parameters:
  ///   - reference: the exercise (display or library name, or a unique prefix).
  ///   - point: the history up to this point; nil for all of it.
  /// - Returns: the exercise's points, oldest first.
  /// - Throws: ``CommandError`` for an unknown or ambiguous name, or an exercise with no
  ///   set; ``ScopeTooNarrow`` as ``records(exercise:upTo:)``, and when the name matches
  ///   sets of several exercises.
  public func progression(
    of reference: String,
    upTo point: Replayer.Point? = nil
  ) throws
    -> Progression
  {
    if let index = try exerciseIndex(upTo: point) {
      let (name, exercises) = try trusting { try index.resolve(reference) }
      guard exercises.count <= 1, exercises.allSatisfy({ $0.match(name).every }) else {
        throw ScopeTooNarrow()
      }
      guard let exercise = exercises.first, exercise.rows > 0 else {
        throw Self.noSets(of: name)
      }
      let points = try trusting { try index.points(of: exercise.exercise) }
      return Progression(exercise: exercise.exercise, points: points)
    }
    let state = self.state(upTo: point)
    let name = try state.exerciseName(reference)
    let audit = Audit(
      state: state,
      history: Array(Replayer.prefix(history, upTo: point)),
      filter: AuditFilter(exercise: name, includeReverted: false)
    )
    guard !audit.rows.isEmpty else { throw Self.noSets(of: name) }
    return audit.progression(of: name, in: state)
  }

  /// Runs `body`; a file of the index found damaged makes the saved state start again from
  /// a full read at the next command, and this one read the whole history.
  private func trusting<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch is SavedState.Untrusted {
      (store as? ScopedEventStore)?.state.distrust()
      throw ScopeTooNarrow()
    }
  }

  private static func noSets(of name: String) -> CommandError {
    CommandError("no sets of exercise '\(name)'", hint: "name it as in 'journal records'")
  }

  /// The saved state's exercise index when this journal reads from one: nil for a journal
  /// of its whole history.
  private func exerciseIndex(upTo point: Replayer.Point?) throws -> ExerciseIndex.Reader? {
    guard let scoped = store as? ScopedEventStore else { return nil }
    guard point == nil else { throw ScopeTooNarrow() }
    do {
      try scoped.state.refreshExercises()
    } catch is SavedState.Untrusted {
      scoped.state.distrust()
      throw ScopeTooNarrow()
    } catch is SavedState.Unavailable {
      throw ScopeTooNarrow()
    }
    return ExerciseIndex.Reader(files: scoped.state.files, state: scoped.state)
  }
}
