@testable import JournalCore

/// `line`, one record, with a `crc` suffix that matches it.
///
/// A trailing newline is dropped; an existing `,"crc":"xxxxxxxx"}` is replaced, otherwise one
/// is appended. Inputs sealed so are read past their checksum, into the envelope decoder
/// behind it.
func sealedRecordLine(_ line: [UInt8]) -> [UInt8] {
  var body = line
  if body.last == 0x0A { body.removeLast() }
  if body.count >= checksumSuffixLength,
    Array(body[(body.count - checksumSuffixLength)...].prefix(checksumPrefix.count))
      == checksumPrefix
  {
    body.removeLast(checksumSuffixLength)
  }
  let crc = body.withUnsafeBytes { CRC32C.checksum($0) }
  body.append(contentsOf: checksumPrefix)
  body.append(contentsOf: hex8(crc).utf8)
  body.append(contentsOf: #""}"#.utf8)
  return body
}
