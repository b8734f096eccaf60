// libFuzzer entry point: JSON → `Upcaster.upcast` → `JournalEvent(type:payload:)`.
//
// The input is a JSON object carrying `type`, `v` and `data`, like a record line (so record
// lines from a journal are good seeds; other keys are ignored). Any JSON at all goes through
// the parser first. An event that decodes must decode again from the payload it re-encodes to.
// The input is also checked as payload bytes (`JSONPayload(checking:)`, as a log read keeps
// payloads): it must be accepted exactly when the parser accepts it, and an event decoded from
// the bytes of `data` must be the event decoded from its value. The input is also decoded as a
// payload of every type, from its bytes and from its value, which must agree.

@testable import JournalCore
@testable import JournalProjections

let upcaster: Upcaster = {
  do {
    return try EventUpcasters.makeUpcaster()
  } catch {
    fatalError("the upcaster registry is invalid: \(error)")
  }
}()

/// Stops when `type` decodes differently (or fails differently) from the payload's checked
/// bytes and from its value.
func expectSameEvent(_ type: String, _ bytes: JSONPayload, _ value: JSONValue, _ input: String) {
  let fromBytes = Result { () throws(PayloadError) in try JournalEvent(type: type, payload: bytes) }
  let fromValue = Result { () throws(PayloadError) in try JournalEvent(type: type, payload: value) }
  guard fromBytes == fromValue else {
    fatalError("'\(type)' decodes differently from bytes and from its value: \(input)")
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloadDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let input = UnsafeRawBufferPointer(start: data, count: size)
  let parsed = try? JSONValue.parse(input)
  // Checked bytes hold one value with nothing around it: compare on inputs without whitespace
  // at either end.
  let whitespace: [UInt8] = [0x20, 0x0A, 0x0D, 0x09]
  let trimmed =
    input.first.map { !whitespace.contains($0) } == true
    && input.last.map { !whitespace.contains($0) } == true
  if trimmed {
    let checked = try? JSONPayload(checking: Array(input))
    guard (checked == nil) == (parsed == nil) else {
      fatalError("checked bytes and the parser disagree on \(Array(input))")
    }
    if let checked, let parsed, checked.value != parsed {
      fatalError("checked bytes read back as another value: \(Array(input))")
    }
    // The input itself as a payload of every type: from its bytes and from its value.
    if let checked, let parsed {
      for type in JournalEvent.currentVersions.keys.sorted() {
        expectSameEvent(type, checked, parsed, "\(Array(input))")
      }
    }
  }
  guard let json = parsed else { return 0 }
  _ = try? json.serialized()
  if let payload = json["data"], let type = json["type"]?.stringValue,
    let bytes = try? payload.serialized(), let checked = try? JSONPayload(checking: bytes)
  {
    expectSameEvent(type, checked, payload, "\(payload)")
  }
  guard
    let type = json["type"]?.stringValue,
    let version = json["v"]?.intValue,
    let payload = json["data"],
    let version = Int(exactly: version)
  else { return 0 }
  guard let events = try? upcaster.upcast(type: type, version: version, payload: payload) else {
    return 0
  }
  for event in events {
    guard let decoded = try? JournalEvent(type: event.type, payload: event.payload) else {
      continue
    }
    let encoded = decoded.payload
    guard let again = try? JournalEvent(type: decoded.typeName, payload: encoded) else {
      fatalError("event '\(decoded.typeName)' does not decode from its own payload \(encoded)")
    }
    guard again.payload == encoded else {
      fatalError(
        "event '\(decoded.typeName)' payload is not stable: \(encoded) vs \(again.payload)"
      )
    }
  }
  return 0
}
