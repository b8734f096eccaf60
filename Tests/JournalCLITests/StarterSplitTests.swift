import Foundation
import JournalTestSupport
import Testing

@testable import JournalCLI
@testable import JournalProjections

/// The bundled exercise catalog, the starter splits made from it and `exercise add --library`.
@Suite struct StarterSplitTests {
  func splits(_ cli: CLIHarness) throws -> [[String: Any]] {
    let out = cli.ok("split", "list", "--json")
    return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
  }

  @Test func theCatalogIsWellFormed() {
    let names = ExerciseLibrary.exercises.map(\.name)
    #expect(Set(names.map { $0.lowercased() }).count == names.count)
    #expect(ExerciseLibrary.exercises.contains { $0.isMachineBased })
    #expect(ExerciseLibrary.exercises.contains { $0.loadType == .none && !$0.isMachineBased })
    #expect(
      ExerciseLibrary.starterSplits.map(\.settings.name) == ["Upper Body", "Core", "Lower Body"]
    )
    for starter in ExerciseLibrary.starterSplits {
      #expect(!starter.exercises.isEmpty)
      for plan in starter.exercises {
        #expect(plan.libraryName == nil)
        #expect((plan.loadType == .duration) == (plan.durationSeconds > 0))
      }
    }
  }

  @Test func catalogListsAndFilters() throws {
    let cli = try CLIHarness()
    let all = cli.ok("catalog")
    #expect(all.contains("Leg Press"))
    #expect(all.contains("Push-up"))
    let machines = cli.ok("catalog", "--machine-based", "--load", "weight")
    #expect(machines.contains("Leg Press"))
    #expect(!machines.contains("Push-up"))
    let json = try #require(
      try JSONSerialization.jsonObject(
        with: Data(cli.ok("catalog", "--no-machine", "--json").utf8)
      ) as? [[String: Any]]
    )
    #expect(!json.isEmpty)
    #expect(json.allSatisfy { $0["machineBased"] as? Bool == false })
    #expect(cli.run("catalog", "--load", "heavy").status == 64)
    #expect(cli.run("catalog", "--machine-based", "--no-machine").status == 64)
  }

  @Test func initWithStarterAddsTheThreeSplitsOnce() throws {
    let cli = try CLIHarness()
    #expect(cli.ok("init", "--starter").contains("Upper Body, Core, Lower Body"))
    let splits = try splits(cli)
    #expect(splits.map { $0["name"] as? String } == ["Upper Body", "Core", "Lower Body"])
    let upper = try #require(splits.first?["exercises"] as? [[String: Any]])
    let press = try #require(upper.first { $0["name"] as? String == "Chest Press Machine" })
    #expect((press["machineSettings"] as? [Any])?.isEmpty == true)
    let before = try cli.snapshot()
    #expect(cli.ok("init", "--starter").contains("already exists"))
    #expect(cli.ok("split", "starter").contains("no starter split to add"))
    #expect(try cli.snapshot() == before)
    // One action: one undo takes all three back.
    cli.ok("undo")
    #expect(try self.splits(cli).isEmpty)
  }

  /// A deleted starter is never created again, and its stub outlives the 30-day grace.
  @Test func aDeletedStarterIsNeverCreatedAgain() throws {
    let cli = try CLIHarness()
    cli.ok("init")
    cli.ok("split", "add", "Mine")
    cli.ok("split", "starter")
    cli.ok("split", "remove", "core")
    let result = cli.run("split", "starter")
    #expect(result.status == 0)
    #expect(result.out.contains("no starter split to add"))
    #expect(result.err.contains("'Core' was deleted"))
    #expect(try splits(cli).map { $0["name"] as? String } == ["Mine", "Upper Body", "Lower Body"])
    // Deleted 45 days ago: past the 30-day grace, a starter's stub stays, another's goes.
    let past = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-45 * 86_400))
    cli.ok("split", "remove", "lower", "--at", past)
    cli.ok("split", "remove", "mine", "--at", past)
    let out = try makeTemporaryDirectory("starter").appendingPathComponent("Projections")
    cli.ok("rebuild", "--out", out.path)
    let stubs = try FileManager.default.contentsOfDirectory(
      atPath: out.appendingPathComponent("Stubs/Splits").path
    )
    #expect(stubs.count == 2)  // Core and Lower Body, not Mine
    #expect(!cli.ok("split", "starter").contains("added"))
  }

  @Test func exerciseAddChecksTheLibraryName() throws {
    let cli = try CLIHarness()
    cli.ok("init")
    cli.ok("split", "add", "Legs")
    let known = cli.run("exercise", "add", "Legs", "Heavy Press", "--library", "leg pr")
    #expect(known.status == 0)
    #expect(known.err.isEmpty)
    let unknown = cli.run("exercise", "add", "Legs", "Sled Push", "--library", "Sled")
    #expect(unknown.status == 0)
    #expect(unknown.err.contains("note: 'Sled' is not in the exercise catalog"))
    cli.ok("exercise", "add", "Legs", "Leg Extension")
    cli.ok("exercise", "add", "Legs", "leg curl machine")
    cli.ok("exercise", "add", "Legs", "seated leg curl")
    let exercises = try #require(try splits(cli).first?["exercises"] as? [[String: Any]])
    #expect(exercises[0]["libraryName"] as? String == "Leg Press")
    #expect(exercises[0]["loadType"] as? Int == LoadType.weight.rawValue)
    #expect((exercises[0]["machineSettings"] as? [Any])?.isEmpty == true)
    #expect(exercises[1]["libraryName"] as? String == "Sled")
    #expect(exercises[2]["libraryName"] == nil)
    #expect(exercises[2]["machineSettings"] != nil)
    #expect(exercises[3]["libraryName"] == nil)  // not a catalog name: nothing to refer to
    #expect(exercises[4]["libraryName"] as? String == "Seated Leg Curl")
    cli.ok("exercise", "edit", "Legs", "Sled Push", "--library", "leg ext")
    let edited = try #require(try splits(cli).first?["exercises"] as? [[String: Any]])
    #expect(edited[1]["libraryName"] as? String == "Leg Extension")
    let ambiguous = cli.run("exercise", "add", "Legs", "X", "--library", "seated")
    #expect(ambiguous.status == 1)
    #expect(ambiguous.err.contains("'Seated Leg Curl'"))
  }
}
