// Shared by the fuzz targets (Scripts/fuzz.sh compiles this folder with each): inputs made to
// pass a file's own checksum, so that the parser behind it is reached.

/// `bytes` without a last `checksum …` line, ending with a newline, then a `checksum` line
/// of `digest` over them.
func sealed(_ bytes: [UInt8], digest: ([UInt8]) -> String) -> [UInt8] {
  var body = bytes
  let marker = Array("checksum ".utf8)
  if body.last == UInt8(ascii: "\n") { body.removeLast() }
  let lineStart = (body.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
  if body[lineStart...].starts(with: marker) { body.removeSubrange(lineStart...) }
  if let last = body.last, last != UInt8(ascii: "\n") { body.append(UInt8(ascii: "\n")) }
  return body + Array("checksum \(digest(body))\n".utf8)
}
