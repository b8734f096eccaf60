import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A journal folder: the append-only event log of every device.
///
/// ```text
/// <journal>/journal.json                  {"format":"workout-journal","version":1}
/// <journal>/devices/<device>/000001.jsonl  one record per line; rolls at a size limit
/// ```
///
/// Each device appends only to its own folder, through a ``DeviceWriter`` that holds an OS
/// lock, so devices that share the folder through a file-sync service never write the same
/// file. Reading never modifies a file.
///
/// ```swift
/// let log = try EventLog.create(at: url)
/// let writer = try log.openWriter(device: "phone")
/// try writer.append([NewEvent(stream: "workout:01J…", type: "workout.started", version: 1,
///                             payload: ["split": "01J…"])])
/// let history = try log.readHistory()  // every device, merged by (ms, lc, device, seq)
/// ```
///
/// See `docs/OnDiskFormat.md` for the exact bytes.
public struct EventLog: Sendable {
  /// The journal folder.
  public let url: URL
  /// The system calls the journal's files are written through: the seam tests inject
  /// failures at.
  package let fileIO: any FileIO

  /// The on-disk format version this build writes and the highest it reads.
  public static let formatVersion = 1
  /// The marker file's name inside the journal folder.
  public static let markerFileName = "journal.json"
  /// The folder holding one folder per device.
  public static let devicesFolderName = "devices"

  /// Opens an existing journal.
  ///
  /// Only the marker is read; nothing is checked or modified.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/notAJournal`` when `url` has no
  ///   valid `journal.json` or it names a newer format version.
  public init(at url: URL) throws {
    try self.init(at: url, fileIO: SystemFileIO())
  }

  package init(at url: URL, fileIO: any FileIO) throws {
    self.url = url.standardizedFileURL
    self.fileIO = fileIO
    try checkMarker()
  }

  /// Opens the journal at `url`, creating the folder and its marker first if needed.
  ///
  /// New folders are created readable by the owner only (`0700`), the marker `0600`. Missing
  /// parent folders are created too, each private to the owner, like the journal folder. Several
  /// processes may create the same journal at once.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/notAJournal`` when `url` is a
  ///   non-empty folder that is not a journal, or ``JournalError/Kind/io``.
  public static func create(at url: URL) throws -> EventLog {
    try create(at: url, fileIO: SystemFileIO())
  }

  package static func create(at url: URL, fileIO: any FileIO) throws -> EventLog {
    let root = url.standardizedFileURL
    let marker = root.appendingPathComponent(markerFileName).path
    do {
      try makeParents(of: root, fileIO: fileIO)
      if try fileIO.makeDirectory(root.path, mode: 0o700) {
        try fileIO.syncDirectory(root.deletingLastPathComponent().path)
      }
      if !FileManager.default.fileExists(atPath: marker) {
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        // A racing creator may have just renamed its marker into place.
        let foreign = contents.filter {
          !$0.hasPrefix(".") && $0 != devicesFolderName && $0 != markerFileName
        }
        guard foreign.isEmpty else {
          throw JournalError(
            .notAJournal,
            file: root.path,
            "folder is not empty and is not a journal"
          )
        }
        // Write a unique temporary file and rename it, so racing creators never see a
        // half-written marker.
        let temporary = root.appendingPathComponent(".\(markerFileName).\(getpid()).tmp").path
        let text = #"{"format":"workout-journal","version":\#(formatVersion)}"# + "\n"
        try? FileManager.default.removeItem(atPath: temporary)
        try fileIO.createFile(temporary, bytes: Array(text.utf8), durable: true)
        try fileIO.rename(temporary, to: marker)
      }
      let devices = root.appendingPathComponent(devicesFolderName).path
      _ = try fileIO.makeDirectory(devices, mode: 0o700)
      try fileIO.syncDirectory(root.path)
    } catch let failure as SystemFailure {
      throw failure.journalError()
    }
    return try EventLog(at: root, fileIO: fileIO)
  }

