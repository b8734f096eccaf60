// swift-tools-version:6.2
import PackageDescription

// Benchmarks that need more than the product may use: here SQLite, a system library. A package
// of its own, so that building the journal never needs it. See README.md.
let package = Package(
  name: "journal-benchmarks",
  dependencies: [
    // The journal itself: DeviceWriter, EventLog, the JSON parser.
    .package(name: "workout-journal", path: "..")
  ],
  targets: [
    // The system's SQLite (libsqlite3-dev on Debian and Ubuntu, sqlite on Homebrew).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // The journal against SQLite on the same events: appends, group commit, reading back.
    .executableTarget(
      name: "journal-vs-sqlite",
      dependencies: [
        "CSQLite",
        .product(name: "JournalCore", package: "workout-journal"),
        .product(name: "JournalProjections", package: "workout-journal"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
