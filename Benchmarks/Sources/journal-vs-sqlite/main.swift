import Foundation

// journal-vs-sqlite: the journal against SQLite on the same events, measured side by side in the
// same run and reported as ratios. See README.md.

let options: Options
do {
  options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
  if let message = error.message {
    FileHandle.standardError.write(Data("journal-vs-sqlite: \(message)\n\n\(Options.usage)\n".utf8))
    exit(2)
  }
  print(Options.usage)
  exit(0)
}

do {
  let comparison = try Comparison(options: options)
  defer { comparison.cleanUp() }
  try comparison.run()
  if options.json {
    print(try comparison.report.json(machine: comparison.machine))
  } else {
    print(comparison.report.table())
  }
} catch {
  FileHandle.standardError.write(Data("journal-vs-sqlite: error: \(error)\n".utf8))
  exit(1)
}
