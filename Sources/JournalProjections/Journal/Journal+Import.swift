import Foundation
import JournalCore

extension Journal {
  /// Appends the events of an import as one durable batch and one action
  /// (undo cancels the whole import), each carrying its own action time.
  ///
  /// The events are not validated as commands: the importer has checked that
  /// they fold into the documents they stand for. The history is read again
  /// afterwards.
  ///
  /// - Returns: how many events were appended.
  /// - Throws: store errors; nothing is appended then.
  @discardableResult
  func appendImported(_ events: [ImportedEvent], device: String) throws -> Int {
    lock.lock()
    defer { lock.unlock() }
    guard !events.isEmpty else { return 0 }
    let action = events.count > 1 ? events.first?.id : nil
    let batch = events.map { imported in
      let type = imported.event.typeName
      let id = imported.id
      return EventToAppend(
        id: id,
        stream: imported.stream,
        type: type,
        version: JournalEvent.currentVersions[type] ?? 1,
        payload: PayloadMetadata.adding(
          at: imported.at,
          action: id == action ? nil : action,
          to: imported.event.payload
        )
      )
    }
    let last = history.last.map { ($0.milliseconds, $0.counter) }
    _ = try store.append(batch, device: device, notBefore: last)
    try reload()
    return batch.count
  }
}
