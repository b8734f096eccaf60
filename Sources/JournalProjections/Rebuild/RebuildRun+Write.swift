import Foundation
import JournalCore

// Rendering the folded streams, planning what changes on disk, making the
// changes, and saving the manifest and the checkpoint.

extension RebuildRun {
  /// A change to make on disk, decided before any is made.
  enum Change {
    case write(path: String, bytes: [UInt8], digest: String)
    case remove(path: String)
  }

  mutating func write(_ folded: inout Folded) throws {
    let blocked = Set(quarantined.keys)
    try reportQuarantined()
    if !manifest.pending.isEmpty { try settlePending() }

    var streams =
      folded.splits.keys.map { "split:\($0)" } + folded.workouts.keys.map { "workout:\($0)" }
    streams = streams.filter { !blocked.contains($0) }.sorted()
    let total = streams.count * 2
    let renderNow = folded.renderNow ?? Date(timeIntervalSince1970: 0)
    var changes: [Change] = []
    var rendered: Set<String> = []

    for (index, stream) in streams.enumerated() {
      var started = elapsed()
      var single = JournalState()
      single.now = folded.renderNow
      let expiry: Date?
      if stream.hasPrefix("split:"), let split = folded.splits[String(stream.dropFirst(6))] {
        single.splits[String(stream.dropFirst(6))] = split
        expiry = Checkpoint.expiry(of: split, renderedAt: renderNow)
      } else if let workout = folded.workouts[String(stream.dropFirst(8))] {
        single.workouts[String(stream.dropFirst(8))] = workout
        expiry = Checkpoint.expiry(of: workout, renderedAt: renderNow)
      } else {
        continue
      }
      folded.checkpoint.streams[stream, default: .init(digest: "", expiry: nil)].expiry = expiry
      let tree: [String: Data]
      do {
        tree = try single.documentTree()
      } catch {
        throw RebuildError(.encoding, path: stream, "cannot encode its documents: \(error)")
      }
      report.timings.encode += seconds(since: started)
      started = elapsed()
      for path in tree.keys.sorted() where !blocked.contains(RelativePath.stream(of: path) ?? "") {
        try plan(path, Array(tree[path] ?? Data()), &changes)
      }
      for path in ownedByStream[stream] ?? [] where tree[path] == nil {
        try planRemoval(path, &changes)
      }
      rendered.insert(stream)
      report.timings.write += seconds(since: started)
      progress?(index + 1, total)
    }

    let started = elapsed()
    if folded.isComplete {
      for (stream, paths) in ownedByStream.sorted(by: { $0.key < $1.key })
      where !rendered.contains(stream) && !blocked.contains(stream) {
        for path in paths.sorted() { try planRemoval(path, &changes) }
      }
    }
    let (notify, rendering, changing) = (progress, streams.count, changes.count)
    try apply(changes) { done in notify?(rendering + done * rendering / changing, total) }
    report.timings.write += seconds(since: started)
  }

  // MARK: - Planning

  private mutating func plan(_ path: String, _ bytes: [UInt8], _ changes: inout [Change]) throws {
    guard RelativePath.isSafe(path) else {
      return conflict(path, "unsafe path made from an id; not written")
    }
    if let obstacle = try writer.obstacle(to: path) { return conflict(path, obstacle) }
    let digest = SHA256Digest.hex(bytes)
    let disk = try writer.read(path)
    if disk == bytes {
      report.unchangedCount += 1
      if manifest.owned[path] == nil { report.adopted.append(path) }
      manifest.owned[path] = digest
      return
    }
    if let disk, !manifest.owns(path, digest: SHA256Digest.hex(disk)) {
      return conflict(
        path,
        manifest.owned[path] == nil
          ? "exists and is not the rebuild's; left alone"
          : "changed since the last rebuild; left alone"
      )
    }
    changes.append(.write(path: path, bytes: bytes, digest: digest))
  }

  private mutating func planRemoval(_ path: String, _ changes: inout [Change]) throws {
    guard RelativePath.isSafe(path) else {
      manifest.owned[path] = nil
      report.notices.append("\(ProjectionManifest.fileName): unsafe path '\(path)' dropped")
      return
    }
    if let obstacle = try writer.obstacle(to: path) { return conflict(path, obstacle) }
    guard let disk = try writer.read(path) else {
      manifest.owned[path] = nil
      return
    }
    guard manifest.owns(path, digest: SHA256Digest.hex(disk)) else {
      return conflict(path, "changed since the last rebuild; not removed")
    }
    changes.append(.remove(path: path))
  }

  private mutating func conflict(_ path: String, _ reason: String) {
    report.conflicts.append(RebuildReport.Conflict(path: path, reason: reason))
  }

  /// After an interrupted rebuild: a file with the bytes it was about to write
  /// is the rebuild's own.
  private mutating func settlePending() throws {
    for (path, digest) in manifest.pending.sorted(by: { $0.key < $1.key })
    where RelativePath.isSafe(path) {
      guard try writer.obstacle(to: path) == nil, let disk = try writer.read(path) else { continue }
      if SHA256Digest.hex(disk) == digest { manifest.owned[path] = digest }
    }
    manifest.pending = [:]
    ownedByStream = manifest.pathsByStream()
  }

