import Foundation
import Testing

@testable import JournalCore

/// Reading a checked object in the writer's spelling: what it reads is what the member
/// slices give, and any other spelling is left alone.
@Suite struct WrittenObjectReaderTests {
  /// Every member as the reader reads it (its key, then string, integer, scalar or strings,
  /// the first that reads), and whether the object was read to its end; nil when the
  /// payload is built as a value.
  static func read(_ text: String) throws -> (members: [String: JSONValue], isComplete: Bool)? {
    try JSONPayload(checking: Array(text.utf8)).withWrittenObject { reader in
      var members: [String: JSONValue] = [:]
      while let key = reader.nextKey() {
        let name = String(decoding: key.bytes, as: UTF8.self)
        #expect(key == "logID" ? name == "logID" : name != "logID")
        if let string = reader.string() {
          members[name] = .string(string)
        } else if let strings = reader.strings() {
          members[name] = .array(strings.map(JSONValue.string))
        } else if let integer = reader.integer() {
          members[name] = .int(integer)
        } else if let scalar = reader.scalar() {
          members[name] = scalar
        } else {
          return (members, false)
        }
      }
      return (members, reader.isComplete)
    }
  }

  @Test(arguments: [
    "{}",
    #"{"logID":"00AH2JBTZGE5B23WDH0T2BE1TB","reps":12,"weight":62.5}"#,
    #"{"events":["A","B"],"reason":"undo"}"#,
    #"{"events":[],"at":-1700000000123,"ok":true,"no":false,"none":null}"#,
    #"{"big":9223372036854775808,"exp":1e2,"whole":12.0}"#,
  ])
  func theWritersSpellingIsReadToTheEnd(_ text: String) throws {
    let read = try #require(try Self.read(text))
    #expect(read.isComplete)
    #expect(JSONValue.object(read.members) == (try JSONValue.parse(Array(text.utf8))))
  }

  /// A number read as a scalar is what the general parser gives, whether it is a plain
  /// integer (read by the shortcut) or not, and the reader ends where the number does.
  @Test(arguments: [
    "0", "-0", "7", "-7", "110", "62.5", "-0.0", "1e2", "1E-3", "12.0", "9223372036854775807",
    "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
    "12345678901234567890123", "0.1", "true", "false", "null",
  ])
  func scalarsReadAsTheParserReadsThem(_ number: String) throws {
    let text = #"{"n":"# + number + #","after":1}"#
    let read = try JSONPayload(checking: Array(text.utf8)).withWrittenObject {
      reader -> (JSONValue?, Int64?, Bool)? in
      guard let key = reader.nextKey(), key == "n" else { return nil }
      let value = reader.scalar()
      guard let next = reader.nextKey(), next == "after" else { return (value, nil, false) }
      let after = reader.integer()
      return (value, after, reader.nextKey() == nil && reader.isComplete)
    }
    let expected = try JSONValue.parse(Array(text.utf8))
    guard case .object(let members) = expected else {
      Issue.record("not an object")
      return
    }
    #expect(read?.0 == members["n"], "\(number)")
    #expect(read?.1 == 1 && read?.2 == true, "\(number)")
  }

  @Test(arguments: [
    #"{ "logID":"L"}"#,
    #"{"logID" :"L"}"#,
    #"{"logID":"L" ,"reps":1}"#,
    #"{"logID":"L\u0041"}"#,
    #"{"log\u0049D":"L"}"#,
    #"{"name":"Zürich"}"#,
    #"{"events":["A",1]}"#,
    #"{"nested":{"a":1}}"#,
    #"{"list":[1,2]}"#,
  ])
  func otherSpellingsAreLeftAlone(_ text: String) throws {
    let read = try #require(try Self.read(text))
    #expect(!read.isComplete)
  }

  @Test func onlyStoredObjectsAreRead() throws {
    #expect(try JSONPayload(checking: Array("[1]".utf8)).withWrittenObject { _ in 1 } == nil)
    #expect(JSONPayload(.object(["a": .int(1)])).withWrittenObject { _ in 1 } == nil)
    #expect(try JSONPayload(checking: Array("{}".utf8)).withWrittenObject { _ in 1 } == 1)
  }

