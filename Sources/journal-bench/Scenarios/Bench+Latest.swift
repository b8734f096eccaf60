import Foundation

extension Bench {
  /// Starts a workout of the latest workout's split on the device `bench`, a day after the
  /// latest workout, and sets `WORKOUT_NOW` to that day for the commands that follow (the
  /// caller unsets it): the generated story runs into the 2060s at 1M, so commands act after
  /// its last workout, as B5 dates its event after the last one.
  ///
  /// - Parameters:
  ///   - status: the output of `journal status --json`, the latest workout.
  ///   - run: runs a `journal` command on the journal.
  /// - Returns: the latest workout's id, its first exercise, and when the new workout started.
  /// - Throws: ``BenchError`` when the latest workout has no split, exercise or time; what
  ///   `run` throws.
  static func startAfterTheLast(
    _ status: String,
    run: ([String]) throws -> String
  ) throws -> (workout: String, exercise: String, start: Date) {
    guard
      let latest = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any],
      let split = latest["splitID"] as? String,
      let logs = latest["logs"] as? [[String: Any]],
      let exercise = logs.first?["exerciseName"] as? String,
      let workout = latest["id"] as? String
    else { throw BenchError("the latest workout names no split or exercise") }
    guard let started = (latest["end"] ?? latest["start"]) as? String,
      let last = try? Date(started, strategy: .iso8601)
    else { throw BenchError("the latest workout has no time") }
    let start = last + 86_400
    setenv("WORKOUT_NOW", start.formatted(.iso8601), 1)
    _ = try run(["start", split, "--device", "bench", "--time-zone", "UTC"])
    return (workout, exercise, start)
  }
}
