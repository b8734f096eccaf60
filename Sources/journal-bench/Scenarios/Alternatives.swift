import Foundation
import JournalCore
import JournalProjections
import JournalSample

// B9: the journal against the app's current way of saving a workout: for every set completed,
// the whole WorkoutDocument encoded and atomically replaced. (The SQLite comparison lives in the
// nested Benchmarks package, so that the product never links a system library.)

extension Bench {
  func alternativesScenario() throws {
    let folder = try freshFolder("alternatives")
    defer { try? FileManager.default.removeItem(at: folder) }
    let workout = try Self.sampleWorkout(in: folder.appendingPathComponent("sample"))
    // The quick run keeps the first sets only: the document is smaller, the ratio a bit kinder
    // to the rewrite.
    let steps = Array(workout.steps.prefix(options.quick ? 8 : workout.steps.count))

    let log = try EventLog.create(at: folder.appendingPathComponent("journal"))
    let writer = try log.openWriter(device: "phone")
    defer { writer.close() }
    let documentFolder = try freshFolder("alternatives-documents")
    defer { try? FileManager.default.removeItem(at: documentFolder) }
    let document = documentFolder.appendingPathComponent("\(workout.id).json")

    let journalAppend = {
      try time {
        for step in steps { try writer.append(step.event) }
      } / Double(steps.count)
    }
    let rewrite = {
      try time {
        for step in steps {
          try writeAtomically(try DocumentCoder.encode(step.document), to: document)
        }
      } / Double(steps.count)
    }
    let samples = try measure(size: nil, [journalAppend, rewrite])
    let lastBytes = try DocumentCoder.encode(steps[steps.count - 1].document).count
    let lineBytes =
      try Self.encodedLines(
        steps.map(\.event),
        in: folder.appendingPathComponent("encoded")
      ).map(\.count).reduce(0, +) / steps.count
    report.add(
      Result(
        scenario: "B9",
        name: "alternative.rewriteDocument",
        subject: "DeviceWriter.append set.completed",
        baseline: "encode+atomic replace WorkoutDocument",
        ratios: ratios(samples[0], samples[1]),
        subjectSeconds: samples[0],
        baselineSeconds: samples[1],
        budget: .none,
        notes: [
          "\(steps.count) sets/rep", "\(lineBytes) B/event",
          "document \(formatCount(Double(lastBytes))) B at the last set",
          "per set completed",
        ]
      )
    )
  }

  /// One set completed of ``SampleWorkout``: its event and the whole document right after it.
  struct WorkoutStep {
    var event: NewEvent
    var document: WorkoutDocument
  }

  /// A workout of the sample journal, replayed set by set.
  struct SampleWorkout {
    var id: String
    var steps: [WorkoutStep]
  }

  /// Writes the sample journal into `folder` and picks its workout with the most completed sets
  /// (current event versions only, the latest on a tie): for each of those sets, the event as
  /// stored and the workout's document as the app writes it after that set.
  static func sampleWorkout(in folder: URL) throws -> SampleWorkout {
    try SampleJournal.generate(into: folder)
    let store = try FileEventStore(url: folder, options: .init(durability: .none))
    let stored = try store.readHistory().events
    let journal = try Journal(store: store, newID: { readOnlyID() })
    let current = JournalEvent.currentVersions[JournalEvent.TypeName.setCompleted] ?? 1
    var byID: [String: StoredEvent] = [:]
    var counts: [String: Int] = [:]
    for event in stored where event.type == JournalEvent.TypeName.setCompleted {
      byID[event.id] = event
      counts[event.stream, default: 0] += event.version == current ? 1 : -1_000
    }
    // In history order, so that the choice does not depend on the dictionary's order.
    var stream = ""
    for event in stored where (counts[event.stream] ?? 0) >= (counts[stream] ?? 1) {
      stream = event.stream
    }
    guard !stream.isEmpty else { throw BenchError("the sample journal has no completed set") }
    var steps: [WorkoutStep] = []
    _ = Replayer.fold(journal.history) { event, _, after in
      guard event.stream == stream, case .setCompleted = event.event,
        let record = byID[event.storedID],
        let workout = after.workouts[event.streamID]
      else { return }
      steps.append(
        WorkoutStep(
          event: NewEvent(
            stream: record.stream,
            type: record.type,
            version: record.version,
            payload: record.payload
          ),
          document: workout.renderedDocument(now: after.now ?? event.at)
        )
      )
    }
    guard !steps.isEmpty, let id = stream.split(separator: ":").last else {
      throw BenchError("the sample workout \(stream) folded to no document")
    }
    return SampleWorkout(id: String(id), steps: steps)
  }
}
