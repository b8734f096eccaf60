import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

/// `diff` and `rewind` read only the files of the saved state with an event after their
/// points (``SavedState/Ends``) and the slices whose documents depend on `now`
/// (``SavedState/Dues``): over seeded histories delivered in parts, they answer as a full
/// replay does.
extension SavedStateTests {
  /// Diff and rewind from a recent point never read the files of what ended before it: a
  /// workout's stream file damaged months earlier would make them give up on the state.
  @Test func diffAndRewindLeaveTheFilesThatEndedBeforeTheirPointUnread() throws {
    let fixture = try Fixture(seed: 5)
    let first = Date(timeIntervalSince1970: 1_577_880_000)  // 2020-01-01 12:00 UTC
    fixture.clock = first.milliseconds
    let split = try fixture.createSplit(
      "Legs",
      color: "blue",
      ExercisePlan(name: "Squat", sets: 2, reps: 5, weight: 80, loadType: .weight),
      at: first
    )
    let workouts = [
      try fixture.workout(of: split, at: first.addingTimeInterval(86_400), weight: 80),
      try fixture.workout(of: split, at: first.addingTimeInterval(100 * 86_400), weight: 81),
    ]
    // The old workout's file, damaged: a read of it would find it out.
    let old = fixture.stateFolder.appendingPathComponent(
      SavedState.streamPath("workout:\(workouts[0])")
    )
    var bytes = try Data(contentsOf: old)
    bytes[bytes.count / 2] ^= 0x20
    try bytes.write(to: old)
    let point = Replayer.Point.time(first.addingTimeInterval(99 * 86_400))
    let scoped = try fixture.scoped(StateScope(splits: false))
    #expect(try scoped.diff(from: point, to: nil) == fixture.full().diff(from: point, to: nil))
    let expected = try fixture.onACopy {
      try $0.rewind(to: point, device: "phone", now: Date()).eventIDs.count
    }
    let rewound = try scoped.rewind(to: point, device: "phone", now: Date())
    #expect(rewound.eventIDs.count == expected)
    #expect(expected > 0)
  }

