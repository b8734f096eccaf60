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
    .target(name: "JournalCore"),  // JSON values, envelope, HLC, ULID, hashing, log storage
    .target(name: "JournalProjections", dependencies: ["JournalCore"]),  // documents, rules, fold
    .target(name: "JournalCLI", dependencies: ["JournalCore", "JournalProjections"]),  // commands, output

    // Executables
    .executableTarget(name: "journal", dependencies: ["JournalCLI"]),

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
      dependencies: ["JournalCLI", "journal", "JournalTestSupport"],  // "journal" so the binary is built
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
