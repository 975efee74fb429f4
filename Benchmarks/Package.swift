// swift-tools-version:6.0
import PackageDescription

// The benchmark harness: Searchlight beside SQLite FTS5 on the same items, in the same process.
// A nested package so the root package keeps its rule of no dependencies; this one depends on the
// root package by path and on the system SQLite (libsqlite3-dev) through a system-library target.
let package = Package(
    name: "SearchlightBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "searchlight-bench", targets: ["searchlight-bench"]),
        .executable(name: "searchlight-api-bench", targets: ["searchlight-api-bench"]),
    ],
    dependencies: [
        .package(name: "Searchlight", path: ".."),
    ],
    targets: [
        /// The system SQLite (must be built with FTS5, as Debian's and Apple's are).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        /// glibc's malloc.h (malloc_trim), so RSS readings are not inflated by freed-but-kept heap.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        /// Corpus reading, query workload, the BenchEngine protocol, both engines, timing and reports.
        .target(
            name: "BenchKit",
            dependencies: [
                "CSQLite",
                "CMalloc",
                .product(name: "SearchlightEngine", package: "Searchlight"),
            ],
            exclude: ["README.md"]),
        .executableTarget(name: "searchlight-bench", dependencies: ["BenchKit"]),
        /// The same corpus through the public Core Spotlight API (read, index, durable store, user queries).
        .executableTarget(
            name: "searchlight-api-bench",
            dependencies: [
                "BenchKit",
                .product(name: "Searchlight", package: "Searchlight"),
                .product(name: "SearchlightQueryLanguage", package: "Searchlight"),
            ]),
        .testTarget(name: "BenchKitTests", dependencies: ["BenchKit"]),
    ],
    swiftLanguageModes: [.v6]
)
