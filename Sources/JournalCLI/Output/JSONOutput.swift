import Foundation

/// JSON as the `--json` of every command prints it: pretty, keys sorted, slashes unescaped.
enum JSONOutput {
  /// `value` as text, without a final newline; `{}` when it is not JSON.
  static func text(_ value: Any) -> String { String(decoding: data(value), as: UTF8.self) }

  private static func data(_ value: Any) -> Data {
    (try? JSONSerialization.data(
      withJSONObject: value,
      options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    ))
      ?? Data("{}".utf8)
  }

  /// The string that stands for the array `name` in an object given to
  /// ``write(_:arrays:to:)``.
  static func placeholder(_ name: String) -> String { "\(marker)\(name)>" }

  private static let marker = "<streamed array: "

  /// Writes `object` and a newline as ``text(_:)`` gives it, with each ``placeholder(_:)`` it
  /// holds replaced by an array whose elements `arrays[name]` hands on, one at a time: an
  /// answer too long to hold as one object is written as it is read.
  ///
  /// The arrays are asked for in the order the text holds them (keys sorted).
  static func write(
    _ object: Any,
    arrays: [String: ((Any) -> Void) throws -> Void],
    to out: ChunkedOutput
  ) throws {
    var rest = Substring(text(object) + "\n")
    while let start = rest.range(of: "\"" + marker),
      let end = rest[start.upperBound...].range(of: ">\"")
    {
      let name = String(rest[start.upperBound..<end.lowerBound])
      let line = rest[..<start.lowerBound].lastIndex(of: "\n").map(rest.index(after:))
      let indent = String(rest[(line ?? rest.startIndex)...].prefix { $0 == " " })
      let inner = indent + "  "
      out.write(String(rest[..<start.lowerBound]) + "[\n")
      var first = true
      try arrays[name]? { element in
        if !first { out.write(",\n") }
        first = false
        var indented = Array(inner.utf8)
        for byte in data(element) {
          indented.append(byte)
          if byte == UInt8(ascii: "\n") { indented += inner.utf8 }
        }
        out.write(String(decoding: indented, as: UTF8.self))
      }
      // An empty array is `[`, a blank line, `]`, as JSONSerialization prints it.
      out.write("\n" + indent + "]")
      rest = rest[end.upperBound...]
    }
    out.write(String(rest))
  }
}
