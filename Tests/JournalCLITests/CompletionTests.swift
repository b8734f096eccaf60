import Foundation
import JournalTestSupport
import Testing

@testable import JournalCLI

/// The shell completion scripts: generated from the catalog, their goldens, bash run for real,
/// zsh and fish checked by their own parsers (and fish asked for completions), and the hidden
/// `__complete` they call.
@Suite struct CompletionTests {
  @Test(arguments: Completion.shells)
  func theScriptMatchesItsGolden(_ shell: String) throws {
    let cli = try CLIHarness()
    let result = cli.run("completion", shell)
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    expectGolden(Data(result.out.utf8), named: "completion.\(shell)")
  }

  @Test func anUnknownShellIsAUsageError() throws {
    let cli = try CLIHarness()
    let result = cli.run("completion", "bsh")
    #expect(result.status == 64)
    #expect(result.err.contains("hint: did you mean one of 'bash', 'zsh'?"))
  }

  /// The scripts skip an option's value by the option's spelling alone, whatever the command:
  /// that holds only while no option is a flag in one command and takes a value in another.
  @Test func noOptionIsAFlagInOneCommandAndTakesAValueInAnother() {
    var takesValue: [String: Bool] = [:]
    for command in CommandCatalog.all {
      for option in Completion.options(of: command) {
        for word in ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? []) {
          if let known = takesValue[word] {
            #expect(known == option.takesValue, "\(word) in '\(command.name)'")
          }
          takesValue[word] = option.takesValue
        }
      }
    }
  }

  // MARK: - __complete

  @Test func completeListsTheJournalsValuesAndNeverWrites() throws {
    let cli = try journal()
    let before = try cli.snapshot()
    let listing = try FileManager.default.subpathsOfDirectory(atPath: cli.journal.path).sorted()
    #expect(cli.ok("__complete", "splits", "--", "") == "Upper Body\nUpper Back\n")
    #expect(cli.ok("__complete", "splits", "--", "upper bo") == "Upper Body\n")
    #expect(cli.ok("__complete", "workout-exercises", "--", "p") == "Push-up\nPlank\n")
    #expect(
      cli.ok("__complete", "split-exercises", "Upper\\ Back", "--", "") == "Barbell Row\n"
    )
    #expect(cli.ok("__complete", "library", "--", "leg") == "Leg Press\nLeg Extension\n")
    let workouts = cli.ok("__complete", "workouts", "--", "")
    #expect(workouts.split(separator: "\n").count == 1)
    #expect(cli.ok("__complete", "commands", "--", "sp") == "split\n")
    #expect(try cli.snapshot() == before)
    #expect(
      try FileManager.default.subpathsOfDirectory(atPath: cli.journal.path).sorted() == listing
    )
    // A saved state behind the files (another device appended since) is not brought up to
    // date: the journal is read whole instead.
    let saved = cli.journal.appendingPathComponent(".journal-state")
    let aside = cli.journal.deletingLastPathComponent().appendingPathComponent("state-aside")
    try FileManager.default.copyItem(at: saved, to: aside)
    cli.ok("split", "add", "Upper Chest", "--device", "watch")
    try FileManager.default.removeItem(at: saved)
    try FileManager.default.moveItem(at: aside, to: saved)
    let stale = try cli.snapshot()
    #expect(cli.ok("__complete", "splits", "--", "upper c") == "Upper Chest\n")
    #expect(try cli.snapshot() == stale)
    // Without a saved state the journal is read whole, and no state is made.
    try FileManager.default.removeItem(at: saved)
    let withoutState = try cli.snapshot()
    #expect(cli.ok("__complete", "splits", "--", "upper ba") == "Upper Back\n")
    #expect(cli.ok("__complete", "workout-exercises", "--", "b") == "Bench Press\n")
    #expect(!FileManager.default.fileExists(atPath: saved.path))
    #expect(try cli.snapshot() == withoutState)
    let unknown = cli.run("__complete", "spilts", "--", "")
    #expect(unknown.status == 64)
    #expect(unknown.err.contains("did you mean 'splits'?"))
  }

  /// Workout ids: the open and latest for an empty prefix, every one a prefix fits.
  @Test func completeListsWorkoutsByIdPrefix() throws {
    let cli = try journal()
    let first = try #require(try cli.workout()["id"] as? String)
    cli.ok("end")
    cli.ok("start", "Upper Back")
    let second = try #require(try cli.workout()["id"] as? String)
    #expect(cli.ok("__complete", "workouts", "--", "") == "\(second)\n")
    let common = String(first.prefix(2))
    #expect(cli.ok("__complete", "workouts", "--", common) == "\(second)\n\(first)\n")
    #expect(cli.ok("__complete", "workouts", "--", first) == "\(first)\n")
  }

  /// Upper Body (Bench Press, Push-up, Plank) with a workout in progress, and Upper Back.
  func journal() throws -> CLIHarness {
    let cli = try CLIHarness()
    cli.makeUpperBody()
    cli.ok("split", "add", "Upper Back")
    cli.ok("exercise", "add", "Upper Back", "Barbell Row")
    cli.ok("start", "Upper Body")
    return cli
  }

  // MARK: - The scripts in their shells

  /// Runs `program` with `arguments`, the built `journal` first on `PATH`.
  func shell(
    _ program: String,
    _ arguments: [String],
    environment extra: [String: String] = [:]
  ) throws -> (status: Int32, out: String, err: String) {
    let binary = try journalBinary()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    var environment = [
      "PATH": binary.deletingLastPathComponent().path + ":/usr/local/bin:/usr/bin:/bin",
      "HOME": try makeTemporaryDirectory("home").path, "NO_COLOR": "1",
    ]
    environment.merge(extra) { $1 }
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outData, as: UTF8.self),
      String(decoding: errData, as: UTF8.self)
    )
  }

  /// The script for `shell`, written to a file.
  func scriptFile(_ shell: String) throws -> URL {
    let cli = try CLIHarness()
    let url = try makeTemporaryDirectory("completion").appendingPathComponent("journal.\(shell)")
    try Data(cli.run("completion", shell).out.utf8).write(to: url)
    return url
  }

  /// What bash's completion offers for `words`, the last being completed.
  func bashCompletes(_ words: [String], script: URL, journal: URL) throws -> [String] {
    let line = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let program = """
      source \(script.path)
      COMP_WORDS=(\(line.joined(separator: " ")))
      COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
      _journal
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try shell(
      "bash",
      ["--norc", "--noprofile", "-c", program],
      environment: [
        "WORKOUT_JOURNAL": journal.path
      ]
    )
    #expect(result.status == 0, "\(words): \(result.err)")
    #expect(result.err.isEmpty, "\(words): \(result.err)")
    return result.out.split(separator: "\n").map(String.init).sorted()
  }

  @Test(.enabled(if: Shells.canRun("bash")))
  func bashCompletesCommandsOptionsAndTheJournalsValues() throws {
    let cli = try journal()
    let script = try scriptFile("bash")
    let j = cli.journal
    #expect(
      try bashCompletes(["journal", "sta"], script: script, journal: j) == ["start", "status"]
    )
    #expect(
      try bashCompletes(["journal", "split", "st"], script: script, journal: j) == ["starter"]
    )
    #expect(
      try bashCompletes(["journal", "done", "--re"], script: script, journal: j) == ["--reps"]
    )
    #expect(
      try bashCompletes(["journal", "start", "upper b"], script: script, journal: j)
        == ["Upper\\ Back", "Upper\\ Body"]
    )
    #expect(
      try bashCompletes(["journal", "done", "--weight", "60", "p"], script: script, journal: j)
        == ["Plank", "Push-up"]
    )
    #expect(
      try bashCompletes(
        ["journal", "exercise", "edit", "Upper\\ Back", ""],
        script: script,
        journal: j
      )
        == ["Barbell\\ Row"]
    )
    #expect(
      try bashCompletes(["journal", "status", "--unit", ""], script: script, journal: j)
        == ["kg", "lb"]
    )
    #expect(
      try bashCompletes(
        ["journal", "exercise", "add", "x", "y", "--library", "leg p"],
        script: script,
        journal: j
      )
        == ["Leg\\ Press"]
    )
    #expect(
      try bashCompletes(["journal", "completion", ""], script: script, journal: j)
        == ["bash", "fish", "zsh"]
    )
    // --journal on the line wins over $WORKOUT_JOURNAL.
    let other = try CLIHarness()
    other.ok("init")
    other.ok("split", "add", "Legs")
    #expect(
      try bashCompletes(
        ["journal", "--journal", other.journal.path, "start", ""],
        script: script,
        journal: j
      ) == ["Legs"]
    )
  }

  @Test(.enabled(if: Shells.canRun("zsh")))
  func zshParsesAndLoadsItsScript() throws {
    let script = try scriptFile("zsh")
    let check = try shell("zsh", ["-n", script.path])
    #expect(check.status == 0, "\(check.err)")
    #expect(check.err.isEmpty, "\(check.err)")
    let load = try shell(
      "zsh",
      [
        "-f", "-c",
        "autoload -Uz compinit && compinit -u && source \(script.path) && whence -w _journal",
      ]
    )
    #expect(load.status == 0, "\(load.err)")
    #expect(load.out.contains("_journal: function"), "\(load.out) \(load.err)")
  }

  /// zsh's script run with stand-ins for `compadd` and `_describe` that print what they are
  /// offered (zsh itself filters by the typed prefix): the words in, the candidates out.
  @Test(.enabled(if: Shells.canRun("zsh")))
  func zshOffersCommandsOptionsAndTheJournalsValues() throws {
    let cli = try journal()
    let script = try scriptFile("zsh")
    func offers(_ words: [String]) throws -> [String] {
      let line = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
      let program = """
        compdef() { : }
        compadd() {
          while (( $# )); do
            if [[ $1 == -- ]]; then shift; print -rl -- "$@"; return; fi
            shift
          done
        }
        _describe() { local name=${@[-1]}; print -rl -- ${${(P)name}%%:*} }
        _files() { print -r -- files }
        source \(script.path)
        words=(\(line.joined(separator: " ")))
        CURRENT=$#words
        _journal
        """
      let result = try shell(
        "zsh",
        ["-f", "-c", program],
        environment: [
          "WORKOUT_JOURNAL": cli.journal.path
        ]
      )
      #expect(result.status == 0, "\(words): \(result.err)")
      #expect(result.err.isEmpty, "\(words): \(result.err)")
      return result.out.split(separator: "\n").map(String.init)
    }
    let first = try offers(["journal", "sta"])
    #expect(first.contains("start") && first.contains("status") && first.contains("split"))
    #expect(try offers(["journal", "split", "st"]).contains("starter"))
    #expect(try offers(["journal", "done", "--re"]).contains("--reps"))
    #expect(try offers(["journal", "start", "upper b"]) == ["Upper\\ Body", "Upper\\ Back"])
    #expect(try offers(["journal", "done", ""]) == ["Bench\\ Press", "Push-up", "Plank"])
    #expect(try offers(["journal", "exercise", "edit", "Upper\\ Back", ""]) == ["Barbell\\ Row"])
    #expect(try offers(["journal", "status", "--unit", ""]) == ["kg", "lb"])
    #expect(try offers(["journal", "blame", "--field", "x", "--journal", "/missing", ""]).isEmpty)
  }

  @Test(.enabled(if: Shells.canRun("fish")))
  func fishParsesItsScriptAndCompletesFromIt() throws {
    let cli = try journal()
    let script = try scriptFile("fish")
    let check = try shell("fish", ["--no-execute", script.path])
    #expect(check.status == 0, "\(check.err)")
    #expect(check.err.isEmpty, "\(check.err)")
    func complete(_ line: String) throws -> [String] {
      let result = try shell(
        "fish",
        ["--no-config", "-c", "source \(script.path); complete -C '\(line)'"],
        environment: ["WORKOUT_JOURNAL": cli.journal.path]
      )
      #expect(result.status == 0, "\(line): \(result.err)")
      return result.out.split(separator: "\n").map {
        String($0.split(separator: "\t", maxSplits: 1).first ?? "")
      }
      .sorted()
    }
    #expect(try complete("journal sta") == ["start", "status"])
    #expect(try complete("journal split st") == ["starter"])
    #expect(try complete("journal done --re").contains("--reps"))
    #expect(try complete("journal start Upper") == ["Upper Back", "Upper Body"])
    #expect(try complete("journal done P") == ["Plank", "Push-up"])
  }
}

/// Whether a shell can be run here.
///
/// With `WJ_REQUIRE_SHELLS=1` (CI sets it) every shell is taken as present, so a missing one
/// fails its test instead of skipping it.
enum Shells {
  static func canRun(_ name: String) -> Bool {
    if ProcessInfo.processInfo.environment["WJ_REQUIRE_SHELLS"] == "1" { return true }
    return ["/usr/bin", "/bin", "/usr/local/bin"].contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
  }
}
