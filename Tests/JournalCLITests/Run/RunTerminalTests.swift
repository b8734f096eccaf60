import Foundation
import JournalTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `journal run` as a person meets it: the built binary in a real terminal (a tmux pane of
/// 80×24), keys sent, the pane read, the journal read back; and without a terminal.
@Suite(.serialized) struct RunTerminalTests {
  /// The environment every run gets.
  static func environment(_ journal: URL) -> [String: String] {
    [
      "WORKOUT_JOURNAL": journal.path, "WORKOUT_DEVICE": "phone", "NO_COLOR": "1",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
  }

  /// Runs the binary with pipes (no terminal).
  static func run(
    _ arguments: [String],
    journal: URL
  ) throws -> (
    status: Int32, out: String, err: String
  ) {
    let process = Process()
    process.executableURL = try journalBinary()
    process.arguments = arguments
    process.environment = environment(journal)
    let (input, out, err) = (Pipe(), Pipe(), Pipe())
    process.standardInput = input
    process.standardOutput = out
    process.standardError = err
    try process.run()
    try input.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self),
      String(decoding: errData, as: UTF8.self)
    )
  }

  /// A journal with "Push": Bench 2×5 @ 60 and Plank 1×2 s, a rest of `rest` seconds.
  static func makePush(rest: Int = 1) throws -> URL {
    let journal = try makeTemporaryDirectory("run").appendingPathComponent("Journal")
    for arguments in [
      ["init"], ["split", "add", "Push", "--rest", "\(rest)"],
      ["exercise", "add", "Push", "Bench", "--sets", "2", "--reps", "5", "--weight", "60"],
      ["exercise", "add", "Push", "Plank", "--sets", "1", "--seconds", "2"],
    ] {
      let result = try run(arguments, journal: journal)
      #expect(result.status == 0, "\(arguments): \(result.err)")
    }
    return journal
  }

  /// Every file of the journal folder, by relative path.
  static func files(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let root = folder.resolvingSymlinksInPath().path
    guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
    for case let path as String in walker {
      var isFolder: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder)
      if exists, !isFolder.boolValue {
        files[path] = FileManager.default.contents(atPath: root + "/" + path)
      }
    }
    return files
  }

  /// `export` without the columns that hold times (`Date`, `Duration`).
  static func exportWithoutTimes(_ journal: URL) throws -> [String] {
    let result = try run(["export"], journal: journal)
    #expect(result.status == 0, "\(result.err)")
    return result.out.split(separator: "\r\n").map { line in
      line.split(separator: ",", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset != 0 && $0.offset != 2 }.map { String($0.element) }
        .joined(separator: ",")
    }
  }
}

// MARK: - Without a terminal

extension RunTerminalTests {
  @Test func withoutATerminalItIsAUsageErrorAndAppendsNothing() throws {
    let journal = try Self.makePush()
    let before = try Self.files(journal)
    let result = try Self.run(["run", "Push"], journal: journal)
    #expect(result.status == 64)
    #expect(result.err.contains("'journal run' needs a terminal on standard input and output"))
    #expect(try Self.files(journal) == before)
  }
}

// MARK: - In tmux

extension RunTerminalTests {
  /// Runs Plank, from the exercise list, through the end of the workout; returns the pane
  /// once the command has exited (with status 0).
  @discardableResult
  static func runPlankToTheEnd(_ tmux: Tmux) throws -> String {
    try tmux.waitFor("> Plank")
    try tmux.send("Enter")
    try tmux.waitFor("WORK  'Plank'")
    try tmux.send("Enter")
    try tmux.waitFor("FINISH  'Plank'")
    try tmux.send("Enter")
    try tmux.waitFor("WORKOUT DONE")
    try tmux.send("Enter")
    let after = try tmux.waitFor("TERMINAL:")
    #expect(after.contains("EXIT:0"), "\(after)")
    return after
  }

  /// Expects `journal`, a Push workout run through the flow, to read as the same workout
  /// typed as commands in a Push journal resting `rest` seconds: the same documents (a
  /// split and a workout) and export, apart from times and ids.
  static func expectReadsAsTyped(_ journal: URL, rest: Int) throws {
    let typed = try makePush(rest: rest)
    for arguments in [
      ["start", "Push"], ["done"], ["done", "--keep-open"], ["finish"], ["done", "Plank"],
    ] {
      let result = try run(arguments, journal: typed)
      #expect(result.status == 0, "\(arguments): \(result.err)")
    }
    let documents = try documentsWithoutTimes(journal)
    #expect(documents.map { $0.prefix(9) } == ["Splits: {", "Workouts:"])
    #expect(try documents == documentsWithoutTimes(typed))
    #expect(try exportWithoutTimes(journal) == exportWithoutTimes(typed))
  }

