/// The declaration of one option of a command.
public struct OptionSpec: Sendable {
  /// The long name without dashes, such as `reps`.
  public var name: String
  /// A one-letter alias without the dash, such as `n`.
  public var short: Character?
  /// The value's placeholder, such as `N`; nil for a flag.
  public var value: String?
  public var help: String
  /// The values it accepts, when they are a fixed few (for completion).
  var choices: [String]

  public init(_ name: String, short: Character? = nil, value: String? = nil, help: String) {
    self.init(name, short: short, value: value, help: help, choices: [])
  }

  init(
    _ name: String,
    short: Character? = nil,
    value: String? = nil,
    help: String,
    choices: [String]
  ) {
    self.name = name
    self.short = short
    self.value = value
    self.help = help
    self.choices = choices
  }

  var takesValue: Bool { value != nil }
}

/// Arguments split into positionals, option values and flags, checked against
/// the options a command declares.
public struct CommandLineArguments: Sendable {
  public private(set) var positionals: [String] = []
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// Parses `arguments` against `options`.
  ///
  /// Accepts `--name value`, `--name=value`, `-n value`, flags, and `--` to end
  /// options. A value starting with `-` followed by a digit is a value, so
  /// `--weight -5` reaches validation instead of failing as an unknown option.
  ///
  /// - Throws: ``UsageError`` for an unknown option or a missing value.
  public init(_ arguments: [String], options: [OptionSpec]) throws(UsageError) {
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" || Self.isNumber(argument) {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      var name: String
      var inlineValue: String?
      if argument.hasPrefix("--") {
        name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
      } else {
        let letter = argument.dropFirst()
        guard letter.count == 1, let spec = options.first(where: { $0.short == letter.first })
        else { throw UsageError("unknown option '\(argument)'") }
        name = spec.name
      }
      guard let spec = options.first(where: { $0.name == name }) else {
        let near = Suggestions.nearest(to: name, among: options.map(\.name))
        throw UsageError("unknown option '--\(name)'", hint: Self.didYouMean(near))
      }
      if spec.takesValue {
        if let inlineValue {
          values[name, default: []].append(inlineValue)
        } else if index < arguments.count,
          !arguments[index].hasPrefix("-") || Self.isNumber(arguments[index])
        {
          values[name, default: []].append(arguments[index])
          index += 1
        } else {
          throw UsageError("option '--\(name)' needs a value")
        }
      } else {
        guard inlineValue == nil else { throw UsageError("option '--\(name)' takes no value") }
        flags.insert(name)
      }
    }
  }

  /// `did you mean '--reps'?` for option names, or nil.
  static func didYouMean(_ names: [String]) -> String? {
    let quoted = names.map { "'--\($0)'" }
    guard let first = quoted.first else { return nil }
    return quoted.count == 1
      ? "did you mean \(first)?" : "did you mean one of \(quoted.joined(separator: ", "))?"
  }

  private static func isNumber(_ text: String) -> Bool {
    guard text.hasPrefix("-"), text.count > 1 else { return false }
    let next = text[text.index(after: text.startIndex)]
    return next.isNumber || next == "."
  }

  /// Whether the flag `name` was given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The last value given for `name`, if any.
  public func value(_ name: String) -> String? { values[name]?.last }

  /// Every value given for `name`, in order.
  public func allValues(_ name: String) -> [String] { values[name] ?? [] }
}

/// A mistake in how a command was invoked: exit status 64.
public struct UsageError: Error, Sendable, Equatable {
  public var message: String
  /// A suggestion, printed as a `hint:` line.
  public var hint: String?
  public init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }
}
