import Foundation
import JournalTestSupport
import Testing

@testable import JournalCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct FaultInjectionTests {
  private let segment = "devices/phone/000001.jsonl"

  private func makeFaultyLog() throws -> (EventLog, FaultyFileIO) {
    let faulty = FaultyFileIO()
    let url = try makeTemporaryDirectory("faults")
    return (try EventLog.create(at: url, fileIO: faulty), faulty)
  }

  @Test func diskFullOnWriteIsNotAcknowledgedAndLeavesTheFileAsItWas() throws {
    let (log, faulty) = try makeFaultyLog()
    let writer = try log.openWriter(device: "phone", options: testOptions(durability: .full))
    defer { writer.close() }
    try writer.append([sampleEvent(0), sampleEvent(1)])
    let before = try contents(log, segment)
    // The first write of an append is the writer's note (see `WriterNote`); then the records.
    faulty.inject(.write, call: 2, .shortWrite(37))
    faulty.inject(.write, call: 3, .fail(ENOSPC))
    expectJournalError(.io, file: segment) { try writer.append([sampleEvent(2), sampleEvent(3)]) }
    #expect(try contents(log, segment) == before)
    // The writer is still usable once space is back, and continues the chain.
    let record = try writer.append(sampleEvent(4))
    #expect(record.sequence == 3)
    #expect(try log.verify().isClean)
  }

  /// A read is looped over until it has every byte asked for, or the file ends (it may have
  /// shrunk); a failed read fails the whole.
  @Test func shortReadsAreCompletedAndAnEndIsKept() throws {
    let faulty = FaultyFileIO()
    let path = try makeTemporaryDirectory("reads").appendingPathComponent("bytes").path
    let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try faulty.createFile(path, bytes: bytes, durable: false)
    let descriptor = try faulty.open(path, flags: O_RDONLY, mode: 0)
    defer { faulty.close(descriptor) }
    faulty.inject(.read, .shortRead(7))
    faulty.inject(.read, call: 3, .shortRead(1))
    #expect(try faulty.read(descriptor, count: 1_000, at: 0, path: path) == bytes)
    #expect(try faulty.read(descriptor, count: 500, at: 900, path: path) == Array(bytes[900...]))
    faulty.inject(.read, .shortRead(10))
    faulty.inject(.read, call: 2, .fail(EIO))
    #expect(throws: SystemFailure.self) {
      try faulty.read(descriptor, count: 100, at: 0, path: path)
    }
  }

  @Test func shortWritesAreCompleted() throws {
    let (log, faulty) = try makeFaultyLog()
    let writer = try log.openWriter(device: "phone", options: testOptions(durability: .full))
    defer { writer.close() }
    for call in 1...5 { faulty.inject(.write, call: call, .shortWrite(7)) }
    try writer.append([sampleEvent(0), sampleEvent(1)])
    #expect(try log.readDevice("phone").records.count == 2)
    #expect(try log.verify().isClean)
  }

  @Test func anIOErrorOnSyncIsNotAcknowledgedAndTheWriterMustBeReopened() throws {
    let (log, faulty) = try makeFaultyLog()
    let writer = try log.openWriter(device: "phone", options: testOptions(durability: .full))
    try writer.append(sampleEvent(0))
    let before = try contents(log, segment)
    faulty.inject(.sync, .fail(EIO))
    do {
      try writer.append(sampleEvent(1))
      Issue.record("the append was acknowledged")
    } catch let error as JournalError {
      #expect(error.kind == .io)
      #expect(error.description.contains("input/output error"))
    }
    #expect(try contents(log, segment) == before)
    expectJournalError(.writerClosed) { try writer.append(sampleEvent(2)) }
    writer.close()
    let reopened = try log.openWriter(device: "phone", options: testOptions(durability: .full))
    #expect(reopened.recoveryNotices.isEmpty)
    #expect(try reopened.append(sampleEvent(3)).sequence == 2)
    reopened.close()
    #expect(try log.verify().isClean)
  }

  @Test func aFailedUndoIsRecoveredOnTheNextOpen() throws {
    let (log, faulty) = try makeFaultyLog()
    let writer = try log.openWriter(device: "phone", options: testOptions(durability: .full))
    try writer.append(sampleEvent(0))
    let before = try contents(log, segment)
    faulty.inject(.write, call: 2, .shortWrite(50))
    faulty.inject(.write, call: 3, .fail(EIO))
    faulty.inject(.truncate, .fail(EIO))
    expectJournalError(.io) { try writer.append(sampleEvent(1)) }
    expectJournalError(.writerClosed) { try writer.append(sampleEvent(2)) }
    writer.close()
    #expect(try contents(log, segment).count == before.count + 50)

    let reopened = try log.openWriter(device: "phone", options: testOptions(durability: .full))
    #expect(reopened.recoveryNotices.map(\.byteCount) == [50])
    #expect(try contents(log, segment) == before)
    #expect(try reopened.append(sampleEvent(3)).sequence == 2)
    reopened.close()
    #expect(try log.verify().isClean)
  }

  @Test func failingToStartASegmentLeavesTheSealedOneAlone() throws {
    let (log, faulty) = try makeFaultyLog()
    let options = testOptions(segmentSizeLimit: 600, durability: .full)
    let writer = try log.openWriter(device: "phone", options: options)
    defer { writer.close() }
    try writer.append([sampleEvent(0), sampleEvent(1)])
    let sealed = try contents(log, segment)
    faulty.inject(.open, .fail(ENOSPC))
    expectJournalError(.io) { try writer.append([sampleEvent(2), sampleEvent(3)]) }
    faulty.inject(.syncDirectory, .fail(EIO))
    expectJournalError(.io) { try writer.append([sampleEvent(2), sampleEvent(3)]) }
    #expect(try contents(log, segment) == sealed)
    let records = try writer.append([sampleEvent(4)])
    #expect(records.map(\.sequence) == [3])
    #expect(try log.verify().isClean)
    #expect(try log.readDevice("phone").records.count == 3)
  }

  @Test func aFailedSideFileLeavesTheTornTailInPlace() throws {
    let (log, faulty) = try makeFaultyLog()
    try fill(log, device: "phone", count: 2)
    let torn = try contents(log, segment) + Array("{\"id\":".utf8)
    try overwrite(log, segment, torn)
    faulty.inject(.write, .fail(ENOSPC))
    expectJournalError(.io) {
      _ = try log.openWriter(device: "phone", options: testOptions(durability: .full))
    }
    #expect(try contents(log, segment) == torn)
    let writer = try log.openWriter(device: "phone", options: testOptions(durability: .full))
    writer.close()
    #expect(writer.recoveryNotices.count == 1)
  }
}
