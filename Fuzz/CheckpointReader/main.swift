// libFuzzer entry point: the rebuild checkpoint's files, as a damaged or hostile output folder
// could hold them. Their checksums guard against accident only: whoever can write the folder
// can write a file with a matching checksum, so every reader behind them must refuse bad bytes
// with an error, never a crash.
//
// Each input is read as a head (as given, and sealed with its own checksum so that the parser
// behind the checksum is reached), as an index bucket, as an index page, and as a split's and
// a workout's stream file. Whatever reads must write back to bytes that read the same.

import JournalCore

@testable import JournalProjections

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCheckpointReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let input = Array(UnsafeRawBufferPointer(start: data, count: size))

  _ = Checkpoint.decodeHead(input)
  if case .success(let head) = Checkpoint.decodeHead(sealed(input, digest: Checkpoint.digest)) {
    guard case .success(let again) = Checkpoint.decodeHead(head.encodedHead()), again == head
    else { fatalError("a head does not read back as itself: \(input)") }
  }

  if let entries = Checkpoint.decodeBucket(input) {
    guard Checkpoint.decodeBucket(Checkpoint.encodeBucket(entries)) == entries else {
      fatalError("a bucket does not read back as itself: \(input)")
    }
  }
  if let buckets = Checkpoint.decodePage(input) {
    guard Checkpoint.decodePage(Checkpoint.encodePage(buckets)) == buckets else {
      fatalError("a page does not read back as itself: \(input)")
    }
  }

  if let workout = try? Checkpoint.decodeState(WorkoutState.self, from: input),
    let bytes = try? Checkpoint.encodeState(workout)
  {
    guard (try? Checkpoint.decodeState(WorkoutState.self, from: bytes)) == workout else {
      fatalError("a workout stream file does not read back as itself: \(input)")
    }
  }
  if let split = try? Checkpoint.decodeState(SplitState.self, from: input),
    let bytes = try? Checkpoint.encodeState(split)
  {
    guard (try? Checkpoint.decodeState(SplitState.self, from: bytes)) == split else {
      fatalError("a split stream file does not read back as itself: \(input)")
    }
  }
  return 0
}
