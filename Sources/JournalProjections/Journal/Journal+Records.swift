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
    if let answer = try fromExerciseIndex(upTo: point, { try $0.exercises(named: reference) }) {
      return answer.compactMap(\.records)
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
  ///   - newest: only this many of the newest points (what a chart of that many bars
  ///     shows), read from the newest year back; nil for all of them.
  /// - Returns: the exercise's points, oldest first.
  /// - Throws: ``CommandError`` for an unknown or ambiguous name, or an exercise with no
  ///   set; ``ScopeTooNarrow`` as ``records(exercise:upTo:)``, and when the name matches
  ///   sets of several exercises.
  public func progression(
    of reference: String,
    upTo point: Replayer.Point? = nil,
    newest: Int? = nil
  ) throws
    -> Progression
  {
    let fromIndex = try fromExerciseIndex(upTo: point) { index -> Progression in
      let (name, exercises) = try index.resolve(reference)
      guard exercises.count <= 1, exercises.allSatisfy({ $0.match(name).every }) else {
        throw ScopeTooNarrow()
      }
      guard let exercise = exercises.first, exercise.rows > 0 else {
        throw Self.noSets(of: name)
      }
      return Progression(
        exercise: exercise.exercise,
        points: try index.points(of: exercise.exercise, newest: newest)
      )
    }
    if let fromIndex { return fromIndex }
    let state = self.state(upTo: point)
    let name = try state.exerciseName(reference)
    let audit = Audit(
      state: state,
      history: Array(Replayer.prefix(history, upTo: point)),
      filter: AuditFilter(exercise: name, includeReverted: false)
    )
    guard !audit.rows.isEmpty else { throw Self.noSets(of: name) }
    var progression = audit.progression(of: name, in: state)
    if let newest { progression.points = Array(progression.points.suffix(newest)) }
    return progression
  }

  private static func noSets(of name: String) -> CommandError {
    CommandError("no sets of exercise '\(name)'", hint: "name it as in 'journal records'")
  }

  /// What `read` answers from the saved state's exercise index when this journal reads
  /// from one; nil for a journal of its whole history.
  ///
  /// A file of the index found damaged makes the saved state start again from a full read
  /// at the next command, and this one read the whole history (``ScopeTooNarrow``).
  private func fromExerciseIndex<T>(
    upTo point: Replayer.Point?,
    _ read: (ExerciseIndex.Reader) throws -> T
  ) throws -> T? {
    guard let scoped = store as? ScopedEventStore else { return nil }
    guard point == nil else { throw ScopeTooNarrow() }
    do {
      return try scoped.state.readingExercises { files in
        try read(ExerciseIndex.Reader(files: files, state: scoped.state))
      }
    } catch is SavedState.Untrusted {
      scoped.state.distrust()
      throw ScopeTooNarrow()
    } catch is SavedState.Unavailable {
      throw ScopeTooNarrow()
    }
  }
}
