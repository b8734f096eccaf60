import Foundation

/// The command line of `journal-bench`.
struct Options {
  static let allScenarios = [
    "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10", "B11", "B12", "B13", "B14",
  ]

  var sizes = [10_000, 100_000, 1_000_000]
  var repetitions = 5
  var scenarios = Set(allScenarios)
  var directory: URL?
  var json = false
  var quick = false
  var seed: UInt64 = 0x5EED
  /// Hidden: `--rss-child DIR OUT`, the child process of the memory scenario.
  var rssChild: (journal: URL, output: URL)?

  static let usage = """
    usage: journal-bench [options]

    Measures the journal against its baselines in the same run and prints ratios
    (median of the repetitions, with min–max). See docs/Performance.md.

    options:
      --events N              one journal size (events)
      --sizes A,B,C           journal sizes (default 10000,100000,1000000)
      --repetitions N         repetitions per measurement, at least 1 (default 5)
      --scenarios B1,B3,...   which scenarios (default all: B1 to B14)
      --dir DIR               scratch folder (default: a temporary folder, deleted after)
      --seed N                the generator's seed (default 24301)
      --json                  print the results as JSON on standard output
      --quick                 smoke run: 10k events, 3 repetitions (CI)
      -h, --help              this text
    """

  init(_ arguments: [String]) throws {
    var index = 0
    var sizesGiven = false
    var repetitionsGiven = false
    func value(_ name: String) throws -> String {
      index += 1
      guard index < arguments.count else { throw UsageError("\(name) needs a value") }
      return arguments[index]
    }
    func integer(_ name: String, _ text: String) throws -> Int {
      guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number > 0 else {
        throw UsageError("\(name): '\(text)' is not a positive integer")
      }
      return number
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--events":
        sizes = [try integer(argument, try value(argument))]
        sizesGiven = true
      case "--sizes":
        sizes = try value(argument).split(separator: ",").map {
          try integer(argument, String($0))
        }
        sizesGiven = true
      case "--repetitions":
        repetitions = try integer(argument, try value(argument))
        repetitionsGiven = true
      case "--scenarios":
        let names = try value(argument).uppercased().split(separator: ",").map(String.init)
        for name in names where !Self.allScenarios.contains(name) {
          throw UsageError(
            "unknown scenario '\(name)'; known: \(Self.allScenarios.joined(separator: ","))"
          )
        }
        scenarios = Set(names)
      case "--dir": directory = URL(fileURLWithPath: try value(argument))
      case "--seed":
        guard let seed = UInt64(try value(argument)) else {
          throw UsageError("--seed: not a number")
        }
        self.seed = seed
      case "--json": json = true
      case "--quick": quick = true
      case "--rss-child":
        let journal = URL(fileURLWithPath: try value(argument))
        let output = URL(fileURLWithPath: try value(argument))
        rssChild = (journal, output)
      case "-h", "--help": throw UsageError(nil)
      default: throw UsageError("unknown argument '\(argument)'")
      }
      index += 1
    }
    if quick {
      if !sizesGiven { sizes = [10_000] }
      if !repetitionsGiven { repetitions = 3 }
    }
    sizes.sort()
  }
}

struct UsageError: Error {
  var message: String?
  init(_ message: String?) { self.message = message }
}
