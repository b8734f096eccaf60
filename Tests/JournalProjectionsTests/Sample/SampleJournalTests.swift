import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections
@testable import JournalSample

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sample with the default seed, generated once for the tests that only
/// read it, and read back from disk as any rebuild reads it.
struct GeneratedSample: Sendable {
  let url: URL
  let summary: SampleSummary
  let files: [String: Data]
  let journal: Journal
  let state: JournalState
  let records: [StoredEvent]

  init(seed: UInt64 = SampleJournal.defaultSeed) throws {
    url = try makeTemporaryDirectory("sample")
    summary = try SampleJournal.generate(into: url, seed: seed)
    files = try sampleFiles(in: url)
    let store = try FileEventStore(url: url)
    journal = try Journal(store: store, newID: { "" })
    state = journal.state()
    records = try store.readHistory().events
  }

  /// Every event in effect (not reverted).
  var effective: [FoldEvent] {
    let cancelled = Replayer.cancelledEvents(in: journal.history)
    return journal.history.filter { cancelled[$0.storedID] == nil }
  }
}

extension GeneratedSample {
  /// The sample with the default seed, generated once for every test that only reads it.
  static let shared = Result { try GeneratedSample() }
}

/// Every file under `root` (hidden ones too), by relative path.
func sampleFiles(in root: URL) throws -> [String: Data] {
  var files: [String: Data] = [:]
  let base = root.standardizedFileURL.path
  guard let walker = FileManager.default.enumerator(atPath: base) else { return files }
  while let relative = walker.nextObject() as? String {
    let path = base + "/" + relative
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
      files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
    }
  }
  return files
}

/// Names the first differing file, so a failure says where to look.
func expectSameFiles(
  _ actual: [String: Data],
  _ expected: [String: Data],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(actual.keys.sorted() == expected.keys.sorted(), sourceLocation: sourceLocation)
  let differing = expected.keys.sorted().first { actual[$0] != nil && actual[$0] != expected[$0] }
  #expect(
    differing == nil,
    "first differing file: \(differing ?? "")",
    sourceLocation: sourceLocation
  )
}

@Suite struct SampleJournalTests {
  func sample() throws -> GeneratedSample { try GeneratedSample.shared.get() }
}

// MARK: - Reproducibility

extension SampleJournalTests {
  @Test func sameSeedWritesTheSameBytes() throws {
    let first = try sample()
    let again = try makeTemporaryDirectory("sample-again")
    let summary = try SampleJournal.generate(into: again)
    expectSameFiles(try sampleFiles(in: again), first.files)
    #expect(summary == first.summary)
    #expect(first.files.keys.contains("journal.json"))
    #expect(first.files.keys.contains("devices/phone/000002.jsonl"), "segments roll")
  }

  @Test func refusesAFolderThatIsNotEmpty() throws {
    let folder = try makeTemporaryDirectory("sample-busy")
    try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    #expect(throws: JournalError.self) { try SampleJournal.generate(into: folder) }
    #expect(try sampleFiles(in: folder).keys.sorted() == ["notes.txt"])
  }

  @Test func isModest() throws {
    let summary = try sample().summary
    #expect(summary.eventCount > 1000)
    #expect(summary.eventCount <= 3000)
    #expect(summary.workoutCount >= 60)
    #expect(summary.splitCount == 3)
  }

  /// The machine's zone never reaches the bytes: local times come from the
  /// story's zones.
  @Suite(.serialized) struct MachineTimeZone {
    @Test func generationUnderTwoZonesWritesTheSameBytes() throws {
      let expected = try GeneratedSample.shared.get().files
      let saved = ProcessInfo.processInfo.environment["TZ"]
      defer {
        if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
        tzset()
        NSTimeZone.resetSystemTimeZone()
      }
      for zone in ["Pacific/Kiritimati", "America/Adak"] {
        setenv("TZ", zone, 1)
        tzset()
        NSTimeZone.resetSystemTimeZone()
        #expect(TimeZone.current.identifier == zone)
        let url = try makeTemporaryDirectory("sample-tz")
        try SampleJournal.generate(into: url)
        expectSameFiles(try sampleFiles(in: url), expected)
      }
    }
  }
}

// MARK: - History as written

extension SampleJournalTests {
  @Test func foldsWithoutAnomaliesOrQuarantine() throws {
    let sample = try sample()
    #expect(sample.state.anomalies.isEmpty, "\(sample.state.anomalies.prefix(3))")
    #expect(sample.journal.quarantined.isEmpty)
    #expect(sample.journal.notices.isEmpty)
    _ = try sample.state.documentTree()
  }

