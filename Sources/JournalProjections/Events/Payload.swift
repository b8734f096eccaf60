import Foundation
import JournalCore

/// Reads the fields of an event payload with errors that name the field.
///
/// Reads the payload's bytes (``JSONObjectSlice``): members are found by comparing key bytes
/// and only the leaves asked for are parsed, so decoding an event builds no dictionary.
struct PayloadReader {
  let object: JSONObjectSlice
  let type: String

  init(_ payload: JSONPayload, type: String) throws(PayloadError) {
    let slice: JSONSlice
    do {
      slice = try payload.slice()
    } catch {
      throw PayloadError(type: type, message: "payload holds a number JSON cannot store")
    }
    try self.init(slice, type: type)
  }

  init(_ slice: JSONSlice, type: String) throws(PayloadError) {
    guard let object = slice.object else {
      throw PayloadError(type: type, message: "payload is not an object")
    }
    self.object = object
    self.type = type
  }

  func has(_ key: String) -> Bool { object[key] != nil }

  /// The member `key` as a value; containers are built whole, so ask for leaves.
  subscript(_ key: String) -> JSONValue? { object[key]?.value }

  private func fail(_ key: String, _ expected: String) -> PayloadError {
    PayloadError(type: type, message: "field '\(key)' must be \(expected)")
  }

  func string(_ key: String) throws(PayloadError) -> String {
    guard let value = object[key]?.stringValue else { throw fail(key, "a string") }
    return value
  }

  func optionalString(_ key: String) throws(PayloadError) -> String? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let string = value.stringValue else { throw fail(key, "a string") }
    return string
  }

  func int(_ key: String) throws(PayloadError) -> Int {
    guard let value = object[key]?.intValue, let int = Int(exactly: value) else {
      throw fail(key, "an integer")
    }
    return int
  }

  func optionalInt(_ key: String) throws(PayloadError) -> Int? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let int = value.intValue.flatMap({ Int(exactly: $0) }) else {
      throw fail(key, "an integer")
    }
    return int
  }

  func optionalInt64(_ key: String) throws(PayloadError) -> Int64? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let int = value.intValue else { throw fail(key, "an integer") }
    return int
  }

  /// `value` as a number field takes it: a finite number.
  static func number(_ value: JSONValue) -> Double? {
    guard let number = value.doubleValue, number.isFinite else { return nil }
    return number
  }

  /// Whether `number` is within the weights a payload may carry (``maximumWeightMagnitude``).
  static func isWeight(_ number: Double) -> Bool { number.magnitude <= maximumWeightMagnitude }

  func double(_ key: String) throws(PayloadError) -> Double {
    guard let value = self[key].flatMap(Self.number) else { throw fail(key, "a number") }
    return value
  }

  func optionalDouble(_ key: String) throws(PayloadError) -> Double? {
    guard let value = self[key], !value.isNull else { return nil }
    guard let double = Self.number(value) else { throw fail(key, "a number") }
    return double
  }

  /// The largest weight, in either direction, a payload may carry.
  ///
  /// Far above any lift (commands allow 0…5000) and far below where a workout's
  /// Σ reps × weight could overflow. An event from another device beyond it quarantines
  /// its stream (docs/BadInput.md).
  static let maximumWeightMagnitude = 1_000_000.0

  func weight(_ key: String) throws(PayloadError) -> Double {
    let value = try double(key)
    guard Self.isWeight(value) else {
      throw fail(key, "a weight within ±1000000")
    }
    return value
  }

  func optionalWeight(_ key: String) throws(PayloadError) -> Double? {
    guard let value = try optionalDouble(key) else { return nil }
    guard Self.isWeight(value) else {
      throw fail(key, "a weight within ±1000000")
    }
    return value
  }

  func optionalBool(_ key: String) throws(PayloadError) -> Bool? {
    guard let value = self[key], !value.isNull else { return nil }
    guard let bool = value.boolValue else { throw fail(key, "true or false") }
    return bool
  }

  func bool(_ key: String) throws(PayloadError) -> Bool {
    guard let value = self[key]?.boolValue else { throw fail(key, "true or false") }
    return value
  }

  func strings(_ key: String) throws(PayloadError) -> [String] {
    guard let array = object[key]?.elements else { throw fail(key, "an array of strings") }
    var result: [String] = []
    result.reserveCapacity(array.count)
    for element in array {
      guard let string = element.stringValue else { throw fail(key, "an array of strings") }
      result.append(string)
    }
    return result
  }

  func optionalDoubles(_ key: String) throws(PayloadError) -> [Double]? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let array = value.elements else { throw fail(key, "an array of numbers") }
    var result: [Double] = []
    for element in array {
      guard let double = Self.number(element.value) else {
        throw fail(key, "an array of numbers")
      }
      result.append(double)
    }
    return result
  }

  func optionalMachineSettings(_ key: String) throws(PayloadError) -> [MachineSetting]? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let array = value.elements else { throw fail(key, "an array of settings") }
    var result: [MachineSetting] = []
    for element in array {
      guard let setting = element.object, let name = setting["name"]?.stringValue,
        let value = setting["value"]?.stringValue
      else { throw fail(key, "an array of {name, value} settings") }
      result.append(MachineSetting(name: name, value: value))
    }
    return result
  }

  func loadType(_ key: String) throws(PayloadError) -> LoadType {
    guard let raw = object[key]?.intValue, let type = LoadType(rawValue: Int(raw)) else {
      throw fail(key, "a load type (0 none, 1 weight, 2 duration)")
    }
    return type
  }

  func object(_ key: String) throws(PayloadError) -> PayloadReader {
    guard let value = object[key] else { throw fail(key, "an object") }
    return try PayloadReader(value, type: type)
  }

  func objects(_ key: String) throws(PayloadError) -> [PayloadReader] {
    guard let array = object[key]?.elements else { throw fail(key, "an array of objects") }
    var result: [PayloadReader] = []
    for element in array { result.append(try PayloadReader(element, type: type)) }
    return result
  }

  /// A field that may be absent (unchanged), null (cleared) or a value.
  func change<T>(
    _ key: String,
    _ read: (String) throws(PayloadError) -> T?
  ) throws(PayloadError)
    -> Change<T>
  {
    guard let value = object[key] else { return .unchanged }
    if value.isNull { return .set(nil) }
    return .set(try read(key))
  }
}

