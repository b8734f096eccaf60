import JournalCore

/// The tracker an exported history came from.
public enum HistorySource: String, Sendable, Hashable, CaseIterable, Codable {
  case strong
  case hevy

  /// The tracker's name, for people.
  public var displayName: String {
    switch self {
    case .strong: "Strong"
    case .hevy: "Hevy"
    }
  }
}

/// What kind of set a tracker recorded.
public enum SetKind: String, Sendable, Hashable, CaseIterable, Codable {
  case normal
  /// Not counted in records or e1RM; counted in volume (docs/Import.md).
  case warmUp = "warmup"
  case drop
  case failure

  /// The kind for people: `warm-up`, `drop set`, `failure`, `normal`.
  public var displayName: String {
    switch self {
    case .normal: "normal"
    case .warmUp: "warm-up"
    case .drop: "drop set"
    case .failure: "failure"
    }
  }
}

/// What the file said of one imported set that the documents have no field for, and where.
public struct ImportedSet: Sendable, Hashable, Codable {
  /// The id of the `set.completed` event that recorded the set.
  public var setEventID: String
  /// The 1-based line of the file the set was read from.
  public var line: Int
  public var kind: SetKind
  /// The set's order as the file wrote it (`1`, `W`, `0`…).
  public var order: String
  public var rpe: Double?
  /// The distance, in ``distanceUnit``.
  public var distance: Double?
  public var distanceUnit: String?
  /// Seconds the file gave a set of an exercise whose sets count reps (the documents keep
  /// seconds only for timed exercises).
  public var seconds: Int?
  /// The weight as the file wrote it, in the event's `fileUnit`, when it was converted.
  public var fileWeight: Double?
  public var notes: String?
  /// The rest after the set (a Strong rest-timer row).
  public var restSeconds: Int?
  /// Hevy's superset group of the set's exercise.
  public var superset: String?

  public init(setEventID: String, line: Int, kind: SetKind = .normal, order: String) {
    self.setEventID = setEventID
    self.line = line
    self.kind = kind
    self.order = order
  }
}

/// `workout.imported`: where a workout read from another tracker's export came from, and what
/// of it the documents have no field for (stream `workout:<id>`, in the same action as the
/// events that recorded the workout).
///
/// The fold gives it no effect on the documents; the reads (``Audit``, ``WorkoutHistory``) show
/// it beside the sets it names.
package struct WorkoutImported: Sendable, Hashable {
  package var source: HistorySource
  /// The file's name (without its folder).
  package var file: String
  /// The lines the workout's rows span.
  package var firstLine: Int
  package var lastLine: Int
  /// A digest of the workout's content as read: a later import of the same workout with a
  /// different digest was edited in the tracker since.
  package var fingerprint: String
  /// The weight unit the journal stores the workout's weights in.
  package var unit: WeightUnit
  /// The weight unit of the file, when it says one.
  package var fileUnit: WeightUnit?
  /// The workout's notes (Strong's `Workout Notes`, Hevy's `description`).
  package var notes: String?
  package var sets: [ImportedSet]

  package init(
    source: HistorySource,
    file: String,
    firstLine: Int,
    lastLine: Int,
    fingerprint: String,
    unit: WeightUnit,
    fileUnit: WeightUnit?,
    notes: String?,
    sets: [ImportedSet]
  ) {
    self.source = source
    self.file = file
    self.firstLine = firstLine
    self.lastLine = lastLine
    self.fingerprint = fingerprint
    self.unit = unit
    self.fileUnit = fileUnit
    self.notes = notes
    self.sets = sets
  }
}

extension WorkoutImported {
  init(_ p: PayloadReader) throws(PayloadError) {
    guard let source = HistorySource(rawValue: try p.string("source")) else {
      throw PayloadError(type: p.type, message: "field 'source' must be 'strong' or 'hevy'")
    }
    guard let unit = WeightUnit(rawValue: try p.string("unit")) else {
      throw PayloadError(type: p.type, message: "field 'unit' must be 'kg' or 'lb'")
    }
    var fileUnit: WeightUnit?
    if let raw = try p.optionalString("fileUnit") {
      guard let parsed = WeightUnit(rawValue: raw) else {
        throw PayloadError(type: p.type, message: "field 'fileUnit' must be 'kg' or 'lb'")
      }
      fileUnit = parsed
    }
    var sets: [ImportedSet] = []
    for s in try p.objects("sets") {
      let kindName = try s.optionalString("kind") ?? SetKind.normal.rawValue
      guard let kind = SetKind(rawValue: kindName) else {
        throw PayloadError(type: p.type, message: "unknown set kind '\(kindName)'")
      }
      var set = ImportedSet(
        setEventID: try s.string("set"),
        line: try s.int("line"),
        kind: kind,
        order: try s.string("order")
      )
      set.rpe = try s.optionalDouble("rpe")
      set.distance = try s.optionalDouble("distance")
      set.distanceUnit = try s.optionalString("distanceUnit")
      set.seconds = try s.optionalInt("seconds")
      set.fileWeight = try s.optionalDouble("fileWeight")
      set.notes = try s.optionalString("notes")
      set.restSeconds = try s.optionalInt("rest")
      set.superset = try s.optionalString("superset")
      sets.append(set)
    }
    self.init(
      source: source,
      file: try p.string("file"),
      firstLine: try p.int("firstLine"),
      lastLine: try p.int("lastLine"),
      fingerprint: try p.string("fingerprint"),
      unit: unit,
      fileUnit: fileUnit,
      notes: try p.optionalString("notes"),
      sets: sets
    )
  }

  func write(to w: inout PayloadWriter) {
    w.set("source", source.rawValue)
    w.set("file", file)
    w.set("firstLine", firstLine)
    w.set("lastLine", lastLine)
    w.set("fingerprint", fingerprint)
    w.set("unit", unit.rawValue)
    w.set("fileUnit", fileUnit?.rawValue)
    w.set("notes", notes)
    let sets = sets.map { s -> JSONValue in
      var inner = PayloadWriter()
      inner.set("set", s.setEventID)
      inner.set("line", s.line)
      if s.kind != .normal { inner.set("kind", s.kind.rawValue) }
      inner.set("order", s.order)
      inner.set("rpe", s.rpe)
      inner.set("distance", s.distance)
      inner.set("distanceUnit", s.distanceUnit)
      inner.set("seconds", s.seconds)
      inner.set("fileWeight", s.fileWeight)
      inner.set("notes", s.notes)
      inner.set("rest", s.restSeconds)
      inner.set("superset", s.superset)
      return inner.value
    }
    w.set("sets", JSONValue.array(sets))
  }
}