  @Test(.enabled(if: Tmux.canRun, "tmux is not installed (WJ_REQUIRE_SHELLS=1 makes this fail)"))
  func aWholeWorkoutRunsInTmuxAndReadsAsTypedCommands() throws {
    let journal = try Self.makePush()
    let tmux = try Tmux(
      command: "run Push --lead-in 0 --finish-countdown 0",
      environment: Self.environment(journal)
    )
    defer { tmux.close() }
    let list = try tmux.waitFor("> Bench")
    #expect(list.contains("not started") && list.contains("Enter start"))
    try tmux.send("Enter")
    let work = try tmux.waitFor("WORK  'Bench'  set 1 of 2")
    for key in ["Enter confirm", "m One More", "d Done", "s skip", "r reset", "u undo", "q leave"] {
      #expect(work.contains(key), "\(work)")
    }
    try tmux.send("Enter")
    try tmux.waitFor("WORK  'Bench'  set 2 of 2")
    try tmux.send("Enter")
    try tmux.waitFor("FINISH  'Bench'")
    try tmux.send("d")
    let after = try Self.runPlankToTheEnd(tmux)
    // The terminal is back in its own mode: every setting as it was before.
    #expect(after.contains("TERMINAL:RESTORED"), "\(after)")

    try Self.expectReadsAsTyped(journal, rest: 1)
    let status = try Self.run(["status"], journal: journal)
    #expect(status.out.contains("completed") && status.out.contains("work "), "\(status.out)")
    #expect(try Self.run(["verify"], journal: journal).status == 0)
  }

  @Test(.enabled(if: Tmux.canRun, "tmux is not installed (WJ_REQUIRE_SHELLS=1 makes this fail)"))
  func aResizeRedrawsAndAnInterruptRestoresTheTerminal() throws {
    let journal = try Self.makePush()
    let tmux = try Tmux(command: "run Push --lead-in 0", environment: Self.environment(journal))
    defer { tmux.close() }
    try tmux.waitFor("> Bench")
    // A smaller window is drawn again at its size (SIGWINCH).
    try tmux.resize(width: 60, height: 20)
    // At 80 columns the keys end "… u undo  q leave" then "e end"; drawn at 60 they wrap
    // before "u undo", which tmux's own reflow of the old lines does not do.
    let redrawn = try tmux.waitFor("\nu undo  q leave  e end")
    #expect(redrawn.contains("\n" + String(repeating: "-", count: 60) + "\n"))
    try tmux.send("Enter")
    try tmux.waitFor("WORK  'Bench'  set 1 of 2")
    try tmux.send("Enter")
    try tmux.waitFor("set 1 of 'Bench' recorded")
    try tmux.send("C-c")
    let after = try tmux.waitFor("TERMINAL:")
    #expect(after.contains("EXIT:130"), "\(after)")
    #expect(after.contains("TERMINAL:RESTORED"), "\(after)")
    #expect(try !tmux.showsAlternateScreen())
    let status = try Self.run(["status"], journal: journal)
    #expect(status.out.contains("1/2"), "\(status.out)")
  }
}

