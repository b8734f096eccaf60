import Foundation
import JournalCore

/// The list of documents the rebuild owns in an output folder, with the
/// SHA-256 of the bytes it last wrote to each.
///
/// Stored as `.journal-projection.json`:
///
/// ```json
/// {
///   "format" : 1,
///   "owned" : {
///     "Splits/01J….json" : "9f86d08…"
///   }
/// }
/// ```
///
/// Only paths listed here are ever rewritten or removed without first having
/// the very bytes the rebuild wants (see `docs/Rebuild.md`).
struct ProjectionManifest: Equatable {
  static let fileName = ".journal-projection.json"
  static let format = 1

  /// Relative path → lowercase hex SHA-256 of the bytes last written.
  var owned: [String: String] = [:]
  /// Writes a rebuild is about to make: path → hex SHA-256 of the new bytes.
  ///
  /// Saved before the writes, cleared after. Found non-empty, it says the
  /// rebuild was interrupted, and a file with these bytes is the rebuild's own.
  var pending: [String: String] = [:]

  /// Whether a file at `path` with bytes hashed `digest` is the rebuild's own.
  func owns(_ path: String, digest: String) -> Bool {
    owned[path] == digest || pending[path] == digest
  }

  /// Reads the manifest of the folder.
  ///
  /// - Returns: the manifest (empty when missing or unreadable) and a notice
  ///   when it could not be read.
  /// - Throws: ``RebuildError`` when it is a newer format, or on I/O errors.
  static func read(from writer: DocumentTreeWriter) throws -> (ProjectionManifest, String?) {
    guard try writer.entry(fileName) != .other else {
      throw RebuildError(
        .unusableOutput,
        path: fileName,
        "not a regular file; refusing to follow it"
      )
    }
    guard let bytes = try writer.read(fileName) else { return (ProjectionManifest(), nil) }
    let unreadable = "\(fileName): unreadable manifest ignored; no document is treated as owned"
    guard let value = try? JSONValue.parse(bytes), let format = value["format"]?.intValue,
      let owned = value["owned"]?.objectValue
    else { return (ProjectionManifest(), unreadable) }
    guard format == Self.format else {
      throw RebuildError(
        .unusableOutput,
        path: fileName,
        "manifest format \(format) is not supported; the highest supported is \(Self.format)"
      )
    }
    var manifest = ProjectionManifest()
    for (section, entries) in [
      (\ProjectionManifest.owned, owned), (\.pending, value["pending"]?.objectValue ?? [:]),
    ] {
      for (path, digest) in entries {
        guard let hex = digest.stringValue, SHA256Digest(hexString: hex) != nil else {
          return (ProjectionManifest(), unreadable)
        }
        manifest[keyPath: section][path] = hex
      }
    }
    return (manifest, nil)
  }

  /// The manifest's bytes: one path per line, sorted.
  func encoded() -> [UInt8] {
    var text = "{\n  \"format\" : \(Self.format),\n  \"owned\" : " + Self.object(owned)
    if !pending.isEmpty { text += ",\n  \"pending\" : " + Self.object(pending) }
    return Array((text + "\n}\n").utf8)
  }

  private static func object(_ entries: [String: String]) -> String {
    let lines = entries.keys.sorted().map { path in
      "\n    \(quoted(path)) : \"\(entries[path] ?? "")\""
    }
    return "{" + lines.joined(separator: ",") + (lines.isEmpty ? "\n\n  }" : "\n  }")
  }

  private static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// Owned paths grouped by the stream whose document they are; paths of no
  /// stream under the key "".
  func pathsByStream() -> [String: [String]] {
    var result: [String: [String]] = [:]
    for path in owned.keys {
      result[RelativePath.stream(of: path) ?? "", default: []].append(path)
    }
    return result
  }
}

extension SHA256Digest {
  /// The digest of `bytes` as lowercase hex.
  static func hex(_ bytes: [UInt8]) -> String { SHA256.hash(bytes).hexString }
}