/// A payload that does not have the shape its type and version promise.
struct PayloadError: Error, Sendable, Hashable, CustomStringConvertible {
  var type: String
  var message: String
  var description: String { "event '\(type)': \(message)" }
}

/// An edit to one field: leave it, or set it (to nil for optional fields).
public enum Change<Value: Sendable & Hashable>: Sendable, Hashable {
  case unchanged
  case set(Value?)

  /// The new value, or `current` when unchanged.
  public func applied(to current: Value?) -> Value? {
    switch self {
    case .unchanged: current
    case .set(let value): value
    }
  }
}

/// Builds payload objects, leaving out nil values.
struct PayloadWriter {
  private(set) var object: [String: JSONValue] = [:]

  var value: JSONValue { .object(object) }

  mutating func set(_ key: String, _ value: String?) {
    if let value { object[key] = .string(value) }
  }

  mutating func set(_ key: String, _ value: Int?) {
    if let value { object[key] = .int(Int64(value)) }
  }

  mutating func set(_ key: String, _ value: Int64?) {
    if let value { object[key] = .int(value) }
  }

  mutating func set(_ key: String, _ value: Double?) {
    if let value { object[key] = JSONValue(number: value) }
  }

  mutating func set(_ key: String, _ value: Bool?) {
    if let value { object[key] = .bool(value) }
  }

  mutating func set(_ key: String, _ value: [String]) {
    object[key] = .array(value.map(JSONValue.string))
  }

  mutating func set(_ key: String, _ value: [Double]?) {
    if let value { object[key] = .array(value.map { JSONValue(number: $0) }) }
  }

  mutating func set(_ key: String, _ value: [MachineSetting]?) {
    if let value { object[key] = JSONValue(machineSettings: value) }
  }

  mutating func set(_ key: String, _ value: JSONValue?) {
    if let value { object[key] = value }
  }

  /// Writes a change: nothing when unchanged, null when cleared.
  mutating func set<T>(_ key: String, _ change: Change<T>, _ encode: (T) -> JSONValue) {
    switch change {
    case .unchanged: break
    case .set(nil): object[key] = .null
    case .set(let value?): object[key] = encode(value)
    }
  }
}

extension JSONValue {
  /// Machine settings as an array of `{name, value}` objects.
  init(machineSettings settings: [MachineSetting]) {
    self = .array(settings.map { .object(["name": .string($0.name), "value": .string($0.value)]) })
  }

  /// A number: `.int` when whole and in range, else `.double`.
  init(number: Double) {
    if number == number.rounded(), abs(number) < 9.0e15 {
      self = .int(Int64(number))
    } else {
      self = .double(number)
    }
  }
}
