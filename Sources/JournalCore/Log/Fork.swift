import Foundation

/// A branch of a device's history that is not in the device's segments: what a file-sync
/// service keeps when one device's files were written in two places (a phone restored from
/// a backup, two machines set up with one device name).
///
/// The service keeps the other version as a copy of the segment (`000003 2.jsonl`,
/// `000003 (conflicted copy …).jsonl`, `000003.sync-conflict-….jsonl`). The records the copy
/// shares with the segment (same lines) are the common prefix; the records after it are a
/// second branch, chained by `prev` from the last record in common. Both branches are read:
/// every event reaches the fold once, in the journal's merge order.
///
/// The device's next append heals the fork: it copies the branch into a branch file of the
/// device (`000003.branch-<16 hex>.jsonl`) and names the branch's last record in the
/// `merge` member of its first record. After that the copy holds nothing the device's files
/// lack (see `docs/OnDiskFormat.md`, "Forks").
public struct Fork: Sendable, Hashable, CustomStringConvertible {
  /// The device whose history forked.
  public var device: String
  /// The file holding the branch (a copy left by a sync service, or a branch file),
  /// relative to the journal folder.
  public var file: String
  /// The segment holding the last record both branches share, relative to the journal folder.
  public var anchorFile: String
  /// That record's 1-based line in ``anchorFile``.
  public var anchorLine: Int
  /// That record's sequence number.
  public var anchorSequence: UInt64
  /// How many records ``file`` holds after the record in common.
  public var branchCount: Int
  /// How many records the device's segments hold after the record in common.
  public var mainCount: Int
  /// The SHA-256 of the branch's last record: what a heal names in `merge`.
  package var head: SHA256Digest
  /// Whether ``file`` is a branch file a heal wrote into the device's folder.
  public var isBranchFile: Bool
  /// Whether every record of ``file`` is also in the device's own files (its segments and
  /// branch files): a copy that may be deleted without losing anything.
  public var isHeld: Bool

  /// Creates a fork description.
  package init(
    device: String,
    file: String,
    anchorFile: String,
    anchorLine: Int,
    anchorSequence: UInt64,
    branchCount: Int,
    mainCount: Int,
    head: SHA256Digest,
    isBranchFile: Bool,
    isHeld: Bool
  ) {
    self.device = device
    self.file = file
    self.anchorFile = anchorFile
    self.anchorLine = anchorLine
    self.anchorSequence = anchorSequence
    self.branchCount = branchCount
    self.mainCount = mainCount
    self.head = head
    self.isBranchFile = isBranchFile
    self.isHeld = isHeld
  }

  /// One line: `file: note: fork of device 'phone' after 000003.jsonl:12: 5 events here,
  /// 7 in its segments; both read; its next append heals it`.
  public var description: String {
    let after = "after \(anchorFile):\(anchorLine)"
    if isBranchFile {
      return "\(file): note: branch of device '\(device)' \(after) (\(branchCount) "
        + "\(Fork.events(branchCount))), healed into the device's files; read"
    }
    if isHeld {
      return "\(file): note: copy of a fork of device '\(device)' \(after), healed: the "
        + "device's files hold every record of it; it may be deleted"
    }
    return "\(file): note: fork of device '\(device)' \(after): \(branchCount) "
      + "\(Fork.events(branchCount)) here, \(mainCount) in its segments; both read; "
      + "the device's next append heals it"
  }

  static func events(_ count: Int) -> String { count == 1 ? "event" : "events" }
}

/// Every branch of one device found outside its segments, checked and gathered.
struct DeviceBranches: Sendable {
  /// One entry per copy or branch file that holds a branch, in file-name order, branch
  /// files first.
  var forks: [Fork] = []
  /// The branches' records that are not in the device's segments, each once (by the hash of
  /// its line), ordered by (clock, sequence, id): the order of the merge within a device.
  var records: [EventRecord] = []
  /// Copies that are not read: copies that hold nothing more than the segments, and copies
  /// that are not a branch (no record in common, a broken chain, another device).
  var notices: [RecoveryNotice] = []
  /// The copies read as branches (or found to hold nothing more); the listing's notice
  /// "not read" does not apply to them.
  var handled: Set<String> = []
  /// Copies read as branches whose chain breaks after they leave the segment.
  ///
  /// The file, the line of the break and why. Their records before it are read; the break is
  /// corruption.
  var broken: [(file: String, line: Int, cause: String)] = []
  /// For each copy read as a branch (by its ``Fork/file``): the segment of the record in
  /// common and the branch's lines, as a heal copies them into a branch file.
  var lines: [String: (segment: Int, bytes: [UInt8])] = [:]
}