/// A private tmux server running one `journal` command in an 80×24 pane, then printing the
/// command's exit status (`EXIT:status`) and whether the terminal's settings are those it had
/// before the command (`TERMINAL:RESTORED`, else `TERMINAL:CHANGED`).
///
/// Every tmux client runs from one bash the test keeps open and talks to through pipes: a
/// client started as a process of its own here did not reach the server another had started.
final class Tmux {
  /// Whether tmux can run here.
  ///
  /// With `WJ_REQUIRE_SHELLS=1` (CI sets it) tmux is taken as present, so a missing one
  /// fails the tests instead of skipping them.
  static var canRun: Bool {
    if ProcessInfo.processInfo.environment["WJ_REQUIRE_SHELLS"] == "1" { return true }
    return ["/usr/bin", "/bin", "/usr/local/bin"].contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/tmux")
    }
  }

  private let shell = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending = Data()
  private let tmux = "tmux -L journal-run-\(UUID().uuidString.prefix(8)) -f /dev/null"
  /// Where the command's process id is written.
  private let pidFile: URL
  /// The pane's shell, leader of the process group the command runs in.
  private var panePID: Int32?

  init(command: String, environment: [String: String]) throws {
    shell.executableURL = URL(fileURLWithPath: "/bin/bash")
    shell.standardInput = input
    shell.standardOutput = output
    shell.standardError = output
    try shell.run()
    let binary = try journalBinary().path
    let folder = try makeTemporaryDirectory("tmux")
    pidFile = folder.appendingPathComponent("pid")
    let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }
    // The shell survives the interrupt it passes on (`trap :`), to print the exit status; a
    // crash signal leaves no core file (`ulimit -c 0`). The command runs in a shell that
    // writes its process id and becomes the command (`exec`), so that `kill` reaches it.
    let script =
      "trap : INT; ulimit -c 0; tty=\\$(stty -g); "
      + "sh -c 'echo \\$\\$ > \(pidFile.path); exec \\\"\\$@\\\"' sh "
      + "env \(variables.joined(separator: " ")) '\(binary)' \(command); echo EXIT:\\$?; "
      + "if [ \\\"\\$(stty -g)\\\" = \\\"\\$tty\\\" ]; then echo TERMINAL:RESTORED; "
      + "else echo TERMINAL:CHANGED; fi; sleep 3"
    // The pane stays three seconds once the command is over, to be read.
    let started = try run(
      "\(tmux) new-session -d -s run -x 80 -y 24 -c '\(folder.path)' \"\(script)\"; echo status:$?"
    )
    guard started.contains("status:0") else { throw TmuxFailure(output: started) }
    panePID = Int32(
      try run("\(tmux) display-message -p -t run '#{pane_pid}'")
        .trimmingCharacters(in: .whitespacesAndNewlines)
    )
  }

  /// Sends `signal` (a name: `KILL`, `TERM`, `SEGV`…) to the command, as `kill` does.
  func kill(_ signal: String) throws {
    let pid = try String(contentsOf: pidFile, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard Int32(pid) != nil else { throw TmuxFailure(output: "no process id in \(pidFile.path)") }
    let result = try run("kill -\(signal) \(pid); echo status:$?")
    guard result.contains("status:0") else { throw TmuxFailure(output: result) }
  }

  /// Whether the pane shows its alternate screen.
  func showsAlternateScreen() throws -> Bool {
    try run("\(tmux) display-message -p -t run '#{alternate_on}'")
      .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
  }

  /// Sends one key (tmux's names: `Enter`, `C-c`, or a character).
  func send(_ key: String) throws { _ = try run("\(tmux) send-keys -t run '\(key)'") }

  /// Resizes the window, as a person dragging its corner does.
  func resize(width: Int, height: Int) throws {
    _ = try run("\(tmux) resize-window -t run -x \(width) -y \(height)")
  }

  /// The pane's text.
  func capture() throws -> String { try run("\(tmux) capture-pane -p -t run") }

  /// Waits until the pane shows `text`, for at most 30 seconds (a bound on a hung run, not
  /// a measure of speed).
  ///
  /// - Returns: the pane.
  @discardableResult
  func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let deadline = Date() + 30
    var screen = ""
    // The pane is read once more after the deadline: a test held up past it by a busy
    // machine does not fail on a screen it did not look at.
    while true {
      screen = try capture()
      if screen.contains(text) { return screen }
      if Date() >= deadline { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    Issue.record("the pane never showed '\(text)':\n\(screen)", sourceLocation: sourceLocation)
    throw TmuxFailure(output: screen)
  }

  func close() {
    // The pane's processes are killed first: started from here they outlive `kill-server`
    // (its pane's `sleep` ran to its end), and while one lives the shell is not seen to
    // exit, so a hung command would hang the test.
    if let group = panePID { _ = killProcessGroup(group) }
    _ = try? run("\(tmux) kill-server")
    try? input.fileHandleForWriting.close()
    shell.waitUntilExit()
  }

  /// Runs `line` in the shell and returns what it printed.
  private func run(_ line: String) throws -> String {
    let marker = "--end-\(UUID().uuidString)--"
    // Standard input stays the shell's: a client reading it would take the next lines.
    input.fileHandleForWriting.write(Data("{ \(line); } </dev/null; echo '\(marker)'\n".utf8))
    let end = Data((marker + "\n").utf8)
    while pending.range(of: end) == nil {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else {
        throw TmuxFailure(output: String(decoding: pending, as: UTF8.self))
      }
      pending += chunk
    }
    let range = pending.range(of: end) ?? pending.endIndex..<pending.endIndex
    let text = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
    pending.removeSubrange(..<range.upperBound)
    return text
  }
}

/// Sends SIGKILL to every process of the group `leader` leads.
private func killProcessGroup(_ leader: Int32) -> Int32 {
  #if canImport(Glibc)
  Glibc.kill(-leader, SIGKILL)
  #elseif canImport(Darwin)
  Darwin.kill(-leader, SIGKILL)
  #else
  -1
  #endif
}

/// tmux failed: missing, or its server gone.
struct TmuxFailure: Error, CustomStringConvertible {
  let output: String
  var description: String { "tmux failed: \(output)" }
}
