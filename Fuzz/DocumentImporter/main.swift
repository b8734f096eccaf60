// libFuzzer entry point: bytes → strict JSON → document upgrade (v1…5) → document decode.
//
// The same steps the importer takes for each file of a container (`ImportPlan.read`), for a
// split and for a workout. A document that decodes must encode again.

import Foundation
import JournalCore
import JournalProjections

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocumentImporter(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let input = UnsafeRawBufferPointer(start: data, count: size)
  guard let json = try? JSONValue.parse(input) else { return 0 }
  for kind in [DocumentUpgrades.Kind.split, .workout] {
    guard let upgraded = try? DocumentUpgrades.upgrade(json, kind: kind),
      let serialized = try? upgraded.document.serialized()
    else { continue }
    let bytes = Data(serialized)
    switch kind {
    case .split:
      if let split = try? DocumentCoder.decode(SplitDocument.self, from: bytes, file: "fuzz") {
        _ = try? DocumentCoder.encode(split)
      }
      _ = try? DocumentCoder.decode(Stub<SplitDocument>.self, from: bytes, file: "fuzz")
    case .workout:
      if let workout = try? DocumentCoder.decode(WorkoutDocument.self, from: bytes, file: "fuzz") {
        _ = try? DocumentCoder.encode(workout)
      }
      _ = try? DocumentCoder.decode(Stub<WorkoutDocument>.self, from: bytes, file: "fuzz")
    }
  }
  _ = try? DocumentCoder.decode(Tombstone.self, from: Data(input), file: "fuzz")
  return 0
}
