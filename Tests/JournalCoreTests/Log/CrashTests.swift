import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Real processes: the built `journal` tool's hidden `_append-loop` command, which calls
/// ``CrashProbe/appendLoop(journal:device:count:output:)``.
@Suite struct CrashTests {
  /// A child appending durably is killed with SIGKILL at random moments: every append it
  /// acknowledged is present, and the journal always opens.
  @Test func killedAppendersLoseNothingAcknowledged() throws {
    let binary = try journalBinary()
    let log = try makeLog("crash")
    var random = SplitMix64(seed: 2024)
    var acknowledged: UInt64 = 0
    var kills = 0
    for _ in 0..<30 {
      let child = try AppendLoop(binary: binary, journal: log.url, device: "phone", count: 100_000)
      usleep(UInt32.random(in: 2_000...60_000, using: &random))
      kill(child.process.processIdentifier, SIGKILL)
      child.process.waitUntilExit()
      if child.process.terminationReason == .uncaughtSignal { kills += 1 }
      let printed = child.output().compactMap { UInt64($0) }
      if let last = printed.last { acknowledged = max(acknowledged, last) }

      let history = try log.readDevice("phone")
      #expect(history.stoppedBy == nil)
      #expect(UInt64(history.records.count) >= acknowledged, "acknowledged \(acknowledged)")
      #expect(history.records.map(\.sequence) == (0..<history.records.count).map { UInt64($0 + 1) })
      let writer = try log.openWriter(device: "phone", options: testOptions(durability: .full))
      acknowledged = max(acknowledged, writer.lastSequence)
      writer.close()
    }
    #expect(kills >= 20)
    #expect(acknowledged > 0)
    let report = try log.verify()
    #expect(report.isClean, "\(report.problems)")
  }

  /// Several processes append to one device at once: each event is stored exactly once,
  /// whole, in sequence.
  @Test func processesSharingADeviceTakeTurns() throws {
    let binary = try journalBinary()
    let log = try makeLog("shared")
    let children = try (0..<4).map { _ in
      try AppendLoop(binary: binary, journal: log.url, device: "phone", count: 25)
    }
    var printed: [UInt64] = []
    for child in children {
      child.process.waitUntilExit()
      #expect(child.process.terminationStatus == 0, "\(child.errors())")
      printed += child.output().compactMap { UInt64($0) }
    }
    #expect(printed.sorted() == Array(1...100))
    let records = try log.readDevice("phone").records
    #expect(records.map(\.sequence) == Array(1...100))
    let pairs = records.map {
      "\($0.payload["pid"]?.intValue ?? 0)/\($0.payload["n"]?.intValue ?? 0)"
    }
    #expect(Set(pairs).count == 100)
    #expect(Set(records.compactMap { $0.payload["pid"]?.intValue }).count == 4)
    #expect(try log.verify().isClean)
  }

  @Test func twoDevicesAppendConcurrently() throws {
    let binary = try journalBinary()
    let log = try makeLog("two")
    let children = try ["phone", "watch"].map {
      try AppendLoop(binary: binary, journal: log.url, device: $0, count: 40)
    }
    for child in children {
      child.process.waitUntilExit()
      #expect(child.process.terminationStatus == 0, "\(child.errors())")
      #expect(child.output().count == 40)
    }
    let history = try log.readHistory()
    #expect(history.records.count == 80)
    #expect(try log.verify().isClean)
  }
}

// MARK: - Running the tool

/// A running `journal _append-loop` child whose output is collected in the background.
private final class AppendLoop: @unchecked Sendable {
  let process = Process()
  private let stdout = Pipe()
  private let stderr = Pipe()
  private let lock = NSLock()
  private var collected = Data()

  init(binary: URL, journal: URL, device: String, count: Int) throws {
    process.executableURL = binary
    process.arguments = [
      "_append-loop", "--journal", journal.path, "--device", device, "--count", String(count),
    ]
    process.standardOutput = stdout
    process.standardError = stderr
    stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else { return }
      self.lock.withLock { self.collected.append(data) }
    }
    try process.run()
  }

  /// The lines printed, once the process has exited.
  func output() -> [String] {
    stdout.fileHandleForReading.readabilityHandler = nil
    let rest = stdout.fileHandleForReading.readDataToEndOfFile()
    let all = lock.withLock {
      collected.append(rest)
      return collected
    }
    return String(decoding: all, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  func errors() -> String {
    String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }
}
