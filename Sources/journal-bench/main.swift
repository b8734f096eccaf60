import Foundation

// journal-bench: every scenario is measured side by side with its baseline in the same run
// and reported as a ratio. See docs/Performance.md.

// A go-between for B12: runs a command, drops what it printed (`audit` and `export` print
// hundreds of megabytes at 1M), then prints its peak resident set in kilobytes. A child's
// peak includes the memory it shared with its parent until it started the command, so the
// commands are started from this fresh, small process rather than from the benchmark, which
// holds far more.
if CommandLine.arguments.count >= 3, CommandLine.arguments[1] == "--peak-rss" {
  do {
    let (_, peak) = try Bench.runMeasured(
      URL(fileURLWithPath: CommandLine.arguments[2]),
      Array(CommandLine.arguments.dropFirst(3)),
      keepingOutput: false
    )
    print("peak-rss \(peak)")
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("journal-bench: \(error)\n".utf8))
    exit(1)
  }
}

let options: Options
do {
  options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
  if let message = error.message {
    FileHandle.standardError.write(Data("journal-bench: \(message)\n\n\(Options.usage)\n".utf8))
    exit(2)
  }
  print(Options.usage)
  exit(0)
}

if let child = options.rssChild {
  // The memory scenario's child: one full rebuild, then the peak resident set size.
  do {
    let peak = try MemoryChild.run(journal: child.journal, output: child.output)
    print(peak)
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("journal-bench: \(error)\n".utf8))
    exit(1)
  }
}

do {
  let bench = try Bench(options: options)
  defer { bench.cleanUp() }
  try bench.run()
  if options.json {
    print(try bench.report.json(machine: bench.machine))
  } else {
    print(bench.report.table())
  }
} catch {
  FileHandle.standardError.write(Data("journal-bench: error: \(error)\n".utf8))
  exit(1)
}
