import Foundation
import JournalProjections
import Testing

@Suite struct CLIScenarioTests {
  @Test func aWholeWorkoutThroughTheCommandLine() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    #expect(cli.ok("start", "upper").contains("started 'Upper Body'"))
    var workout = try cli.workout()
    #expect(workout["status"] as? String == "notStarted")
    #expect(workout["restSeconds"] as? Int == 90)

    #expect(cli.ok("done").contains("set 1 of 'Bench Press': 5 × 60 (plan 3×5 @ 60)"))
    #expect(cli.ok("done", "--reps", "4", "--weight", "62.5").contains("4 × 62.5"))
    var bench = try cli.log("Bench Press")
    #expect(bench["status"] as? String == "inProgress")
    #expect((bench["setEntries"] as? [[String: Any]])?.map { $0["reps"] as? Int } == [5, 4])

    #expect(cli.ok("adjust", "--reps", "5").contains("5 × 60 · 5 × 62.5"))
    cli.ok("done", "--keep-open")
    cli.ok("more")
    bench = try cli.log("Bench Press")
    #expect(bench["sets"] as? Int == 4)
    #expect(bench["status"] as? String == "inProgress")
    #expect(cli.ok("done", "--reps", "3").contains("exercise completed"))
    bench = try cli.log("Bench Press")
    #expect(bench["status"] as? String == "completed")
    #expect((bench["setEntries"] as? [[String: Any]])?.count == 4)

    cli.ok("done", "push", "--reps", "12")
    #expect(cli.ok("skip", "push-up").contains("1 sets kept"))
    #expect((try cli.log("Push-up"))["status"] as? String == "skipped")
    cli.ok("reset", "push-up")
    let push = try cli.log("Push-up")
    #expect(push["status"] as? String == "notStarted")
    #expect(push["setEntries"] == nil)

    #expect(cli.ok("finish", "plank").contains("60 s · 60 s"))
    let ended = cli.ok("end")
    #expect(ended.contains("ended workout"))
    workout = try cli.workout()
    #expect(workout["status"] as? String == "completed")
    #expect(workout["end"] != nil)
    #expect((try cli.log("Push-up"))["status"] as? String == "skipped")
    #expect(cli.ok("verify").contains("every chain intact"))
  }

  @Test func writeCommandsPrintTheIdsTheyCreatedAsJSON() throws {
    let cli = try CLIHarness()
    cli.ok("init")
    let out = cli.ok("split", "add", "Legs", "--json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
    )
    let split = try #require(object["split"] as? String)
    #expect(split.count == 26)
    #expect((object["events"] as? [String])?.count == 1)
  }

  @Test func undoAndRedoThroughTheCommandLine() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("start", "Upper Body")
    cli.ok("done", "--reps", "4")
    cli.ok("reset", "bench")
    #expect((try cli.log("Bench Press"))["setEntries"] == nil)
    #expect(cli.ok("undo").contains("log.reset"))
    #expect(((try cli.log("Bench Press"))["setEntries"] as? [Any])?.count == 1)
    cli.ok("redo")
    #expect((try cli.log("Bench Press"))["setEntries"] == nil)
  }

  /// A rewind reads the saved state's file of the splits' order like any stream's: a
  /// reordering after the point is undone, and `today` names the next split by the order
  /// restored.
  @Test func rewindUndoesAReorderingOfTheSplits() throws {
    let cli = try CLIHarness()
    cli.ok("init")
    cli.ok("split", "starter")
    func order() -> [String] {
      cli.ok("split", "list").split(separator: "\n").filter { !$0.hasPrefix(" ") }.map {
        String($0.split(separator: " ").first ?? "")
      }
    }
    let moved = cli.ok("split", "move", "Core", "1", "--json")
    let object = try JSONSerialization.jsonObject(with: Data(moved.utf8)) as? [String: Any]
    let kept = try #require((object?["events"] as? [String])?.last)
    #expect(order() == ["Core", "Upper", "Lower"])
    #expect(cli.ok("today").contains("next: Core"))
    cli.ok("split", "move", "Lower", "1")
    #expect(order() == ["Lower", "Core", "Upper"])
    #expect(cli.ok("today").contains("next: Lower Body"))
    #expect(cli.ok("rewind", "--to", kept).contains("splits.reordered"))
    #expect(order() == ["Core", "Upper", "Lower"])
    #expect(cli.ok("today").contains("next: Core"))
  }

  /// `journal today` answers from the saved state after undo, redo and rewind as a full
  /// replay does.
  @Test func todayFromTheSavedStateAfterUndoRedoAndRewind() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("start", "Upper Body")
    let first = cli.ok("done", "--reps", "4", "--json")
    let object = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
    let id = try #require((object?["events"] as? [String])?.first)
    cli.ok("done", "--reps", "5")
    let zone = try #require(TimeZone(identifier: "Europe/Paris"))
    for command in [["undo"], ["redo"], ["rewind", "--to", id]] {
      cli.ok("today")
      let reverted = cli.run(command)
      #expect(reverted.status == 0, "\(command): \(reverted.err)")
      let now = Date()
      let store = try FileEventStore(url: cli.journal)
      let saved = try Journal.open(
        store: store,
        scope: TodayProjection.scope(at: now, timeZone: zone),
        newID: { "" }
      )
      let journal = try Journal(store: store) { "" }
      let fromState = try saved.today(at: now, timeZone: zone)
      let whole = TodayProjection.snapshot(of: journal.state(), at: now, timeZone: zone)
      #expect(fromState == whole, "\(command)")
    }
  }

  /// `$WORKOUT_NOW` is the clock a command reads: a session replayed at another time.
  @Test func workoutNowSetsTheClock() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.environment["WORKOUT_NOW"] = "2030-05-04T08:00:00Z"
    cli.ok("start", "Upper Body")
    let start = try #require(try cli.workout()["start"] as? String)
    #expect(start == "2030-05-04T08:00:00Z")
    #expect(cli.ok("today", "--json", "--time-zone", "UTC").contains(#""day" : "2030-05-04""#))
    cli.environment["WORKOUT_NOW"] = "tomorrow"
    let refused = cli.run("today")
    #expect(refused.status == 64)
    #expect(refused.err.contains("WORKOUT_NOW 'tomorrow'"))
  }

  @Test func colourOnlyOnATerminal() throws {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.environment["NO_COLOR"] = nil
    #expect(!cli.ok("split", "list").contains("\u{1B}["))
  }
}
