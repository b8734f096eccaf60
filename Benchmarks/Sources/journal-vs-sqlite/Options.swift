import Foundation

/// The command line of `journal-vs-sqlite`.
struct Options {
  var journal: URL?
  var repetitions = 5
  var appends = 40
  var directory: URL?
  var json = false

  static let usage = """
    usage: journal-vs-sqlite [options]

    The journal against SQLite (WAL, synchronous=FULL) on the same events, interleaved in the
    same run: durable appends one per transaction, 64 per transaction, and reading everything
    back. Prints ratios journal/SQLite (median of the repetitions, with min–max).
    See Benchmarks/README.md.

    options:
      --journal DIR       the events of this journal folder (read only; default: the sample
                          journal, generated into the scratch folder)
      --repetitions N     repetitions per measurement, at least 1 (default 5)
      --appends N         single appends per repetition (default 40)
      --dir DIR           scratch folder (default: a temporary folder, deleted after)
      --json              print the results as JSON on standard output
      -h, --help          this text
    """

  init(_ arguments: [String]) throws {
    var index = 0
    func value(_ name: String) throws -> String {
      index += 1
      guard index < arguments.count else { throw UsageError("\(name) needs a value") }
      return arguments[index]
    }
    func integer(_ name: String) throws -> Int {
      let text = try value(name)
      guard let number = Int(text), number > 0 else {
        throw UsageError("\(name): '\(text)' is not a positive integer")
      }
      return number
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--journal": journal = URL(fileURLWithPath: try value(argument))
      case "--repetitions": repetitions = try integer(argument)
      case "--appends": appends = try integer(argument)
      case "--dir": directory = URL(fileURLWithPath: try value(argument))
      case "--json": json = true
      case "-h", "--help": throw UsageError(nil)
      default: throw UsageError("unknown argument '\(argument)'")
      }
      index += 1
    }
  }
}

struct UsageError: Error {
  var message: String?
  init(_ message: String?) { self.message = message }
}
