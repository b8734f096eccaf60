import Foundation
import JournalCore

/// A field of a document named as a person would: `logs.Bench.setEntries.2.weight`.
///
/// Segments are separated by dots. In an object a segment is a member's name (exactly, else
/// ignoring case). In a list it is an element's position counted from 1, or the name of the
/// exercise the element is (its `exerciseName`, `name` or `libraryName`), by the journal's naming
/// rule: exact, else a unique prefix, ignoring case. The result is the JSON pointer ``Blame``
/// takes, whose positions count from 0.
package enum FieldPath {
  /// The JSON pointer `path` names in `document`.
  ///
  /// - Parameters:
  ///   - path: the dotted path; empty for the whole document.
  ///   - document: the document's bytes, as the tree writes them; nil when it has none.
  /// - Returns: the JSON pointer, positions from 0; empty for the whole document.
  /// - Throws: ``CommandError`` naming the segment that fits nothing, or the candidates of an
  ///   ambiguous one.
  package static func pointer(_ path: String, in document: Data?) throws -> String {
    guard let document else { throw CommandError("no such document") }
    var value = try JSONValue.parse(Array(document))
    var pointer = ""
    for segment in path.split(separator: ".").map(String.init) {
      switch value {
      case .object(let members):
        let key =
          members[segment] != nil
          ? segment
          : members.keys.filter { $0.caseInsensitiveCompare(segment) == .orderedSame }.first
        guard let key, let next = members[key] else {
          throw CommandError(
            "no field '\(segment)' in '\(pointer.isEmpty ? "/" : pointer)'",
            hint: "fields: \(members.keys.sorted().joined(separator: ", "))"
          )
        }
        pointer += "/" + escape(key)
        value = next
      case .array(let elements):
        let index = try position(of: segment, in: elements, at: pointer)
        pointer += "/\(index)"
        value = elements[index]
      default:
        throw CommandError("'\(pointer)' holds a value, not fields: '\(segment)' is too much")
      }
    }
    return pointer
  }

  /// The index, from 0, of the element `segment` names.
  static func position(
    of segment: String,
    in elements: [JSONValue],
    at pointer: String
  ) throws -> Int {
    if let number = Int(segment) {
      guard number >= 1, number <= elements.count else {
        throw CommandError(
          "'\(pointer)' has \(elements.count) elements: position \(number) is out of range",
          hint: "positions count from 1"
        )
      }
      return number - 1
    }
    let names = elements.map { element -> [String] in
      ["exerciseName", "name", "libraryName"].compactMap { element[$0]?.stringValue }
    }
    let all = JournalState.distinct(names.flatMap { $0 })
    guard let name = try JournalState.pickName(segment, among: all, what: "element") else {
      throw CommandError(
        "nothing in '\(pointer)' is named '\(segment)'",
        hint: JournalState.known(all)
      )
    }
    let indices = names.indices.filter { names[$0].contains(name) }
    guard indices.count == 1 else {
      let positions = indices.map { String($0 + 1) }.joined(separator: ", ")
      throw CommandError(
        "'\(name)' is at several positions of '\(pointer)': \(positions)",
        hint: "name it by its position"
      )
    }
    return indices[0]
  }

  /// A member name escaped for a JSON pointer (RFC 6901).
  static func escape(_ key: String) -> String {
    key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }
}