/// A segment's bytes and lines, read once for finding branches.
private struct SegmentText {
  var bytes: [UInt8]
  var lines: [SegmentLine]

  func line(_ index: Int) -> ArraySlice<UInt8> { bytes[lines[index].range] }
}

/// The record a branch continues from: the last one both branches share.
private struct Anchor {
  /// The file holding it, relative to the journal folder.
  var file: String
  var segment: Int
  var line: Int
  var sequence: UInt64
  var hash: SHA256Digest
  var time: HybridTime
}

extension EventLog {
  /// Finds, checks and reads every branch of `device` held in a sync service's copy of one
  /// of its segments or in a branch file.
  ///
  /// A copy is a branch when it shares its first lines with the segment it copies (or, when
  /// it shares none, its first record continues the previous segment's last), and every
  /// line after them decodes, names the device, and continues the chain (`seq` + 1, `prev`,
  /// a later clock) from the record before; a torn last line is left out, as in a segment.
  /// Anything else is reported as before and not read. A branch file must continue a
  /// record of the segment its name gives (or the last of the one before).
  ///
  /// Segments after a gap are not used. Never modifies a file.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/io``.
  /// - Complexity: O(n) in the bytes of the copies, branch files and the segments they copy;
  ///   nothing is read when the device has neither.
  func findBranches(
    device: String,
    listing: DeviceFolderListing
  ) throws(JournalError) -> DeviceBranches {
    var result = DeviceBranches()
    let copies: [(name: String, segment: Int)] = listing.syncArtefacts.compactMap { artefact in
      SyncArtefact.segmentVersionOriginal(artefact.name).map { (artefact.name, $0) }
    }
    guard !copies.isEmpty || !listing.branchFiles.isEmpty else { return result }
    let readable = Set(
      (listing.gap.map { listing.segments[..<$0.after.startIndex] } ?? listing.segments[...])
        .map(\.number)
    )
    var texts: [Int: SegmentText?] = [:]
    func text(_ number: Int) throws(JournalError) -> SegmentText? {
      if let known = texts[number] { return known }
      var loaded: SegmentText?
      if readable.contains(number) {
        do {
          let bytes = try readSegmentFile(device: device, name: Segment.fileName(number))
          loaded = SegmentText(bytes: bytes, lines: bytes.withUnsafeBytes { segmentLines($0) })
        } catch {
          guard error.kind == .refusedFile else { throw error }
        }
      }
      texts[number] = loaded
      return loaded
    }
    // The records of the branch files, by hash: a copy whose records are all here is held.
    var inBranchFiles: Set<SHA256Digest> = []
    var known: Set<SHA256Digest> = []
    let sources =
      listing.branchFiles.map { (name: $0.name, segment: $0.segment, isBranchFile: true) }
      + copies.map { (name: $0.name, segment: $0.segment, isBranchFile: false) }
    var pending: [(fork: Fork, hashes: [SHA256Digest])] = []
    // The records accepted so far, as records a later branch may continue.
    var accepted: [SHA256Digest: Anchor] = [:]
    func notRead(_ name: String, _ cause: String) {
      result.notices.append(
        RecoveryNotice(
          kind: .syncArtefactIgnored,
          file: relativePath(device: device, file: name),
          line: 0,
          byteCount: 0,
          sideFile: nil,
          cause: cause
        )
      )
      result.handled.insert(name)
    }
    // A branch may continue another (a copy of a later segment continuing the copy of an
    // earlier one): sources whose record in common is not found yet are tried again while
    // others are accepted.
    var remaining = sources
    var progress = true
    while progress, !remaining.isEmpty {
      progress = false
      var later: [(name: String, segment: Int, isBranchFile: Bool)] = []
      for source in remaining {
        let relative = relativePath(device: device, file: source.name)
        let what =
          source.isBranchFile
          ? "branch file" : SyncArtefact.segmentCopyLabel(source.name) ?? "copy"
        guard let main = try text(source.segment) else {
          notRead(source.name, "\(what); not read")
          continue
        }
        let bytes: [UInt8]
        do {
          bytes = try readSegmentFile(device: device, name: source.name)
        } catch {
          guard error.kind == .refusedFile else { throw error }
          notRead(source.name, "\(what): \(error.message)")
          continue
        }
        let copy = SegmentText(bytes: bytes, lines: bytes.withUnsafeBytes { segmentLines($0) })
        // The lines both hold, then the record the rest continues from.
        var start = 0
        if !source.isBranchFile {
          while start < copy.lines.count, start < main.lines.count,
            copy.lines[start].isTerminated, main.lines[start].isTerminated,
            copy.line(start) == main.line(start)
          {
            start += 1
          }
        }
        let walk = walkBranch(copy, from: start, device: device, file: relative)
        let records = walk.records
        if let failure = walk.failure {
          // A copy whose records leave the segment's chain and then break: a branch damaged
          // after its start. Its records up to the break are read, as a segment's are up to
          // a corrupt record, and the break is corruption. Anything else is not a branch.
          let continues =
            start > 0
            && records.first.map { first in
              Self.anchor(main, index: start - 1, segment: source.segment, file: relative)?.hash
                == first.previousHash
            } == true
          guard continues, !source.isBranchFile else {
            notRead(
              source.name,
              "\(what) is not a branch of '\(device)' (line \(failure.line): \(failure.cause)); "
                + "not read"
            )
            continue
          }
          result.broken.append((relative, failure.line, failure.cause))
        }
        guard let first = records.first else {
          notRead(
            source.name,
            source.isBranchFile
              ? "branch file with no record; not read"
              : "\(what) holds no record the device's segments lack; not read"
          )
          continue
        }
        let anchor: Anchor?
        if start > 0 {
          anchor = Self.anchor(
            main,
            index: start - 1,
            segment: source.segment,
            file: relativePath(device: device, file: Segment.fileName(source.segment))
          )
        } else if let found = accepted[first.previousHash] {
          anchor = found
        } else {
          // No line in common: the branch continues a record of the segment (a branch file),
          // or the last record of the segment before (a copy of a segment both started).
          var candidates: [(SegmentText, Int, Int)] = []
          if source.isBranchFile {
            candidates += main.lines.indices.reversed().map { (main, source.segment, $0) }
          }
          if source.segment > 1, let before = try text(source.segment - 1),
            let last = before.lines.indices.last
          {
            candidates.append((before, source.segment - 1, last))
          }
          anchor = candidates.lazy.compactMap { candidate in
            Self.anchor(
              candidate.0,
              index: candidate.2,
              segment: candidate.1,
              file: relativePath(device: device, file: Segment.fileName(candidate.1))
            )
          }.first { $0.hash == first.previousHash && $0.sequence + 1 == first.sequence }
        }
        guard let anchor, anchor.hash == first.previousHash,
          anchor.sequence + 1 == first.sequence, anchor.time < first.time
        else {
          if start > 0 {
            notRead(
              source.name,
              "\(what) is not a branch of '\(device)' (line \(start + 1) does not continue line "
                + "\(start), the last it shares with the segment); not read"
            )
          } else {
            later.append(source)
          }
          continue
        }
        progress = true
        result.handled.insert(source.name)
        if !source.isBranchFile, let last = records.last?.location.line {
          let lower = copy.lines[start].range.lowerBound
          let upper = copy.lines[last - 1].range.upperBound + 1
          result.lines[relative] = (source.segment, Array(copy.bytes[lower..<upper]))
        }
        var hashes: [SHA256Digest] = []
        for record in records {
          let hash = record.hash ?? .zero
          hashes.append(hash)
          if source.isBranchFile { inBranchFiles.insert(hash) }
          if known.insert(hash).inserted { result.records.append(record) }
          accepted[hash] = Anchor(
            file: relative,
            segment: source.segment,
            line: record.location.line,
            sequence: record.sequence,
            hash: hash,
            time: record.time
          )
        }
        pending.append(
          (
            Fork(
              device: device,
              file: relative,
              anchorFile: anchor.file,
              anchorLine: anchor.line,
              anchorSequence: anchor.sequence,
              branchCount: records.count,
              mainCount: 0,
              head: hashes.last ?? .zero,
              isBranchFile: source.isBranchFile,
              isHeld: source.isBranchFile
            ),
            hashes
          )
        )
      }
      remaining = later
    }
    for source in remaining {
      let what =
        source.isBranchFile ? "branch file" : SyncArtefact.segmentCopyLabel(source.name) ?? "copy"
      notRead(
        source.name,
        "\(what) is not a branch of '\(device)' (no record in common with its segments); not read"
      )
    }
    let lastSequence = try lastSequenceOfSegments(
      listing.segments.filter { readable.contains($0.number) },
      text: text
    )
    result.forks = pending.map { entry in
      var fork = entry.fork
      fork.mainCount = Int(max(0, Int64(lastSequence) - Int64(fork.anchorSequence)))
      if !fork.isBranchFile { fork.isHeld = entry.hashes.allSatisfy(inBranchFiles.contains) }
      return fork
    }
    result.records.sort(by: Self.precedesWithinDevice)
    return result
  }

