import Foundation

/// One performed set in an ``Audit``.
public struct AuditRow: Codable, Sendable, Hashable {
  /// How the set's values came to be.
  public enum Provenance: String, Codable, Sendable, Hashable, CaseIterable {
    /// Recorded live with the values done.
    case recorded
    /// Recorded, then corrected: see ``AuditRow/original`` and
    /// ``AuditRow/adjustments``.
    case adjusted
    /// Filled in from the plan when the log was completed: not actually
    /// recorded (also a legacy completed log without entries).
    case filledFromPlan
    /// A legacy progress-cursor event: the set was done, its values are the plan's.
    case cursorOnly
    /// Cancelled by undo, redo or rewind: no longer counts.
    case reverted
    /// An entry the fold kept no provenance for.
    case unattributed

    init(_ kind: EntryProvenance.Kind) {
      switch kind {
      case .recorded: self = .recorded
      case .cursorOnly: self = .cursorOnly
      case .filledFromPlan: self = .filledFromPlan
      }
    }

    /// Whether the values are what the lifter did, not the plan's: recorded
    /// live, or corrected by the lifter afterwards.
    public var isActual: Bool { self == .recorded || self == .adjusted }
  }

  /// One correction of the set.
  public struct Adjustment: Codable, Sendable, Hashable {
    public var eventID: String
    /// When the correction was made.
    public var at: Date
    public var device: String
    /// The fields the correction set.
    public var values: SetValues
  }

  /// Where an imported set came from: the tracker, the file and line, and what the file said
  /// of the set beyond its values (``ImportedSet``).
  public struct Origin: Codable, Sendable, Hashable {
    public var source: HistorySource
    public var file: String
    public var set: ImportedSet
  }

  /// When the set was done (its entry's `completedAt`; for a reverted set,
  /// when it was recorded).
  ///
  /// An imported set has no time of its own: it carries its workout's start (``origin``).
  public var date: Date
  /// The workout's time zone identifier: `date` reads in it.
  public var timeZone: String
  public var workoutID: String
  public var splitName: String?
  public var logID: String
  /// The display name of the exercise.
  public var exercise: String
  public var libraryName: String?
  public var loadType: LoadType
  /// 1-based; nil for a reverted set (it holds no place any more).
  public var setNumber: Int?
  /// The log's plan for one set.
  public var planned: SetValues
  public var actual: SetValues
  /// The device that recorded the set, or completed the log for a filled one.
  public var device: String
  /// The event that recorded the set, or completed the log for a filled one.
  public var eventID: String
  public var provenance: Provenance
  /// How the set was first recorded (before adjustment or revert).
  public var recordedAs: Provenance?
  /// What was first recorded, for an adjusted set.
  public var original: SetValues?
  /// The corrections, oldest first.
  public var adjustments: [Adjustment] = []
  /// The revert that cancelled the set.
  public var revertedBy: String?
  /// For a set imported from another tracker, where it came from; nil for a set recorded here.
  public var origin: Origin?
  /// When the set started, its work and the rest before it (``WorkoutTiming``); nil for a
  /// reverted set, which no longer holds a place in its workout's timeline.
  public var timing: WorkoutTiming.SetTiming?

  /// Whether the set is a warm-up (an imported set marked so): records and e1RM leave it out;
  /// volume counts it (docs/Import.md).
  public var isWarmUp: Bool { origin?.set.kind == .warmUp }

  /// `actual − planned`, per field.
  public var deviation: SetValues { actual.deviation(from: planned) }

  /// reps × weight for a weighted set, else 0.
  public var volume: Double { loadType == .weight ? actual.volume : 0 }

  /// The name records and totals group by: the library name, else the display name.
  public var exerciseKey: String { libraryName ?? exercise }

  /// Whether `name` is the display or library name, ignoring case.
  public func matches(exercise name: String) -> Bool {
    exercise.caseInsensitiveCompare(name) == .orderedSame
      || libraryName?.caseInsensitiveCompare(name) == .orderedSame
  }

  static func precedes(_ a: AuditRow, _ b: AuditRow) -> Bool {
    if a.date != b.date { return a.date < b.date }
    if a.workoutID != b.workoutID { return a.workoutID < b.workoutID }
    if a.logID != b.logID { return a.logID < b.logID }
    return (a.setNumber ?? .max, a.eventID) < (b.setNumber ?? .max, b.eventID)
  }
}

/// Sets, reps and volume of a group of rows.
public struct AuditTotals: Codable, Sendable, Hashable {
  /// The workout id, or the exercise's library name.
  public var key: String
  /// The split name, or the exercise's name.
  public var name: String
  public var sets: Int
  public var reps: Int
  /// Σ reps × weight of weighted sets.
  public var volume: Double
  /// Σ seconds of timed sets.
  public var seconds: Int
  /// For a workout's totals, its whole duration in seconds (``WorkoutTiming/duration``),
  /// whatever the filter kept; nil while in progress, and for an exercise's totals.
  public var duration: TimeInterval?
  /// For a workout's totals, the whole workout's volume per minute (``WorkoutTiming/density``).
  public var density: Double?

  /// Totals per key, gathered a row at a time, in the order keys first appear.
  struct Grouping {
    private let key: (AuditRow) -> (key: String, name: String)
    /// The totals, in the order their keys first appeared.
    private(set) var totals: [AuditTotals] = []
    /// The index in ``totals`` of each key.
    private var index: [String: Int] = [:]

    init(by key: @escaping (AuditRow) -> (key: String, name: String)) { self.key = key }

    /// Counts `row` in its key's totals.
    mutating func add(_ row: AuditRow) {
      let (k, name) = key(row)
      let at: Int
      if let known = index[k] {
        at = known
      } else {
        at = totals.count
        index[k] = at
        totals.append(AuditTotals(key: k, name: name, sets: 0, reps: 0, volume: 0, seconds: 0))
      }
      totals[at].sets += 1
      totals[at].reps += row.actual.reps ?? 0
      totals[at].volume += row.volume
      totals[at].seconds += row.actual.seconds ?? 0
    }
  }
}
