import JournalCore

/// An event decoded from a current-version payload, with the payload's metadata.
struct PayloadEvent {
  var event: JournalEvent
  /// The payload's `at` (``PayloadMetadata/at``), in milliseconds.
  var at: Int64?
  /// The payload's `action` (``PayloadMetadata/action``).
  var action: String?
}

extension PayloadEvent {
  /// The event of a current-version payload of `type` (``JournalEvent/init(type:reader:)``)
  /// and its metadata.
  ///
  /// - Throws: ``PayloadError`` for an unknown type or a malformed payload.
  init(type: String, reading payload: JSONPayload) throws(PayloadError) {
    let reader = try PayloadReader(payload, type: type)
    self.init(
      event: try JournalEvent(type: type, reader: reader),
      at: reader.object[PayloadMetadata.at]?.intValue,
      action: reader.object[PayloadMetadata.action]?.stringValue
    )
  }
}