  /// The merge order of two records of one device: by clock reading, then sequence, then id.
  ///
  /// Two branches of a fork may share a clock reading: the order does not depend on which
  /// branch the sync service named the original.
  static func precedesWithinDevice(_ lhs: EventRecord, _ rhs: EventRecord) -> Bool {
    if lhs.time != rhs.time { return lhs.time < rhs.time }
    if lhs.sequence != rhs.sequence { return lhs.sequence < rhs.sequence }
    return lhs.id < rhs.id
  }

  /// Decodes the lines of `text` from `start` as a chain: each decodes (a torn last line is
  /// left out), names `device`, and continues the one before it.
  ///
  /// - Returns: the records of the chain, and the line that breaks it, if one does.
  private func walkBranch(
    _ text: SegmentText,
    from start: Int,
    device: String,
    file: String
  ) -> (records: [EventRecord], failure: (line: Int, cause: String)?) {
    var records: [EventRecord] = []
    var strings = RecordStrings()
    for index in start..<text.lines.count {
      let line = text.lines[index]
      let isLast = index == text.lines.count - 1
      let decoded: Result<EventRecord, RecordFailure> = text.bytes.withUnsafeBytes { buffer in
        Result { () throws(RecordFailure) -> EventRecord in
          guard line.isTerminated else { throw RecordFailure(cause: "partial line (no newline)") }
          return try EventRecord.decode(
            line: UnsafeRawBufferPointer(rebasing: buffer[line.range]),
            location: RecordLocation(file: file, line: line.number),
            hashing: true,
            strings: &strings
          )
        }
      }
      let record: EventRecord
      switch decoded {
      case .success(let value): record = value
      case .failure(let failure):
        // A torn last line, as a segment may end in: the branch ends before it.
        if isLast { return (records, nil) }
        return (records, (line.number, failure.cause))
      }
      guard record.device == device else {
        return (records, (line.number, "record names device '\(record.device)'"))
      }
      if let previous = records.last {
        guard record.sequence == previous.sequence + 1, record.previousHash == previous.hash,
          previous.time < record.time
        else {
          return (records, (line.number, "hash chain broken"))
        }
      }
      records.append(record)
    }
    return (records, nil)
  }

  /// The record at line `index` of `text` as an anchor, nil when it does not decode.
  private static func anchor(
    _ text: SegmentText,
    index: Int,
    segment: Int,
    file: String
  ) -> Anchor? {
    let line = text.lines[index]
    guard line.isTerminated else { return nil }
    return text.bytes.withUnsafeBytes { buffer in
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[line.range])
      guard
        let record = try? EventRecord.decode(
          line: bytes,
          location: RecordLocation(file: file, line: line.number)
        )
      else { return nil }
      return Anchor(
        file: file,
        segment: segment,
        line: line.number,
        sequence: record.sequence,
        hash: SHA256.hash(bytes),
        time: record.time
      )
    }
  }

  /// The sequence number of the last good record of `segments` (0 when none).
  private func lastSequenceOfSegments(
    _ segments: [(number: Int, name: String)],
    text: (Int) throws(JournalError) -> SegmentText?
  ) throws(JournalError) -> UInt64 {
    for segment in segments.reversed() {
      guard let found = try text(segment.number) else { continue }
      let tail = found.bytes.withUnsafeBytes { buffer in
        findTail(buffer, lines: found.lines, file: segment.name)
      }
      if let record = tail.lastRecord { return record.sequence }
    }
    return 0
  }
}
