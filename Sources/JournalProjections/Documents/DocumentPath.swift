import Foundation

/// Where documents live in the app's container.
enum DocumentPath {
  /// `Splits/<id>.json`.
  static func split(id: String) -> String { "Splits/\(id).json" }

  /// `Workouts/YYYY/MM/<id>.json`, the month of `start` in `timeZone`'s calendar.
  static func workout(id: String, start: Date, timeZone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month], from: start)
    let year = parts.year ?? 1970
    let month = parts.month ?? 1
    let yyyy = String(year).leftPadded(to: 4)
    let mm = String(month).leftPadded(to: 2)
    return "Workouts/\(yyyy)/\(mm)/\(id).json"
  }

  /// `Stubs/<path>`: where the stub of the document at `path` lives.
  static func stub(of path: String) -> String { "Stubs/\(path)" }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
