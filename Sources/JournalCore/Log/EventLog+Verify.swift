import Foundation

extension EventLog {
  /// Checks every record of every device and lists every problem.
  ///
  /// Never modifies a file.
  /// Checked: each line's checksum and envelope; that each record names its own device;
  /// sequence numbers 1, 2, 3… with no gap or repeat across segments; each `prev` is the
  /// SHA-256 of the previous line; clock readings strictly increase within a device; event
  /// ids are unique across the journal; torn tails; partial lines and empty files in sealed
  /// segments; files and folders the format does not expect; device folders and segments
  /// that are symbolic links or not what they should be (``JournalError/Kind/refusedFile``).
  ///
  /// Notes, not problems: side files of torn tails set aside earlier; copies and
  /// placeholders left by file-sync services; missing segment numbers (a device folder that
  /// arrived before its earlier segments); forks (see ``Fork``): each branch in a copy with
  /// where it leaves the device's segments and how many events each side holds, whether it
  /// is healed, and, once it is, that the copy may be deleted
  /// (``VerificationReport/unhealedForks`` lists those not healed yet).
  ///
  /// Problems of forks: a branch file that is not a branch of its device, and a `merge`
  /// member naming a record no branch holds.
  ///
  /// After a bad line, checking resumes at the next line without expectations, so one
  /// damaged record is reported once, not again as a broken link on the next one.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/io`` when a file cannot be read.
  /// - Complexity: O(n) in the journal's bytes.
  public func verify() throws -> VerificationReport {
    var verifier = Verifier(log: self)
    try verifier.run()
    return verifier.report
  }
}

/// The state of one ``EventLog/verify()`` walk.
private struct Verifier {
  let log: EventLog
  var report = VerificationReport(problems: [], notes: [], recordCount: 0, deviceCount: 0)
  /// Where each id was met first.
  var firstPlaces: [ULID: RecordLocation] = [:]

  // What the next record of the current device must continue from; nil after a bad line.
  var expected: (sequence: UInt64, hash: SHA256Digest, time: HybridTime?)?

  init(log: EventLog) { self.log = log }

