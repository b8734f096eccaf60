import Foundation

/// Encodes and decodes documents exactly as the app's coder does: Foundation's
/// `JSONEncoder` with pretty printing, sorted keys and ISO-8601 dates.
///
/// The encoder's quirks are part of the format: an empty array or object prints
/// as an opening bracket, a blank line and a closing bracket; `/` is escaped as
/// `\/`; whole doubles print without a fraction (`45`); dates keep whole seconds.
/// Bytes have no trailing newline.
package enum DocumentCoder {
  /// Encodes `value` to the app's bytes.
  ///
  /// Splits, workouts, their stubs and tombstones go through ``DocumentEncoder``,
  /// which writes the same bytes as Foundation faster; anything else through
  /// Foundation.
  ///
  /// - Throws: `EncodingError` when a value cannot be encoded (a non-finite double).
  package static func encode<T: Encodable>(_ value: T) throws -> Data {
    switch value {
    case let split as SplitDocument: try DocumentEncoder.encode(split)
    case let workout as WorkoutDocument: try DocumentEncoder.encode(workout)
    case let stub as Stub<SplitDocument>: try DocumentEncoder.encode(stub)
    case let stub as Stub<WorkoutDocument>: try DocumentEncoder.encode(stub)
    case let tombstone as Tombstone: try DocumentEncoder.encode(tombstone)
    default: try encodeWithFoundation(value)
    }
  }

  /// Encodes `value` with Foundation's `JSONEncoder` configured as the app's
  /// coder: the reference the fast path is proven against.
  ///
  /// - Throws: `EncodingError` when a value cannot be encoded (a non-finite double).
  package static func encodeWithFoundation<T: Encodable>(_ value: T) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    return try encoder.encode(value)
  }

  /// Decodes a document, turning Foundation's errors into a ``DocumentError``
  /// that names the file and the field.
  ///
  /// - Throws: ``DocumentError`` when the bytes are not a valid `T`.
  package static func decode<T: Decodable>(
    _ type: T.Type,
    from data: Data,
    file: String
  ) throws -> T {
    do {
      return try decoder(dates: .iso8601).decode(type, from: data)
    } catch let error as DecodingError {
      let located = locatingNumbers(locatingDates(error, type, data), type, data)
      throw DocumentError(file: file, reason: DocumentError.describe(located))
    } catch {
      throw DocumentError(file: file, reason: "\(error)")
    }
  }

  private static func decoder(dates: JSONDecoder.DateDecodingStrategy) -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = dates
    return decoder
  }

  /// Names the field of a malformed ISO-8601 date.
  ///
  /// Foundation reports such a date at the path of the object holding it,
  /// without the field's key. Decoding again with a strategy that
  /// checks each date the same way, but from the date's own decoder, names it.
  private static func locatingDates<T: Decodable>(
    _ error: DecodingError,
    _ type: T.Type,
    _ data: Data
  ) -> DecodingError {
    guard case .dataCorrupted(let context) = error, context.debugDescription.contains("ISO8601")
    else { return error }
    let locating = decoder(
      dates: .custom { decoder in
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        let fragment = try JSONEncoder().encode([string])
        guard
          let date = try? Self.decoder(dates: .iso8601).decode([Date].self, from: fragment).first
        else {
          throw DecodingError.dataCorruptedError(
            in: container,
            debugDescription: "expected an ISO-8601 date, got \(string.debugDescription)"
          )
        }
        return date
      }
    )
    do {
      _ = try locating.decode(type, from: data)
    } catch let located as DecodingError {
      return located
    } catch {}
    return error
  }

  /// Names the field of a number that does not fit it (`5.5` or `1e30` for an `Int`).
  ///
  /// Foundation reports such a number as "not valid JSON", without a path. When
  /// the bytes are valid JSON, the suspicious numbers (fractional, or beyond
  /// `Int`) are replaced by 0 one after the other until the error goes away:
  /// the last one replaced is the culprit.
  private static func locatingNumbers<T: Decodable>(
    _ error: DecodingError,
    _ type: T.Type,
    _ data: Data
  ) -> DecodingError {
    guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
      var root = try? JSONSerialization.jsonObject(with: data)
    else { return error }
    var suspects: [([PathKey], NSNumber)] = []
    collectSuspects(root, path: [], into: &suspects)
    for (path, number) in suspects.prefix(10_000) {
      root = replacing(root, at: path[...])
      guard
        let patched = try? JSONSerialization.data(withJSONObject: root)
      else { break }
      do {
        _ = try decoder(dates: .iso8601).decode(type, from: patched)
      } catch let DecodingError.dataCorrupted(after)
        where after.codingPath.isEmpty && after.debugDescription == context.debugDescription
      {
        continue
      } catch {}
      return .dataCorrupted(
        DecodingError.Context(
          codingPath: path,
          debugDescription: "the number \(number) does not fit the field"
        )
      )
    }
    return error
  }

  private static func collectSuspects(
    _ value: Any,
    path: [PathKey],
    into suspects: inout [([PathKey], NSNumber)]
  ) {
    switch value {
    case let object as [String: Any]:
      for (key, member) in object.sorted(by: { $0.key < $1.key }) {
        collectSuspects(member, path: path + [PathKey(stringValue: key)], into: &suspects)
      }
    case let array as [Any]:
      for (index, element) in array.enumerated() {
        collectSuspects(element, path: path + [PathKey(intValue: index)], into: &suspects)
      }
    case let number as NSNumber:
      let double = number.doubleValue
      if double.rounded() != double || double.magnitude >= 9.2e18 {
        suspects.append((path, number))
      }
    default:
      break
    }
  }

  /// `value` with the number at `path` replaced by 0.
  private static func replacing(_ value: Any, at path: ArraySlice<PathKey>) -> Any {
    guard let key = path.first else { return 0 }
    if let index = key.intValue, var array = value as? [Any], array.indices.contains(index) {
      array[index] = replacing(array[index], at: path.dropFirst())
      return array
    }
    if var object = value as? [String: Any], let member = object[key.stringValue] {
      object[key.stringValue] = replacing(member, at: path.dropFirst())
      return object
    }
    return value
  }
}

/// A coding key of a path found outside the decoder.
private struct PathKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    stringValue = "\(intValue)"
    self.intValue = intValue
  }
}

/// A document that could not be read, with the file and the reason.
struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
  var file: String
  var reason: String

  init(file: String, reason: String) {
    self.file = file
    self.reason = reason
  }

  var description: String { "\(file): error: \(reason)" }

  static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { key in
        key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
      }
      return keys.isEmpty ? "document" : "'" + keys.joined().drop(while: { $0 == "." }) + "'"
    }
    switch error {
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty { return "not valid JSON" }
      return "invalid value at \(path(context)): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
      let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
      return "missing field '\(key.stringValue)'\(parent)"
    case .typeMismatch(let type, let context):
      return "wrong type at \(path(context)): expected \(type)"
    case .valueNotFound(let type, let context):
      return "null at \(path(context)): expected \(type)"
    @unknown default:
      return "\(error)"
    }
  }
}
