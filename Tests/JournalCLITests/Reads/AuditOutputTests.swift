import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@testable import JournalCLI

@Suite struct AuditOutputTests {
  @Test func theAuditTableFitsTheWidth() throws {
    let s = try ReadsCLIScenario()
    let wide = AuditTable.render(s.audit, width: 140)
    expectReadsGolden(Data((wide + "\n").utf8), named: "audit-140.txt")
    let narrow = AuditTable.render(s.audit, width: 80)
    expectReadsGolden(Data((narrow + "\n").utf8), named: "audit-80.txt")
    for line in narrow.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
  }

  @Test func theAuditCSVFollowsRFC4180() throws {
    let s = try ReadsCLIScenario()
    let csv = AuditTable.csv(s.audit.rows)
    expectReadsGolden(Data(csv.utf8), named: "audit.csv")
    let lines = csv.components(separatedBy: "\r\n")
    #expect(lines.count == s.audit.rows.count + 2)  // header, rows, and the empty tail
    #expect(lines.last == "")
    #expect(AuditTable.csvField("a,b") == "\"a,b\"")
    #expect(AuditTable.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(AuditTable.csvField("two\nlines") == "\"two\nlines\"")
    #expect(AuditTable.csvField("plain") == "plain")
  }

  @Test func theAuditJSONCarriesProvenanceAndTotals() throws {
    let s = try ReadsCLIScenario()
    let object = AuditTable.json(s.audit)
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let rows = try #require(parsed["rows"] as? [[String: Any]])
    let adjusted = try #require(rows.first { $0["provenance"] as? String == "adjusted" })
    #expect((adjusted["original"] as? [String: Any])?["reps"] as? Int == 4)
    let adjustments = try #require(adjusted["adjustments"] as? [[String: Any]])
    #expect(adjustments.first?["device"] as? String == "watch")
    #expect(adjustments.first?["event"] as? String == s.adjustment)
    #expect(rows.contains { $0["provenance"] as? String == "reverted" })
    #expect(rows.contains { $0["provenance"] as? String == "filledFromPlan" })
    let totals = try #require(parsed["totals"] as? [String: Any])
    #expect((totals["workouts"] as? [Any])?.count == 6)
  }

  @Test func historyBlameAndDiffText() throws {
    let s = try ReadsCLIScenario()
    let history = WorkoutHistory.entries(workout: s.workoutID, history: s.h.journal.history)
    expectReadsGolden(
      Data((AuditOutput.history(history, zone: "Europe/Paris", width: 120) + "\n").utf8),
      named: "history.txt"
    )
    let narrow = AuditOutput.history(history, zone: "Europe/Paris", width: 80)
    expectReadsGolden(Data((narrow + "\n").utf8), named: "history-80.txt")
    for line in narrow.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    let path = try #require(s.h.state.workouts[s.workoutID]).path
    let blame = try Blame.lines(
      path: path,
      field: "/logs/0/setEntries/1",
      history: s.h.journal.history
    )
    expectReadsGolden(Data((AuditOutput.blame(blame, width: 120) + "\n").utf8), named: "blame.txt")
    let before = try #require(s.h.journal.history.last { $0.id < s.adjustment })
    let diff = try Diff.changes(
      history: s.h.journal.history,
      from: .event(before.id),
      to: .event(s.adjustment)
    )
    expectReadsGolden(Data((AuditOutput.diff(diff) + "\n").utf8), named: "diff.txt")
  }

  @Test func recordsText() throws {
    let s = try ReadsCLIScenario()
    let text = AuditOutput.records(ExerciseRecords.all(from: s.audit.rows))
    expectReadsGolden(Data((text + "\n").utf8), named: "records.txt")
  }
}
