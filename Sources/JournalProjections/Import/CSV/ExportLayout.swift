import Foundation

/// What a column of an export holds.
enum ExportColumn: String, Sendable, Hashable, CaseIterable {
  case workoutNumber, start, end, title, duration, durationSeconds, workoutNotes
  case exercise, superset, exerciseNotes, setOrder, setIndex, setType
  case weight, weightUnit, reps, rpe, distance, distanceUnit, seconds, notes
}

/// The columns of an export, recognised by their header: which tracker, which column holds
/// what, and the units the header names.
struct ExportLayout: Sendable, Hashable {
  var source: HistorySource
  /// The index of each column.
  var columns: [ExportColumn: Int]
  /// The weight unit the header names (`Weight (kg)`, `weight_lbs`, `kg`).
  var weightUnit: WeightUnit?
  /// The distance unit the header names (`Distance (meters)`, `distance_km`).
  var distanceUnit: String?
  /// How many columns the header has.
  var width: Int

  /// The layout of `header`, for `source` when given, else the tracker it looks like.
  ///
  /// - Throws: ``HistoryImportError`` when the header is no known export, or names a column
  ///   this build does not know.
  init(header: [String], source wanted: HistorySource?) throws(HistoryImportError) {
    let names = header.map(Self.normalized)
    let looksHevy = names.contains("exercise_title") && names.contains("start_time")
    let source = wanted ?? (looksHevy ? .hevy : .strong)
    var columns: [ExportColumn: Int] = [:]
    var weightUnit: WeightUnit?
    var distanceUnit: String?
    var unknown: [String] = []
    for (index, name) in names.enumerated() {
      guard let found = Self.column(name, source: source) else {
        unknown.append(header[index].trimmingCharacters(in: .whitespaces))
        continue
      }
      guard columns[found.column] == nil else {
        throw HistoryImportError("column '\(header[index])' appears twice in the header")
      }
      columns[found.column] = index
      if let unit = found.weightUnit { weightUnit = unit }
      if let unit = found.distanceUnit { distanceUnit = unit }
    }
    let required: [ExportColumn] =
      source == .hevy
      ? [.title, .start, .end, .exercise, .setIndex, .setType]
      : [.start, .title, .exercise, .setOrder]
    let missing = required.filter { columns[$0] == nil }
    if wanted == nil, missing.count == required.count {
      throw HistoryImportError(
        "not a Strong or Hevy export: the header has none of their columns",
        hint: "export from Strong (Settings › Export data) or Hevy (Settings › Export data), "
          + "or pass --format strong|hevy"
      )
    }
    if let first = unknown.first {
      throw HistoryImportError(
        "unknown column '\(first)' in the header of a \(source.displayName) export",
        hint: "columns are recognised in English, German and French (docs/Import.md)"
      )
    }
    if !missing.isEmpty {
      throw HistoryImportError(
        "not a \(source.displayName) export: no "
          + missing.map { "'\(Self.englishName($0, source))'" }.joined(separator: ", ")
          + " column"
      )
    }
    self.source = source
    self.columns = columns
    self.weightUnit = weightUnit
    self.distanceUnit = distanceUnit
    self.width = header.count
  }

  /// A header cell lowercased, without surrounding spaces or a byte order mark.
  static func normalized(_ name: String) -> String {
    name.trimmingCharacters(in: CharacterSet.whitespaces.union(["\u{FEFF}"])).lowercased()
  }

