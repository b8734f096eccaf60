// swift-tools-version:6.2
import PackageDescription

// An app's two devices sharing one journal folder: the library as an app embeds it.
let package = Package(
  name: "PhoneAndWatch",
  dependencies: [.package(name: "workout-journal", path: "../..")],
  targets: [
    .executableTarget(
      name: "PhoneAndWatch",
      dependencies: [
        .product(name: "JournalCore", package: "workout-journal"),
        .product(name: "JournalProjections", package: "workout-journal"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