  /// Diff and rewind from the state after any part of a random history was delivered.
  ///
  /// Random sessions (removed logs, deleted workouts and splits, undo and redo, so reverts of
  /// reverts, clock jumps past the grace periods) are delivered to the files in parts: the
  /// watch's events held back now and then and delivered late, before events the state has
  /// folded, and once an event this build cannot read, which quarantines a workout. The state
  /// is brought up to date after some parts and not others, so that a command's read folds a
  /// tail. After each part, `diff` between points of the history and `rewind` to one, from
  /// the state, equal a full replay.
  @Test(arguments: 0..<6 as Range<UInt64>)
  func diffAndRewindReadOnlyWhatFollowsTheirPoints(seed: UInt64) throws {
    var session = try RandomSession(seed: seed)
    for _ in 0..<120 { session.step() }
    var random = SplitMix64(seed: seed ^ 0xD1FF)
    var deliveries = LateDeliveries(try session.harness.store.readHistory().events)
    let mirror = try FileMirror()
    let options = DeviceWriter.Options(durability: .none)
    var quarantined: String?
    var answered = (diff: 0, rewind: 0, fromTheEnd: 0)
    var round = 0
    while !deliveries.isEmpty {
      round += 1
      let delivered = deliveries.next(using: &random)
      try mirror.append(delivered)
      if quarantined == nil, round > 4, random.next() % 4 == 0,
        let workout = try mirror.journal().history.map(\.stream).last(where: {
          $0.hasPrefix("workout:")
        })
      {
        quarantined = workout
        try mirror.append([
          RebuildTests().unreadableEvent(in: workout, at: delivered.last?.milliseconds ?? 0)
        ])
      }
      // The state folds this part now, or with the next command's read.
      if random.next() % 2 == 0 {
        _ = try SavedState.open(journal: mirror.url, store: FileEventStore(url: mirror.url))
      }
      let context = "seed \(seed), round \(round)"
      let full = try mirror.journal()
      let history = full.history
      guard history.count > 1 else { continue }
      func event(nearTheEnd: Bool) -> FoldEvent {
        let count = UInt64(history.count)
        let offset = Int(random.next() % (nearTheEnd ? min(count, 8) : count))
        return history[nearTheEnd ? history.count - 1 - offset : offset]
      }
      let recent = event(nearTheEnd: true)
      let any = event(nearTheEnd: false)
      let pairs: [(Replayer.Point?, Replayer.Point?)] = [
        (.event(recent.id), nil), (.time(recent.recordedAt), nil), (.event(any.id), nil),
        (.time(any.recordedAt.addingTimeInterval(-0.0005)), .event(recent.id)),
        (.event(recent.id), .event(any.id)), (.event("01J0UNKNOWN"), nil),
        (.event(any.id), .event("01J0UNKNOWN")),
      ]
      for (from, to) in pairs {
        let reference = Self.answer { try full.diff(from: from, to: to) }
        let scoped = try Journal.open(
          store: try FileEventStore(url: mirror.url, options: options),
          scope: StateScope(splits: false),
          newID: { "" }
        )
        guard let fromState = Self.answer({ try scoped.diff(from: from, to: to) }) else {
          continue
        }
        answered.diff += 1
        if to == nil, reference != "[]" { answered.fromTheEnd += 1 }
        #expect(
          fromState == reference,
          "diff \(String(describing: from)) → \(String(describing: to)): \(context)"
        )
      }
      // A rewind appends: each is made on a copy of the files and of the state.
      for point in [Replayer.Point.event(recent.id), .event(any.id), .time(any.recordedAt)]
      where random.next() % 2 == 0 {
        func rewound(scope: StateScope) throws -> String? {
          try Self.rewound(mirror.url, to: point, scope: scope)
        }
        guard let fromState = try rewound(scope: StateScope(splits: false)) else { continue }
        answered.rewind += 1
        #expect(fromState == (try rewound(scope: .all)), "rewind to \(point): \(context)")
      }
    }
    #expect(answered.diff > 0 && answered.rewind > 0 && answered.fromTheEnd > 0, "\(answered)")
  }
}

extension SavedStateTests {
  /// Each file of the index (`ends/`, `dues`) cut or flipped at many bytes: `diff` from the
  /// history's first event reads them all, finds the damage, and answers as a full replay
  /// (the state, distrusted, is read again by the next command); `rewind` finds a damaged
  /// file of `ends/` and appends nothing.
  @Test func aDamagedIndexIsFoundAndTheAnswersStayAFullReplays() throws {
    var session = try RandomSession(seed: 11)
    for _ in 0..<90 { session.step() }
    let mirror = try FileMirror()
    try mirror.append(try session.harness.store.readHistory().events)
    let options = DeviceWriter.Options(durability: .none)
    func scoped() throws -> Journal {
      try Journal.open(
        store: try FileEventStore(url: mirror.url, options: options),
        scope: StateScope(splits: false),
        newID: SequentialIDs(prefix: "01K").make
      )
    }
    _ = try scoped()
    let folder = mirror.url.appendingPathComponent(SavedState.folder)
    let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
      .filter { $0.hasPrefix("ends/") || $0 == SavedState.Dues.file }.sorted()
    #expect(files.contains(SavedState.Dues.file) && files.count > 2, "\(files)")
    let full = try mirror.journal()
    let first = try #require(full.history.first)
    let point = Replayer.Point.event(first.id)
    let reference = Self.answer { try full.diff(from: point, to: nil) }
    let count = full.history.count
    for file in files {
      let url = folder.appendingPathComponent(file)
      let original = try [UInt8](Data(contentsOf: url))
      for at in stride(from: 0, to: original.count, by: max(1, original.count / 12)) {
        for damage in 0..<2 {
          var bytes = original
          if damage == 0 { bytes.removeSubrange(at...) } else { bytes[at] ^= 0x01 }
          try Data(bytes).write(to: url)
          let context = "\(file), byte \(at), damage \(damage)"
          #expect(Self.answer { try scoped().diff(from: point, to: nil) } == nil, "\(context)")
          #expect(
            Self.answer { try scoped().diff(from: point, to: nil) } == reference,
            "\(context)"
          )
          if file.hasPrefix("ends/") {
            // A rewind reads the index of ends alone, finds it damaged and appends nothing:
            // the command line runs it again on the whole history.
            try Data(bytes).write(to: url)
            let journal = try scoped()
            #expect(
              Self.answer { try journal.rewind(to: point, device: "phone", now: Date()) } == nil,
              "\(context)"
            )
            _ = try scoped()
          }
          try Data(original).write(to: url)
        }
      }
    }
    #expect(try mirror.journal().history.count == count)
  }
}

