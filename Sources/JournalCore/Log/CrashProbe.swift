import Foundation

/// The child-process side of the crash test, exposed by the `journal` tool as the hidden
/// command `journal _append-loop --journal DIR --device NAME --count N`.
///
/// Not for applications: the name is underscored in the tool because the loop exists to be
/// killed.
package enum CrashProbe {
  /// Appends `count` events to `device`, one durable append at a time, and reports each
  /// acknowledged sequence number through `output` right after its append returns.
  ///
  /// Each append opens the device's writer, appends one event and closes it, so several
  /// probes appending to one device take turns on the lock (and each open repairs the tail
  /// a killed probe left behind). The payload is `{"pid": <process id>, "n": <1…count>}` in
  /// the stream `probe:<pid>`, so a test can check that every event is stored once.
  ///
  /// - Parameters:
  ///   - journal: The journal folder, created if needed.
  ///   - device: The device to append to.
  ///   - count: How many events to append.
  ///   - output: Receives each acknowledged sequence number as decimal text; it should
  ///     write a line and flush, so the number is out before the next append starts.
  /// - Throws: ``JournalError``.
  package static func appendLoop(
    journal: URL,
    device: String,
    count: Int,
    output: (String) -> Void
  ) throws {
    let log = try EventLog.create(at: journal)
    let pid = Int64(ProcessInfo.processInfo.processIdentifier)
    let options = DeviceWriter.Options(lockTimeout: 60)
    for number in 0..<max(0, count) {
      let writer = try log.openWriter(device: device, options: options)
      let record = try writer.append(
        NewEvent(
          stream: "probe:\(pid)",
          type: "probe.appended",
          version: 1,
          payload: ["pid": .int(pid), "n": .int(Int64(number + 1))]
        )
      )
      writer.close()
      output(String(record.sequence))
    }
  }
}
