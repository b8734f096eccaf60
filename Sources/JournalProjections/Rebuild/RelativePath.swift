import Foundation

/// The rules for a document's path inside the output folder, so that ids
/// coming from events can never name a file outside it.
///
/// A safe path is relative, has 1 to 8 components separated by `/`, and each
/// component is 1 to 255 characters of `[A-Za-z0-9._-]` that does not start with
/// a dot (which also rules out `.` and `..`, and keeps the rebuild's own hidden
/// files apart from documents).
enum RelativePath {
  /// Whether `path` is a safe document path.
  static func isSafe(_ path: String) -> Bool {
    // One pass over the bytes in place, without splitting: it runs for every
    // entry of the manifest's shards read.
    var path = path
    return path.withUTF8(isSafe)
  }

  private static func isSafe(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var components = 1
    var length = 0
    for byte in bytes {
      if byte == UInt8(ascii: "/") {
        guard length > 0 else { return false }
        components += 1
        length = 0
        continue
      }
      guard isAllowed(byte), length > 0 || byte != UInt8(ascii: ".") else { return false }
      length += 1
      guard length <= 255 else { return false }
    }
    return length > 0 && components <= 8
  }

  private static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "-"):
      true
    default: false
    }
  }

  /// The stream whose document lives at `path`: `split:<id>` for
  /// `Splits/<id>.json` and its stub, `workout:<id>` for
  /// `Workouts/YYYY/MM/<id>.json` and its stub; nil for anything else.
  static func stream(of path: String) -> String? {
    // On the bytes: it runs for every entry of the shards a rebuild reads, where
    // `Substring`'s character-wise operations would break graphemes.
    var path = path
    return path.withUTF8 { bytes -> String? in
      func starts(with prefix: StaticString, at offset: Int) -> Bool {
        guard bytes.count - offset >= prefix.utf8CodeUnitCount, let base = bytes.baseAddress
        else { return false }
        return memcmp(base + offset, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
      }
      let start = starts(with: "Stubs/", at: 0) ? 6 : 0
      let kind: String
      var folders: Int
      if starts(with: "Splits/", at: start) {
        (kind, folders) = ("split:", 1)
      } else if starts(with: "Workouts/", at: start) {
        (kind, folders) = ("workout:", 3)
      } else {
        return nil
      }
      var name = start
      for index in start..<bytes.count where bytes[index] == UInt8(ascii: "/") {
        folders -= 1
        name = index + 1
      }
      let end = bytes.count - 5
      guard folders == 0, end > name, starts(with: ".json", at: end) else { return nil }
      let file = UnsafeBufferPointer(rebasing: bytes[name..<end])
      return kind + String(decoding: file, as: UTF8.self)
    }
  }

  /// The folder part of `path`, empty for a file at the top.
  static func folder(of path: String) -> String {
    var path = path
    return path.withUTF8 { bytes in
      guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self)
    }
  }

  /// The last component of `path`.
  static func fileName(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }
}
