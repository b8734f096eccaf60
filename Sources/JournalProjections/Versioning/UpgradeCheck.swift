import JournalCore

/// What reading the stored events through the upgrade steps will do: how many
/// of each type and version are transformed, and which cannot be read.
package struct UpgradeCheck: Sendable, Hashable {
  /// Stored events below their type's current version, by `type vN`.
  package var transformed: [String: Int] = [:]
  /// Stored events already at the current version.
  package var current = 0
  /// Events this build cannot read, as `location: reason`.
  package var unreadable: [String] = []

  /// Whether every stored event can be read.
  package var isClean: Bool { unreadable.isEmpty }

  /// Checks every stored event: upgrade steps, then decoding at the current version.
  ///
  /// - Throws: an invalid registry.
  package init(stored: [StoredEvent]) throws {
    let upcaster = try EventUpcasters.makeUpcaster()
    for record in stored {
      let current = upcaster.currentVersions[record.type]
      if let current, record.version < current {
        transformed["\(record.type) v\(record.version)", default: 0] += 1
      } else if current == record.version {
        self.current += 1
      }
      do {
        for item in try upcaster.upcast(
          type: record.type,
          version: record.version,
          payload: record.payload
        ) {
          _ = try JournalEvent(type: item.type, payload: item.payload)
        }
      } catch let error as Upcaster.Unreadable {
        unreadable.append("\(record.location): \(error.reason)")
      } catch {
        unreadable.append("\(record.location): \(error)")
      }
    }
  }
}
