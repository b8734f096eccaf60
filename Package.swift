// swift-tools-version:6.2
import PackageDescription

let package = Package(
  name: "workout-journal",
  products: [
    .library(name: "JournalCore", targets: ["JournalCore"]),
    .library(name: "JournalProjections", targets: ["JournalProjections"]),
    .executable(name: "journal", targets: ["journal"]),
  ],
  targets: [
    // Libraries
    // Storage: JSON values, records, clocks, hashing, the append-only log.
    .target(name: "JournalCore"),
    // Documents, events, the fold, validation, rebuild.
    .target(name: "JournalProjections", dependencies: ["JournalCore"]),
    // The command line's commands and output, so they can be tested in-process.
    .target(name: "JournalCLI", dependencies: ["JournalCore", "JournalProjections"]),

    // Executables
    .executableTarget(name: "journal", dependencies: ["JournalCLI"]),
    // Benchmarks against the machine's limits and Foundation (docs/Performance.md).
    .executableTarget(name: "journal-bench", dependencies: ["JournalCore", "JournalProjections"]),

    // Test support (not a product)
    .target(
      name: "JournalTestSupport",
      dependencies: ["JournalCore", "JournalProjections"],
      path: "Tests/JournalTestSupport"
    ),

    // Tests: one target per library target
    .testTarget(
      name: "JournalCoreTests",
      dependencies: ["JournalCore", "JournalTestSupport"],
      exclude: ["Vectors"]
    ),
    .testTarget(
      name: "JournalProjectionsTests",
      dependencies: ["JournalProjections", "JournalTestSupport"],
      exclude: ["Golden"]
    ),
    .testTarget(
      name: "JournalCLITests",
      // "journal" so the binary is built for the end-to-end tests.
      dependencies: ["JournalCLI", "journal", "JournalTestSupport"],
      exclude: ["Golden"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
