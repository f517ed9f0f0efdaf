// swift-tools-version:6.0
// anim: an interpreter for a small animation scripting language.
// AnimCore is the library (every pass and the Session API); AnimStudio the live studio
// (`anim serve`, `anim watch`); `anim` is the thin executable.
import PackageDescription

let package = Package(
    name: "anim",
    // macOS 15 for the Synchronization module (atomics) that AnimStudio uses.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "anim", targets: ["anim"]),
        .library(name: "AnimCore", targets: ["AnimCore"]),
        .library(name: "AnimStudio", targets: ["AnimStudio"]),
        .library(name: "AnimLanguageServer", targets: ["AnimLanguageServer"]),
    ],
    targets: [
        // GNU readline through the system headers (no pkgConfig: the headers are on the default path).
        .systemLibrary(name: "CReadline", path: "Sources/CReadline"),
        // libpng's simplified API for PNG frames and contact sheets (Output/Raster).
        .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
        // FreeType's outline rasterizer, stroker and font loader (the vector drawing layer in
        // Output/Raster), and fontconfig to find fonts by family and weight.
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
                       providers: [.apt(["libfontconfig-dev"]), .brew(["fontconfig"])]),
        // Release builds drop the run-time exclusivity checks (debug builds and tests keep them):
        // the interpreter's state lives in a class, and checking every access to it cost a
        // tenth of a run's instructions.
        .target(name: "AnimCore", dependencies: ["CPNG", "CFreeType", "CFontconfig"], path: "Sources/AnimCore",
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))],
                linkerSettings: [.linkedLibrary("m")]),
        // The live studio (`anim serve`, `anim watch`): an HTTP/1.1 server with Server-Sent
        // Events on POSIX sockets, and file watching (inotify, kqueue, polling). No outside packages.
        .target(name: "AnimStudio", dependencies: ["AnimCore"], path: "Sources/AnimStudio"),
        // `anim lsp`: the Language Server Protocol over stdio, on the standard library alone
        // (no Foundation, so the other commands start as fast as before).
        .target(name: "AnimLanguageServer", dependencies: ["AnimCore"], path: "Sources/AnimLanguageServer"),
        .executableTarget(name: "anim", dependencies: ["AnimCore", "AnimStudio", "AnimLanguageServer", "CReadline"], path: "Sources/anim"),
        .target(name: "AnimTestSupport", dependencies: ["AnimCore"], path: "Sources/AnimTestSupport"),
        .testTarget(name: "AnimCoreTests", dependencies: ["AnimCore", "AnimTestSupport"], path: "Tests/AnimCoreTests"),
        .testTarget(name: "AnimLanguageServerTests", dependencies: ["anim", "AnimLanguageServer", "AnimCore", "AnimTestSupport"],
                    path: "Tests/AnimLanguageServerTests", exclude: ["Markers"]),
        .testTarget(name: "AnimCLITests", dependencies: ["anim", "AnimCore", "AnimTestSupport"], path: "Tests/AnimCLITests"),
        .testTarget(name: "AnimStudioTests", dependencies: ["AnimStudio", "AnimCore", "AnimTestSupport"], path: "Tests/AnimStudioTests"),
    ]
)

// The libFuzzer targets (Fuzz/README.md) exist only when ANIM_FUZZ is set: each is an
// executable whose `main` comes from libFuzzer, so it links only with `-sanitize=fuzzer`, and a
// plain `swift build` or `swift test` must not try. `Scripts/fuzz` sets the variable and builds
// them in their own scratch directory (.build/fuzz).
if Context.environment["ANIM_FUZZ"] != nil {
    package.targets += [
        .executableTarget(name: "FuzzRun", dependencies: ["AnimCore"], path: "Fuzz/FuzzRun"),
        .executableTarget(name: "FuzzRepl", dependencies: ["AnimCore"], path: "Fuzz/FuzzRepl"),
        .executableTarget(name: "FuzzCheck", dependencies: ["AnimCore"], path: "Fuzz/FuzzCheck"),
    ]
}
