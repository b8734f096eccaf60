import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// A lifter's phone written in two places, then synced.
///
/// A copy of the journal on another machine writes as `phone`; Dropbox, iCloud Drive or
/// Syncthing keeps one version of the segment and the other as a copy. Every acknowledged event is in the rebuilt documents,
/// which are the same bytes whichever version the service kept as the original; the heal
/// leaves a journal that verifies clean and rebuilds to the same documents with or without
/// the copy (docs/OnDiskFormat.md, "Forks").
@Suite struct ForkDocumentsTests {
  static let copyNames = [
    "000001 (Lifter's MacBook's conflicted copy 2026-01-01).jsonl",
    "000001 2.jsonl",
    "000001.sync-conflict-20260101-120000-ABCDEF.jsonl",
  ]

  static func store(_ url: URL) throws -> FileEventStore {
    try FileEventStore(url: url, options: DeviceWriter.Options(durability: .none))
  }

  /// Runs `count` commands a lifter might give on `device`; returns the ids of the events
  /// they appended.
  static func act(
    _ url: URL,
    _ count: Int,
    split: String,
    device: String = "phone",
    random: inout SplitMix64,
    ids: SequentialIDs
  ) throws -> [String] {
    var appended: [String] = []
    let store = try Self.store(url)
    for _ in 0..<count {
      let command = SavedStateTests.command(&random, split: split)
      let events = try? Journal(store: store, newID: ids.make).execute(
        command,
        device: device,
        now: Date()
      )
      appended += (events ?? []).map(\.id)
    }
    return appended
  }

  /// The documents a rebuild of the journal at `url` writes (the manifest and the rebuild's record
  /// left out), by path.
  static func documents(_ url: URL) throws -> [String: Data] {
    let out = try makeTemporaryDirectory("fork-documents")
    try Rebuild.run(
      journal: Journal(store: Self.store(url), newID: SequentialIDs().make),
      output: out
    )
    var files: [String: Data] = [:]
    for folder in ["Splits", "Workouts", "Stubs"] {
      let root = out.appendingPathComponent(folder)
      guard let walk = FileManager.default.enumerator(atPath: root.path) else { continue }
      for case let path as String in walk where path.hasSuffix(".json") {
        files["\(folder)/\(path)"] = try Data(contentsOf: root.appendingPathComponent(path))
      }
    }
    return files
  }

  @Test(arguments: 1...6 as ClosedRange<UInt64>)
  func everyEventIsInTheSameDocumentsWhicheverVersionIsTheOriginal(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let ids = SequentialIDs()
    let root = try makeTemporaryDirectory("fork-journals")
    let base = root.appendingPathComponent("base")
    _ = try EventLog.create(at: base)
    let created = try Journal(store: Self.store(base), newID: ids.make).execute(
      .createSplit(
        SplitSettings(name: "Push", color: "red", systemImage: "dumbbell"),
        exercises: [
          ExercisePlan(name: "Bench", sets: 3, reps: 5, weight: 60, loadType: .weight),
          ExercisePlan(name: "Dips", sets: 2, reps: 8, weight: 0, loadType: .none),
        ]
      ),
      device: "phone",
      now: Date()
    )
    let split = try #require(created.first?.streamID)
    var acknowledged = Set(created.map(\.id))
    acknowledged.formUnion(
      try Self.act(base, Int(random.next() % 6) + 1, split: split, random: &random, ids: ids)
    )
    acknowledged.formUnion(
      try Self.act(
        base,
        Int(random.next() % 3),
        split: split,
        device: "watch",
        random: &random,
        ids: ids
      )
    )
    let versions = [root.appendingPathComponent("first"), root.appendingPathComponent("second")]
    for version in versions {
      try FileManager.default.copyItem(at: base, to: version)
      acknowledged.formUnion(
        try Self.act(version, Int(random.next() % 12) + 1, split: split, random: &random, ids: ids)
      )
    }
    let segment = "devices/phone/000001.jsonl"
    var results: [[String: Data]] = []
    for (index, name) in Self.copyNames.enumerated() {
      for original in [0, 1] {
        let url = root.appendingPathComponent("synced-\(index)-\(original)")
        try FileManager.default.copyItem(at: versions[original], to: url)
        try FileManager.default.copyItem(
          at: versions[1 - original].appendingPathComponent(segment),
          to: url.appendingPathComponent("devices/phone/\(name)")
        )
        let journal = try Journal(store: Self.store(url), newID: SequentialIDs().make)
        let read = Set(journal.history.map(\.id))
        #expect(read.isSuperset(of: acknowledged), "seed \(seed), \(name), original \(original)")
        results.append(try Self.documents(url))
      }
    }
    #expect(results.allSatisfy { $0 == results[0] }, "seed \(seed)")
    #expect(!results[0].isEmpty)

    // The heal: the phone's next append; the journal verifies clean, and rebuilds to the
    // same documents with the copy and without it.
    let url = root.appendingPathComponent("synced-0-0")
    var update = SplitUpdated()
    update.restSeconds = .set(75)
    let heal = try Journal(store: Self.store(url), newID: ids.make).execute(
      .updateSplit(split: split, update),
      device: "phone",
      now: Date()
    )
    let report = try EventLog(at: url).verify()
    #expect(report.isClean, "\(report.problems)")
    #expect(report.unhealedForks.isEmpty, "\(report.notes)")
    let healed = try Self.documents(url)
    try FileManager.default.removeItem(
      at: url.appendingPathComponent("devices/phone/\(Self.copyNames[0])")
    )
    #expect(try Self.documents(url) == healed)
    let history = try Journal(store: Self.store(url), newID: SequentialIDs().make).history
    #expect(Set(history.map(\.id)).isSuperset(of: acknowledged.union(heal.map(\.id))))
    #expect(try EventLog(at: url).verify().isClean)
  }
}
