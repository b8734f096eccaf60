import Foundation

/// The minimal stub written when the deleted record cannot be read.
struct Tombstone: Codable, Sendable, Hashable {
  var id: String
  var deletedAt: Date
  var kind: String?

  init(id: String, deletedAt: Date, kind: String? = nil) {
    self.id = id
    self.deletedAt = deletedAt
    self.kind = kind
  }
}

/// A full stub: the last state of a deleted document plus `deletedAt`,
/// encoded as the document's own keys with `deletedAt` added among them.
package struct Stub<Document: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
  package var document: Document
  package var deletedAt: Date

  package init(document: Document, deletedAt: Date) {
    self.document = document
    self.deletedAt = deletedAt
  }

  private enum Keys: String, CodingKey { case deletedAt }

  package init(from decoder: any Decoder) throws {
    document = try Document(from: decoder)
    deletedAt = try decoder.container(keyedBy: Keys.self).decode(Date.self, forKey: .deletedAt)
  }

  package func encode(to encoder: any Encoder) throws {
    try document.encode(to: encoder)
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(deletedAt, forKey: .deletedAt)
  }
}
