import Foundation

// Codable conformances for the fold's per-stream states, so a rebuild can keep
// them in its checkpoint. Written out by hand because synthesis does not reach
// an extension in another file. Dates go through the coder's own strategy; the
// checkpoint uses a strategy that keeps every bit, since the grace rules compare
// exact times.

extension SplitState: Codable {
  private enum CodingKeys: String, CodingKey {
    case document
    case isStarter
    case deletedAt
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      document: try container.decode(SplitDocument.self, forKey: .document),
      isStarter: try container.decode(Bool.self, forKey: .isStarter),
      deletedAt: try container.decodeIfPresent(Date.self, forKey: .deletedAt)
    )
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(document, forKey: .document)
    try container.encode(isStarter, forKey: .isStarter)
    try container.encodeIfPresent(deletedAt, forKey: .deletedAt)
  }
}

extension WorkoutState: Codable {
  private enum CodingKeys: String, CodingKey {
    case document
    case timeZone
    case deletedAt
    case provenance
    case recordedVolume
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let identifier = try container.decode(String.self, forKey: .timeZone)
    guard let zone = TimeZone(identifier: identifier) else {
      throw DecodingError.dataCorruptedError(
        forKey: .timeZone,
        in: container,
        debugDescription: "unknown time zone '\(identifier)'"
      )
    }
    self.init(
      document: try container.decode(WorkoutDocument.self, forKey: .document),
      timeZone: zone,
      deletedAt: try container.decodeIfPresent(Date.self, forKey: .deletedAt),
      provenance: try container.decode([String: [EntryProvenance]].self, forKey: .provenance),
      recordedVolume: try container.decodeIfPresent(Double.self, forKey: .recordedVolume)
    )
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(document, forKey: .document)
    try container.encode(timeZone.identifier, forKey: .timeZone)
    try container.encodeIfPresent(deletedAt, forKey: .deletedAt)
    try container.encode(provenance, forKey: .provenance)
    try container.encodeIfPresent(recordedVolume, forKey: .recordedVolume)
  }
}

extension EntryProvenance: Codable {
  private enum CodingKeys: String, CodingKey {
    case kind
    case key
    case eventID
    case device
    case original
    case adjustments
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let raw = try container.decode(String.self, forKey: .kind)
    guard let kind = Kind(rawValue: raw) else {
      throw DecodingError.dataCorruptedError(
        forKey: .kind,
        in: container,
        debugDescription: "unknown provenance '\(raw)'"
      )
    }
    self.init(
      kind: kind,
      key: try container.decode(String.self, forKey: .key),
      eventID: try container.decode(String.self, forKey: .eventID),
      device: try container.decode(String.self, forKey: .device),
      original: try container.decode(SetEntry.self, forKey: .original),
      adjustments: try container.decode([String].self, forKey: .adjustments)
    )
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind.rawValue, forKey: .kind)
    try container.encode(key, forKey: .key)
    try container.encode(eventID, forKey: .eventID)
    try container.encode(device, forKey: .device)
    try container.encode(original, forKey: .original)
    try container.encode(adjustments, forKey: .adjustments)
  }
}

extension Anomaly: Codable {
  private enum CodingKeys: String, CodingKey {
    case eventID
    case stream
    case message
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      eventID: try container.decode(String.self, forKey: .eventID),
      stream: try container.decode(String.self, forKey: .stream),
      message: try container.decode(String.self, forKey: .message)
    )
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(eventID, forKey: .eventID)
    try container.encode(stream, forKey: .stream)
    try container.encode(message, forKey: .message)
  }
}
