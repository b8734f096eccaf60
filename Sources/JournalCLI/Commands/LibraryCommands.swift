import Foundation
import JournalProjections

/// `catalog`: the bundled exercise catalog the starter splits are made from.
enum LibraryCommands {
  static let catalog = Command(
    ["catalog"],
    abstract: "List the bundled exercise catalog (bodyweight and machine exercises)",
    discussion: """
      The catalog the starter splits ('journal split starter') are made from, and what
      'exercise add --library NAME' checks against. --load, --machine-based, --no-machine
      and --region filter it.
      """,
    options: [
      OptionSpec(
        "load",
        value: "TYPE",
        help: "Only this load: weight, bodyweight or duration",
        choices: ["weight", "bodyweight", "duration"]
      ),
      OptionSpec("machine-based", help: "Only machine-based exercises"),
      OptionSpec("no-machine", help: "Only exercises without a machine"),
      OptionSpec(
        "region",
        value: "REGION",
        help: "Only this region: upper, core or lower",
        choices: LibraryExercise.Region.allCases.map(\.rawValue)
      ),
    ]
  ) { invocation in
    try invocation.expectPositionals(atMost: 0)
    var exercises = ExerciseLibrary.exercises
    if let load = try ExerciseCommands.loadType(invocation, weight: nil, seconds: nil) {
      exercises = exercises.filter { $0.loadType == load }
    }
    let machine = invocation.arguments.flag("machine-based")
    let noMachine = invocation.arguments.flag("no-machine")
    if machine && noMachine { throw UsageError("'--machine-based' and '--no-machine' contradict") }
    if machine { exercises = exercises.filter(\.isMachineBased) }
    if noMachine { exercises = exercises.filter { !$0.isMachineBased } }
    if let text = invocation.string("region") {
      guard let region = LibraryExercise.Region(rawValue: text.lowercased()) else {
        throw UsageError("unknown region '\(text)': use upper, core or lower")
      }
      exercises = exercises.filter { $0.region == region }
    }
    if invocation.wantsJSON {
      invocation.printJSON(
        exercises.map { e -> [String: Any] in
          [
            "name": e.name, "loadType": e.loadType.rawValue, "load": loadName(e.loadType),
            "machineBased": e.isMachineBased, "region": e.region.rawValue,
            "starter": e.isInStarterSplit,
          ]
        }
      )
      return ExitStatus.success
    }
    let c = invocation.console
    let width = max(12, exercises.map(\.name.count).max() ?? 0)
    for e in exercises {
      let name = e.name.padding(toLength: width, withPad: " ", startingAt: 0)
      let load = loadName(e.loadType).padding(toLength: 10, withPad: " ", startingAt: 0)
      let machine = (e.isMachineBased ? "machine" : "").padding(
        toLength: 7,
        withPad: " ",
        startingAt: 0
      )
      c.print(
        "\(name)  \(load)  \(machine)  \(e.region.rawValue)" + (e.isInStarterSplit ? "  ·" : "")
      )
    }
    c.print(c.styled("\(exercises.count) exercises; · marks those of the starter splits", .dim))
    return ExitStatus.success
  }

  static func loadName(_ load: LoadType) -> String {
    switch load {
    case .weight: "weight"
    case .none: "bodyweight"
    case .duration: "duration"
    }
  }
}
