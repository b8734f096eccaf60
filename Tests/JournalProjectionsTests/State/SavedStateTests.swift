import Foundation
import JournalCore
import JournalTestSupport
import Testing

@testable import JournalProjections

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The saved state against a full replay: whatever part of the history the state holds and
/// whatever it has not seen yet, a command opened on it sees what a full replay sees.
@Suite struct SavedStateTests {
  /// A journal in a temporary folder, with one id source for every journal opened on it.
  final class Fixture {
    let url: URL
    let ids = SequentialIDs()
    var random: SplitMix64

    init(seed: UInt64) throws {
      url = try makeTemporaryDirectory("saved-state").appendingPathComponent("journal")
      _ = try EventLog.create(at: url)
      random = SplitMix64(seed: seed)
    }

    /// The devices' wall clock (milliseconds since 1970); nil for the system's.
    var clock: Int64?

    /// How the journal's files are written: without flushes, at ``clock``.
    var options: DeviceWriter.Options {
      var options = DeviceWriter.Options(durability: .none)
      if let clock { options.wallClock = { clock } }
      return options
    }

    func store() throws -> FileEventStore {
      try FileEventStore(url: url, options: options)
    }

    /// The whole history, replayed.
    func full() throws -> Journal { try Journal(store: try store(), newID: ids.make) }

    /// The journal as a command with `scope` opens it.
    func scoped(_ scope: StateScope) throws -> Journal {
      try Journal.open(store: try store(), scope: scope, newID: ids.make)
    }

    var stateFolder: URL { url.appendingPathComponent(SavedState.folder) }

    /// Creates a split of one exercise from the phone at `now`, through a journal opened on
    /// the splits; its id.
    func createSplit(
      _ name: String,
      color: String,
      _ plan: ExercisePlan,
      at now: Date = Date()
    ) throws -> String {
      try #require(
        try scoped(.splits).execute(
          .createSplit(
            SplitSettings(name: name, color: color, systemImage: "figure"),
            exercises: [plan]
          ),
          device: "phone",
          now: now
        ).first?.streamID
      )
    }

