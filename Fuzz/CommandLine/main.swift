// libFuzzer entry point: arbitrary argv → `JournalCLI.run` against a small temporary journal.
//
// The input is split on NUL bytes into arguments. The run is sandboxed: its current directory
// is a private temporary folder, and inputs that could reach outside it (an argument holding
// `/` or `..`, or starting with `~`) or run the hidden stress command (`_append-loop`) are
// skipped. Every few hundred runs the journal is put back as it was, so appends do not pile
// up. The command may succeed or fail; it must not crash, and its exit status must be 0, 1
// or 64.

import Foundation
import JournalCLI

let sandbox = URL(fileURLWithPath: NSTemporaryDirectory())
  .appendingPathComponent("journal-fuzz-cli-\(ProcessInfo.processInfo.processIdentifier)")
let pristine = sandbox.appendingPathComponent("pristine")
let work = sandbox.appendingPathComponent("work")
let environment = [
  "NO_COLOR": "1", "COLUMNS": "80", "WORKOUT_JOURNAL": "Journal", "WORKOUT_DEVICE": "phone",
  "TZ": "UTC",
]
nonisolated(unsafe) var runs = 0

let console = Console(isTerminal: false, environment: environment, out: { _ in }, err: { _ in })

func run(_ arguments: [String], in folder: URL) -> Int32 {
  JournalCLI.run(
    arguments: arguments,
    environment: environment,
    console: console,
    currentDirectory: folder
  )
}

/// Builds the pristine journal once: a split with exercises and a started workout.
func makePristine() {
  try? FileManager.default.removeItem(at: sandbox)
  try? FileManager.default.createDirectory(at: pristine, withIntermediateDirectories: true)
  for arguments in [
    ["init"], ["split", "add", "Upper Body"],
    [
      "exercise", "add", "Upper Body", "Bench Press", "--sets", "3", "--reps", "5", "--weight",
      "60",
    ],
    ["exercise", "add", "Upper Body", "Plank", "--sets", "2", "--seconds", "60"],
    ["start", "upper", "--time-zone", "Europe/Paris"], ["done", "--reps", "4", "--weight", "62.5"],
  ] {
    let status = run(arguments, in: pristine)
    precondition(status == 0, "seeding the fuzz journal failed at \(arguments)")
  }
}

func resetWork() {
  try? FileManager.default.removeItem(at: work)
  do {
    try FileManager.default.copyItem(at: pristine, to: work)
  } catch {
    fatalError("cannot copy the fuzz journal: \(error)")
  }
  // Anything that resolves a relative path against the process's directory stays inside too.
  _ = FileManager.default.changeCurrentDirectoryPath(work.path)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  if runs == 0 { makePristine() }
  if runs % 200 == 0 { resetWork() }
  runs += 1
  let input = UnsafeBufferPointer(start: data, count: size)
  let arguments = input.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  guard arguments.count <= 32 else { return 0 }
  for argument in arguments {
    if argument.contains("/") || argument.contains("..") || argument.hasPrefix("~")
      || argument.hasPrefix("_")
    {
      return 0
    }
  }
  let status = run(arguments, in: work)
  guard [0, 1, 64].contains(status) else {
    fatalError("journal \(arguments) exited with status \(status)")
  }
  return 0
}