  /// Creates the missing folders above `root`, outermost first.
  ///
  /// Each is `0700` and made durable in its parent. When one cannot be created, those this
  /// call made are removed again.
  private static func makeParents(of root: URL, fileIO: any FileIO) throws(SystemFailure) {
    var missing: [String] = []
    var parent = root.deletingLastPathComponent()
    while parent.path != "/", !parent.path.isEmpty,
      !FileManager.default.fileExists(atPath: parent.path)
    {
      missing.append(parent.path)
      parent = parent.deletingLastPathComponent()
    }
    var made: [String] = []
    do {
      for folder in missing.reversed() where try fileIO.makeDirectory(folder, mode: 0o700) {
        made.append(folder)
        try fileIO.syncDirectory(URL(fileURLWithPath: folder).deletingLastPathComponent().path)
      }
    } catch {
      for folder in made.reversed() { try? FileManager.default.removeItem(atPath: folder) }
      throw error
    }
  }

  private func checkMarker() throws {
    let path = url.appendingPathComponent(EventLog.markerFileName).path
    let bytes: [UInt8]
    do {
      bytes = try fileIO.readFile(path)
    } catch {
      throw JournalError(
        .notAJournal,
        file: url.path,
        "not a journal: cannot read '\(EventLog.markerFileName)'"
      )
    }
    let marker = try? JSONValue.parse(bytes)
    guard let marker, marker["format"]?.stringValue == "workout-journal",
      let version = marker["version"]?.intValue
    else {
      throw JournalError(
        .notAJournal,
        file: EventLog.markerFileName,
        "not a workout journal marker"
      )
    }
    guard version <= EventLog.formatVersion, version >= 1 else {
      throw JournalError(
        .notAJournal,
        file: EventLog.markerFileName,
        "journal format version \(version) is newer than this build supports "
          + "(\(EventLog.formatVersion))"
      )
    }
  }

  // MARK: - Devices

  /// Whether `name` is a valid device name: 1–64 characters of `a-z 0-9 . _ -`, not
  /// starting with a dot.
  public static func isValidDeviceName(_ name: String) -> Bool {
    let utf8 = name.utf8
    guard (1...64).contains(utf8.count), utf8.first != UInt8(ascii: ".") else { return false }
    return utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
        true
      default: false
      }
    }
  }

  /// Checks a device name.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/invalidDeviceName``.
  public static func validateDeviceName(_ name: String) throws {
    guard isValidDeviceName(name) else {
      throw JournalError(
        .invalidDeviceName,
        "invalid device name '\(name)': use 1 to 64 characters of a-z, 0-9, '.', '_' and '-', "
          + "not starting with '.'"
      )
    }
  }

  /// The devices that have a folder in the journal, sorted by name.
  ///
  /// Folders whose names are not valid device names are left out (``verify()`` reports them).
  public func deviceNames() throws -> [String] {
    let folder = url.appendingPathComponent(EventLog.devicesFolderName)
    guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
    do {
      return try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { EventLog.isValidDeviceName($0) && isDirectory(folder.appendingPathComponent($0)) }
        .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    } catch {
      throw JournalError(.io, file: EventLog.devicesFolderName, "cannot list the devices")
    }
  }

  /// Refuses to write to a journal whose folder, or whose `devices` folder, others than its
  /// owner may write to: health data is private, and another user could plant files
  /// (or symbolic links) in it.
  ///
  /// - Throws: ``JournalError`` of kind ``JournalError/Kind/unsafePermissions``.
  func checkWritablePermissions() throws(JournalError) {
    for folder in [url, url.appendingPathComponent(EventLog.devicesFolderName)] {
      var info = stat()
      guard stat(folder.path, &info) == 0 else { continue }
      let mode = info.st_mode & 0o7777
      guard mode & 0o022 == 0 else {
        let name = folder == url ? "journal folder" : "folder '\(EventLog.devicesFolderName)'"
        throw JournalError(
          .unsafePermissions,
          file: folder.path,
          "the \(name) can be written by others than its owner (mode "
            + "\(String(mode, radix: 8))); nothing was written. "
            + "Fix it with: chmod 700 '\(folder.path)'"
        )
      }
    }
  }

  /// The folder of `device`.
  func deviceFolder(_ device: String) -> URL {
    url.appendingPathComponent(EventLog.devicesFolderName).appendingPathComponent(device)
  }

  /// The path of `device`'s file `name`, relative to the journal folder.
  func relativePath(device: String, file name: String) -> String {
    "\(EventLog.devicesFolderName)/\(device)/\(name)"
  }
}

/// Whether `url` names an existing directory.
func isDirectory(_ url: URL) -> Bool {
  var flag: ObjCBool = false
  return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
}