extension SavedStateTests {
  /// A revert this build cannot decode quarantines every revert in a full read: `rewind` from
  /// the state, which reads only the buckets of reverts after its point, leaves them all out
  /// too (`ends/undecodable`), wherever the unreadable one lies.
  @Test(arguments: [false, true])
  func aRevertThisBuildCannotReadLeavesEveryRevertOutOfARewind(early: Bool) throws {
    var session = try RandomSession(seed: 17)
    for _ in 0..<90 { session.step() }
    let mirror = try FileMirror()
    let events = try session.harness.store.readHistory().events
    let at = try #require(early ? events.first : events.last).milliseconds
    var unreadable = RebuildTests().unreadableEvent(in: "history", at: at)
    unreadable.type = JournalEvent.TypeName.eventsReverted
    try mirror.append(early ? [unreadable] + events : events + [unreadable])
    let options = DeviceWriter.Options(durability: .none)
    let full = try mirror.journal()
    #expect(!full.history.contains { $0.event.typeName == JournalEvent.TypeName.eventsReverted })
    _ = try SavedState.open(journal: mirror.url, store: FileEventStore(url: mirror.url))
    // Every other reader of the state leaves them out too: the scoped folds, the slices
    // behind audit, export and the report, and diff.
    let store = try FileEventStore(url: mirror.url, options: options)
    for scope in [StateScope.workout(nil), StateScope(openWorkouts: true, splits: false)] {
      let scoped = try Journal.open(store: store, scope: scope, newID: SequentialIDs().make)
      try SavedStateTests.expectAgrees(scoped, full, scope, "early \(early)")
    }
    let sliced = try Journal.open(
      store: store,
      scope: StateScope(splits: false),
      newID: SequentialIDs().make
    )
    var ids: [String] = []
    try sliced.forEachSlice { _, events in ids += events.map(\.id) }
    #expect(ids.sorted() == full.history.map(\.id).sorted(), "slices, early \(early)")
    #expect(try sliced.diff(from: nil, to: nil) == full.diff(from: nil, to: nil))
    for event in full.history.suffix(12) {
      func rewound(scope: StateScope) throws -> String? {
        try Self.rewound(mirror.url, to: .event(event.id), scope: scope)
      }
      let fromState = try #require(try rewound(scope: StateScope(splits: false)))
      #expect(fromState == (try rewound(scope: .all)), "rewind to \(event.id), early \(early)")
    }
  }

  /// The events a rewind to `point` cancels, or its error, made on a copy of the journal at
  /// `url` (files and state) opened with `scope`: a rewind appends.
  static func rewound(_ url: URL, to point: Replayer.Point, scope: StateScope) throws -> String? {
    let copy = try makeTemporaryDirectory("ends-rewind").appendingPathComponent("journal")
    try FileManager.default.copyItem(at: url, to: copy)
    defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
    let journal = try Journal.open(
      store: try FileEventStore(url: copy, options: DeviceWriter.Options(durability: .none)),
      scope: scope,
      newID: SequentialIDs(prefix: "01K").make
    )
    return answer { try journal.rewind(to: point, device: "tablet", now: Date()).eventIDs }
  }
}
