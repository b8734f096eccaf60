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
    let components = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    guard (1...8).contains(components.count) else { return false }
    return components.allSatisfy { component in
      guard (1...255).contains(component.count), component.first != UInt8(ascii: ".") else {
        return false
      }
      return component.allSatisfy(isAllowed)
    }
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
    var components = path.split(separator: "/", omittingEmptySubsequences: false)
    if components.first == "Stubs" { components.removeFirst() }
    guard let file = components.last, file.hasSuffix(".json"), file.count > 5 else { return nil }
    let id = file.dropLast(5)
    switch (components.first, components.count) {
    case ("Splits", 2): return "split:\(id)"
    case ("Workouts", 4): return "workout:\(id)"
    default: return nil
    }
  }

  /// The folder part of `path`, empty for a file at the top.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[..<slash])
  }

  /// The last component of `path`.
  static func fileName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}