  /// The column a header cell names, and the unit it names.
  static func column(
    _ name: String,
    source: HistorySource
  ) -> (column: ExportColumn, weightUnit: WeightUnit?, distanceUnit: String?)? {
    switch source {
    case .hevy:
      switch name {
      case "title": return (.title, nil, nil)
      case "start_time": return (.start, nil, nil)
      case "end_time": return (.end, nil, nil)
      case "description": return (.workoutNotes, nil, nil)
      case "exercise_title": return (.exercise, nil, nil)
      case "superset_id": return (.superset, nil, nil)
      case "exercise_notes": return (.exerciseNotes, nil, nil)
      case "set_index": return (.setIndex, nil, nil)
      case "set_type": return (.setType, nil, nil)
      case "weight_kg": return (.weight, .kg, nil)
      case "weight_lbs": return (.weight, .lb, nil)
      case "reps": return (.reps, nil, nil)
      case "distance_km": return (.distance, nil, "km")
      case "distance_miles": return (.distance, nil, "mi")
      case "duration_seconds": return (.seconds, nil, nil)
      case "rpe": return (.rpe, nil, nil)
      default: return nil
      }
    case .strong:
      // A unit in brackets after the name: `Weight (kg)`, `Distance (meters)`.
      var base = name
      var unit: String?
      if name.hasSuffix(")"), let open = name.lastIndex(of: "(") {
        base = name[..<open].trimmingCharacters(in: .whitespaces)
        unit = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
          .trimmingCharacters(in: .whitespaces)
      }
      if unit == nil {
        // Older exports name the weight and distance columns by their unit alone.
        if let weight = Self.weightUnit(base) { return (.weight, weight, nil) }
        if let distance = Self.distanceUnit(base) { return (.distance, nil, distance) }
      }
      guard let column = strongNames[base] else { return nil }
      switch (column, unit) {
      case (_, nil): return (column, nil, nil)
      case (.weight, let unit?):
        guard let weight = Self.weightUnit(unit) else { return nil }
        return (.weight, weight, nil)
      case (.distance, let unit?):
        guard let distance = Self.distanceUnit(unit) else { return nil }
        return (.distance, nil, distance)
      case (.duration, "sec"), (.duration, "s"), (.duration, "seconds"):
        return (.durationSeconds, nil, nil)
      default: return nil
      }
    }
  }

  /// `kg`, `lb` from the ways exports spell them.
  static func weightUnit(_ text: String) -> WeightUnit? {
    switch normalized(text) {
    case "kg", "kgs", "kilograms": .kg
    case "lb", "lbs", "pounds": .lb
    default: nil
    }
  }

  /// A distance unit from the ways exports spell it: `m`, `km`, `mi`, `ft`, `yd`.
  static func distanceUnit(_ text: String) -> String? {
    switch normalized(text) {
    case "m", "meters", "metres", "meter": "m"
    case "km", "kilometers", "kilometres": "km"
    case "mi", "mi.", "miles", "mile": "mi"
    case "ft", "feet": "ft"
    case "yd", "yards": "yd"
    default: nil
    }
  }

  /// Strong's column names, lowercased, in English and in the translations we know.
  static let strongNames: [String: ExportColumn] = {
    var names: [String: ExportColumn] = [:]
    let spellings: [ExportColumn: [String]] = [
      .workoutNumber: ["workout #", "training #", "séance #", "entraînement #"],
      .start: ["date", "datum"],
      .title: [
        "workout name", "workout-name", "trainingsname", "name des trainings",
        "nom de l'entraînement", "nom de la séance",
      ],
      .duration: [
        "duration", "workout duration", "dauer", "trainingsdauer", "durée",
        "durée de l'entraînement",
      ],
      .exercise: ["exercise name", "übungsname", "übung", "nom de l'exercice", "exercice"],
      .setOrder: ["set order", "satzreihenfolge", "satz", "ordre des séries", "série"],
      .weight: ["weight", "gewicht", "poids"],
      .weightUnit: ["weight unit", "gewichtseinheit", "unité de poids"],
      .reps: ["reps", "wiederholungen", "wdh.", "répétitions", "rép."],
      .rpe: ["rpe"],
      .distance: ["distance", "distanz", "strecke"],
      .distanceUnit: ["distance unit", "distanzeinheit", "unité de distance"],
      .seconds: ["seconds", "sekunden", "secondes"],
      .notes: ["notes", "notizen", "notiz"],
      .workoutNotes: [
        "workout notes", "trainingsnotizen", "workout-notizen", "notes de l'entraînement",
        "notes de séance",
      ],
    ]
    for (column, list) in spellings { for name in list { names[name] = column } }
    return names
  }()

  /// The English header of `column` in `source`'s export, for messages.
  static func englishName(_ column: ExportColumn, _ source: HistorySource) -> String {
    switch (source, column) {
    case (.hevy, .title): "title"
    case (.hevy, .start): "start_time"
    case (.hevy, .end): "end_time"
    case (.hevy, .exercise): "exercise_title"
    case (.hevy, .setIndex): "set_index"
    case (.hevy, .setType): "set_type"
    case (.strong, .start): "Date"
    case (.strong, .title): "Workout Name"
    case (.strong, .exercise): "Exercise Name"
    case (.strong, .setOrder): "Set Order"
    default: column.rawValue
    }
  }
}
