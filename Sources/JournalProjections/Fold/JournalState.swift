import Foundation
import JournalCore

/// How a set entry came to be, for audit and blame.
public struct EntryProvenance: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable {
    /// Recorded live by a `set.completed` with actuals.
    case recorded
    /// A legacy progress-cursor event: the set was done, its values are the plan's.
    case cursorOnly
    /// Filled in from the plan when the log was completed.
    case filledFromPlan
  }

  public var kind: Kind
  /// The event that recorded the set, or that completed the log for a filled one.
  public var event: EventID
  /// For a set filled in by a completion, its number among the sets that completion filled
  /// (from 1); 0 for a set recorded by its own event.
  public var filled: Int
  public var device: String
  /// What was first recorded, before any adjustment.
  public var original: SetEntry
  /// The adjustments, oldest first.
  public var adjustments: [String]
  /// When work on the set began, as its `set.completed` said (version 3); nil when not known.
  public var startedAt: Date?

  public init(
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
  public var eventID: String { event.description }

  /// How `set.adjusted` names this set: the id of the event that recorded it, or `<completing event
  /// id>/<n>` for the n-th set filled in by one completion.
  ///
  /// Both survive undo and merges because they are made of event ids. Made when asked: the
  /// fold records a source for every set and reads the key only to find an adjusted one.
  public var key: String { filled == 0 ? eventID : "\(eventID)/\(filled)" }
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
  /// A metrics volume given by the recording device, else computed.
  var recordedVolume: Double?
  /// The sources of each log's set entries (``provenance``), one slot a log in the order of
  /// `document.logs`, then any for ids the document has no log for, in the order of the ids.
  ///
  /// The fold finds a log's sources beside the log, by its index, instead of hashing its id
  /// for every event: a slot names its log with the document's own copy of the id, so
  /// checking that it still lines up compares two pointers. Whatever changes `document.logs`
  /// lines the slots up again (``alignSources()``); the fold does it as it changes them, and
  /// a slot found out of line is lined up before it is used.
  var sources: [LogSources] = []

  /// The document's path in the container, from `start` in the workout's zone.
  public var path: String {
    DocumentPath.workout(id: document.id, start: document.start, timeZone: timeZone)
  }

  /// The log with `id`.
  public func log(_ id: String) -> WorkoutLogDocument? {
    logIndex(id).map { document.logs[$0] }
  }

  /// Where the log with `id` is in `document.logs`.
  ///
  /// Every log is tried by identity before any id is compared as text
  /// (`String.isIdentical(to:)`): comparing two different ids costs a call, and a log's
  /// events mostly name it with one string, shared as they were read (`RecentStrings`).
  func logIndex(_ id: String) -> Int? {
    document.logs.withUnsafeBufferPointer { Self.logIndex(id, in: $0)?.index }
  }

  /// ``logIndex(_:)`` in `logs`, and whether the log's id is `id`'s very storage.
  ///
  /// Static, over a buffer: neither the workout nor a log is copied to be read.
  private static func logIndex(
    _ id: String,
    in logs: UnsafeBufferPointer<WorkoutLogDocument>
  ) -> (index: Int, identical: Bool)? {
    for index in logs.indices where logs[index].id.isIdentical(to: id) { return (index, true) }
    for index in logs.indices where logs[index].id == id { return (index, false) }
    return nil
  }

  /// ``logIndex(_:)`` for the fold: a log found by its text keeps `id`'s storage from then
  /// on (an equal string), as its sources' slot does.
  ///
  /// The events that name a log were read in runs, one device's at a time, and the log's
  /// id came from the event that started the workout, often on another device (sets
  /// recorded on the watch of a workout started on the phone): each event of such a log
  /// compared ids as text. Taking the storage of the first one found this way, the rest of
  /// the run, which shares it, is found by identity.
  mutating func logIndex(adopting id: String) -> Int? {
    guard
      let (index, identical) = document.logs.withUnsafeBufferPointer({ Self.logIndex(id, in: $0) })
    else { return nil }
    if !identical {
      let slot = sourcesSlot(ofLogAt: index)
      document.logs[index].id = id
      sources[slot].logID = id
    }
    return index
  }
}

/// The sources of one log's set entries, kept in ``WorkoutState/sources``.
struct LogSources: Sendable, Hashable {
  var logID: String
  /// Parallel to the log's `setEntries`; nil when it has none.
  var entries: [EntryProvenance]?
}

extension WorkoutState {
  init(
    document: WorkoutDocument,
    timeZone: TimeZone,
    deletedAt: Date?,
    provenance: [String: [EntryProvenance]],
    recordedVolume: Double?
  ) {
    self.init(
      document: document,
      timeZone: timeZone,
      deletedAt: deletedAt,
      recordedVolume: recordedVolume
    )
    self.provenance = provenance
  }

  /// Per log id, the provenance of each set entry, parallel to the log's `setEntries`.
  public var provenance: [String: [EntryProvenance]] {
    get {
      var byLog: [String: [EntryProvenance]] = [:]
      byLog.reserveCapacity(sources.count)
      for slot in sources { if let entries = slot.entries { byLog[slot.logID] = entries } }
      return byLog
    }
    set {
      sources = []
      alignSources(adding: newValue)
    }
  }

  /// Lines ``sources`` up with `document.logs` again: a slot for each log, in order, with
  /// the sources it had (and `extra`'s), then the sources of ids the document has no log
  /// for, in the order of the ids.
  mutating func alignSources(adding extra: [String: [EntryProvenance]] = [:]) {
    // No sources to carry over (a workout just started): an empty slot a log.
    if extra.isEmpty, !sources.contains(where: { $0.entries != nil }) {
      sources = document.logs.map { LogSources(logID: $0.id, entries: nil) }
      return
    }
    var remaining = extra
    remaining.reserveCapacity(sources.count + extra.count)
    for slot in sources { if let entries = slot.entries { remaining[slot.logID] = entries } }
    var aligned: [LogSources] = []
    aligned.reserveCapacity(document.logs.count)
    for log in document.logs {
      aligned.append(LogSources(logID: log.id, entries: remaining.removeValue(forKey: log.id)))
    }
    for id in remaining.keys.sorted() {
      aligned.append(LogSources(logID: id, entries: remaining[id]))
    }
    sources = aligned
  }

  /// The slot of ``sources`` of the log at `index` in `document.logs`, lined up first when
  /// it is not.
  mutating func sourcesSlot(ofLogAt index: Int) -> Int {
    if index < sources.count, sources[index].logID == document.logs[index].id { return index }
    alignSources()
    return index
  }
}

/// The folded journal: every split and workout, live or deleted, and the
/// anomalies met on the way.
public struct JournalState: Sendable {
  public internal(set) var splits: [String: SplitState] = [:]
  public internal(set) var workouts: [String: WorkoutState] = [:] {
    didSet { lastEdited = nil }
  }
  public internal(set) var anomalies: [Anomaly] = []
  /// "Now" for the fold: the record time of the last event folded.
  public internal(set) var now: Date?
  /// How many events were folded.
  public internal(set) var eventCount = 0
  /// The workout edited last, and where it lies in ``workouts``.
  ///
  /// A workout's events come in runs, so the next one finds it without hashing its id. Any
  /// change to ``workouts`` forgets it (its indices may move); an edit in place remembers it
  /// again.
  var lastEdited: (id: String, index: [String: WorkoutState].Index)?

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
