import Foundation

/// Encodes and decodes documents exactly as the app's coder does: Foundation's
/// `JSONEncoder` with pretty printing, sorted keys and ISO-8601 dates.
///
/// The encoder's quirks are part of the format: an empty array or object prints
/// as an opening bracket, a blank line and a closing bracket; `/` is escaped as
/// `\/`; whole doubles print without a fraction (`45`); dates keep whole seconds.
/// Bytes have no trailing newline.
public enum DocumentCoder {
  /// Encodes `value` to the app's bytes.
  ///
  /// - Throws: `EncodingError` when a value cannot be encoded (a non-finite double).
  public static func encode<T: Encodable>(_ value: T) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    return try encoder.encode(value)
  }

  /// Decodes a document, turning Foundation's errors into a ``DocumentError``
  /// that names the file and the field.
  ///
  /// - Throws: ``DocumentError`` when the bytes are not a valid `T`.
  public static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    do {
      return try decoder.decode(type, from: data)
    } catch let error as DecodingError {
      throw DocumentError(file: file, reason: DocumentError.describe(error))
    } catch {
      throw DocumentError(file: file, reason: "\(error)")
    }
  }
}

/// A document that could not be read, with the file and the reason.
public struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
  public var file: String
  public var reason: String

  public init(file: String, reason: String) {
    self.file = file
    self.reason = reason
  }

  public var description: String { "\(file): error: \(reason)" }

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
