import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a writer's next append does about the device's forks (see ``Fork``).
struct Heal: Sendable {
  /// Every branch found when the writer opened.
  var forks: [Fork] = []
  /// Branch files to write before the append: name in the device folder, and bytes.
  var files: [(name: String, bytes: [UInt8])] = []
  /// The branch heads the append's first record names in `merge`, in order.
  var heads: [SHA256Digest] = []
  /// The latest clock reading of a branch record: the writer's records sort after it.
  var latest: HybridTime?
}

/// The note a machine keeps of what it last wrote as a device, to tell a second machine
/// writing as the same device (`.journal-state/writers/<device>`; local, never synced).
///
/// Two lines, `previous <64 hex>` and `next <64 hex>`: the hash of the device's last record
/// before this machine's last append, and after it. It is written before the append's
/// records, so whether the append's bytes reached the disk or not, the device's last record
/// is one of the two.
struct WriterNote: Equatable {
  /// The folder of the notes inside the journal folder.
  static let folder = ".journal-state/writers"

  var previous: SHA256Digest
  var next: SHA256Digest

  /// The note's bytes, always ``length`` of them.
  var bytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Self.length)
    bytes.append(contentsOf: Self.previousLabel)
    previous.appendHex(to: &bytes)
    bytes.append(contentsOf: Self.nextLabel)
    next.appendHex(to: &bytes)
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }

  private static let previousLabel = Array("previous ".utf8)
  private static let nextLabel = Array("\nnext ".utf8)
  /// The length of every note.
  static let length = previousLabel.count + 64 + nextLabel.count + 64 + 1

  init(previous: SHA256Digest, next: SHA256Digest) {
    self.previous = previous
    self.next = next
  }

  /// Reads a note; nil when the bytes are not one.
  init?(_ bytes: [UInt8]) {
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    guard lines.count == 2, lines[0].hasPrefix("previous "), lines[1].hasPrefix("next "),
      let previous = SHA256Digest(hexString: lines[0].dropFirst("previous ".count)),
      let next = SHA256Digest(hexString: lines[1].dropFirst("next ".count))
    else { return nil }
    self.init(previous: previous, next: next)
  }
}

extension DeviceWriter {
  /// Refuses to open a device whose last record is not one this machine wrote last, unless
  /// ``Options/adopt``.
  ///
  /// A machine with no note for the device (it never wrote as it here, or the journal
  /// predates notes) writes one with its first append. A device with no record is never
  /// refused.
  static func checkWriterNote(
    log: EventLog,
    device: String,
    state: RecoveredState,
    options: Options
  ) throws {
    guard !options.adopt, options.durability.syncs, let position = state.lastPosition else {
      return
    }
    let path = log.url.appendingPathComponent(WriterNote.folder).appendingPathComponent(device)
    let bytes: [UInt8]
    do {
      bytes = try log.fileIO.readFile(path.path)
    } catch {
      guard error.code == ENOENT else { throw error.journalError() }
      return
    }
    guard let note = WriterNote(bytes), position.hash != note.previous,
      position.hash != note.next
    else { return }
    let last = log.relativePath(device: device, file: Segment.fileName(position.segment))
    throw JournalError(
      .secondWriter,
      file: last,
      line: position.line,
      "device '\(device)' holds records this machine did not write: another machine may be "
        + "writing as '\(device)' (or this one was restored from a backup). Nothing was "
        + "written. Write as another device, or adopt this one to continue its history "
        + "here (--adopt); either way nothing is lost"
    )
  }

  /// Finds the device's forks and what the next append must do to heal them.
  static func planHeal(log: EventLog, device: String) throws -> Heal {
    let listing = try DeviceFolderListing(folder: log.deviceFolder(device))
    let branches = try log.findBranches(device: device, listing: listing)
    var heal = Heal(forks: branches.forks, latest: branches.records.last?.time)
    guard !branches.forks.isEmpty else { return heal }
    var named: Set<SHA256Digest> = []
    // A branch file is named after a segment the device's segments had when the heal wrote
    // it: the record that names its head is in that segment or a later one.
    if let first = branches.forks.filter(\.isBranchFile).compactMap({
      Segment.branchSegment(of: URL(fileURLWithPath: $0.file).lastPathComponent)
    }).min() {
      named = try log.mergedHeads(device: device, segments: listing.segments, from: first)
    }
    var names: Set<String> = []
    for fork in branches.forks {
      if !fork.isHeld, let lines = branches.lines[fork.file] {
        let name = Segment.branchFileName(segment: lines.segment, head: fork.head)
        if names.insert(name).inserted { heal.files.append((name, lines.bytes)) }
      }
      if !fork.isHeld || (fork.isBranchFile && !named.contains(fork.head)) {
        if !heal.heads.contains(fork.head) { heal.heads.append(fork.head) }
      }
    }
    return heal
  }

