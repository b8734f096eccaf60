import Foundation
import JournalCore

/// How a set entry came to be, for audit and blame.
struct EntryProvenance: Sendable, Hashable {
  enum Kind: String, Sendable, Hashable {
    /// Recorded live by a `set.completed` with actuals.
    case recorded
    /// A legacy progress-cursor event: the set was done, its values are the plan's.
    case cursorOnly
    /// Filled in from the plan when the log was completed.
    case filledFromPlan
  }

  var kind: Kind
  /// The event that recorded the set, or that completed the log for a filled one.
  var event: EventID
  /// For a set filled in by a completion, its number among the sets that completion filled
  /// (from 1); 0 for a set recorded by its own event.
  var filled: Int
  var device: String
  /// What was first recorded, before any adjustment.
  var original: SetEntry
  /// The adjustments, oldest first.
  var adjustments: [String]
  /// When work on the set began, as its `set.completed` said (version 3); nil when not known.
  var startedAt: Date?

  init(
    kind: Kind,
    event: EventID,
    filled: Int = 0,
    device: String,
    original: SetEntry,
    adjustments: [String] = [],
    startedAt: Date? = nil
  ) {
    self.kind = kind
    self.event = event
    self.filled = filled
    self.device = device
    self.original = original
    self.adjustments = adjustments
    self.startedAt = startedAt
  }

  /// The text of ``event``.
  var eventID: String { event.description }

  /// How `set.adjusted` names this set: the id of the event that recorded it, or `<completing event
  /// id>/<n>` for the n-th set filled in by one completion.
  ///
  /// Both survive undo and merges because they are made of event ids. Made when asked: the
  /// fold records a source for every set and reads the key only to find an adjusted one.
  var key: String { filled == 0 ? eventID : "\(eventID)/\(filled)" }
}

/// A split and what the fold knows about it beyond its document.
public struct SplitState: Sendable, Hashable {
  public var document: SplitDocument
  public var isStarter: Bool
  /// Set once deleted: the document then lives on only as a stub.
  public var deletedAt: Date?
}

/// A workout and what the fold knows about it beyond its document.
public struct WorkoutState: Sendable, Hashable {
  public var document: WorkoutDocument
  /// The time zone of the device that started it: decides its month folder.
  public var timeZone: TimeZone
  public var deletedAt: Date?
  /// Per log id, the provenance of each set entry, parallel to the log's `setEntries`; a log
  /// with no entries has none.
  var provenance: [String: [EntryProvenance]] = [:]
  /// A metrics volume given by the recording device, else computed.
  var recordedVolume: Double?

  /// The document's path in the container, from `start` in the workout's zone.
  public var path: String {
    DocumentPath.workout(id: document.id, start: document.start, timeZone: timeZone)
  }

  /// The log with `id`.
  public func log(_ id: String) -> WorkoutLogDocument? {
    logIndex(id).map { document.logs[$0] }
  }

  /// Where the log with `id` is in `document.logs`.
  func logIndex(_ id: String) -> Int? { document.logs.firstIndex { $0.id == id } }
}

/// The folded journal: every split and workout, live or deleted, and the
/// anomalies met on the way.
public struct JournalState: Sendable {
  public internal(set) var splits: [String: SplitState] = [:]
  public internal(set) var workouts: [String: WorkoutState] = [:]
  var anomalies: [Anomaly] = []
  /// "Now" for the fold: the record time of the last event folded.
  public internal(set) var now: Date?
  /// How many events were folded.
  public internal(set) var eventCount = 0
  public init() {}

  /// Whether nothing has been folded into the state.
  public var isEmpty: Bool {
    eventCount == 0 && splits.isEmpty && workouts.isEmpty && anomalies.isEmpty && now == nil
  }

  /// Live splits, sorted by order then id.
  public var liveSplits: [SplitState] {
    splits.values.filter { $0.deletedAt == nil }.sorted {
      ($0.document.order, $0.document.id) < ($1.document.order, $1.document.id)
    }
  }

  /// Live workouts, oldest first (by start, then id).
  public var liveWorkouts: [WorkoutState] {
    liveWorkouts(openOnly: false).sorted(by: Self.startsBefore)
  }

  /// The last of ``liveWorkouts``, found in one pass: a command that needs only the newest
  /// workout does not copy and sort every workout of the journal.
  public var latestLiveWorkout: WorkoutState? {
    var latest: [String: WorkoutState].Index?
    for index in workouts.indices where workouts.values[index].deletedAt == nil {
      if let found = latest, !Self.startsBefore(workouts.values[found], workouts.values[index]) {
        continue
      }
      latest = index
    }
    return latest.map { workouts.values[$0] }
  }

  /// The live workouts still in progress (not completed or skipped), oldest first.
  public var openWorkouts: [WorkoutState] {
    liveWorkouts(openOnly: true).sorted(by: Self.startsBefore)
  }

  /// The live workouts, or only those still in progress, in no order.
  ///
  /// Each is asked where it lies, and only those kept are copied: `filter` on the values (or a
  /// closure given each workout) hands every workout over as a copy, a retain and a release of
  /// each reference in it, which for a command that wants the open workout of a long journal
  /// was most of its work.
  private func liveWorkouts(openOnly: Bool) -> [WorkoutState] {
    var found: [WorkoutState] = []
    for index in workouts.indices where workouts.values[index].deletedAt == nil {
      if openOnly, workouts.values[index].document.status.isResolved { continue }
      found.append(workouts.values[index])
    }
    return found
  }

  /// The order of ``liveWorkouts``: by start, then id.
  static func startsBefore(_ a: WorkoutState, _ b: WorkoutState) -> Bool {
    WorkoutKey(a) < WorkoutKey(b)
  }

  /// A workout's place in the order of ``liveWorkouts``: its start, then its id.
  struct WorkoutKey: Equatable, Comparable {
    var start: Date
    var id: String

    init(_ workout: WorkoutState) {
      start = workout.document.start
      id = workout.document.id
    }

    init(start: Date, id: String) {
      self.start = start
      self.id = id
    }

    static func < (a: WorkoutKey, b: WorkoutKey) -> Bool { (a.start, a.id) < (b.start, b.id) }
  }
}