    /// A workout of `split` from the phone, the devices' clock set to each action: started at
    /// `start`, one set of `weight` a minute later, ended a minute after that; its id.
    func workout(of split: String, at start: Date, weight: Double) throws -> String {
      var id: String?
      let actions: [JournalCommand] = [
        .startWorkout(split: split, timeZone: "UTC"),
        .completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: weight)),
        .endWorkout(workout: nil),
      ]
      for (offset, command) in actions.enumerated() {
        let now = start.addingTimeInterval(Double(offset) * 60)
        clock = now.milliseconds
        let done = try scoped(.splits).execute(command, device: "phone", now: now)
        id = id ?? done.first?.streamID
      }
      return try #require(id)
    }

    /// What a full replay does with `body` on a copy of the journal, which is then removed.
    func onACopy<T>(_ body: (Journal) throws -> T) throws -> T {
      let copy = url.deletingLastPathComponent().appendingPathComponent("copy")
      try? FileManager.default.removeItem(at: copy)
      try FileManager.default.copyItem(at: url, to: copy)
      defer { try? FileManager.default.removeItem(at: copy) }
      let store = try FileEventStore(url: copy, options: options)
      return try body(try Journal(store: store, newID: SequentialIDs(prefix: "01K").make))
    }
  }

  /// What an appended action did, without its ids: each event's type, and its stream when
  /// the stream was there before.
  static func shape(_ events: [FoldEvent], known: Set<String>) -> [String] {
    events.map { "\($0.event.typeName) \(known.contains($0.stream) ? $0.stream : "new")" }
  }

  /// What a scope's fold must agree on with the full fold: every split when it holds them,
  /// and every workout the scope holds, rendered as documents at the fold's `now`.
  static func expectAgrees(
    _ scoped: Journal,
    _ full: Journal,
    _ scope: StateScope,
    _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let part = scoped.state()
    let whole = full.state()
    #expect(part.now == whole.now, "now: \(context)", sourceLocation: sourceLocation)
    if scope.splits {
      #expect(part.splits == whole.splits, "splits: \(context)", sourceLocation: sourceLocation)
    }
    let now = whole.now ?? Date(timeIntervalSince1970: 0)
    for (id, workout) in part.workouts {
      #expect(
        workout.renderedDocument(now: now) == whole.workouts[id]?.renderedDocument(now: now),
        "workout \(id): \(context)",
        sourceLocation: sourceLocation
      )
      #expect(workout.deletedAt == whole.workouts[id]?.deletedAt, sourceLocation: sourceLocation)
    }
    if scope.openWorkouts {
      #expect(
        part.openWorkouts.map(\.document.id) == whole.openWorkouts.map(\.document.id),
        "open workouts: \(context)",
        sourceLocation: sourceLocation
      )
    }
    if scope.latestWorkout {
      #expect(
        part.latestLiveWorkout?.document.id == whole.latestLiveWorkout?.document.id,
        "latest workout: \(context)",
        sourceLocation: sourceLocation
      )
    }
  }

  /// Records and charts read from the saved state's exercise index against those of a full
  /// replay: the same answer, or the same error; an index that cannot tell (a name matching
  /// some of an exercise's display names) says so, and the command line reads everything.
  static func expectSameRecords(
    _ fixture: Fixture,
    _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    var scoped = try fixture.scoped(StateScope(splits: false))
    let full = try fixture.full()
    // A damaged file of the index sends the command to the whole history, and the next one
    // to a state read again.
    if (try? scoped.records(exercise: nil)) == nil {
      scoped = try fixture.scoped(StateScope(splits: false))
    }
    func answer<T>(_ body: () throws -> T) -> String? {
      do {
        return "\(try body())"
      } catch is ScopeTooNarrow {
        return nil
      } catch {
        return "\(error)"
      }
    }
    #expect(
      try scoped.records(exercise: nil) == full.records(exercise: nil),
      "records: \(context)",
      sourceLocation: sourceLocation
    )
    for name in ["Bench", "bench press", "Incline", "Dips", "D", "Nothing"] {
      if let fromIndex = answer({ try scoped.records(exercise: name) }) {
        #expect(
          fromIndex == answer({ try full.records(exercise: name) }),
          "records of \(name): \(context)",
          sourceLocation: sourceLocation
        )
      }
      // The whole chart, and the newest few points as the terminal reads them.
      for newest in [nil, Int(fixture.random.next() % 4)] {
        if let fromIndex = answer({ try scoped.progression(of: name, newest: newest) }) {
          #expect(
            fromIndex == answer({ try full.progression(of: name, newest: newest) }),
            "chart of \(name), newest \(String(describing: newest)): \(context)",
            sourceLocation: sourceLocation
          )
        }
      }
    }
  }

  /// An update of the state that wrote a stream's file and stopped before its head (a failed
  /// write, a crash): the next command meets those events again, and reads everything again
  /// rather than trust what the update did not get to write.
  @Test func anUpdateThatStoppedBeforeItsHeadIsReadAgain() throws {
    let fixture = try Fixture(seed: 3)
    let split = try fixture.createSplit(
      "Legs",
      color: "blue",
      ExercisePlan(name: "Squat", sets: 3, reps: 5, weight: 80, loadType: .weight)
    )
    let head = fixture.stateFolder.appendingPathComponent("head")
    let before = try Data(contentsOf: head)
    _ = try fixture.scoped(.splits).execute(
      .startWorkout(split: split, timeZone: "UTC"),
      device: "phone",
      now: Date()
    )
    try before.write(to: head)
    let state = try SavedState.open(journal: fixture.url, store: fixture.store())
    #expect(state.rebuiltBecause?.contains("stopped part-way") == true)
    for scope in [StateScope(openWorkouts: true), .workout(nil), StateScope(latestWorkout: true)] {
      try Self.expectAgrees(fixture.scoped(scope), fixture.full(), scope, "stopped part-way")
    }
    // A revert that names nothing held is kept in `reverts/` alone: met again there too.
    let beforeRevert = try Data(contentsOf: head)
    _ = try EventsInEffectTests.appendRevert(of: ["01J0000000000000000000ZZZZ"], in: fixture)
    #expect(try SavedState.open(journal: fixture.url, store: fixture.store()).rebuiltBecause == nil)
    try beforeRevert.write(to: head)
    let again = try SavedState.open(journal: fixture.url, store: fixture.store())
    #expect(again.rebuiltBecause?.contains("stopped part-way") == true)
  }

  /// An event delivered again by another device, in a copy that sorts before the copy the
  /// state holds: the copy first in merge order counts, as in a full replay, whichever the
  /// state met first.
  @Test func aRedeliveredEventCountsInTheCopyFirstInMergeOrder() throws {
    let fixture = try Fixture(seed: 1)
    let base: Int64 = 1_800_000_000_000
    fixture.clock = base
    let split = try fixture.createSplit(
      "Legs",
      color: "blue",
      ExercisePlan(name: "Squat", sets: 3, reps: 5, weight: 80, loadType: .weight)
    )
    fixture.clock = base + 10_000
    _ = try fixture.scoped(.splits).execute(
      .startWorkout(split: split, timeZone: "UTC"),
      device: "phone",
      now: Date(milliseconds: base + 10_000)
    )
    fixture.clock = base + 20_000
    let done = try fixture.scoped(.workout(nil)).execute(
      .completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: 80)),
      device: "phone",
      now: Date(milliseconds: base + 20_000)
    )
    let original = try #require(done.first)
    // The state has met the phone's copy; the relay's, delivered now, was written earlier.
    let stored = try #require(
      try fixture.full().store.readHistory().events.first { $0.id == original.id }
    )
    let writer = try EventLog(at: fixture.url).openWriter(
      device: "relay",
      options: DeviceWriter.Options(durability: .none, wallClock: { base + 15_000 })
    )
    _ = try writer.append([
      NewEvent(
        stream: stored.stream,
        type: stored.type,
        version: stored.version,
        payload: stored.payload,
        id: ULID(stored.id)
      )
    ])
    writer.close()
    let full = try fixture.full()
    let kept = try #require(full.history.first { $0.storedID == original.storedID })
    #expect(kept.device == "relay")
    for scope in [StateScope.workout(nil), StateScope(openWorkouts: true, splits: false)] {
      let scoped = try fixture.scoped(scope)
      let held = scoped.history.filter { $0.storedID == original.storedID }
      #expect(held.map(\.device) == ["relay"], "\(scope)")
      #expect(held.map(\.mergeKey) == [kept.mergeKey], "\(scope)")
      try Self.expectAgrees(scoped, full, scope, "redelivered")
    }
    var merged: [FoldEvent] = []
    try fixture.scoped(StateScope(splits: false)).forEachEventInEffect { merged.append($0) }
    #expect(merged.map(\.device) == full.history.map(\.device))
  }

  /// A chart of the newest points reads the exercise index from the newest year back, and
  /// answers the newest points of the whole chart, whichever years they fall in.
  @Test func theNewestPointsOfAChartSpanTheYearsTheyFallIn() throws {
    let fixture = try Fixture(seed: 1)
    // Nine workouts 150 days apart: four years, with two or three workouts in each.
    let first = Date(timeIntervalSince1970: 1_577_880_000)  // 2020-01-01 12:00 UTC
    fixture.clock = first.addingTimeInterval(-86_400).milliseconds
    let split = try fixture.createSplit(
      "Legs",
      color: "blue",
      ExercisePlan(name: "Squat", sets: 2, reps: 5, weight: 80, loadType: .weight),
      at: first.addingTimeInterval(-86_400)
    )
    for index in 0..<9 {
      let start = first.addingTimeInterval(Double(index) * 150 * 86_400)
      _ = try fixture.workout(of: split, at: start, weight: Double(80 + index))
    }
    let whole = try fixture.full().progression(of: "Squat")
    #expect(whole.points.count == 9)
    for newest in 0...10 {
      let fromIndex = try fixture.scoped(StateScope(splits: false))
        .progression(of: "Squat", newest: newest)
      #expect(fromIndex.points == Array(whole.points.suffix(newest)), "newest \(newest)")
    }
    #expect(try fixture.scoped(StateScope(splits: false)).progression(of: "Squat") == whole)
  }

  /// The report's reads gathered workout by workout from the saved state against those of
  /// the whole history in one piece, over all of it and over a range.
  static func expectSameReport(
    _ fixture: Fixture,
    _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    func gathered(_ journal: Journal, since: Date?) throws -> String {
      describe(try journal.reportReads(since: since, until: nil))
    }
    func describe(_ reads: ReportReads) -> String {
      let recent = reads.recent.map { "\($0.session) \($0.rows) \($0.workout.document)" }
      let labels = reads.labels.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
      return """
        events \(reads.eventCount)
        summary \(reads.summary)
        exercises \(reads.exercises.map { "\($0.progression) \(String(describing: $0.records))" })
        revisions \(reads.revisions)
        counts \(reads.revisionCounts.sorted { $0.key.rawValue < $1.key.rawValue })
        recent \(recent)
        labels \(labels)
        """
    }
    let full = try fixture.full()
    let starts = full.state().workouts.values.map(\.document.start).sorted()
    for since in [nil, starts.dropFirst(starts.count / 2).first] {
      var scoped = try fixture.scoped(StateScope(splits: false))
      // A damaged file of the state sends the read to the whole history, and the next one to a
      // state read again.
      do {
        _ = try gathered(scoped, since: since)
      } catch is ScopeTooNarrow {
        scoped = try fixture.scoped(StateScope(splits: false))
      }
      let part = try gathered(scoped, since: since)
      let whole = try gathered(full, since: since)
      #expect(
        part == whole,
        "report since \(String(describing: since)): \(context)\n\(firstDifference(Data(part.utf8), Data(whole.utf8)))",
        sourceLocation: sourceLocation
      )
      // The slices' reads merged in groups of any size, in order, as the report index merges
      // its parts: the same reads.
      var merged = ReportReads(since: since, until: nil)
      func mergeInGroups(_ journal: Journal) throws {
        merged = ReportReads(since: since, until: nil)
        var group = ReportReads(since: since, until: nil)
        try journal.forEachSlice { state, events in
          group.add(state: state, events: events)
          if fixture.random.next() % 3 == 0 {
            merged.merge(group)
            group = ReportReads(since: since, until: nil)
          }
        }
        merged.merge(group)
      }
      // The report index answered without reading the workouts' streams: a damaged one is
      // found here.
      do {
        try mergeInGroups(scoped)
      } catch is ScopeTooNarrow {
        try mergeInGroups(try fixture.scoped(StateScope(splits: false)))
      }
      merged.findRecent { id in
        let state = full.state()
        return state.workouts[id] == nil ? nil : (state, full.history)
      }
      let grouped = describe(merged)
      #expect(
        grouped == whole,
        "report merged in groups since \(String(describing: since)): \(context)\n\(firstDifference(Data(grouped.utf8), Data(whole.utf8)))",
        sourceLocation: sourceLocation
      )
    }
  }

  /// `audit` and `export` read from the saved state a workout at a time against the whole
  /// history read at once: the audit's rows in the same order and its totals, for every
  /// filter; the workouts in the order of `liveWorkouts`; the events in effect in merge order.
  static func expectSameStreams(
    _ fixture: Fixture,
    _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let full = try fixture.full()
    let whole = full.state()
    let starts = whole.workouts.values.map(\.document.start).sorted()
    var scoped = try fixture.scoped(StateScope(splits: false))
    // A damaged file of the state sends the read to the whole history, and the next one to a
    // state read again.
    do {
      _ = try StreamedAudit(journal: scoped, filter: AuditFilter())
    } catch is ScopeTooNarrow {
      scoped = try fixture.scoped(StateScope(splits: false))
    }
    let middle = starts.dropFirst(starts.count / 2).first
    for (since, until, exercise, split) in [
      (nil, nil, nil, nil), (middle, nil, nil, nil), (nil, middle, "bench", nil),
      (nil, nil, "Bench Press", "push"), (nil, nil, "dips", nil),
    ] as [(Date?, Date?, String?, String?)] {
      var filter = AuditFilter(since: since, until: until)
      var survey = try StreamedAudit(journal: scoped, filter: filter)
      var names = filter
      names.exercise = try? exercise.map { try whole.exerciseName($0) }
      names.split = try? split.map { try whole.splitName($0) }
      #expect(
        (try? exercise.map { try survey.names.exerciseName($0) }) == names.exercise
          && (try? split.map { try survey.names.splitName($0) }) == names.split,
        "names \(String(describing: exercise)) \(String(describing: split)): \(context)",
        sourceLocation: sourceLocation
      )
      filter = names
      var rows: [AuditRow] = []
      var unordered: [AuditTotals] = []
      let exercises = try survey.forEachRow(
        of: scoped,
        filter: filter,
        workoutTotals: { unordered.append($0) },
        { rows.append($0) }
      )
      var workouts: [AuditTotals] = []
      try survey.forEachWorkoutTotals(of: scoped, filter: filter) { workouts.append($0) }
      let expected = Audit(state: whole, history: full.history, filter: filter)
      #expect(
        rows == expected.rows && workouts == expected.workoutTotals
          && exercises == expected.exerciseTotals
          && Set(unordered) == Set(expected.workoutTotals) && unordered.count == workouts.count,
        "audit \(filter): \(context)",
        sourceLocation: sourceLocation
      )
    }
    var workouts: [String] = []
    try scoped.forEachSlice { state, _ in workouts += state.liveWorkouts.map(\.document.id) }
    #expect(
      workouts == whole.liveWorkouts.map(\.document.id),
      "export's workouts: \(context)",
      sourceLocation: sourceLocation
    )
    let history = try StreamedHistory(store: try fixture.store())
    var inEffect: [String] = []
    try history.forEachEvent { if history.cancelled[$0.storedID] == nil { inEffect.append($0.id) } }
    let cancelled = Replayer.cancelledEvents(in: full.history)
    let expected = full.history.filter { cancelled[$0.storedID] == nil }
    #expect(
      inEffect == expected.map(\.id),
      "export's events: \(context)",
      sourceLocation: sourceLocation
    )
    var merged: [FoldEvent] = []
    do {
      try scoped.forEachEventInEffect { merged.append($0) }
    } catch is ScopeTooNarrow {
      merged = []
      try fixture.scoped(StateScope(splits: false)).forEachEventInEffect { merged.append($0) }
    }
    #expect(
      merged == expected,
      "export's events from the saved state: \(context)",
      sourceLocation: sourceLocation
    )
  }

  /// A command a lifter might give next, for a device.
  static func command(_ random: inout SplitMix64, split: String) -> JournalCommand {
    let actuals = SetActuals(
      reps: Int(random.next() % 8) + 1,
      weight: Double(random.next() % 20) * 2.5
    )
    switch random.next() % 13 {
    case 0, 1, 9: return .startWorkout(split: split, timeZone: "UTC")
    case 2, 3, 4: return .completeSet(workout: nil, exercise: nil, actuals)
    case 5: return .adjustSet(workout: nil, exercise: nil, set: nil, actuals)
    case 6: return .addSet(workout: nil, exercise: nil)
    case 7: return .skipLog(workout: nil, exercise: nil)
    case 8: return .resetLog(workout: nil, exercise: nil)
    case 10: return .endWorkout(workout: nil)
    case 11: return .completeLog(workout: nil, exercise: nil)
    default:
      var update = SplitUpdated()
      update.restSeconds = .set(Int(random.next() % 120) + 30)
      return .updateSplit(split: split, update)
    }
  }

  @Test(arguments: 1...8 as ClosedRange<UInt64>)
  func aScopedCommandSeesWhatAFullReplaySees(seed: UInt64) throws {
    let fixture = try Fixture(seed: seed)
    let split = try #require(
      try fixture.full().execute(
        .createSplit(
          SplitSettings(name: "Push", color: "red", systemImage: "dumbbell"),
          exercises: [
            ExercisePlan(
              name: "Bench",
              sets: 3,
              reps: 5,
              weight: 60,
              loadType: .weight,
              libraryName: "Bench Press"
            ),
            ExercisePlan(name: "Dips", sets: 2, reps: 8, weight: 0, loadType: .none),
            ExercisePlan(
              name: "Incline",
              sets: 2,
              reps: 6,
              weight: 40,
              loadType: .weight,
              libraryName: "Bench Press"
            ),
          ]
        ),
        device: "phone",
        now: Date()
      ).first?.streamID
    )
    let devices = ["phone", "watch"]
    for step in 0..<100 {
      let device = devices[Int(fixture.random.next() % 2)]
      let choice = fixture.random.next() % 20
      let context = "seed \(seed), step \(step), choice \(choice)"
      switch choice {
      case 0:
        // Events the saved state has not seen: another device's files delivered by a sync.
        _ = try? fixture.full().execute(
          Self.command(&fixture.random, split: split),
          device: "laptop",
          now: Date()
        )
      case 1:
        try? FileManager.default.removeItem(at: fixture.stateFolder)
      case 2:
        try Self.damageAFile(in: fixture.stateFolder, random: &fixture.random)
      case 3, 4, 5, 6, 7:
        // The undo a full replay would make, on a copy.
        let expected = try fixture.onACopy { try? $0.undo(device: device, now: Date()).eventIDs }
        let scope = StateScope(recentActionsOf: device, splits: fixture.random.next() % 2 == 0)
        let journal = try fixture.scoped(scope)
        let undone: [String]?
        do {
          undone = try journal.undo(device: device, now: Date()).eventIDs
        } catch is ScopeTooNarrow {
          undone = try? fixture.full().undo(device: device, now: Date()).eventIDs
        } catch is CommandError {
          undone = nil
        }
        #expect(undone == expected, "undo: \(context)")
      case 8:
        _ = try? fixture.full().redo(device: device, now: Date())
      default:
        // Now and then more splits, or their order changed: which split comes next.
        let command =
          choice != 9
          ? Self.command(&fixture.random, split: split)
          : fixture.random.next() % 2 == 0
            ? .addStarterSplits : .moveSplit(split: split, position: Int(fixture.random.next() % 3))
        let known = Set(try fixture.full().history.map(\.stream))
        let expected = try fixture.onACopy {
          (try? $0.execute(command, device: device, now: Date())).map {
            Self.shape($0, known: known)
          }
        }
        // The scope the command line opens for it.
        let scope: StateScope
        switch command {
        case .startWorkout, .updateSplit, .addStarterSplits, .moveSplit: scope = .splits
        default: scope = .workout(nil)
        }
        var refusal = ""
        let done: [FoldEvent]?
        do {
          done = try fixture.scoped(scope).execute(command, device: device, now: Date())
        } catch {
          refusal = "\(error)"
          done = nil
        }
        #expect(
          done.map { Self.shape($0, known: known) } == expected,
          "\(command): \(context) \(refusal)"
        )
      }
      let scopes = [
        StateScope(openWorkouts: true),
        StateScope(latestWorkout: true),
        StateScope(recentActionsOf: device),
        StateScope(openWorkouts: true, splits: false),
        StateScope(recentActionsOf: device, splits: false),
      ]
      let scope = scopes[Int(fixture.random.next() % UInt64(scopes.count))]
      try Self.expectAgrees(fixture.scoped(scope), fixture.full(), scope, context)
      if fixture.random.next() % 4 == 0 {
        try Self.expectSameRecords(fixture, context)
        try Self.expectSameReport(fixture, context)
        try Self.expectSameStreams(fixture, context)
      }
      // Today's snapshot, read from the workouts the state names for the day.
      let zone = try #require(TimeZone(identifier: ["UTC", "Pacific/Auckland"][step % 2]))
      let moment = Date(timeIntervalSinceNow: Double(fixture.random.next() % 3) * -86_400)
      #expect(
        try fixture.scoped(TodayProjection.scope(at: moment, timeZone: zone))
          .today(at: moment, timeZone: zone)
          == TodayProjection.snapshot(of: try fixture.full().state(), at: moment, timeZone: zone),
        "today: \(context)"
      )
    }
    // Every workout, named one by one by its id and by a prefix of it, folds as in the full
    // replay.
    let full = try fixture.full()
    for id in full.state().workouts.keys.sorted() {
      for reference in [id, String(id.prefix(3)), String(id.prefix(24)).lowercased()] {
        let scope = StateScope(workouts: [reference], splits: reference != id)
        let scoped = try fixture.scoped(scope)
        #expect(scoped.state().workouts[id] != nil, "seed \(seed), '\(reference)'")
        try Self.expectAgrees(scoped, full, scope, "seed \(seed), workout '\(reference)'")
      }
    }
  }

  /// A sync service delivering each device's files late and in any order: reverts arrive
  /// before the events they name, and a device's events land before the state's end.
  @Test(arguments: 1...6 as ClosedRange<UInt64>)
  func lateDeliveriesFoldAsAFullReplay(seed: UInt64) throws {
    let source = try Fixture(seed: seed)
    let target = try Fixture(seed: seed)
    let split = try #require(
      try source.full().execute(
        .createSplit(
          SplitSettings(name: "Legs", color: "blue", systemImage: "figure"),
          exercises: [ExercisePlan(name: "Squat", sets: 3, reps: 5, weight: 80, loadType: .weight)]
        ),
        device: "phone",
        now: Date()
      ).first?.streamID
    )
    let devices = ["phone", "watch", "laptop"]
    for step in 0..<80 {
      let device = devices[Int(source.random.next() % 3)]
      let journal = try source.full()
      switch source.random.next() % 10 {
      case 0, 1: _ = try? journal.undo(device: device, now: Date())
      case 2: _ = try? journal.redo(device: device, now: Date())
      case 3:
        // Back past a random event, naming events of every device.
        if let point = journal.history.dropLast(1).randomElement(using: &source.random) {
          _ = try? journal.rewind(to: .event(point.id), device: device, now: Date())
        }
      default:
        _ = try? journal.execute(
          Self.command(&source.random, split: split),
          device: device,
          now: Date()
        )
      }
      // The sync service brings one device's files over, as they are now.
      if source.random.next() % 3 == 0 {
        let delivered = devices[Int(source.random.next() % 3)]
        let from = source.url.appendingPathComponent("devices/\(delivered)")
        let to = target.url.appendingPathComponent("devices/\(delivered)")
        if FileManager.default.fileExists(atPath: from.path) {
          try? FileManager.default.removeItem(at: to)
          try FileManager.default.copyItem(at: from, to: to)
        }
        let scopes = [StateScope.workout(nil), StateScope(recentActionsOf: device)]
        let scope = scopes[Int(source.random.next() % 2)]
        try Self.expectAgrees(
          target.scoped(scope),
          target.full(),
          scope,
          "seed \(seed), step \(step), delivered \(delivered)"
        )
      }
    }
    for delivered in devices {
      let from = source.url.appendingPathComponent("devices/\(delivered)")
      let to = target.url.appendingPathComponent("devices/\(delivered)")
      guard FileManager.default.fileExists(atPath: from.path) else { continue }
      try? FileManager.default.removeItem(at: to)
      try FileManager.default.copyItem(at: from, to: to)
    }
    try Self.expectSameRecords(target, "seed \(seed), every device delivered")
    try Self.expectSameReport(target, "seed \(seed), every device delivered")
    try Self.expectSameStreams(target, "seed \(seed), every device delivered")
    let full = try target.full()
    for id in full.state().workouts.keys.sorted() {
      let scope = StateScope(workouts: [id])
      try Self.expectAgrees(target.scoped(scope), full, scope, "seed \(seed), workout \(id)")
    }
  }

  /// A fork of `phone`'s files that a sync service delivers after the state was saved: the
  /// state notices it and reads everything again, so a command sees what a full replay sees;
  /// later commands, and the append that heals the fork, do not read everything again.
  @Test(arguments: 1...6 as ClosedRange<UInt64>)
  func aForkDeliveredAfterTheStateWasSavedFoldsAsAFullReplay(seed: UInt64) throws {
    let fixture = try Fixture(seed: seed)
    let split = try #require(
      try fixture.full().execute(
        .createSplit(
          SplitSettings(name: "Pull", color: "green", systemImage: "figure"),
          exercises: [ExercisePlan(name: "Row", sets: 3, reps: 8, weight: 50, loadType: .weight)]
        ),
        device: "phone",
        now: Date()
      ).first?.streamID
    )
    func act(_ url: URL, _ count: Int) throws {
      let store = try FileEventStore(url: url, options: DeviceWriter.Options(durability: .none))
      for _ in 0..<count {
        let command = Self.command(&fixture.random, split: split)
        _ = try? Journal(store: store, newID: fixture.ids.make).execute(
          command,
          device: "phone",
          now: Date()
        )
      }
    }
    try act(fixture.url, Int(fixture.random.next() % 5) + 1)
    _ = try SavedState.open(journal: fixture.url, store: fixture.store())
    // The other version of the phone's files: a copy of the journal written apart.
    let other = fixture.url.deletingLastPathComponent().appendingPathComponent("other")
    try FileManager.default.copyItem(at: fixture.url, to: other)
    try act(fixture.url, Int(fixture.random.next() % 6) + 1)
    let scope = StateScope(openWorkouts: true)
    try Self.expectAgrees(fixture.scoped(scope), fixture.full(), scope, "seed \(seed), before")
    try act(other, Int(fixture.random.next() % 6) + 1)
    let segment = "devices/phone/000001.jsonl"
    let theirs = try Data(contentsOf: other.appendingPathComponent(segment))
    try theirs.write(to: fixture.url.appendingPathComponent("devices/phone/000001 2.jsonl"))

    let state = try SavedState.open(journal: fixture.url, store: fixture.store())
    #expect(state.rebuiltBecause?.contains("fork") == true, "seed \(seed)")
    #expect(state.notices.contains { $0.contains("fork of device 'phone'") }, "\(state.notices)")
    for scope in [StateScope(openWorkouts: true), .workout(nil), StateScope(latestWorkout: true)] {
      try Self.expectAgrees(fixture.scoped(scope), fixture.full(), scope, "seed \(seed), fork")
    }
    let again = try SavedState.open(journal: fixture.url, store: fixture.store())
    #expect(again.rebuiltBecause == nil)
    #expect(!again.notices.contains { $0.contains("fork") }, "\(again.notices)")
    // The heal: an append from the state, which then still agrees without reading
    // everything again.
    var update = SplitUpdated()
    update.restSeconds = .set(75)
    _ = try fixture.scoped(StateScope(openWorkouts: true)).execute(
      .updateSplit(split: split, update),
      device: "phone",
      now: Date()
    )
    let healed = try SavedState.open(journal: fixture.url, store: fixture.store())
    #expect(healed.rebuiltBecause == nil, "\(healed.rebuiltBecause ?? "")")
    #expect(try EventLog(at: fixture.url).verify().unhealedForks.isEmpty)
    for scope in [StateScope(openWorkouts: true), .workout(nil)] {
      try Self.expectAgrees(fixture.scoped(scope), fixture.full(), scope, "seed \(seed), healed")
    }
  }

  /// The writes of the saved state, and of the commands around it, fail one at a time
  /// (ENOSPC, EIO, a short write then a failure, at every write, rename, open and folder
  /// creation): a command either fails with an error naming the call or answers from the
  /// whole history, no torn file is taken for the state, and the next command sees what a
  /// full replay sees.
  @Test(arguments: [FaultyFileIO.Operation.write, .rename, .open, .makeDirectory])
  func aFailedWriteOfTheStateIsNeverTakenForIt(operation: FaultyFileIO.Operation) throws {
    let fixture = try Fixture(seed: 7)
    let split = try #require(
      try fixture.full().execute(
        .createSplit(
          SplitSettings(name: "Arms", color: "red", systemImage: "figure"),
          exercises: [ExercisePlan(name: "Curl", sets: 3, reps: 8, weight: 20, loadType: .weight)]
        ),
        device: "phone",
        now: Date()
      ).first?.streamID
    )
    let effects: [[FaultyFileIO.Effect]] =
      operation == .write
      ? [[.fail(ENOSPC)], [.fail(EIO)], [.shortWrite(3), .fail(ENOSPC)]]
      : [[.fail(ENOSPC)], [.fail(EIO)]]
    // The state's own write: it fails whole, and leaves neither the file nor its temporary.
    let probe = FaultyFileIO()
    probe.inject(operation, .fail(EIO))
    let files = DocumentTreeWriter(root: fixture.stateFolder)
    #expect(throws: RebuildError.self) {
      try SavedState.write(StateFolder(files, io: probe), "streams/probe", Array("x".utf8))
    }
    let left = (try? FileManager.default.contentsOfDirectory(atPath: files.absolute("streams")))
    #expect(left?.contains { $0.contains("probe") } != true, "\(left ?? [])")
    var failures = 0
    for call in 1...24 {
      for effect in effects {
        // Every other round starts from no state: the state is then written whole.
        if call % 2 == 0 { try? FileManager.default.removeItem(at: fixture.stateFolder) }
        let faulty = FaultyFileIO()
        let store = FileEventStore(
          log: try EventLog(at: fixture.url, fileIO: faulty),
          options: DeviceWriter.Options(durability: .full)
        )
        for (offset, step) in effect.enumerated() {
          faulty.inject(operation, call: call + offset, step)
        }
        let command = Self.command(&fixture.random, split: split)
        do {
          _ = try Journal.open(store: store, scope: .workout(nil), newID: fixture.ids.make)
            .execute(command, device: "phone", now: Date())
        } catch let error as JournalError {
          failures += 1
          #expect(error.message.hasPrefix("cannot "), "\(error)")
        } catch {}
        faulty.reset()
        let context = "\(operation) call \(call) \(effect)"
        for scope in [StateScope(openWorkouts: true), .workout(nil)] {
          try Self.expectAgrees(fixture.scoped(scope), fixture.full(), scope, context)
        }
        #expect(try EventLog(at: fixture.url).verify().isClean, "\(context)")
      }
    }
    // The append itself renames nothing: a failed rename is only ever the state's, which
    // the command survives.
    if operation == .rename { #expect(failures == 0) } else { #expect(failures > 0) }
  }

  /// Cuts or flips one byte of one file of the state.
  static func damageAFile(in folder: URL, random: inout SplitMix64) throws {
    guard
      let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]
    else { return }
    let candidates = files.filter { !$0.hasSuffix("lock") }.sorted().filter {
      var isFolder: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: folder.appendingPathComponent($0).path,
        isDirectory: &isFolder
      )
      return exists && !isFolder.boolValue
    }
    guard !candidates.isEmpty else { return }
    let file = folder.appendingPathComponent(
      candidates[Int(random.next() % UInt64(candidates.count))]
    )
    var bytes = try [UInt8](Data(contentsOf: file))
    guard !bytes.isEmpty else { return }
    let at = Int(random.next() % UInt64(bytes.count))
    if random.next() % 2 == 0 {
      bytes.removeSubrange(at...)
    } else {
      bytes[at] ^= UInt8(1 << (random.next() % 8))
    }
    try Data(bytes).write(to: file)
  }

  /// Commands bring the state up to date without reading everything again, undo of the
  /// latest action included (it cancels the event that set the fold's `now`).
  @Test func commandsAndUndoKeepTheStateWithoutAFullRead() throws {
    let fixture = try Fixture(seed: 7)
    let split = try fixture.createSplit(
      "Arms",
      color: "green",
      ExercisePlan(name: "Curl", sets: 3, reps: 10, weight: 20, loadType: .weight)
    )
    try fixture.scoped(.splits).execute(
      .startWorkout(split: split, timeZone: "UTC"),
      device: "phone",
      now: Date()
    )
    for _ in 0..<3 {
      try fixture.scoped(.workout(nil)).execute(
        .completeSet(workout: nil, exercise: nil, SetActuals(reps: 10, weight: 20)),
        device: "watch",
        now: Date()
      )
      try fixture.scoped(StateScope(recentActionsOf: "watch")).undo(device: "watch", now: Date())
      let opened = try SavedState.open(journal: fixture.url, store: try fixture.store())
      #expect(opened.rebuiltBecause == nil, "\(opened.rebuiltBecause ?? "")")
      let scope = StateScope.workout(nil)
      try Self.expectAgrees(fixture.scoped(scope), fixture.full(), scope, "after an undo")
    }
  }

  /// The head's lines read back as the head they were written from.
  @Test(arguments: 1...20 as ClosedRange<UInt64>)
  func headLinesRoundTrip(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    func pick(_ count: UInt64) -> Int { Int(random.next() % count) }
    let streams = ["split:01J1", "splits", "workout:01J2", "history", "odd stream name", "x  y"]
    var head = SavedState.Head()
    head.now = random.next() % 2 == 0 ? nil : Int64(pick(1 << 40)) - (1 << 39)
    for device in ["phone", "watch", "a.b_c-d"].prefix(pick(4)) {
      let key = FoldEvent.MergeKey(
        milliseconds: Int64(pick(1 << 42)),
        counter: UInt32(pick(9)),
        device: device,
        sequence: UInt64(pick(100_000) + 1)
      )
      head.frontier = key
      head.positions[device] = DevicePosition(
        segment: pick(9) + 1,
        offset: pick(1 << 20) + 400,
        line: pick(900) + 1,
        sequence: UInt64(pick(9_000) + 1),
        length: pick(300) + 1,
        hash: SHA256.hash(Array(device.utf8))
      )
      head.recent[device] = (0...pick(3)).map { index in
        SavedState.RecentStream(stream: streams[(index + pick(6)) % streams.count], last: key)
      }
    }
    head.splits = Array(streams.prefix(pick(4)))
    head.open = (0..<pick(3)).map { "01J\($0)" }
    if random.next() % 2 == 0 {
      head.latest = "01JLATEST"
      head.latestStart = Int64(pick(1 << 40))
    }
    head.quarantined = pick(2) == 0 ? [:] : ["workout:01J9": "line 3: a reason with spaces"]
    head.branches = (0..<pick(3)).map { "phone \(SHA256.hash([UInt8(truncatingIfNeeded: $0)]))" }
    head.active = (0..<pick(4)).map { index in
      SavedState.WorkoutEntry(
        id: "01JA\(index)",
        start: Int64(pick(1 << 40)),
        activity: Int64(pick(1 << 40)),
        mark: pick(2) == 0 ? "o" : "c"
      )
    }
    head.activeFloor = head.active.isEmpty ? nil : Int64(pick(1 << 40))
    let bytes = head.encoded()
    #expect(SavedState.Head(lines: bytes[...]) == head)
  }

  @Test func everyDamagedByteOfAStateIsDetected() throws {
    let fixture = try Fixture(seed: 99)
    let journal = try fixture.full()
    let split = try #require(
      try journal.execute(
        .createSplit(
          SplitSettings(name: "Legs", color: "blue", systemImage: "figure"),
          exercises: [ExercisePlan(name: "Squat", sets: 2, reps: 5, weight: 80, loadType: .weight)]
        ),
        device: "phone",
        now: Date()
      ).first?.streamID
    )
    try journal.execute(.startWorkout(split: split, timeZone: "UTC"), device: "phone", now: Date())
    try journal.execute(
      .completeSet(workout: nil, exercise: nil, SetActuals(reps: 5, weight: 80)),
      device: "phone",
      now: Date()
    )
    let scope = StateScope(openWorkouts: true, latestWorkout: true)
    _ = try fixture.scoped(scope)
    let head = fixture.stateFolder.appendingPathComponent("head")
    let original = try [UInt8](Data(contentsOf: head))
    let full = try fixture.full()
    for at in stride(from: 0, to: original.count, by: 5) {
      for damage in 0..<2 {
        var bytes = original
        if damage == 0 { bytes.removeSubrange(at...) } else { bytes[at] ^= 0x01 }
        try Data(bytes).write(to: head)
        let opened = try SavedState.open(journal: fixture.url, store: try fixture.store())
        #expect(opened.rebuiltBecause != nil, "byte \(at), damage \(damage) not detected")
        try Self.expectAgrees(fixture.scoped(scope), full, scope, "byte \(at)")
      }
    }
  }
}