  mutating func run() throws {
    let devicesFolder = log.url.appendingPathComponent(EventLog.devicesFolderName)
    let names: [String] =
      isDirectory(devicesFolder)
      ? (try? FileManager.default.contentsOfDirectory(atPath: devicesFolder.path)) ?? [] : []
    for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      let path = "\(EventLog.devicesFolderName)/\(name)"
      guard EventLog.isValidDeviceName(name) else {
        if let description = SyncArtefact.describeDeviceCopy(name) {
          note(path, description)
        } else if !name.hasPrefix(".") {
          problem(path, nil, "'\(name)' is not a valid device name")
        }
        continue
      }
      guard isDirectory(devicesFolder.appendingPathComponent(name)) else {
        problem(path, nil, "not a folder")
        continue
      }
      do {
        try log.checkDeviceFolder(name)
      } catch {
        problem(path, nil, error.message)
        continue
      }
      report.deviceCount += 1
      try verifyDevice(name)
    }
  }

  private mutating func verifyDevice(_ device: String) throws {
    let folder = log.deviceFolder(device)
    let listing = try DeviceFolderListing(folder: folder)
    for name in listing.unexpected {
      problem(log.relativePath(device: device, file: name), nil, "unexpected file")
    }
    for name in listing.sideFiles {
      note(log.relativePath(device: device, file: name), "torn tail set aside earlier")
    }
    let branches = try log.findBranches(device: device, listing: listing)
    for artefact in listing.syncArtefacts where !branches.handled.contains(artefact.name) {
      note(log.relativePath(device: device, file: artefact.name), artefact.description)
    }
    let branchFiles = Set(
      listing.branchFiles.map { log.relativePath(device: device, file: $0.name) }
    )
    for notice in branches.notices {
      if branchFiles.contains(notice.file) {
        problem(notice.file, nil, notice.cause)
      } else {
        note(notice.file, notice.cause)
      }
    }
    expected = (0, .zero, nil)
    var previousNumber = 0
    for (index, segment) in listing.segments.enumerated() {
      let relative = log.relativePath(device: device, file: segment.name)
      if segment.number != previousNumber + 1 {
        // A device folder that arrived before its earlier segments: sync is not done.
        let missing = (previousNumber + 1..<segment.number).map { Segment.fileName($0) }
        note(
          relative,
          "segment \(missing.joined(separator: ", ")) not here (not synced yet?); "
            + "readers stop before '\(segment.name)' until it arrives"
        )
        expected = nil
      }
      previousNumber = segment.number
      let bytes: [UInt8]
      do {
        bytes = try log.readSegmentFile(device: device, name: segment.name)
      } catch {
        guard error.kind == .refusedFile else { throw error }
        problem(relative, nil, error.message)
        expected = nil
        continue
      }
      let isLast = index == listing.segments.count - 1
      verifySegment(bytes, file: relative, device: device, isLast: isLast)
    }
    verifyForks(branches, device: device)
  }

  /// Notes every fork of the device, and checks that each head its records name in `merge`
  /// is the record of a branch.
  private mutating func verifyForks(_ branches: DeviceBranches, device: String) {
    for broken in branches.broken {
      problem(
        broken.file,
        broken.line,
        "the chain of a fork's branch breaks here: \(broken.cause); read up to the line before"
      )
    }
    let named = Set(merges.map(\.head))
    let held = Set(branches.records.compactMap(\.hash))
    for fork in branches.forks {
      let healed = fork.isHeld && named.contains(fork.head)
      var text = fork.description.dropFirst(fork.file.count + ": note: ".count)
      if fork.isBranchFile && !healed {
        text =
          "branch of device '\(device)' after \(fork.anchorFile):\(fork.anchorLine) "
          + "(\(fork.branchCount) \(Fork.events(fork.branchCount))), not merged yet; read; "
          + "the device's next append merges it"
      }
      note(fork.file, String(text))
      if !healed { report.unhealedForks.append(fork) }
    }
    for merge in merges where !held.contains(merge.head) {
      problem(
        merge.file,
        merge.line,
        "'merge' names record \(merge.head.hexString.prefix(16))…, which no branch of "
          + "'\(device)' holds (its branch file is missing?)"
      )
    }
    merges = []
  }

  /// What checking one line found: a record to link to the one before, or a problem, which
  /// leaves the next record nothing to continue from.
  private enum LineFinding {
    case record(EventRecord, merging: [SHA256Digest])
    case problem(line: Int, cause: String)
  }

  /// The branch heads the device's records name in `merge`, with where.
  var merges: [(head: SHA256Digest, file: String, line: Int)] = []

  private mutating func verifySegment(
    _ bytes: [UInt8],
    file: String,
    device: String,
    isLast: Bool
  ) {
    let lines = bytes.withUnsafeBytes { segmentLines($0) }
    if lines.isEmpty && !isLast { problem(file, nil, "empty sealed segment") }
    let tail = isLast ? bytes.withUnsafeBytes { findTail($0, lines: lines, file: file) } : nil
    let whole = Array(lines.prefix(tail?.firstTornLine ?? lines.count))
    // Decoding and hashing the lines is nearly all the work: it runs on every core, and the
    // links from each record to the one before are checked afterwards, in order.
    let findings = whole.concurrentMap(chunkSize: 256) { line in
      Verifier.finding(line, in: bytes, file: file)
    }
    for finding in findings {
      switch finding {
      case .record(let record, let merging):
        report.recordCount += 1
        check(record, device: device)
        for head in merging { merges.append((head, record.location.file, record.location.line)) }
      case .problem(let line, let cause):
        problem(file, line, cause)
        expected = nil
      }
    }
    if let tail, let first = tail.firstTornLine {
      let size = bytes.count - tail.validEnd
      problem(
        file,
        lines[first].number,
        "torn tail of \(size) bytes: \(tail.cause ?? "bad record")"
      )
    }
  }

  /// Decodes and hashes one line of a segment.
  private static func finding(_ line: SegmentLine, in bytes: [UInt8], file: String) -> LineFinding {
    guard line.isTerminated else {
      return .problem(line: line.number, cause: "partial line (no newline) in a sealed segment")
    }
    return bytes.withUnsafeBytes { buffer in
      do throws(RecordFailure) {
        let text = UnsafeRawBufferPointer(rebasing: buffer[line.range])
        let record = try EventRecord.decode(
          line: text,
          location: RecordLocation(file: file, line: line.number),
          hashing: true
        )
        return .record(record, merging: try EventRecord.mergedHeads(line: text)?.get() ?? [])
      } catch {
        return .problem(line: line.number, cause: error.cause)
      }
    }
  }

  private mutating func check(_ record: EventRecord, device: String) {
    let file = record.location.file
    let line = record.location.line
    if record.device != device {
      problem(file, line, "record names device '\(record.device)' but is stored in '\(device)'")
    }
    if let expected {
      if record.sequence != expected.sequence + 1 {
        let what = record.sequence <= expected.sequence ? "repeats or goes back" : "skips"
        problem(
          file,
          line,
          "sequence \(record.sequence) \(what) after \(expected.sequence); "
            + "expected \(expected.sequence + 1)"
        )
      }
      if record.previousHash != expected.hash {
        problem(file, line, "hash chain broken: 'prev' is not the hash of the previous record")
      }
      if let time = expected.time, record.time <= time {
        problem(file, line, "clock goes backwards: \(record.time) is not after \(time)")
      }
    }
    if let first = firstPlaces[record.id] {
      problem(file, line, "duplicate event id '\(record.id)' (first at \(first))")
    } else {
      firstPlaces[record.id] = record.location
    }
    expected = (record.sequence, record.hash ?? .zero, record.time)
  }

  private mutating func note(_ file: String, _ cause: String) {
    report.notes.append(VerificationReport.Problem(file: file, line: nil, cause: cause))
  }

  private mutating func problem(_ file: String, _ line: Int?, _ cause: String) {
    report.problems.append(VerificationReport.Problem(file: file, line: line, cause: cause))
  }
}