  /// Each object of an array handed on in order; anything else, an element refused or one
  /// not read to its end, and the array is not read.
  @Test func arraysOfObjectsAreReadObjectByObject() throws {
    func walk(_ text: String, readsTo limit: Int = .max) throws -> [Int64]? {
      try JSONPayload(checking: Array(text.utf8)).withWrittenObject { reader -> [Int64]? in
        guard let key = reader.nextKey(), key == "list" else { return nil }
        var values: [Int64] = []
        let read = reader.forEachObject { element in
          guard values.count < limit else { return true }  // leaves the element unread
          guard let key = element.nextKey(), key == "a", let value = element.integer() else {
            return false
          }
          values.append(value)
          return element.nextKey() == nil
        }
        return read && reader.nextKey() == nil && reader.isComplete ? values : nil
      } ?? nil
    }
    #expect(try walk(#"{"list":[{"a":1},{"a":-2},{"a":3}]}"#) == [1, -2, 3])
    #expect(try walk(#"{"list":[]}"#) == [])
    #expect(try walk(#"{"list":[{"a":1},2]}"#) == nil)
    #expect(try walk(#"{"list":[{"a":1},{"b":2}]}"#) == nil)
    #expect(try walk(#"{"list":{"a":1}}"#) == nil)
    #expect(try walk(#"{"list":[{"a":1},{"a":2}]}"#, readsTo: 1) == nil)
  }

  /// A key matched where it is expected reads as ``nextKey()`` would have read it; any other
  /// key (longer, shorter, another, the object's end) is left for ``nextKey()``.
  @Test func aKeyMatchedWhereExpectedReadsAsNextKeyWould() throws {
    let text = #"{"logID":"a","reps":5,"repsX":6,"weight":null}"#
    let read = try JSONPayload(checking: Array(text.utf8)).withWrittenObject {
      reader -> [String] in
      // Each step: what it read, or "no" where a key was not matched.
      var seen: [String] = []
      for name: StaticString in ["log", "logIDs"] where !reader.nextKey(is: name) {
        seen.append("no")
      }
      if reader.nextKey(is: "logID") { seen.append(reader.string() ?? "?") }
      if !reader.nextKey(is: "logID") { seen.append("no") }
      if reader.nextKey(is: "reps") { seen.append(String(reader.integer() ?? -1)) }
      if !reader.nextKey(is: "reps") { seen.append("no") }
      if let key = reader.nextKey() {
        seen.append(String(decoding: key.bytes, as: UTF8.self))
        seen.append(String(reader.integer() ?? -1))
      }
      if reader.nextKey(is: "weight") {
        seen.append(reader.scalar()?.isNull == true ? "null" : "?")
      }
      if !reader.nextKey(is: "weight") { seen.append("no") }
      if reader.nextKey() == nil, reader.isComplete { seen.append("end") }
      return seen
    }
    #expect(read == ["no", "no", "a", "no", "5", "no", "repsX", "6", "null", "no", "end"])
    let empty = try JSONPayload(checking: Array("{}".utf8)).withWrittenObject { reader in
      let matched = reader.nextKey(is: "logID")
      return !matched && reader.nextKey() == nil && reader.isComplete
    }
    #expect(empty == true)
  }

  /// A string read with a known string is that very string when the text is the same (long
  /// or short, so stored or inline), and a string of its own otherwise.
  @Test(arguments: [
    ("Incline Dumbbell Press", "Incline Dumbbell Press", true),
    ("Dips", "Dips", true),
    ("Incline Dumbbell Press", "Incline Dumbbell Presses", false),
    ("Incline Dumbbell Press", "Incline Dumbbell Prest", false),
    ("Dips", "Dipz", false),
    ("", "", true),
  ])
  func aStringReadWithAKnownOneIsItWhenTheTextIsTheSame(
    first: String,
    second: String,
    shared: Bool
  ) throws {
    let text = #"{"a":"\#(first)","b":"\#(second)","c":1}"#
    let read = try JSONPayload(checking: Array(text.utf8)).withWrittenObject {
      reader -> (String?, String?, String?) in
      _ = reader.nextKey()
      let a = reader.string(reusing: nil)
      _ = reader.nextKey()
      let b = reader.string(reusing: a)
      _ = reader.nextKey()
      return (a, b, reader.string(reusing: a))
    }
    let (a, b, c) = try #require(read)
    #expect(a == first)
    #expect(b == second)
    #expect(try #require(b).isIdentical(to: try #require(a)) == shared)
    #expect(c == nil)  // 1 is not a string
  }
}
