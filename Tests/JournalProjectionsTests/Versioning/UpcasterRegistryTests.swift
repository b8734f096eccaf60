import JournalCore
import Testing

@testable import JournalProjections

/// The registry refuses steps that do not chain, and reads the versions it
/// cannot lift as errors that say why.
@Suite struct UpcasterRegistryTests {
  static func step(_ type: String, from: Int) -> UpcastStep {
    UpcastStep(type: type, from: from, summary: "test") { [(type, $0)] }
  }

  static func expectRegistryError(
    _ steps: [UpcastStep],
    _ current: [String: Int],
    containing text: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      _ = try Upcaster(steps: steps, currentVersions: current)
      Issue.record("expected a registry error containing '\(text)'", sourceLocation: sourceLocation)
    } catch {
      #expect(
        error.message.contains(text),
        "got '\(error.message)'",
        sourceLocation: sourceLocation
      )
    }
  }

  @Test func theShippedRegistryIsValid() throws {
    _ = try EventUpcasters.makeUpcaster()
    for step in EventUpcasters.steps {
      let current = try #require(JournalEvent.currentVersions[step.type], "\(step.type)")
      #expect(step.from < current)
    }
  }

  @Test func aGapIsRefused() {
    Self.expectRegistryError(
      [Self.step("a", from: 1), Self.step("a", from: 3)],
      ["a": 4],
      containing: "no step from v2"
    )
  }

  @Test func aDuplicateStepIsRefused() {
    Self.expectRegistryError(
      [Self.step("a", from: 1), Self.step("a", from: 1)],
      ["a": 2],
      containing: "two steps"
    )
  }

  @Test func aStepPastTheCurrentVersionIsRefused() {
    Self.expectRegistryError([Self.step("a", from: 2)], ["a": 2], containing: "reaches past")
  }

  @Test func aStepFromVersionZeroIsRefused() {
    Self.expectRegistryError([Self.step("a", from: 0)], ["a": 1], containing: "from v0")
  }

  @Test func stepsApplyOneVersionAtATime() throws {
    let steps = [
      UpcastStep(type: "a", from: 1, summary: "v1→v2") { payload in
        [("a", .array([payload, "2"]))]
      },
      UpcastStep(type: "a", from: 2, summary: "v2→v3") { payload in
        [("a", .array([payload, "3"]))]
      },
    ]
    let upcaster = try Upcaster(steps: steps, currentVersions: ["a": 3])
    let lifted = try upcaster.upcast(type: "a", version: 1, payload: "1")
    #expect(lifted.map(\.payload) == [.array([.array(["1", "2"]), "3"])])
    let halfway = upcaster.upcast(type: "a", version: 1, payload: "1", upTo: 2)
    #expect(halfway.map(\.payload) == [.array(["1", "2"])])
  }

  @Test func aNewerVersionIsUnreadableWithTheReason() throws {
    let upcaster = try EventUpcasters.makeUpcaster()
    #expect {
      _ = try upcaster.upcast(type: "set.completed", version: 9, payload: ["logID": "x"])
    } throws: { error in
      (error as? Upcaster.Unreadable)?.reason
        == "event 'set.completed' has version 9; the highest this build reads is 3"
    }
  }

  @Test func anUnknownTypeIsUnreadable() throws {
    let upcaster = try EventUpcasters.makeUpcaster()
    #expect {
      _ = try upcaster.upcast(type: "set.teleported", version: 1, payload: [:])
    } throws: { error in
      (error as? Upcaster.Unreadable)?.reason
        == "event type 'set.teleported' is unknown to this build"
    }
  }
}
