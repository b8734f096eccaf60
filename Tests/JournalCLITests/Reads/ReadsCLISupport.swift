import Foundation
import JournalCore
import JournalProjections
import JournalTestSupport
import Testing

@testable import JournalCLI

/// Compares `data` with `Golden/reads-<name>` of the test target (the folder
/// the target excludes), not a `Golden/` beside this file.
func expectReadsGolden(
  _ data: Data,
  named name: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let targetFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
  expectGolden(
    data,
    named: "reads-\(name)",
    filePath: targetFolder.appendingPathComponent("Reads.swift").path,
    sourceLocation: sourceLocation
  )
}

extension CLIHarness {
  /// Runs one of the read commands of ``AuditCommands`` in-process, with the
  /// handling of `JournalCLI.run`, whether or not the catalogue lists it yet.
  func read(_ arguments: String...) -> CLIResult { read(arguments) }

  /// Runs one of the read commands of ``AuditCommands`` with these arguments.
  func read(_ arguments: [String]) -> CLIResult {
    let out = Buffer()
    let err = Buffer()
    let console = Console(
      isTerminal: false,
      environment: environment,
      out: { out.append($0) },
      err: { err.append($0) }
    )
    guard let command = AuditCommands.all.first(where: { arguments.starts(with: $0.words) }) else {
      return CLIResult(status: -1, out: "", err: "no read command \(arguments)")
    }
    let status: Int32
    do {
      let parsed = try CommandLineArguments(
        Array(arguments.dropFirst(command.words.count)),
        options: command.options + GlobalOptions.all
      )
      if parsed.flag("help") {
        console.print(Help.page(for: command))
        return CLIResult(status: 0, out: out.text, err: err.text)
      }
      status = try command.run(
        Invocation(
          command: command,
          arguments: parsed,
          environment: environment,
          console: console,
          currentDirectory: journal.deletingLastPathComponent()
        )
      )
    } catch let error as UsageError {
      console.error("error: \(error.message)")
      status = ExitStatus.usage
    } catch {
      Diagnostics.report(error, to: console)
      status = ExitStatus.failure
    }
    return CLIResult(status: status, out: out.text, err: err.text)
  }
}

/// A deterministic in-memory journal for the text goldens: one "Upper Body"
/// workout in Europe/Paris with a recorded, an adjusted (on the watch) and a
/// filled bench set, an undone Push-up set, and a skipped Plank; then five
/// more Bench Press workouts, one every three days, 2.5 heavier each time.
struct ReadsCLIScenario {
  let h: JournalHarness
  let workoutID: String
  let adjustment: String

  init() throws {
    let h = try JournalHarness()
    try h.makeUpperBody()
    try h.run(.startWorkout(split: "Upper Body", timeZone: "Europe/Paris"))
    workoutID = try h.workout().id
    try h.run(.completeSet(workout: nil, exercise: "Bench Press", SetActuals(reps: 5, weight: 100)))
    try h.run(
      .completeSet(workout: nil, exercise: "Bench Press", SetActuals(reps: 4, weight: 102.5))
    )
    adjustment = try #require(
      try h.run(
        .adjustSet(workout: nil, exercise: "Bench Press", set: 2, SetActuals(reps: 5)),
        device: "watch"
      ).first?.id
    )
    try h.run(.completeLog(workout: nil, exercise: "Bench Press"))
    try h.run(.completeSet(workout: nil, exercise: "Push-up", SetActuals(reps: 12)))
    try h.journal.undo(device: "phone", now: h.now)
    h.now += 60
    try h.run(.completeLog(workout: nil, exercise: "Push-up"))
    try h.run(.skipLog(workout: nil, exercise: "Plank"))
    for week in 1...5 {
      h.now += 3 * 86_400
      try h.run(.startWorkout(split: "Upper Body", timeZone: "Europe/Paris"))
      let weight = 100 + 2.5 * Double(week)
      for reps in [5, 5, 5 - week % 3] {
        try h.run(
          .completeSet(
            workout: nil,
            exercise: "Bench Press",
            SetActuals(reps: reps, weight: weight)
          )
        )
      }
      try h.run(.endWorkout(workout: nil))
    }
    self.h = h
  }

  var audit: Audit { Audit(history: h.journal.history) }
}
