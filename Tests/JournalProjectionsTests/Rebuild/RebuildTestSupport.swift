import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// Every document file under `folder` (hidden files left out), by relative path.
func documentFiles(in folder: URL) throws -> [String: Data] {
  var result: [String: Data] = [:]
  let manager = FileManager.default
  guard let walker = manager.enumerator(atPath: folder.path) else { return result }
  while let relative = walker.nextObject() as? String {
    let url = folder.appendingPathComponent(relative)
    let isHidden = relative.split(separator: "/").contains { $0.hasPrefix(".") }
    let attributes = try manager.attributesOfItem(atPath: url.path)
    if !isHidden, attributes[.type] as? FileAttributeType == .typeRegular {
      result[relative] = try Data(contentsOf: url)
    }
  }
  return result
}

/// Hidden temporary files left under `folder`.
func temporaryFiles(in folder: URL) -> [String] {
  let walker = FileManager.default.enumerator(atPath: folder.path)
  var result: [String] = []
  while let relative = walker?.nextObject() as? String {
    if relative.hasSuffix(".rebuild-tmp") { result.append(relative) }
  }
  return result
}

/// Expects the documents on disk to be exactly `expected`, naming the first difference.
func expectTree(
  _ folder: URL,
  equals expected: [String: Data],
  _ comment: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let actual = try documentFiles(in: folder)
  let missing = Set(expected.keys).subtracting(actual.keys).sorted()
  let extra = Set(actual.keys).subtracting(expected.keys).sorted()
  let different = expected.keys.filter { actual[$0] != nil && actual[$0] != expected[$0] }.sorted()
  #expect(missing.isEmpty, "\(comment) missing \(missing)", sourceLocation: sourceLocation)
  #expect(extra.isEmpty, "\(comment) extra \(extra)", sourceLocation: sourceLocation)
  for path in different.prefix(3) {
    Issue.record(
      "\(comment) \(path): \(firstDifference(expected[path] ?? Data(), actual[path] ?? Data()))",
      sourceLocation: sourceLocation
    )
  }
}

/// A random session's events (many undos and redos, redos of redos) written to files, one
/// writer per device, each event at its own time: a journal a ``StreamedHistory`` can read.
func makeFileJournal(seed: UInt64, steps: Int) throws -> URL {
  var session = try RandomSession(seed: seed)
  for _ in 0..<steps { session.step() }
  let mirror = try FileMirror()
  try mirror.append(try session.harness.store.readHistory().events)
  return mirror.url
}

/// A journal in files fed with the events of another (a harness in memory): what the saved
/// state and an incremental rebuild read.
///
/// Each device appends through its own writer, each event at its own time, so that a
/// device's events held back and appended later arrive late, before events already there.
final class FileMirror {
  let url: URL
  private let log: EventLog
  private var writers: [String: DeviceWriter] = [:]
  private let clock = WallClock()
  /// How many of a harness's events ``sync(_:)`` has appended.
  private var copied = 0

  init() throws {
    url = try makeTemporaryDirectory("file-journal")
    log = try EventLog.create(at: url)
  }

  deinit {
    for writer in writers.values { writer.close() }
  }

  /// Appends `events`, each through its device's writer at its own time.
  func append(_ events: some Sequence<StoredEvent>) throws {
    for event in events {
      let writer: DeviceWriter
      if let open = writers[event.device] {
        writer = open
      } else {
        let clock = self.clock
        writer = try log.openWriter(
          device: event.device,
          options: DeviceWriter.Options(durability: .none, wallClock: { clock.milliseconds })
        )
        writers[event.device] = writer
      }
      clock.milliseconds = event.milliseconds
      try writer.append([
        NewEvent(
          stream: event.stream,
          type: event.type,
          version: event.version,
          payload: event.payload,
          id: ULID(event.id)
        )
      ])
    }
  }

  /// Appends the events of `harness` not appended yet.
  func sync(_ harness: JournalHarness) throws {
    let stored = harness.store.stored
    try append(stored[copied...])
    copied = stored.count
  }

  /// Brings `output` up to date from the saved state, after appending what `harness` has
  /// that the files do not.
  @discardableResult
  func rebuild(
    _ harness: JournalHarness? = nil,
    into output: URL,
    options: RebuildOptions = RebuildOptions()
  ) throws -> RebuildReport {
    if let harness { try sync(harness) }
    return try Rebuild.run(store: try FileEventStore(url: url), output: output, options: options)
  }

  /// The journal in the files, replayed whole.
  func journal() throws -> Journal {
    try Journal(store: try FileEventStore(url: url), newID: { "" })
  }

  /// The tree a full replay of the files renders.
  func expectedTree() throws -> [String: Data] {
    try journal().state().documentTree()
  }
}

/// A history's events handed on in random parts, as a sync service delivers them: the
/// phone's as they come; the watch's held back while it is offline, then delivered late,
/// before events already delivered.
struct LateDeliveries {
  private var waiting: ArraySlice<StoredEvent>
  private var heldBack: [StoredEvent] = []

  init(_ events: [StoredEvent]) {
    waiting = events[...]
  }

