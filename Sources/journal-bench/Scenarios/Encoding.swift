import Foundation
import JournalCore
import JournalProjections

// B4: the hand-written document encoder against Foundation's JSONEncoder, over every document
// of the folded journal, with the bytes compared; and a full rebuild's wall time by phase.

/// One document of the tree, as the rebuild renders it.
enum RenderedDocument {
  case split(SplitDocument)
  case splitStub(Stub<SplitDocument>)
  case workout(WorkoutDocument)
  case workoutStub(Stub<WorkoutDocument>)

  func encode() throws -> Data {
    switch self {
    case .split(let document): try DocumentCoder.encode(document)
    case .splitStub(let stub): try DocumentCoder.encode(stub)
    case .workout(let document): try DocumentCoder.encode(document)
    case .workoutStub(let stub): try DocumentCoder.encode(stub)
    }
  }

  func encodeWithFoundation() throws -> Data {
    switch self {
    case .split(let document): try DocumentCoder.encodeWithFoundation(document)
    case .splitStub(let stub): try DocumentCoder.encodeWithFoundation(stub)
    case .workout(let document): try DocumentCoder.encodeWithFoundation(document)
    case .workoutStub(let stub): try DocumentCoder.encodeWithFoundation(stub)
    }
  }

  /// Every document of `state`, live or stub, as `JournalState.documentTree()` renders them.
  static func all(of state: JournalState) -> [RenderedDocument] {
    let now = state.now ?? Date(timeIntervalSince1970: 0)
    var documents: [RenderedDocument] = []
    for id in state.splits.keys.sorted() {
      guard let split = state.splits[id] else { continue }
      if let deletedAt = split.deletedAt {
        documents.append(.splitStub(Stub(document: split.document, deletedAt: deletedAt)))
      } else {
        documents.append(.split(split.document))
      }
    }
    for id in state.workouts.keys.sorted() {
      guard let workout = state.workouts[id] else { continue }
      let document = workout.renderedDocument(now: now)
      if let deletedAt = workout.deletedAt {
        documents.append(.workoutStub(Stub(document: document, deletedAt: deletedAt)))
      } else {
        documents.append(.workout(document))
      }
    }
    return documents
  }
}

extension Bench {
  func encodingScenarios(size: Int) throws {
    let generated = try journal(size: size)
    let journal = try Journal(store: try FileEventStore(url: generated.url), newID: readOnlyID)
    let documents = RenderedDocument.all(of: journal.state())

    // The differential check: identical bytes for every document.
    var identical = 0
    var bytes = 0
    var firstDifference: Int?
    for (index, document) in documents.enumerated() {
      let ours = try document.encode()
      bytes += ours.count
      if ours == (try document.encodeWithFoundation()) {
        identical += 1
      } else if firstDifference == nil {
        firstDifference = index
      }
    }
    if let firstDifference {
      report.log("B4: document \(firstDifference) encodes differently from JSONEncoder")
    }

    let samples = try measure(
      size: size,
      [
        { try time { for document in documents { consume(try document.encodeWithFoundation()) } } },
        { try time { for document in documents { consume(try document.encode()) } } },
      ]
    )
    report.add(
      Result(
        scenario: "B4",
        name: "encode.documents",
        size: size,
        subject: "DocumentCoder.encode",
        baseline: "JSONEncoder",
        ratios: ratios(samples[1], samples[0]),
        subjectSeconds: samples[1],
        baselineSeconds: samples[0],
        budget: .atMost(0.3),
        notes: [
          "\(documents.count) documents, \(bytes / 1000) kB",
          "identical bytes \(identical)/\(documents.count)",
        ]
      )
    )
    try fullRebuild(size: size, url: generated.url)
  }

  /// A full rebuild into an empty folder, by phase.
  ///
  /// The phases: read (open the journal: read, check, decode, upcast), fold, encode, write
  /// (every document written and synced).
  /// Once: a second run into the same folder writes nothing. Its baseline: the replay alone.
  func fullRebuild(size: Int, url: URL) throws {
    // Kept: the memory scenario (B8) rebuilds into it again.
    let output = try freshFolder("rebuild-full-\(size)")
    var replay = Samples()
    replay.values.append(
      try time {
        let journal = try Journal(store: try FileEventStore(url: url), newID: readOnlyID)
        consume(journal.state().eventCount)
      }
    )
    var rebuildReport = RebuildReport()
    var opening = 0.0
    var total = Samples()
    total.values.append(
      try time {
        let opened = ContinuousClock.now
        let journal = try Journal(store: try FileEventStore(url: url), newID: readOnlyID)
        opening = seconds(since: opened)
        rebuildReport = try Rebuild.run(journal: journal, output: output, full: true)
      }
    )
    let t = rebuildReport.timings
    report.add(
      Result(
        scenario: "B4",
        name: "rebuild.full",
        size: size,
        subject: "open+Rebuild.run(full)",
        baseline: "open+replay",
        ratios: ratios(total, replay),
        subjectSeconds: total,
        baselineSeconds: replay,
        budget: .none,
        notes: [
          "1 run", "\(rebuildReport.written.count) written",
          "read+decode \(formatSeconds(opening))", "fold \(formatSeconds(t.fold))",
          "encode \(formatSeconds(t.encode))", "write \(formatSeconds(t.write))",
        ]
      )
    )
  }
}
