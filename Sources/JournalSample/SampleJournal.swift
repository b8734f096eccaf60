import Foundation
import JournalCore
import JournalProjections

/// The sample journal: five months of one lifter's training, generated
/// deterministically so that anyone can recreate it byte for byte.
///
/// ```swift
/// let summary = try SampleJournal.generate(into: URL(fileURLWithPath: "Journal"))
/// print(summary)  // events per device, workouts, sets, first and last day
/// ```
///
/// The story, June 1 to October 31, 2026, in Berlin: three splits (Push,
/// Pull, Legs) trained three or four times a week in rotation, with
/// progressive overload, missed reps and deloads. The phone and the watch both
/// record; the phone corrects some of the watch's sets afterwards. One More,
/// skipped exercises, workouts ended early, a reset, undo and redo, a deleted
/// workout, a removed exercise, mid-workout plan edits, split edits (rename
/// with a library name, move, duplicate), health metrics from the watch and
/// phone estimates, a workout logged the next morning, and a business trip to
/// New York with a workout that starts at 23:40 on August 31 local time — in
/// UTC already September — so its month folder depends on its time zone.
///
/// The first four weeks are written as older app versions wrote them (split
/// `category` and weight reminders, whole weights, the per-log `completed`
/// flag, sets that only moved the progress cursor), straight to the device
/// logs, so every rebuild runs each upcasting step of ``EventUpcasters`` on
/// real data. The rest goes through ``Journal/execute(_:device:at:now:)``
/// and ``Journal/undo(device:workout:count:now:)``, validated like any command.
///
/// Nothing depends on the machine: the devices' wall clock is the story's
/// clock, event ids come from a seeded generator, local times are computed
/// from the zones' 2026 offsets, and appends skip `fsync` (the bytes are the
/// same either way).
package enum SampleJournal {
  /// The seed of the checked-in sample.
  package static let defaultSeed: UInt64 = 20_260_601

  /// The segment size the sample's devices roll at: small, so the sample
  /// shows sealed segments.
  package static let segmentSizeLimit = 128 << 10

  /// Writes the sample journal into `url`.
  ///
  /// The same seed gives the same bytes in every file, on every machine, in
  /// any time zone, at any time.
  ///
  /// - Parameters:
  ///   - url: a folder that does not exist yet, or an empty one.
  ///   - seed: decides every random choice of the story.
  /// - Returns: what was written.
  /// - Throws: ``JournalError`` when `url` is not empty or cannot be
  ///   written; a ``CommandError`` would mean the generator issued a command
  ///   the journal refuses (a bug).
  /// - Complexity: under two thousand events, about a second in a debug build.
  @discardableResult
  package static func generate(
    into url: URL,
    seed: UInt64 = defaultSeed
  ) throws -> SampleSummary {
    let contents = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    guard contents.isEmpty else {
      throw JournalError(
        .invalidValue,
        file: url.path,
        "folder is not empty; the sample is written into a new or empty folder"
      )
    }
    let generator = try SampleGenerator(url: url, seed: seed)
    defer { generator.close() }
    try generator.run()
    return generator.summary()
  }
}

/// What ``SampleJournal/generate(into:seed:)`` wrote.
package struct SampleSummary: Sendable, Hashable, CustomStringConvertible {
  package var seed: UInt64
  /// Stored events (records), every device.
  package var eventCount: Int
  /// Stored events per device.
  package var eventsByDevice: [String: Int]
  /// Stored events written at a version older than this build writes, by
  /// `"<type> v<version>"`.
  package var legacyEvents: [String: Int]
  /// Live splits.
  package var splitCount: Int
  /// Live workouts.
  package var workoutCount: Int
  /// Deleted workouts (their stubs).
  package var deletedWorkoutCount: Int
  /// Set entries in the live workouts' documents.
  package var setCount: Int
  /// The record times of the first and last events.
  package var firstEvent: Date
  package var lastEvent: Date

  package var description: String {
    let format = ISO8601DateFormatter()
    let devices = eventsByDevice.keys.sorted().map { "\($0) \(eventsByDevice[$0] ?? 0)" }
    let legacy = legacyEvents.values.reduce(0, +)
    return """
      seed \(seed): \(eventCount) events (\(devices.joined(separator: ", "))), \
      \(legacy) at older versions
      \(splitCount) splits, \(workoutCount) workouts (+\(deletedWorkoutCount) deleted), \
      \(setCount) sets
      from \(format.string(from: firstEvent)) to \(format.string(from: lastEvent))
      """
  }
}