  /// Writes the branch files the heal needs, each flushed with the folder before the
  /// records that name them; a file already there with the same bytes is kept, one with
  /// other bytes (cut short by a crash) is written again.
  func writeBranchFiles() throws {
    for file in heal.files {
      let path = "\(folder)/\(file.name)"
      let relative = log.relativePath(device: device, file: file.name)
      do {
        do {
          if try fileIO.readFile(path) == file.bytes { continue }
          unlink(path)
        } catch  where error.code == ENOENT {}
        try fileIO.createFile(path, bytes: file.bytes, durable: options.durability.syncs)
        if options.durability.syncs { try fileIO.syncDirectory(folder) }
      } catch {
        throw error.journalError(file: relative)
      }
    }
    heal.files = []
  }

  /// Notes what this machine is about to write as the device, over the note in place.
  ///
  /// Every note has the same length, so writing over it leaves no stale bytes; a rename
  /// over it would cost a flush at every append on ext4, and the note stays open between
  /// appends. It is not flushed: one cut short by a crash does not read, and a note that
  /// does not read refuses nothing (``checkWriterNote(log:device:state:options:)``).
  func writeNote(previous: SHA256Digest, next: SHA256Digest) throws {
    let bytes = WriterNote(previous: previous, next: next).bytes
    do throws(SystemFailure) {
      let descriptor: Int32
      if let noteDescriptor {
        descriptor = noteDescriptor
      } else {
        descriptor = try openNote(length: bytes.count)
      }
      try fileIO.writeAll(descriptor, bytes, at: 0, path: notePath)
    } catch {
      if let noteDescriptor { fileIO.close(noteDescriptor) }
      noteDescriptor = nil
      throw error.journalError(file: "\(WriterNote.folder)/\(device)")
    }
  }

  /// Opens the note (creating it and its folders when missing) and keeps it open; a note
  /// longer than `length` (of another layout) is cut to it.
  private func openNote(length: Int) throws(SystemFailure) -> Int32 {
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC
    let descriptor: Int32
    do {
      descriptor = try fileIO.open(notePath, flags: flags, mode: 0o600)
    } catch  where error.code == ENOENT {
      let notes = log.url.appendingPathComponent(WriterNote.folder).path
      _ = try fileIO.makeDirectory(
        log.url.appendingPathComponent(".journal-state").path,
        mode: 0o700
      )
      _ = try fileIO.makeDirectory(notes, mode: 0o700)
      descriptor = try fileIO.open(notePath, flags: flags, mode: 0o600)
    }
    noteDescriptor = descriptor
    if try fileIO.size(descriptor, path: notePath) > length {
      try fileIO.truncate(descriptor, to: Int64(length), path: notePath)
    }
    return descriptor
  }
}

extension EventLog {
  /// The branch heads named in `merge` by the records of `device`'s segments from number
  /// `first` on.
  func mergedHeads(
    device: String,
    segments: [(number: Int, name: String)],
    from first: Int
  ) throws(JournalError) -> Set<SHA256Digest> {
    var heads: Set<SHA256Digest> = []
    for segment in segments where segment.number >= first {
      let bytes: [UInt8]
      do {
        bytes = try readSegmentFile(device: device, name: segment.name)
      } catch {
        guard error.kind == .refusedFile else { throw error }
        continue
      }
      bytes.withUnsafeBytes { buffer in
        for line in segmentLines(buffer) where line.isTerminated {
          let text = UnsafeRawBufferPointer(rebasing: buffer[line.range])
          if case .success(let named)? = EventRecord.mergedHeads(line: text),
            (try? EventRecord.verifyChecksum(text)) != nil
          {
            heads.formUnion(named)
          }
        }
      }
    }
    return heads
  }
}