  @Test func everyUpcastingStepHasStoredEvents() throws {
    let records = try sample().records
    for step in EventUpcasters.steps {
      let count = records.filter { $0.type == step.type && $0.version == step.from }.count
      #expect(count > 0, "no stored '\(step.type)' v\(step.from)")
    }
    let summary = try sample().summary
    #expect(summary.legacyEvents["set.completed v1", default: 0] > 100)
  }

  @Test func oldEventsFoldToCompleteDocuments() throws {
    let state = try sample().state
    let legacyEnd = Date(timeIntervalSince1970: 1_780_272_000 + 28 * 86_400)
    let old = state.liveWorkouts.filter { $0.document.start < legacyEnd }
    #expect(old.count == 16)
    for workout in old {
      #expect(workout.document.status == .completed)
      #expect(workout.document.end != nil)
      for log in workout.document.logs {
        #expect(log.status.isResolved)
        #expect(log.weight == log.weight.rounded(), "whole weights before v4")
        let sources = workout.provenance[log.id] ?? []
        #expect(sources.allSatisfy { $0.kind == .cursorOnly })
        if log.status == .completed {
          #expect(log.setEntries?.count == log.sets)
          #expect(sources.count == log.sets)
        }
      }
    }
    let reset = old.flatMap(\.document.logs).filter { ($0.setEntries?.count ?? 0) > 0 }
    #expect(!reset.isEmpty)
  }

  @Test func twoDevicesRecord() throws {
    let sample = try sample()
    #expect(sample.summary.eventsByDevice.keys.sorted() == ["phone", "watch"])
    let sources = sample.state.liveWorkouts.flatMap { $0.provenance.values.flatMap { $0 } }
    #expect(sources.contains { $0.device == "watch" && $0.kind == .recorded })
    #expect(sources.contains { $0.device == "phone" && $0.kind == .recorded })
    #expect(sources.contains { $0.device == "watch" && $0.kind == .cursorOnly })
  }
}

// MARK: - Features

