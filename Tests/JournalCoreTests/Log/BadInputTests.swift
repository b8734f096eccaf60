import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hostile and broken files in a journal folder: each one is refused or reported, never a
/// crash, and the journal stays byte for byte as it was (see docs/BadInput.md).
@Suite struct BadInputTests {}

/// A record line for `device` with a good checksum around `payload` (raw JSON text).
private func sealedLine(device: String = "phone", sequence: Int = 1, payload: String) -> [UInt8] {
  var line = Array(
    (#"{"id":"01HQ7Z4X8K9M2N3P4Q5R6S7T8V","dev":"\#(device)","seq":\#(sequence),"#
      + #""ms":1700000000000,"lc":0,"stream":"workout:x","type":"set.completed","v":1,"#
      + #""data":\#(payload),"prev":"\#(String(repeating: "0", count: 64))""#).utf8
  )
  let crc = line.withUnsafeBytes { CRC32C.checksum($0) }
  line += checksumPrefix + Array(hex8(crc).utf8) + Array(#""}"#.utf8) + [0x0A]
  return line
}

// MARK: - Resource limits

extension BadInputTests {
  @Test func aLineLongerThanTheLimitIsCorruptionAtItsLine() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 3)
    var bytes = try contents(log, "devices/phone/000001.jsonl")
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    // Line 2 grows past 1 MiB (its checksum no longer matters: it is refused unread).
    let long =
      Array(lines[1].dropLast(20)) + Array(repeating: UInt8(ascii: " "), count: 1 << 20)
      + Array(lines[1].suffix(20))
    bytes = Array(lines[0]) + [0x0A] + long + [0x0A] + Array(lines[2]) + [0x0A]
    try overwrite(log, "devices/phone/000001.jsonl", bytes)

    let history = try expectUnchanged(log.url) { try log.readDevice("phone") }
    #expect(history.records.count == 1)
    let error = try #require(history.stoppedBy)
    #expect(error.kind == .corruptRecord)
    #expect(error.file == "devices/phone/000001.jsonl")
    #expect(error.line == 2)
    #expect(error.message.contains("longer than a record may be (1048576 bytes)"))
    let report = try expectUnchanged(log.url) { try log.verify() }
    #expect(
      report.problems.map(\.description).contains {
        $0.hasPrefix("devices/phone/000001.jsonl:2: line of 1048") && $0.hasSuffix("not decoded")
      }
    )
  }

  @Test func aSegmentOf100MegabytesIsRefusedUnread() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 2)
    // One 100 MB line with no newline, as a sparse file: nothing is read into memory.
    let path = log.url.appendingPathComponent("devices/phone/000002.jsonl").path
    let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
    #expect(ftruncate(descriptor, 100_000_000) == 0)
    close(descriptor)

    let history = try expectUnchanged(log.url) { try log.readDevice("phone") }
    #expect(history.records.count == 2)
    #expect(history.stoppedBy?.kind == .refusedFile)
    #expect(
      history.stoppedBy?.description
        == "devices/phone/000002.jsonl: error: file of 100000000 bytes is larger than a "
        + "segment can be (64 MiB); not read"
    )
    let report = try expectUnchanged(log.url) { try log.verify() }
    #expect(report.problems.map(\.file) == ["devices/phone/000002.jsonl"])
    try expectUnchanged(log.url) {
      expectJournalError(.refusedFile, file: "devices/phone/000002.jsonl") {
        _ = try log.openWriter(device: "phone", options: testOptions())
      }
    }
  }

  @Test func aTornTailLongerThanALineIsSetAsideWhole() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 2)
    let tail = Array(repeating: UInt8(ascii: "x"), count: (1 << 20) + 10)
    let good = try contents(log, "devices/phone/000001.jsonl")
    try overwrite(log, "devices/phone/000001.jsonl", good + tail)
    let writer = try log.openWriter(device: "phone", options: testOptions())
    writer.close()
    #expect(writer.recoveryNotices.map(\.byteCount) == [tail.count])
    #expect(try contents(log, "devices/phone/000001.jsonl.torn") == tail)
    #expect(try log.readDevice("phone").records.count == 2)
  }

  @Test func aWriterRefusesAnEventLongerThanALine() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 1)
    let writer = try log.openWriter(device: "phone", options: testOptions())
    defer { writer.close() }
    let huge = NewEvent(
      stream: "workout:x",
      type: "set.completed",
      version: 1,
      payload: ["note": .string(String(repeating: "a", count: 1 << 20))]
    )
    try expectUnchanged(log.url) {
      expectJournalError(.invalidEvent) { try writer.append(huge) }
    }
    #expect(try writer.append(sampleEvent(2)).sequence == 2)
  }

  @Test func deeplyNestedPayloadIsCorruptionNotACrash() throws {
    let log = try makeLog()
    let depth = 100_000
    let payload = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    try FileManager.default.createDirectory(
      at: log.url.appendingPathComponent("devices/phone"),
      withIntermediateDirectories: true
    )
    try overwrite(
      log,
      "devices/phone/000001.jsonl",
      sealedLine(payload: "{\"a\":\(payload)}") + sealedLine(sequence: 2, payload: "{}")
    )
    let history = try expectUnchanged(log.url) { try log.readDevice("phone") }
    #expect(history.records.isEmpty)
    #expect(history.stoppedBy?.line == 1)
    #expect(history.stoppedBy?.message.contains("nesting deeper than 512 levels") == true)
  }

  @Test func aNumberBeyondDoubleIsCorruptionAndAHugeOneIsKept() throws {
    let log = try makeLog()
    try FileManager.default.createDirectory(
      at: log.url.appendingPathComponent("devices/phone"),
      withIntermediateDirectories: true
    )
    try overwrite(
      log,
      "devices/phone/000001.jsonl",
      sealedLine(payload: #"{"weight":1e308}"#)
        + sealedLine(sequence: 2, payload: #"{"weight":1e400}"#)
        + sealedLine(sequence: 3, payload: "{}")
    )
    let history = try expectUnchanged(log.url) { try log.readDevice("phone") }
    // 1e308 is a number; whether it is a sensible weight is the fold's business.
    #expect(history.records.first?.payload["weight"] == .double(1e308))
    #expect(history.stoppedBy?.line == 2)
    #expect(history.stoppedBy?.message.contains("malformed JSON") == true)
  }

  @Test func manySmallEventsReadBackInBoundedSegments() throws {
    let log = try makeLog()
    let count = 100_000
    let writer = try log.openWriter(device: "phone", options: testOptions())
    for start in stride(from: 0, to: count, by: 5_000) {
      try writer.append(
        (start..<start + 5_000).map {
          NewEvent(stream: "s", type: "t", version: 1, payload: ["n": .int(Int64($0))])
        }
      )
    }
    writer.close()
    let history = try log.readHistory()
    #expect(history.records.count == count)
    #expect(history.errors.isEmpty)
    let listing = try DeviceFolderListing(folder: log.deviceFolder("phone"))
    for segment in listing.segments {
      let size = try contents(log, "devices/phone/\(segment.name)").count
      #expect(size <= Segment.maximumFileSize)
    }
  }
}

// MARK: - Files that are not what they should be

extension BadInputTests {
  @Test func aSegmentReplacedByAFolderIsRefused() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 30, options: testOptions(segmentSizeLimit: 1_000))
    let segment = log.url.appendingPathComponent("devices/phone/000002.jsonl")
    try FileManager.default.removeItem(at: segment)
    try FileManager.default.createDirectory(at: segment, withIntermediateDirectories: false)

    let history = try expectUnchanged(log.url) { try log.readDevice("phone") }
    #expect(history.records.count > 0)
    #expect(
      history.stoppedBy?.description
        == "devices/phone/000002.jsonl: error: is a folder, not a file; not read"
    )
    let report = try expectUnchanged(log.url) { try log.verify() }
    #expect(
      report.problems.map(\.description).contains(
        "devices/phone/000002.jsonl: is a folder, not a file; not read"
      )
    )
  }

  @Test func aSegmentThatIsASymbolicLinkIsNotFollowed() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 2)
    let outside = try makeTemporaryDirectory("outside")
    try Data(sealedLine(payload: "{}")).write(to: outside.appendingPathComponent("elsewhere.jsonl"))
    try FileManager.default.createSymbolicLink(
      atPath: log.url.appendingPathComponent("devices/phone/000002.jsonl").path,
      withDestinationPath: outside.appendingPathComponent("elsewhere.jsonl").path
    )
    let before = try JournalFingerprint(of: outside)
    let history = try expectUnchanged(log.url) { try log.readDevice("phone") }
    #expect(history.records.count == 2)
    #expect(history.stoppedBy?.kind == .refusedFile)
    #expect(
      history.stoppedBy?.message == "is a symbolic link, which a journal never follows; not read"
    )
    try expectUnchanged(log.url) {
      expectJournalError(.refusedFile, file: "devices/phone/000002.jsonl") {
        _ = try log.openWriter(device: "phone", options: testOptions())
      }
    }
    #expect(try log.verify().problems.map(\.file) == ["devices/phone/000002.jsonl"])
    try JournalFingerprint(of: outside).expectUnchanged(from: before)
  }

  @Test func aDeviceFolderThatIsASymbolicLinkIsNotFollowed() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 2)
    let outside = try makeTemporaryDirectory("outside")
    try FileManager.default.createSymbolicLink(
      atPath: log.url.appendingPathComponent("devices/watch").path,
      withDestinationPath: outside.path
    )
    let before = try JournalFingerprint(of: outside)
    let history = try expectUnchanged(log.url) { try log.readHistory() }
    #expect(history.records.count == 2)
    #expect(
      history.errors.map(\.description) == [
        "devices/watch: error: device folder is a symbolic link, which a journal never follows; "
          + "not used"
      ]
    )
    try expectUnchanged(log.url) {
      expectJournalError(.refusedFile, file: "devices/watch") {
        _ = try log.openWriter(device: "watch", options: testOptions())
      }
    }
    #expect(try log.verify().problems.map(\.file) == ["devices/watch"])
    try JournalFingerprint(of: outside).expectUnchanged(from: before)
  }

  @Test func aLockFileThatIsASymbolicLinkIsNotFollowed() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 1)
    let outside = try makeTemporaryDirectory("outside")
    let lock = log.url.appendingPathComponent("devices/phone/.lock")
    try FileManager.default.removeItem(at: lock)
    try FileManager.default.createSymbolicLink(
      atPath: lock.path,
      withDestinationPath: outside.appendingPathComponent("planted").path
    )
    try expectUnchanged(log.url) {
      expectJournalError(.io) { _ = try log.openWriter(device: "phone", options: testOptions()) }
    }
    #expect(!FileManager.default.fileExists(atPath: outside.appendingPathComponent("planted").path))
  }

  @Test func anUnreadableSegmentIsAClearError() throws {
    guard !permissionsAreIgnored else {
      // Running as root: chmod 000 does not stop reading, so there is nothing to test.
      print("note: skipped, running as root (permissions are not enforced)")
      return
    }
    let log = try makeLog()
    try fill(log, device: "phone", count: 2)
    let path = log.url.appendingPathComponent("devices/phone/000001.jsonl").path
    #expect(chmod(path, 0) == 0)
    defer { chmod(path, 0o600) }
    try expectUnchanged(log.url) {
      expectJournalError(.io, file: "devices/phone/000001.jsonl") {
        _ = try log.readDevice("phone")
      }
    }
  }
}

