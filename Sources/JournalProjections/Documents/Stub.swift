import Foundation

/// The minimal stub written when the deleted record cannot be read.
public struct Tombstone: Codable, Sendable, Hashable {
  public var id: String
  public var deletedAt: Date
  public var kind: String?

  public init(id: String, deletedAt: Date, kind: String? = nil) {
    self.id = id
    self.deletedAt = deletedAt
    self.kind = kind
  }
}

/// A full stub: the last state of a deleted document plus `deletedAt`,
/// encoded as the document's own keys with `deletedAt` added among them.
public struct Stub<Document: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
  public var document: Document
  public var deletedAt: Date

  public init(document: Document, deletedAt: Date) {
    self.document = document
    self.deletedAt = deletedAt
  }

  private enum Keys: String, CodingKey { case deletedAt }

  public init(from decoder: any Decoder) throws {
    document = try Document(from: decoder)
    deletedAt = try decoder.container(keyedBy: Keys.self).decode(Date.self, forKey: .deletedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    try document.encode(to: encoder)
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(deletedAt, forKey: .deletedAt)
  }
}
