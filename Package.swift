// swift-tools-version:6.0
import PackageDescription

// Searchlight depends on the Swift toolchain only: no package dependencies, by design.
//
// Layers, one direction of dependency (each is a module; its folders are its parts):
//   Searchlight               the Core Spotlight API: items, index, queries, activities, web markup
//   SearchlightQueryLanguage  the CSSearchQuery language: lexer, parser, AST with source positions
//   SearchlightEngine         analyzer, term dictionary, postings, scoring, segments, store

/// Every folder carries a README.md overview: documentation, not resources. Listed here by hand because
/// SwiftPM caches evaluated manifests (a computed list goes stale when a folder is added); a test checks that
/// the list names every README.md under Sources.
let overviews: [String: [String]] = [
    "Searchlight": ["README.md", "Activities/README.md", "Index/README.md", "Interchange/README.md", "Model/README.md",
                    "Query/README.md", "WebMarkup/README.md"],
    "SearchlightEngine": ["README.md", "Analysis/README.md", "Compression/README.md", "Index/README.md",
                          "Postings/README.md", "Query/README.md", "Store/README.md", "TermDictionary/README.md"],
    "SearchlightQueryLanguage": ["README.md", "AST/README.md", "Lexer/README.md", "Parser/README.md",
                                 "Patterns/README.md", "Time/README.md"],
    "SearchlightCLI": ["README.md", "Commands/README.md"],
    "SearchlightCrashChild": ["README.md"],
]

let package = Package(
    name: "Searchlight",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Searchlight", targets: ["Searchlight"]),
        .library(name: "SearchlightEngine", targets: ["SearchlightEngine"]),
        .library(name: "SearchlightQueryLanguage", targets: ["SearchlightQueryLanguage"]),
        .executable(name: "searchlight", targets: ["SearchlightCLI"]),
        .executable(name: "searchlight-crash-child", targets: ["SearchlightCrashChild"]),
    ],
    targets: [
        .target(name: "SearchlightEngine", exclude: overviews["SearchlightEngine", default: []]),
        .target(name: "SearchlightQueryLanguage", exclude: overviews["SearchlightQueryLanguage", default: []]),
        .target(
            name: "Searchlight",
            dependencies: ["SearchlightEngine", "SearchlightQueryLanguage"],
            exclude: overviews["Searchlight", default: []]),
        .executableTarget(
            name: "SearchlightCLI",
            dependencies: ["Searchlight", "SearchlightEngine", "SearchlightQueryLanguage"],
            exclude: overviews["SearchlightCLI", default: []]),
        // Indexes batches until killed; the crash test runs it (swift build builds it with the tests).
        .executableTarget(
            name: "SearchlightCrashChild", dependencies: ["Searchlight", "SearchlightEngine"],
            exclude: overviews["SearchlightCrashChild", default: []]),
        .testTarget(name: "SearchlightEngineTests", dependencies: ["SearchlightEngine"]),
        .testTarget(name: "SearchlightQueryLanguageTests", dependencies: ["SearchlightQueryLanguage"]),
        .testTarget(name: "SearchlightTests", dependencies: ["Searchlight", "SearchlightEngine"]),
    ],
    swiftLanguageModes: [.v6]
)
