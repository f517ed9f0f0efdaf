// swift-tools-version:6.0
// anim: an interpreter for a small animation scripting language.
// AnimCore is the library (every pass and the Session API); `anim` is the thin executable.
import PackageDescription

let package = Package(
    name: "anim",
    products: [
        .executable(name: "anim", targets: ["anim"]),
        .library(name: "AnimCore", targets: ["AnimCore"]),
    ],
    targets: [
        // GNU readline through the system headers (no pkgConfig: the headers are on the default path).
        .systemLibrary(name: "CReadline", path: "Sources/CReadline"),
        // libpng's simplified API for PNG frames and contact sheets (Output/Raster).
        .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
        // Release builds drop the run-time exclusivity checks (debug builds and tests keep them):
        // the interpreter's state lives in a class, and checking every access to it cost a
        // tenth of a run's instructions.
        .target(name: "AnimCore", dependencies: ["CPNG"], path: "Sources/AnimCore",
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))],
                linkerSettings: [.linkedLibrary("m")]),
        .executableTarget(name: "anim", dependencies: ["AnimCore", "CReadline"], path: "Sources/anim"),
        .target(name: "AnimTestSupport", dependencies: ["AnimCore"], path: "Sources/AnimTestSupport"),
        .testTarget(name: "AnimCoreTests", dependencies: ["AnimCore", "AnimTestSupport"], path: "Tests/AnimCoreTests"),
        .testTarget(name: "AnimCLITests", dependencies: ["anim", "AnimCore", "AnimTestSupport"], path: "Tests/AnimCLITests"),
    ]
)
