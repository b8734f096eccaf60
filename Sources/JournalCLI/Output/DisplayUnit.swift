import JournalProjections

/// The weight unit a run of `journal` labels weights with: `--unit`, else `$WORKOUT_UNIT`,
/// else none.
///
/// As in the app, a unit is a display label only: stored weights are unit-less and are never
/// converted or rewritten. It is task-local so that the many output functions need no extra
/// parameter, and in-process runs on several tasks at once (tests) never see each other's.
enum DisplayUnit {
  @TaskLocal static var current: WeightUnit?

  /// `100 kg` with a unit, `100` without.
  static func weight(_ value: Double) -> String {
    let number = WeightUnit.number(value)
    return current.map { "\(number) \($0.rawValue)" } ?? number
  }

  /// The unit named by `--unit` or `$WORKOUT_UNIT`.
  ///
  /// - Throws: ``UsageError`` for a name other than `kg` or `lb`.
  static func parse(
    option: String?,
    environment: [String: String]
  ) throws(UsageError)
    -> WeightUnit?
  {
    if let option {
      guard let unit = WeightUnit(rawValue: option.lowercased()) else {
        throw UsageError("unknown unit '\(option)': use 'kg' or 'lb'")
      }
      return unit
    }
    guard let variable = environment["WORKOUT_UNIT"], !variable.isEmpty else { return nil }
    guard let unit = WeightUnit(rawValue: variable.lowercased()) else {
      throw UsageError("unknown unit '\(variable)' in WORKOUT_UNIT: use 'kg' or 'lb'")
    }
    return unit
  }

  /// `volume` and similar JSON members get the label beside the numbers when one is set.
  static func label(_ object: inout [String: Any]) {
    if let current { object["unit"] = current.rawValue }
  }
}
