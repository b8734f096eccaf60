import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections
@testable import JournalSample

/// A history read as it is folded gives what a journal holds, and a full rebuild from it
/// writes the same bytes.
@Suite struct StreamedHistoryTests {
  /// The sample journal in a fresh folder.
  ///
  /// When `hostile`, with an event this build cannot read in a workout's stream, a
  /// redelivered event and a torn tail. Returns the folder and the quarantined workout's
  /// document path.
  func makeJournal(seed: UInt64, hostile: Bool) throws -> (url: URL, quarantined: String?) {
    let url = try makeTemporaryDirectory("streamed")
    try SampleJournal.generate(into: url, seed: seed)
    guard hostile else { return (url, nil) }
    let journal = try Journal(store: try FileEventStore(url: url), newID: { "" })
    let workouts = journal.history.map(\.stream).filter { $0.hasPrefix("workout:") }
    let stream = try #require(workouts.dropFirst(workouts.count / 3).first)
    let log = try EventLog(at: url)
    let writer = try log.openWriter(
      device: "newer-phone",
      options: DeviceWriter.Options(durability: .none)
    )
    let redelivered = try #require(journal.history.first { $0.stream == stream })
    try writer.append([
      NewEvent(stream: stream, type: "set.completed", version: 99, payload: [:]),
      NewEvent(
        stream: redelivered.stream,
        type: "workout.started",
        version: 1,
        payload: [:],
        id: ULID(redelivered.id)
      ),
    ])
    writer.close()
    let segment = url.appendingPathComponent("devices/newer-phone/000001.jsonl")
    let handle = try FileHandle(forWritingTo: segment)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"v":1,"id":"01J"#.utf8))
    try handle.close()
    let id = String(stream.dropFirst("workout:".count))
    return (url, try #require(journal.state().workouts[id]?.path))
  }

  /// A journal read from files lets go of its records as it decodes them: an event at its
  /// type's current version that does not decode sends it back to the files, to quarantine
  /// its stream as a journal of the same events in memory does.
  @Test func anUndecodableCurrentEventQuarantinesItsStream() throws {
    // Every event at its type's current version, as this build writes them.
    let url = try makeTemporaryDirectory("undecodable")
    let before = try makeWorkoutJournal(at: url, reps: [5, 5, 4])
    let stream = try #require(before.history.last?.stream)
    #expect(stream.hasPrefix("workout:"))
    let writer = try EventLog(at: url).openWriter(
      device: "newer-phone",
      options: DeviceWriter.Options(durability: .none)
    )
    let version = try #require(JournalEvent.currentVersions["set.completed"])
    try writer.append([
      NewEvent(stream: stream, type: "set.completed", version: version, payload: [:])
    ])
    writer.close()

    let store = try FileEventStore(url: url)
    let journal = try Journal(store: store, newID: { "" })
    let memory = try Journal(
      store: InMemoryEventStore(events: store.readHistory().events),
      newID: { "" }
    )
    #expect(journal.quarantined.keys.sorted() == [stream])
    #expect(journal.notices.contains { $0.contains("stream '\(stream)' quarantined") })
    #expect(journal.history == memory.history)
    #expect(journal.quarantined == memory.quarantined)
    #expect(!journal.history.contains { $0.stream == stream })
    #expect(journal.history.count == before.history.count - 5)
  }

  @Test(arguments: [(1 as UInt64, false), (2, true), (3, true)])
  func streamedHistoryIsTheJournalsHistory(seed: UInt64, hostile: Bool) throws {
    let url = try makeJournal(seed: seed, hostile: hostile).url
    let journal = try Journal(store: try FileEventStore(url: url), newID: { "" })
    #expect(journal.history.count > 1_000)
    if hostile {
      #expect(journal.quarantined.count == 1)
      #expect(journal.notices.contains { $0.contains("duplicate of event") })
      #expect(journal.notices.contains { $0.contains("torn") })
    }
    for batchSize in [7, 1_000, 16_384] {
      let streamed = try StreamedHistory(store: try FileEventStore(url: url), batchSize: batchSize)
      #expect(streamed.notices == journal.notices)
      #expect(streamed.quarantined == journal.quarantined)
      expectSameCancellations(streamed, journal)
      var events: [FoldEvent] = []
      try streamed.forEachEvent { events.append($0) }
      #expect(events == journal.history, "batch size \(batchSize)")
    }
  }

  /// The walk over the reverts of the streamed history and of the held one cancel the same
  /// events.
  func expectSameCancellations(
    _ streamed: StreamedHistory,
    _ journal: Journal,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let cancelled = Replayer.cancelledEvents(in: journal.history)
    #expect(!cancelled.isEmpty, sourceLocation: sourceLocation)
    #expect(streamed.cancelled == cancelled, sourceLocation: sourceLocation)
  }

  @Test(arguments: 0..<4 as Range<UInt64>)
  func randomSessionsStreamAsTheyAreHeld(seed: UInt64) throws {
    let url = try makeFileJournal(seed: seed, steps: 400)
    let journal = try Journal(store: try FileEventStore(url: url), newID: { "" })
    let streamed = try StreamedHistory(store: try FileEventStore(url: url), batchSize: 64)
    expectSameCancellations(streamed, journal)
    var events: [FoldEvent] = []
    try streamed.forEachEvent { events.append($0) }
    #expect(events == journal.history)
    let options = RebuildOptions(elapsed: { .zero })
    let held = try makeTemporaryDirectory("held")
    let out = try makeTemporaryDirectory("streamed-out")
    let expected = try Rebuild.run(journal: journal, output: held, full: true, options: options)
    #expect(try Rebuild.run(streamed: streamed, output: out, options: options) == expected)
    expectSameFiles(try sampleFiles(in: out), try sampleFiles(in: held))
  }

  @Test(arguments: [(4 as UInt64, false), (5, true)])
  func aStreamedFullRebuildWritesTheSameBytes(seed: UInt64, hostile: Bool) throws {
    let (url, quarantined) = try makeJournal(seed: seed, hostile: hostile)
    let held = try makeTemporaryDirectory("held")
    let streamed = try makeTemporaryDirectory("streamed-out")
    let options = RebuildOptions(elapsed: { .zero })
    let journal = try Journal(store: try FileEventStore(url: url), newID: { "" })
    if let path = quarantined {
      // The quarantined workout's document, as the newer app left it, must stay.
      for folder in [held, streamed] {
        let document = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(
          at: document.deletingLastPathComponent(),
          withIntermediateDirectories: true
        )
        try Data("as the newer app left it".utf8).write(to: document)
      }
    }
    let expected = try Rebuild.run(journal: journal, output: held, full: true, options: options)
    let history = try StreamedHistory(store: try FileEventStore(url: url), batchSize: 500)
    let report = try Rebuild.run(streamed: history, output: streamed, options: options)
    #expect(report == expected)
    #expect(report.written.count > 50)
    if hostile { #expect(report.keptQuarantined.count == 1) }
    // Every file, the manifest's included.
    expectSameFiles(try sampleFiles(in: streamed), try sampleFiles(in: held))

    // The next rebuild, from the saved state, folds every stream once and finds every
    // document as it wants it.
    let next = try Rebuild.run(journal: journal, output: streamed, options: options)
    #expect(next.written.isEmpty && next.removed.isEmpty && next.conflicts.isEmpty, "\(next)")
  }

  @Test func eventsAppendedAfterTheScanAreNotRead() throws {
    let url = try makeJournal(seed: 6, hostile: false).url
    let before = try Journal(store: try FileEventStore(url: url), newID: { "" }).history
    let streamed = try StreamedHistory(store: try FileEventStore(url: url))
    let writer = try EventLog(at: url).openWriter(
      device: "phone",
      options: DeviceWriter.Options(durability: .none)
    )
    try writer.append([
      NewEvent(stream: "split:late", type: "eventsReverted", version: 1, payload: [:])
    ])
    writer.close()
    var events: [FoldEvent] = []
    try streamed.forEachEvent { events.append($0) }
    #expect(events == before)
  }

  @Test func aJournalRewrittenAfterTheScanIsReportedNotFolded() throws {
    let url = try makeJournal(seed: 7, hostile: false).url
    let streamed = try StreamedHistory(store: try FileEventStore(url: url))
    // Another copy of the journal's files arrives: one device loses its last segment.
    let log = try EventLog(at: url)
    let device = try #require(try log.deviceNames().first)
    let folder = url.appendingPathComponent("devices/\(device)")
    let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".jsonl") }.sorted()
    try FileManager.default.removeItem(
      at: folder.appendingPathComponent(try #require(segments.last))
    )
    let output = try makeTemporaryDirectory("changed-out")
    #expect(throws: StreamedHistoryChanged.self) {
      try Rebuild.run(streamed: streamed, output: output)
    }
    #expect(try documentFiles(in: output).isEmpty)
  }
}