  // MARK: - Changing the disk

  /// Makes `changes`: first the manifest names every write as pending, so an
  /// interruption leaves files the next rebuild recognises as its own; then
  /// the documents; then the manifest without the pending writes.
  private mutating func apply(_ changes: [Change], progress: (Int) -> Void) throws {
    if !changes.isEmpty {
      var announced = manifest
      for case .write(let path, _, let digest) in changes { announced.pending[path] = digest }
      try saveManifest(announced)
      for (index, change) in changes.enumerated() {
        switch change {
        case .write(let path, let bytes, let digest):
          try writer.writeAtomically(path, bytes)
          manifest.owned[path] = digest
          report.written.append(path)
        case .remove(let path):
          try writer.remove(path)
          manifest.owned[path] = nil
          report.removed.append(path)
        }
        progress(index + 1)
      }
      try writer.syncFolders()
    }
    let bytes = manifest.encoded()
    if try writer.read(ProjectionManifest.fileName) != bytes { try saveManifest(manifest) }
    manifestDigest = SHA256Digest.hex(bytes)
  }

  private func saveManifest(_ manifest: ProjectionManifest) throws {
    try writer.writeAtomically(ProjectionManifest.fileName, manifest.encoded())
    try writer.syncFolders()
  }

  // MARK: - Quarantine

  /// Lists the documents of quarantined streams present on disk; they are
  /// never written or removed.
  private mutating func reportQuarantined() throws {
    var workoutFiles: [String]?
    for stream in quarantined.keys.sorted() {
      var candidates = Set(ownedByStream[stream] ?? [])
      guard let colon = stream.firstIndex(of: ":") else { continue }
      let id = String(stream[stream.index(after: colon)...])
      guard RelativePath.isSafe(id + ".json") else { continue }
      if stream.hasPrefix("split:") {
        let path = DocumentPath.split(id: id)
        candidates.formUnion([path, DocumentPath.stub(of: path)])
      } else if stream.hasPrefix("workout:") {
        if workoutFiles == nil {
          workoutFiles = try writer.files(under: "Workouts") + writer.files(under: "Stubs/Workouts")
        }
        candidates.formUnion(
          (workoutFiles ?? []).filter { RelativePath.fileName(of: $0) == id + ".json" }
        )
      }
      for path in candidates.sorted() where RelativePath.isSafe(path) {
        if try writer.obstacle(to: path) == nil, try writer.entry(path) == .file {
          report.keptQuarantined.append(path)
        }
      }
    }
  }

  // MARK: - Checkpoint

  /// Saves the state's streams and the head.
  ///
  /// Nothing here is synced: every file is checked by digest when read back,
  /// and the head names the manifest, which was synced before.
  ///
  /// After a conflict the head is removed instead: the documents left alone
  /// do not match the state, and only a full rebuild would check them again.
  mutating func saveCheckpoint(_ folded: Folded) throws {
    guard report.conflicts.isEmpty else { return try writer.remove(Checkpoint.headPath) }
    var checkpoint = folded.checkpoint
    checkpoint.manifestDigest = manifestDigest
    checkpoint.quarantined = quarantined.keys.sorted()
    var expected: Set<String> = []
    var states: [(String, any Encodable)] = folded.splits.map { ("split:\($0.key)", $0.value) }
    states += folded.workouts.map { ("workout:\($0.key)", $0.value) }
    if folded.isComplete {
      let kept = checkpoint.streams
      checkpoint.streams = [:]
      for (stream, _) in states { checkpoint.streams[stream] = kept[stream] }
    }
    for (stream, state) in states.sorted(by: { $0.0 < $1.0 }) {
      guard let path = Checkpoint.streamPath(stream) else {
        report.notices.append("checkpoint not saved: stream '\(stream)' cannot name a file")
        return try writer.remove(Checkpoint.headPath)
      }
      expected.insert(RelativePath.fileName(of: path))
      let bytes: [UInt8]
      do {
        bytes = try Checkpoint.encodeStream(state)
      } catch {
        report.notices.append("checkpoint not saved: \(error)")
        return try writer.remove(Checkpoint.headPath)
      }
      let digest = SHA256Digest.hex(bytes)
      if try writer.read(path) != bytes { try writer.writeInPlace(path, bytes) }
      checkpoint.streams[stream, default: .init(digest: "", expiry: nil)].digest = digest
    }
    if folded.isComplete, try writer.entry(Checkpoint.streamsFolder) == .folder {
      for name in try writer.contents(of: Checkpoint.streamsFolder) where !expected.contains(name) {
        try writer.remove(Checkpoint.streamsFolder + "/" + name)
      }
    }
    try writer.writeAtomically(Checkpoint.headPath, checkpoint.encodedHead(), durable: false)
  }
}
