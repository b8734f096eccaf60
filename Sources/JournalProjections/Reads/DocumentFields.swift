import Foundation
import JournalCore

/// A document's JSON flattened to its leaves, each named by a JSON pointer.
///
/// Pointers follow RFC 6901: `/logs/0/setEntries/1/weight`. Empty arrays and
/// objects are leaves too, so their appearance is a change.
struct DocumentFields: Sendable, Hashable {
  /// Pointer → leaf value.
  var leaves: [String: JSONValue]

  /// The leaves of `bytes`, a JSON document.
  ///
  /// - Throws: when the bytes are not JSON.
  init(_ bytes: Data) throws {
    var leaves: [String: JSONValue] = [:]
    Self.flatten(try JSONValue.parse(bytes), at: "", into: &leaves)
    self.leaves = leaves
  }

  init(leaves: [String: JSONValue]) { self.leaves = leaves }

  static func flatten(
    _ value: JSONValue,
    at pointer: String,
    into leaves: inout [String: JSONValue]
  ) {
    switch value {
    case .object(let members) where !members.isEmpty:
      for (key, member) in members {
        flatten(member, at: pointer + "/" + escape(key), into: &leaves)
      }
    case .array(let elements) where !elements.isEmpty:
      for (index, element) in elements.enumerated() {
        flatten(element, at: pointer + "/\(index)", into: &leaves)
      }
    default:
      leaves[pointer] = value
    }
  }

  /// A key as a pointer token: `~` → `~0`, `/` → `~1`.
  static func escape(_ key: String) -> String {
    key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }

  /// The pointers whose values differ between `old` and `new`: added,
  /// removed or changed, in pointer order.
  static func changes(from old: DocumentFields, to new: DocumentFields) -> [FieldChange] {
    // Only the pointers that differ are sorted: blame compares a document with itself after
    // every event, and few of its fields change at each.
    let pointers = Set(old.leaves.keys).union(new.leaves.keys).filter {
      old.leaves[$0] != new.leaves[$0]
    }
    return pointers.sorted(by: pointerOrder).map { pointer in
      FieldChange(pointer: pointer, before: old.leaves[pointer], after: new.leaves[pointer])
    }
  }

  /// Whether `pointer` is `field` or lies inside it.
  static func pointer(_ pointer: String, isWithin field: String) -> Bool {
    field.isEmpty || field == "/" || pointer == field || pointer.hasPrefix(field + "/")
  }

  /// Orders pointers token by token, array indices numerically.
  static func pointerOrder(_ a: String, _ b: String) -> Bool {
    let left = a.split(separator: "/", omittingEmptySubsequences: false)
    let right = b.split(separator: "/", omittingEmptySubsequences: false)
    for (l, r) in zip(left, right) where l != r {
      if let x = Int(l), let y = Int(r) { return x < y }
      return l < r
    }
    return left.count < right.count
  }
}

/// One field that differs between two versions of a document.
public struct FieldChange: Sendable, Hashable {
  public var pointer: String
  /// nil when the field was added.
  public var before: JSONValue?
  /// nil when the field was removed.
  public var after: JSONValue?
}

extension JSONValue {
  /// Compact JSON text of the value, for people (`45`, `"Bench Press"`, `[]`).
  public var compactText: String {
    (try? serializedString()) ?? "?"
  }
}

// MARK: - Rendering one document as the tree would

extension JournalState {
  /// The bytes of the document at `path` (`Splits/<id>.json`,
  /// `Workouts/YYYY/MM/<id>.json`, `Stubs/…`) as ``documentTree()`` writes
  /// it, or nil when the tree has no such file.
  ///
  /// - Throws: an encoding error for a value JSON cannot carry.
  public func renderedDocument(at path: String) throws -> Data? {
    guard let target = DocumentTarget(path: path) else { return nil }
    let now = self.now ?? Date(timeIntervalSince1970: 0)
    if target.isSplit {
      guard let state = splits[target.id], DocumentPath.split(id: target.id) == target.livePath
      else { return nil }
      if let deletedAt = state.deletedAt {
        guard target.isStub, state.isStarter || now.timeIntervalSince(deletedAt) <= Self.stubGrace
        else { return nil }
        return try DocumentCoder.encode(Stub(document: state.document, deletedAt: deletedAt))
      }
      return target.isStub ? nil : try DocumentCoder.encode(state.document)
    }
    guard let state = workouts[target.id], state.path == target.livePath else { return nil }
    let document = state.renderedDocument(now: now)
    if let deletedAt = state.deletedAt {
      guard target.isStub, now.timeIntervalSince(deletedAt) <= Self.stubGrace else { return nil }
      return try DocumentCoder.encode(Stub(document: document, deletedAt: deletedAt))
    }
    return target.isStub ? nil : try DocumentCoder.encode(document)
  }
}

/// What a document path names.
struct DocumentTarget: Sendable, Hashable {
  var id: String
  var isSplit: Bool
  var isStub: Bool
  /// The path without `Stubs/`.
  var livePath: String

  init?(path: String) {
    var live = path
    isStub = path.hasPrefix("Stubs/")
    if isStub { live.removeFirst("Stubs/".count) }
    guard live.hasSuffix(".json"), let name = live.split(separator: "/").last else { return nil }
    id = String(name.dropLast(".json".count))
    isSplit = live.hasPrefix("Splits/")
    guard isSplit || live.hasPrefix("Workouts/") else { return nil }
    livePath = live
  }

  /// The stream whose events shape the document.
  var stream: String { (isSplit ? "split:" : "workout:") + id }
}