  /// Whether every event was handed on.
  var isEmpty: Bool { waiting.isEmpty && heldBack.isEmpty }

  /// The next part.
  mutating func next(using random: inout SplitMix64) -> [StoredEvent] {
    let watchOffline = Int.random(in: 0..<3, using: &random) == 0 && !waiting.isEmpty
    var delivered: [StoredEvent] = []
    for _ in 0..<Int.random(in: 1...14, using: &random) {
      guard let event = waiting.popFirst() else { break }
      if event.device == "watch", watchOffline {
        heldBack.append(event)
      } else {
        delivered.append(event)
      }
    }
    if !watchOffline {
      delivered = heldBack + delivered
      heldBack = []
    }
    return delivered
  }
}

/// The wall clock of a ``FileMirror``'s writers, set before each append.
private final class WallClock: @unchecked Sendable {
  var milliseconds: Int64 = 0
}

/// A device syncs a split it created a second after the journal's first event: an event
/// merged before everything folded since.
func deliverLateSplit(to h: JournalHarness) throws {
  var late = try #require(h.store.stored.first)
  late.id = "01JLATE0000000000000000000"
  late.device = "watch"
  late.stream = "split:01JLATESPLIT00000000000000"
  late.milliseconds += 1000
  h.store.deliver([late])
  try h.journal.reload()
}

/// The tree the journal's state renders, as the rebuild must write it.
func expectedTree(_ journal: Journal, asOf point: Replayer.Point? = nil) throws -> [String: Data] {
  try journal.state(upTo: point).documentTree()
}

/// Drives a journal with random but plausible commands from a seed: splits,
/// workouts on two devices in several zones, sets, adjustments, skips, resets,
/// removed logs, deletions, undo and redo, and clock jumps past the 30-day grace.
struct RandomSession {
  let harness: JournalHarness
  var random: SplitMix64
  private var splitCount = 0

  init(seed: UInt64, start: Date = Date(timeIntervalSince1970: 1_767_225_600)) throws {
    harness = try JournalHarness(now: start)
    random = SplitMix64(seed: seed)
    splitCount = 1
    try harness.makeUpperBody(name: "Split 1")
  }

  var journal: Journal { harness.journal }

  /// Runs one random step; refused commands are simply skipped.
  mutating func step() {
    let device = Bool.random(using: &random) ? "phone" : "watch"
    let state = harness.state
    let splits = state.liveSplits.map(\.document.name)
    let workouts = state.workouts.values.filter { $0.deletedAt == nil }.map(\.document.id).sorted()
    let roll = Int.random(in: 0..<100, using: &random)
    do {
      switch roll {
      case 0..<6 where splitCount < 4 || splits.isEmpty:
        splitCount += 1
        try harness.makeUpperBody(name: "Split \(splitCount)")
      case 0..<12:
        let zones = ["Europe/Paris", "America/Los_Angeles", "Pacific/Auckland", "UTC"]
        guard let split = splits.randomElement(using: &random) else { return }
        try run(
          .startWorkout(split: split, timeZone: zones.randomElement(using: &random) ?? "UTC"),
          device
        )
      case 12..<40:
        let reps = Int.random(in: 1...12, using: &random)
        try run(
          .completeSet(
            workout: nil,
            exercise: nil,
            SetActuals(reps: reps),
            keepOpen: Bool.random(using: &random)
          ),
          device
        )
      case 40..<46:
        try run(.adjustSet(workout: nil, exercise: nil, set: nil, SetActuals(weight: 42.5)), device)
      case 46..<50: try run(.addSet(workout: nil, exercise: nil), device)
      case 50..<56: try run(.completeLog(workout: nil, exercise: nil), device)
      case 56..<60: try run(.skipLog(workout: nil, exercise: nil), device)
      case 60..<63: try run(.resetLog(workout: nil, exercise: "Bench Press"), device)
      case 63..<67: try run(.removeLog(workout: nil, exercise: "Push-up"), device)
      case 67..<70:
        let plan = ExercisePlan(name: "Push-up", sets: 2, reps: 10, weight: 0, loadType: .none)
        try run(.addLog(workout: nil, plan), device)
      case 70..<74: try run(.endWorkout(workout: nil), device)
      case 74..<77:
        guard let id = workouts.randomElement(using: &random) else { return }
        try run(.deleteWorkout(workout: id), device)
      case 77..<79:
        guard splits.count > 1, let split = splits.randomElement(using: &random) else { return }
        try run(.deleteSplit(split: split), device)
      case 79..<82:
        guard let split = splits.randomElement(using: &random) else { return }
        try run(.moveSplit(split: split, position: Int.random(in: 0..<4, using: &random)), device)
      case 82..<88: try journal.undo(device: device, now: harness.now)
      case 88..<91: try journal.redo(device: device, now: harness.now)
      case 91..<96: harness.now += TimeInterval(Int.random(in: 1...3, using: &random) * 86_400)
      default: harness.now += 31 * 86_400
      }
    } catch {
      // A refused command appends nothing; the session goes on.
    }
    harness.now += 60
  }

  private func run(_ command: JournalCommand, _ device: String) throws {
    try harness.run(command, device: device)
  }
}