extension SampleJournalTests {
  @Test func thePhoneAdjustsTheWatchsSets() throws {
    let sample = try sample()
    let devices = Dictionary(
      sample.journal.history.map { ($0.id, $0.device) },
      uniquingKeysWith: { first, _ in first }
    )
    let adjustments = sample.effective.compactMap { e -> (FoldEvent, SetAdjusted)? in
      if case .setAdjusted(let adjusted) = e.event { return (e, adjusted) }
      return nil
    }
    #expect(adjustments.count >= 3)
    #expect(
      adjustments.contains { e, adjusted in
        e.device == "phone" && devices[adjusted.setEventID] == "watch"
      }
    )
    let adjusted = sample.state.liveWorkouts.flatMap { $0.provenance.values.flatMap { $0 } }
      .filter { !$0.adjustments.isEmpty }
    #expect(!adjusted.isEmpty)
  }

  @Test func oneMoreSkipsEndsAndResets() throws {
    let sample = try sample()
    let events = sample.effective.map(\.event)
    #expect(events.contains { if case .setAdded = $0 { true } else { false } })
    #expect(events.contains { if case .workoutEnded = $0 { true } else { false } })
    #expect(events.filter { if case .logReset = $0 { true } else { false } }.count >= 2)
    let logs = sample.state.liveWorkouts.flatMap(\.document.logs)
    #expect(logs.contains { $0.status == .skipped && ($0.setEntries?.count ?? 0) > 0 })
    #expect(logs.contains { $0.status == .skipped && $0.setEntries == nil })
    #expect(logs.contains { $0.status == .completed && ($0.setEntries?.count ?? 0) > $0.sets - 1 })
    let resets = sample.records.filter { $0.type == "log.reset" }.map(\.version)
    #expect(Set(resets) == [1, 2])
  }

  @Test func undoAndRedoAppendReverts() throws {
    let sample = try sample()
    let reverts = sample.journal.history.compactMap { e -> EventsReverted? in
      if case .eventsReverted(let revert) = e.event { return revert }
      return nil
    }
    #expect(reverts.filter { $0.reason == RevertReason.undo }.count >= 3)
    #expect(reverts.contains { $0.reason == RevertReason.redo })
    #expect(sample.effective.count < sample.journal.history.count)
  }

  @Test func aDeletedWorkoutLeavesAStub() throws {
    let state = try sample().state
    let deleted = state.workouts.values.filter { $0.deletedAt != nil }
    #expect(deleted.count == 1)
    let tree = try state.documentTree()
    for workout in deleted {
      #expect(tree[DocumentPath.stub(of: workout.path)] != nil)
      #expect(tree[workout.path] == nil)
    }
  }

  @Test func aRemovedLogIsTombstoned() throws {
    let state = try sample().state
    let now = try #require(state.now)
    let tombstoned = state.liveWorkouts.filter {
      !($0.renderedDocument(now: now).deletedLogIDs ?? [:]).isEmpty
    }
    #expect(tombstoned.count == 1)
    let workout = try #require(tombstoned.first?.document)
    #expect(!workout.logs.contains { $0.exerciseName == "Deadlift" })
    #expect(workout.logs.contains { $0.exerciseName == "Back Extension" && $0.notes != nil })
  }

  @Test func metricsFromTheWatchAndPhoneEstimates() throws {
    let state = try sample().state
    let now = try #require(state.now)
    let workouts = state.liveWorkouts.map { $0.renderedDocument(now: now) }
    let watch = workouts.compactMap(\.metrics).filter { $0.source == .watch }
    #expect(watch.count >= 5)
    #expect(watch.allSatisfy { $0.avgHeartRate != nil && $0.hrZoneSeconds?.count == 5 })
    #expect(workouts.compactMap(\.metrics).contains { $0.source == .phoneEstimate })
    #expect(workouts.contains { $0.metrics?.totalVolume ?? 0 > 0 })
  }

  @Test func splitsWereEdited() throws {
    let splits = try sample().state.liveSplits.map(\.document)
    #expect(splits.map(\.name) == ["Push", "Pull", "Legs"])
    let exercises = splits.flatMap(\.exercises)
    #expect(
      exercises.contains {
        $0.name == "Incline DB Press" && $0.libraryName == "Incline Dumbbell Press"
      }
    )
    #expect(
      exercises.contains { $0.name == "Rope Pushdown" && $0.libraryName == "Triceps Pushdown" }
    )
    #expect(exercises.contains { $0.name == "Pause Squat" && $0.libraryName == "Squat" })
    #expect(exercises.contains { $0.machineSettings != nil && $0.loadType == .weight })
    #expect(exercises.contains { $0.loadType == .none })
    #expect(exercises.contains { $0.loadType == .duration && $0.durationSeconds > 0 })
    #expect(exercises.contains { $0.weight != $0.weight.rounded() }, "a fractional weight")
    let pull = try #require(splits.first { $0.name == "Pull" })
    #expect(pull.exercises.first?.name == "Pull-up")
    let legs = try #require(splits.first { $0.name == "Legs" })
    #expect(legs.restSeconds == 180)
  }

  @Test func aWorkoutCrossesMidnightInNewYork() throws {
    let state = try sample().state
    let utc = try #require(TimeZone(identifier: "UTC"))
    let late = state.liveWorkouts.filter {
      $0.timeZone.identifier == "America/New_York"
        && $0.path
          != DocumentPath.workout(id: $0.document.id, start: $0.document.start, timeZone: utc)
    }
    #expect(late.count == 1)
    let workout = try #require(late.first)
    #expect(workout.path.hasPrefix("Workouts/2026/08/"))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = workout.timeZone
    let end = try #require(workout.document.end)
    #expect(calendar.component(.day, from: workout.document.start) == 31)
    #expect(calendar.component(.day, from: end) == 1)
  }

  @Test func aWorkoutLoggedTheNextMorning() throws {
    let history = try sample().journal.history
    let backDated = history.filter { $0.recordedAt.timeIntervalSince($0.at) > 6 * 3600 }
    #expect(backDated.count > 10)
    #expect(backDated.contains { if case .workoutStarted = $0.event { true } else { false } })
  }
}

// MARK: - Other seeds

extension SampleJournalTests {
  /// The scenes do not depend on lucky draws: any seed tells the whole story.
  @Test(arguments: [1, 2] as [UInt64])
  func everySeedTellsTheWholeStory(_ seed: UInt64) throws {
    let sample = try GeneratedSample(seed: seed)
    #expect(sample.state.anomalies.isEmpty, "\(sample.state.anomalies.prefix(3))")
    for step in EventUpcasters.steps {
      #expect(sample.records.contains { $0.type == step.type && $0.version == step.from })
    }
    let types = Set(sample.effective.map(\.event.typeName))
    for type in ["set.adjusted", "set.added", "log.reset", "log.skipped", "workout.ended"] {
      #expect(types.contains(type), "no '\(type)' in effect")
    }
    let reverts = sample.journal.history.filter { $0.event.typeName == "events.reverted" }
    #expect(reverts.count >= 4)
    #expect(sample.state.workouts.values.contains { $0.deletedAt != nil })
    let utc = try #require(TimeZone(identifier: "UTC"))
    #expect(
      sample.state.liveWorkouts.contains {
        $0.path != DocumentPath.workout(id: $0.document.id, start: $0.document.start, timeZone: utc)
      }
    )
  }
}
