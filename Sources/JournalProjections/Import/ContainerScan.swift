import Foundation
import JournalCore

/// One document file found in a container, its place checked.
struct ContainerFile: Sendable, Hashable {
  /// The path relative to the container, `/`-separated.
  var path: String
  var url: URL
  var kind: DocumentUpgrades.Kind
  var isStub: Bool
  /// The id the file name gives.
  var id: String
  /// For workouts, the `YYYY/MM` folder.
  var year: Int?
  var month: Int?

  /// The path of the live document this file is, or is the stub of.
  var livePath: String { isStub ? String(path.dropFirst("Stubs/".count)) : path }
}

/// Walks a container for its document files.
///
/// The files are `Splits/<id>.json`, `Workouts/YYYY/MM/<id>.json` and the
/// same paths under `Stubs/`. Symbolic links are never followed, names
/// must be ULIDs, and anything out of place is reported, not read.
struct ContainerScan {
  var files: [ContainerFile] = []
  var skipped: [ImportReport.Item] = []

  /// Scans the container at `root`.
  ///
  /// - Throws: ``ContainerImportError`` when `root` has none of the three folders.
  init(root: URL) throws {
    let top = ["Splits", "Workouts", "Stubs"]
    let present = top.filter { Self.isDirectory(root.appendingPathComponent($0)) }
    guard !present.isEmpty else {
      throw ContainerImportError(
        "'\(root.path)' is not an app container: it has no Splits, Workouts or Stubs folder"
      )
    }
    for name in present {
      switch name {
      case "Splits": scanSplits(root.appendingPathComponent(name), prefix: name, isStub: false)
      case "Workouts": scanWorkouts(root.appendingPathComponent(name), prefix: name, isStub: false)
      default: scanStubs(root.appendingPathComponent(name))
      }
    }
  }

  static func isDirectory(_ url: URL) -> Bool {
    let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
    return values?.isDirectory == true && values?.isSymbolicLink != true
  }

  struct Entry {
    var name: String
    var url: URL
    var isDirectory: Bool
    var isRegularFile: Bool
    var isSymbolicLink: Bool
  }

  mutating func list(_ url: URL, prefix: String) -> [Entry] {
    let keys: [URLResourceKey] = [.isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey]
    guard
      let urls = try? FileManager.default.contentsOfDirectory(
        at: url,
        includingPropertiesForKeys: keys,
        options: []
      )
    else {
      skipped.append(ImportReport.Item(path: prefix, reason: "folder cannot be read"))
      return []
    }
    return urls.map { url in
      let values = try? url.resourceValues(forKeys: Set(keys))
      return Entry(
        name: url.lastPathComponent,
        url: url,
        isDirectory: values?.isDirectory == true,
        isRegularFile: values?.isRegularFile == true,
        isSymbolicLink: values?.isSymbolicLink == true
      )
    }
    .sorted { $0.name < $1.name }
  }

  /// Reports what is not a plain entry of the expected shape; true to keep it.
  mutating func accept(_ entry: Entry, path: String, directory: Bool) -> Bool {
    if entry.name.hasPrefix(".") {
      if entry.name.hasSuffix(".icloud") {
        skipped.append(
          ImportReport.Item(path: path, reason: "not downloaded from iCloud: open it there first")
        )
      }
      return false
    }
    if entry.isSymbolicLink {
      skipped.append(ImportReport.Item(path: path, reason: "symbolic link: not followed"))
      return false
    }
    if directory != entry.isDirectory || (!directory && !entry.isRegularFile) {
      let expected = directory ? "a folder" : "a document file"
      skipped.append(ImportReport.Item(path: path, reason: "expected \(expected) here"))
      return false
    }
    return true
  }

  mutating func scanSplits(_ url: URL, prefix: String, isStub: Bool) {
    for entry in list(url, prefix: prefix) {
      let path = "\(prefix)/\(entry.name)"
      guard accept(entry, path: path, directory: false), let id = documentID(entry.name, path)
      else { continue }
      files.append(
        ContainerFile(path: path, url: entry.url, kind: .split, isStub: isStub, id: id)
      )
    }
  }

  mutating func scanWorkouts(_ url: URL, prefix: String, isStub: Bool) {
    for yearEntry in list(url, prefix: prefix) {
      let yearPath = "\(prefix)/\(yearEntry.name)"
      guard accept(yearEntry, path: yearPath, directory: true) else { continue }
      guard let year = Self.number(yearEntry.name, digits: 4) else {
        skipped.append(ImportReport.Item(path: yearPath, reason: "expected a YYYY year folder"))
        continue
      }
      for monthEntry in list(yearEntry.url, prefix: yearPath) {
        let monthPath = "\(yearPath)/\(monthEntry.name)"
        guard accept(monthEntry, path: monthPath, directory: true) else { continue }
        guard let month = Self.number(monthEntry.name, digits: 2), (1...12).contains(month) else {
          skipped.append(ImportReport.Item(path: monthPath, reason: "expected an MM month folder"))
          continue
        }
        for entry in list(monthEntry.url, prefix: monthPath) {
          let path = "\(monthPath)/\(entry.name)"
          guard accept(entry, path: path, directory: false), let id = documentID(entry.name, path)
          else { continue }
          files.append(
            ContainerFile(
              path: path,
              url: entry.url,
              kind: .workout,
              isStub: isStub,
              id: id,
              year: year,
              month: month
            )
          )
        }
      }
    }
  }

  mutating func scanStubs(_ url: URL) {
    for entry in list(url, prefix: "Stubs") {
      let path = "Stubs/\(entry.name)"
      guard accept(entry, path: path, directory: true) else { continue }
      switch entry.name {
      case "Splits": scanSplits(entry.url, prefix: path, isStub: true)
      case "Workouts": scanWorkouts(entry.url, prefix: path, isStub: true)
      default: skipped.append(ImportReport.Item(path: path, reason: "unexpected folder"))
      }
    }
  }

  /// The id of a `<ULID>.json` file name, or nil (reported).
  mutating func documentID(_ name: String, _ path: String) -> String? {
    guard name.hasSuffix(".json") else {
      skipped.append(ImportReport.Item(path: path, reason: "not a '.json' document"))
      return nil
    }
    let id = String(name.dropLast(".json".count))
    guard ContainerImporter.isValidID(id) else {
      skipped.append(ImportReport.Item(path: path, reason: "file name is not '<ULID>.json'"))
      return nil
    }
    return id
  }

  static func number(_ text: String, digits: Int) -> Int? {
    guard text.utf8.count == digits, text.utf8.allSatisfy({ (48...57).contains($0) }) else {
      return nil
    }
    return Int(text)
  }
}

/// A container that cannot be imported at all.
public struct ContainerImportError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { "error: \(message)" }
}