// MARK: - Permissions

extension BadInputTests {
  @Test func journalFilesArePrivateToTheirOwner() throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 30, options: testOptions(segmentSizeLimit: 1_000))
    func mode(_ relative: String) -> mode_t {
      var info = stat()
      stat(log.url.appendingPathComponent(relative).path, &info)
      return info.st_mode & 0o777
    }
    #expect(mode("journal.json") == 0o600)
    #expect(mode("devices") == 0o700)
    #expect(mode("devices/phone") == 0o700)
    #expect(mode("devices/phone/.lock") == 0o600)
    #expect(mode("devices/phone/000001.jsonl") == 0o600)
    #expect(mode("devices/phone/000002.jsonl") == 0o600)
  }

  @Test(arguments: ["", "devices"])
  func aFolderOthersCanWriteIsRefusedForWriting(_ folder: String) throws {
    let log = try makeLog()
    try fill(log, device: "phone", count: 1)
    let path = folder.isEmpty ? log.url.path : log.url.appendingPathComponent(folder).path
    #expect(chmod(path, 0o777) == 0)
    defer { chmod(path, 0o700) }
    do {
      _ = try expectUnchanged(log.url) {
        try log.openWriter(device: "phone", options: testOptions())
      }
      Issue.record("expected the writer to be refused")
    } catch let error as JournalError {
      #expect(error.kind == .unsafePermissions)
      #expect(error.message.contains("can be written by others than its owner (mode 777)"))
      #expect(error.message.hasSuffix("Fix it with: chmod 700 '\(path)'"))
    }
    // Reading is still allowed.
    #expect(try log.readHistory().records.count == 1)
  }
}

