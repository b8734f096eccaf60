// libFuzzer entry point: JSON → `Upcaster.upcast` → `JournalEvent(type:payload:)`.
//
// The input is a JSON object carrying `type`, `v` and `data`, like a record line (so record
// lines from a journal are good seeds; other keys are ignored). Any JSON at all goes through
// the parser first. An event that decodes must decode again from the payload it re-encodes to.

import JournalCore
import JournalProjections

let upcaster: Upcaster = {
  do {
    return try EventUpcasters.makeUpcaster()
  } catch {
    fatalError("the upcaster registry is invalid: \(error)")
  }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloadDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let input = UnsafeRawBufferPointer(start: data, count: size)
  guard let json = try? JSONValue.parse(input) else { return 0 }
  _ = try? json.serialized()
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
