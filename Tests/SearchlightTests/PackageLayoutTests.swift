import Foundation
import XCTest

/// The package's own layout rules: every folder under Sources has a README.md overview, and Package.swift
/// excludes each of them (otherwise SwiftPM warns about unhandled files).
final class PackageLayoutTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testEverySourceFolderHasAnOverviewAndTheManifestExcludesIt() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let sources = Self.root.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") }
        XCTAssertFalse(targets.isEmpty)
        for target in targets.sorted() {
            // The manifest's entry for this target: `"Target": [ ... ]`.
            guard let start = manifest.range(of: "\"\(target)\": ["),
                  let end = manifest.range(of: "]", range: start.upperBound..<manifest.endIndex) else {
                XCTFail("Package.swift lists no overviews for \(target)")
                continue
            }
            let listed = manifest[start.upperBound..<end.lowerBound]
            let base = sources.appendingPathComponent(target)
            let walker = try XCTUnwrap(FileManager.default.enumerator(atPath: base.path))
            var folders: Set<String> = [""]
            var readmes: Set<String> = []
            for case let path as String in walker {
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path, isDirectory: &isDirectory)
                if isDirectory.boolValue { folders.insert(path) }
                if (path as NSString).lastPathComponent == "README.md" { readmes.insert(path) }
            }
            for folder in folders {
                let readme = folder.isEmpty ? "README.md" : folder + "/README.md"
                XCTAssertTrue(readmes.contains(readme), "Sources/\(target)/\(readme) is missing: every folder has an overview")
            }
            for readme in readmes {
                XCTAssertTrue(listed.contains("\"\(readme)\""), "Package.swift does not exclude Sources/\(target)/\(readme)")
            }
        }
    }
}
