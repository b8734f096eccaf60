import Foundation
import JournalTestSupport
import Testing

// `journal run` killed: by `kill -9` at several moments of a workout, which loses nothing the
// screen acknowledged, and by the signals it catches, after which the terminal is as it was.

extension RunTerminalTests {
  @Test(.enabled(if: Tmux.canRun, "tmux is not installed (WJ_REQUIRE_SHELLS=1 makes this fail)"))
  func killedWithSignal9AtAnyMomentItLosesNothingAcknowledgedAndResumes() throws {
    // A long rest and no Done by itself: the rest and Finish pages wait for the kill.
    let journal = try Self.makePush(rest: 600)
    let options = "--lead-in 0 --finish-countdown 0"

    // Mid-rest, the first set acknowledged.
    try Self.runUntilKilled("run Push \(options)", journal) { tmux in
      try tmux.waitFor("> Bench")
      try tmux.send("Enter")
      try tmux.waitFor("WORK  'Bench'  set 1 of 2")
      try tmux.send("Enter")
      try tmux.waitFor("set 1 of 'Bench' recorded")
      try tmux.waitFor("REST  9:5")
    }
    try Self.expectIntact(journal, bench: "in progress  1/2", sets: 1)

    // Mid-set, on the work page of the second set: resumed where it was.
    try Self.runUntilKilled("run \(options)", journal) { tmux in
      let list = try tmux.waitFor("> Bench")
      #expect(list.contains("Push - in progress"), "\(list)")
      try tmux.send("Enter")
      try tmux.waitFor("WORK  'Bench'  set 2 of 2")
    }
    try Self.expectIntact(journal, bench: "in progress  1/2", sets: 1)

    // On the Finish page, after the last planned set.
    try Self.runUntilKilled("run \(options)", journal) { tmux in
      try tmux.waitFor("> Bench")
      try tmux.send("Enter")
      try tmux.waitFor("WORK  'Bench'  set 2 of 2")
      try tmux.send("Enter")
      try tmux.waitFor("FINISH  'Bench'")
    }
    try Self.expectIntact(journal, bench: "in progress  2/2", sets: 2)

    // Right after Done is acknowledged; the exercise taken up again opens on Finish.
    try Self.runUntilKilled("run \(options)", journal) { tmux in
      try tmux.waitFor("> Bench")
      try tmux.send("Enter")
      try tmux.waitFor("FINISH  'Bench'")
      try tmux.send("d")
      try tmux.waitFor("'Bench' completed")
    }
    try Self.expectIntact(journal, bench: "completed    2/2", sets: 2)

    // The rest of the workout, to its end.
    let tmux = try Tmux(command: "run \(options)", environment: Self.environment(journal))
    defer { tmux.close() }
    try Self.runPlankToTheEnd(tmux)

    // The same workout typed as commands.
    try Self.expectReadsAsTyped(journal, rest: 600)
    #expect(try Self.run(["verify"], journal: journal).status == 0)
  }

  /// A signal `journal run` catches, and the exit status a shell then reports.
  struct CaughtSignal: Sendable, CustomTestStringConvertible {
    /// The signal's name for `kill`; `INT` is sent as Ctrl-C typed in the pane.
    let name: String
    let status: Int
    var testDescription: String { "SIG\(name)" }
  }

  @Test(
    .enabled(if: Tmux.canRun, "tmux is not installed (WJ_REQUIRE_SHELLS=1 makes this fail)"),
    arguments: [
      CaughtSignal(name: "TERM", status: 143), CaughtSignal(name: "SEGV", status: 139),
      CaughtSignal(name: "ABRT", status: 134), CaughtSignal(name: "INT", status: 130),
    ]
  )
  func aCaughtSignalRestoresTheTerminalAndExitsWithIt(_ signal: CaughtSignal) throws {
    let journal = try Self.makePush()
    let tmux = try Tmux(command: "run Push --lead-in 0", environment: Self.environment(journal))
    defer { tmux.close() }
    try tmux.waitFor("> Bench")
    try tmux.send("Enter")
    try tmux.waitFor("WORK  'Bench'  set 1 of 2")
    #expect(try tmux.showsAlternateScreen())
    if signal.name == "INT" {
      try tmux.send("C-c")
    } else {
      try tmux.kill(signal.name)
    }
    let after = try tmux.waitFor("TERMINAL:")
    // The status the shell sees is the signal's, every terminal setting is as before the
    // run, and the main screen is back.
    #expect(after.contains("EXIT:\(signal.status)"), "\(after)")
    try #require(after.contains("TERMINAL:RESTORED"), "\(after)")
    #expect(try !tmux.showsAlternateScreen())
    // Typed text is echoed again.
    try tmux.send("echoed-again")
    try tmux.waitFor("echoed-again")
  }
}

extension RunTerminalTests {
  /// Runs `journal COMMAND` in a pane, takes it to a moment with `steps`, and kills it there
  /// with `kill -9`.
  static func runUntilKilled(
    _ command: String,
    _ journal: URL,
    sourceLocation: SourceLocation = #_sourceLocation,
    steps: (Tmux) throws -> Void
  ) throws {
    let tmux = try Tmux(command: command, environment: environment(journal))
    defer { tmux.close() }
    try steps(tmux)
    try tmux.kill("KILL")
    let after = try tmux.waitFor("EXIT:", sourceLocation: sourceLocation)
    #expect(after.contains("EXIT:137"), "\(after)", sourceLocation: sourceLocation)
  }

  /// The journal after a kill: every record intact, Bench's line of `status` showing
  /// `bench`, and `export` showing `sets` sets.
  static func expectIntact(
    _ journal: URL,
    bench: String,
    sets: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let verify = try run(["verify"], journal: journal)
    #expect(verify.status == 0, "\(verify.out)\(verify.err)", sourceLocation: sourceLocation)
    let status = try run(["status"], journal: journal)
    let line = status.out.split(separator: "\n").first { $0.contains("Bench") } ?? ""
    #expect(line.contains(bench), "\(status.out)", sourceLocation: sourceLocation)
    // The header and one row a set.
    #expect(try exportWithoutTimes(journal).count == sets + 1, sourceLocation: sourceLocation)
  }

  /// The app's documents rebuilt from `journal`, their times and ids replaced by markers,
  /// each named by its folder (`Splits`, `Workouts`), sorted.
  static func documentsWithoutTimes(_ journal: URL) throws -> [String] {
    let folder = try makeTemporaryDirectory("documents")
    let result = try run(["rebuild", "--out", folder.path], journal: journal)
    #expect(result.status == 0, "\(result.err)")
    let time = try Regex(#""\d{4}-\d\d-\d\dT[0-9:.]+Z""#)
    let id = try Regex(#""[0-9A-HJKMNP-TV-Z]{26}""#)
    return try files(folder).compactMap { path, data in
      guard let kind = path.split(separator: "/").first, !kind.hasPrefix("."),
        path.hasSuffix(".json")
      else { return nil }
      let text = String(decoding: data, as: UTF8.self)
        .replacing(time, with: "\"<time>\"").replacing(id, with: "\"<id>\"")
      return "\(kind): \(text)"
    }.sorted()
  }
}
