// swift-tools-version:6.0
import Foundation
import PackageDescription

// Searchlight depends on the Swift toolchain only: no package dependencies, by design.
//
// Layers, one direction of dependency (each is a module; its folders are its parts):
//   Searchlight               the Core Spotlight API: items, index, queries, activities, web markup
//   SearchlightQueryLanguage  the CSSearchQuery language: lexer, parser, AST with source positions
//   SearchlightEngine         analyzer, term dictionary, postings, scoring, segments, store

/// Every folder carries a README.md overview; they are documentation, not resources.
func overviews(in target: String, root: String = "Sources") -> [String] {
    let base = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent(root).appendingPathComponent(target)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
    return walker.compactMap { $0 as? String }.filter { ($0 as NSString).lastPathComponent == "README.md" }
}

let package = Package(
    name: "Searchlight",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Searchlight", targets: ["Searchlight"]),
        .library(name: "SearchlightEngine", targets: ["SearchlightEngine"]),
        .executable(name: "searchlight-crash-child", targets: ["SearchlightCrashChild"]),
    ],
    targets: [
        .target(name: "SearchlightEngine", exclude: overviews(in: "SearchlightEngine")),
        .target(name: "SearchlightQueryLanguage", exclude: overviews(in: "SearchlightQueryLanguage")),
        .target(
            name: "Searchlight",
            dependencies: ["SearchlightEngine", "SearchlightQueryLanguage"],
            exclude: overviews(in: "Searchlight")),
        // Indexes batches until killed; the crash test runs it (swift build builds it with the tests).
        .executableTarget(
            name: "SearchlightCrashChild", dependencies: ["Searchlight", "SearchlightEngine"],
            path: "Sources/SearchlightCrashChild", exclude: ["README.md"]),
        .testTarget(name: "SearchlightEngineTests", dependencies: ["SearchlightEngine"]),
        .testTarget(name: "SearchlightQueryLanguageTests", dependencies: ["SearchlightQueryLanguage"]),
        .testTarget(name: "SearchlightTests", dependencies: ["Searchlight", "SearchlightEngine"]),
    ],
    swiftLanguageModes: [.v6]
)
