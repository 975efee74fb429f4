import Foundation
import XCTest

/// Finds (building it if needed) an executable product of this package, for tests that run a real process.
func packageExecutable(_ name: String) throws -> URL {
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    var candidates = [
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent(),
        Bundle.main.bundleURL,
    ].map { $0.appendingPathComponent(name) }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
    if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
    let build = Process()
    build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    build.arguments = ["swift", "build", "--product", name]
    build.currentDirectoryURL = packageRoot
    try build.run()
    build.waitUntilExit()
    if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
    throw NSError(domain: "PackageExecutable", code: 1,
                  userInfo: [NSLocalizedDescriptionKey: "\(name) was not found (\(candidates.map(\.path))) and could not be built"])
}
