import Foundation
import JournalProjections

// Typed option values, each refused with a usage error naming the option.

extension Invocation {
  func int(_ name: String) throws(UsageError) -> Int? {
    guard let text = arguments.value(name) else { return nil }
    guard let value = Int(text) else {
      throw UsageError("option '--\(name)' needs a whole number, not '\(text)'")
    }
    return value
  }

  func double(_ name: String) throws(UsageError) -> Double? {
    guard let text = arguments.value(name) else { return nil }
    guard let value = Double(text) else {
      throw UsageError("option '--\(name)' needs a number, not '\(text)'")
    }
    return value
  }

  /// A change for an optional field: `--name value` sets it, `--no-name` clears it.
  func change<T>(
    _ name: String,
    _ read: (String) throws(UsageError) -> T?
  ) throws(UsageError) -> Change<T> {
    if arguments.flag("no-\(name)") {
      guard arguments.value(name) == nil else {
        throw UsageError("'--\(name)' and '--no-\(name)' contradict")
      }
      return .set(nil)
    }
    guard let value = try read(name) else { return .unchanged }
    return .set(value)
  }

  func string(_ name: String) -> String? { arguments.value(name) }

  /// Machine settings given as `--machine "Seat Height=4"` (repeatable).
  func machineSettings() throws(UsageError) -> [MachineSetting]? {
    let values = arguments.allValues("machine")
    if values.isEmpty { return arguments.flag("machine-based") ? [] : nil }
    var settings: [MachineSetting] = []
    for value in values {
      guard let equals = value.firstIndex(of: "=") else {
        throw UsageError("machine setting '\(value)' needs the form 'Name=Value'")
      }
      settings.append(
        MachineSetting(
          name: String(value[..<equals]).trimmingCharacters(in: .whitespaces),
          value: String(value[value.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        )
      )
    }
    return settings
  }

  /// The actuals from `--reps`, `--weight` and `--seconds`.
  func actuals() throws(UsageError) -> SetActuals {
    SetActuals(reps: try int("reps"), weight: try double("weight"), seconds: try int("seconds"))
  }

  /// Prints `value` as JSON (sorted keys, pretty) when `--json` was given.
  func printJSON(_ value: Any) {
    console.print(JSONOutput.text(value))
  }
}

/// Options shared by the workout commands.
enum CommonOptions {
  static let workout = OptionSpec(
    "workout",
    short: "w",
    value: "ID",
    help: "The workout (id prefix, or split name: its latest); default: the open one"
  )
  static let reps = OptionSpec("reps", short: "r", value: "N", help: "Reps actually done")
  static let weight = OptionSpec("weight", value: "W", help: "Weight actually lifted (unit-less)")
  static let seconds = OptionSpec("seconds", short: "s", value: "S", help: "Seconds actually held")
}
