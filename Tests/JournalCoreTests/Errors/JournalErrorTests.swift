import JournalCore
import Testing

@Suite struct JournalErrorTests {
  @Test func descriptionReadsLikeACompilerDiagnostic() {
    let located = JournalError(
      .corruptRecord,
      file: "devices/phone/000003.jsonl",
      line: 1842,
      "checksum mismatch"
    )
    #expect(located.description == "devices/phone/000003.jsonl:1842: error: checksum mismatch")
    let fileOnly = JournalError(.notAJournal, file: "journal.json", "not a workout journal marker")
    #expect(fileOnly.description == "journal.json: error: not a workout journal marker")
    let bare = JournalError(.deviceLocked, "device 'phone' is locked by another writer")
    #expect(bare.description == "error: device 'phone' is locked by another writer")
  }

  @Test func kindsCompareByRawValue() {
    #expect(JournalError.Kind(rawValue: "io") == .io)
    #expect(JournalError.Kind.corruptRecord != .malformedJSON)
    #expect(JournalError.Kind.deviceLocked.description == "deviceLocked")
  }

  @Test func problemsAndNoticesPrintTheirLocation() {
    let problem = VerificationReport.Problem(
      file: "devices/watch/000001.jsonl",
      line: 7,
      cause: "hash chain broken"
    )
    #expect(problem.description == "devices/watch/000001.jsonl:7: hash chain broken")
    let notice = RecoveryNotice(
      kind: .tornTailSetAside,
      file: "devices/phone/000002.jsonl",
      line: 12,
      byteCount: 40,
      sideFile: "devices/phone/000002.jsonl.torn",
      cause: "partial line (no newline)"
    )
    #expect(
      notice.description
        == "devices/phone/000002.jsonl:12: note: torn tail of 40 bytes set aside in "
        + "'devices/phone/000002.jsonl.torn': partial line (no newline)"
    )
  }
}