// MARK: - Sync artefacts

extension BadInputTests {
  static let segmentCopies = [
    "000001 2.jsonl": "duplicate of '000001.jsonl' left by a file-sync service; not read",
    "000001 (1).jsonl": "duplicate of '000001.jsonl' left by a file-sync service; not read",
    "000001 (conflicted copy 2026-01-01).jsonl":
      "Dropbox conflicted copy of '000001.jsonl'; not read",
    "000001 (Lifter's MacBook's conflicted copy 2026-01-01).jsonl":
      "Dropbox conflicted copy of '000001.jsonl'; not read",
    "000001.sync-conflict-20260101-120000-ABCDEF.jsonl":
      "Syncthing conflict copy of '000001.jsonl'; not read",
    ".000002.jsonl.icloud":
      "iCloud Drive placeholder of '000002.jsonl', not downloaded yet; not read",
    "~syncthing~000002.jsonl.tmp": "Syncthing download of '000002.jsonl' in progress; not read",
    ".syncthing.000002.jsonl.tmp": "Syncthing download of '000002.jsonl' in progress; not read",
  ]

  @Test func copiesLeftBySyncServicesAreNotedAndNeverFoldedTwice() throws {
    let log = try makeLog()
    let records = try fill(log, device: "phone", count: 5)
    let segment = try contents(log, "devices/phone/000001.jsonl")
    for name in Self.segmentCopies.keys {
      // A copy with one more record than the original, as a conflicting edit would leave.
      try overwrite(log, "devices/phone/\(name)", segment + sealedLine(sequence: 6, payload: "{}"))
    }
    // A copy of a whole device folder.
    try FileManager.default.copyItem(
      at: log.deviceFolder("phone"),
      to: log.url.appendingPathComponent("devices/phone 2")
    )

    let history = try expectUnchanged(log.url) { try log.readHistory() }
    #expect(history.records.map(\.id) == records.map(\.id))
    #expect(history.duplicates.isEmpty)
    #expect(history.errors.isEmpty)
    // A conflict copy or duplicate is read as a branch when it continues the device's
    // chain; this one's last record does not (docs/OnDiskFormat.md, "Forks").
    var expected = Self.segmentCopies.map { name, note in
      guard SyncArtefact.segmentVersionOriginal(name) != nil else {
        return "devices/phone/\(name): note: \(note)"
      }
      return "devices/phone/\(name): note: \(note.dropLast("; not read".count)) is not a branch "
        + "of 'phone' (line 6 does not continue line 5, the last it shares with the segment); "
        + "not read"
    }
    expected.append(
      "devices/phone 2: note: duplicate of 'phone' left by a file-sync service; not read"
    )
    #expect(Set(history.notices.map(\.description)) == Set(expected))
    #expect(history.notices.allSatisfy { $0.kind == .syncArtefactIgnored })

    let report = try expectUnchanged(log.url) { try log.verify() }
    #expect(report.isClean, "\(report.problems)")
    #expect(report.recordCount == 5)
    #expect(
      Set(report.notes.map(\.description))
        == Set(expected.map { $0.replacingOccurrences(of: ": note:", with: ":") })
    )
  }

  @Test func otherNamesAreNotSyncArtefacts() {
    for name in [
      "000001 .jsonl", "000001 x.jsonl", "000001 (x).jsonl", "0001 2.jsonl", "000001 2.json",
      ".000001.json.icloud", "notes.txt", "000001.sync-conflict.txt", "~syncthing~x.tmp",
    ] {
      #expect(SyncArtefact.describeSegmentCopy(name) == nil, "\(name)")
    }
    #expect(SyncArtefact.describeDeviceCopy("Bad Name") == nil)
    #expect(SyncArtefact.describeDeviceCopy("phone (2)") != nil)
  }

  @Test func aDeviceFolderThatArrivesBeforeItsEarlierSegments() throws {
    let log = try makeLog()
    let records = try fill(
      log,
      device: "phone",
      count: 30,
      options: testOptions(segmentSizeLimit: 1_000)
    )
    let first = try contents(log, "devices/phone/000001.jsonl")
    let second = try contents(log, "devices/phone/000002.jsonl")
    try FileManager.default.removeItem(
      at: log.url.appendingPathComponent("devices/phone/000001.jsonl")
    )
    try FileManager.default.removeItem(
      at: log.url.appendingPathComponent("devices/phone/000002.jsonl")
    )

    // Only the later segments are here: nothing is read yet, and it is not corruption.
    var history = try expectUnchanged(log.url) { try log.readHistory() }
    #expect(history.records.isEmpty)
    #expect(history.errors.isEmpty)
    #expect(history.notices.map(\.kind) == [.segmentNotArrived])
    #expect(
      history.notices.first?.description.hasPrefix(
        "devices/phone/000001.jsonl: note: segment not here (not synced yet?); 000003.jsonl"
      ) == true
    )
    let report = try expectUnchanged(log.url) { try log.verify() }
    #expect(report.isClean, "\(report.problems)")
    #expect(report.notes.map(\.file) == ["devices/phone/000003.jsonl"])

    // Segment 1 arrives: the device is read up to the next gap.
    try overwrite(log, "devices/phone/000001.jsonl", first)
    history = try log.readHistory()
    #expect(history.records.map(\.id) == records.prefix(history.records.count).map(\.id))
    #expect(history.notices.map(\.file) == ["devices/phone/000002.jsonl"])
    // Segment 2 arrives: everything, once.
    try overwrite(log, "devices/phone/000002.jsonl", second)
    history = try log.readHistory()
    #expect(history.records.map(\.id) == records.map(\.id))
    #expect(history.notices.isEmpty)
    #expect(try log.verify().notes.isEmpty)
  }
}
