import Foundation
import XCTest
@testable import Searchlight

/// Runs the real `searchlight` executable: every subcommand, bad input and exit codes.
final class CLITests: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
        func json() throws -> [[String: Any]] {
            try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        }
    }

    private var directory: URL!
    private var store: String { directory.appendingPathComponent("store").path }
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, useStore: Bool = true) throws -> Run {
        let process = Process()
        process.executableURL = try packageExecutable("searchlight")
        process.arguments = arguments + (useStore ? ["--store", store] : [])
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func item(_ id: String, _ title: String, domain: String = "d") -> String {
        #"{"uniqueIdentifier":"\#(id)","domainIdentifier":"\#(domain)","attributeSet":{"title":"\#(title)","contentDescription":"about \#(title)"}}"#
    }

    // MARK: Help and usage

    func testHelpAndUsageErrors() throws {
        let help = try run(["--help"], useStore: false)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("COMMANDS:"))
        for command in ["index", "search", "query", "get", "delete", "state", "stats", "parse", "export", "demo"] {
            let commandHelp = try run([command, "--help"], useStore: false)
            XCTAssertEqual(commandHelp.status, 0, command)
            XCTAssertTrue(commandHelp.stdout.contains("USAGE: searchlight \(command)"), command)
        }
        let unknownCommand = try run(["frobnicate"], useStore: false)
        XCTAssertEqual(unknownCommand.status, 2)
        XCTAssertTrue(unknownCommand.stderr.contains("unknown command 'frobnicate'"))
        let unknownFlag = try run(["search", "x", "--frobnicate"])
        XCTAssertEqual(unknownFlag.status, 2)
        XCTAssertTrue(unknownFlag.stderr.contains("unknown option '--frobnicate'"))
        let missingValue = try run(["index", "--batch-size"], useStore: false)
        XCTAssertEqual(missingValue.status, 2)
        XCTAssertTrue(missingValue.stderr.contains("needs a value"))
        let badNumber = try run(["index", "x.jsonl", "--batch-size", "zero"])
        XCTAssertEqual(badNumber.status, 2)
        XCTAssertEqual(try run([], useStore: false).status, 2)
    }

    // MARK: index

    func testIndexReportsBadLinesWithTheirNumberAndSkipsThem() throws {
        let file = try write("items.jsonl", [item("a", "Alpha"), "{broken", item("b", "Beta"),
                                             #"{"uniqueIdentifier":"","attributeSet":{}}"#].joined(separator: "\n"))
        let result = try run(["index", file, "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("line 2"), result.stderr)
        XCTAssertTrue(result.stderr.contains("line 4"), result.stderr)
        let summary = try XCTUnwrap(result.json().first)
        XCTAssertEqual(summary["indexed"] as? Int, 2)
        XCTAssertEqual(summary["skipped"] as? Int, 2)
    }

    func testStrictStopsAtTheFirstBadLineAndResumeContinuesExactlyOnce() throws {
        var lines = (1...7).map { item("i\($0)", "Item \($0)") }
        lines.insert("not json", at: 5)  // line 6
        let file = try write("items.jsonl", lines.joined(separator: "\n") + "\n")
        let strict = try run(["index", file, "--strict", "--batch-size", "2"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.contains("line 6"), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("4 items committed"), strict.stderr)
        let state = try run(["state", "--json"])
        XCTAssertEqual(try state.json().first?["line"] as? Int, 4)
        XCTAssertEqual(try state.json().first?["items"] as? Int, 4)

        let resumed = try run(["index", file, "--resume", "--batch-size", "2", "--json"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let summary = try XCTUnwrap(resumed.json().first)
        XCTAssertEqual(summary["resumed"] as? Bool, true)
        XCTAssertEqual(summary["indexed"] as? Int, 7, "every item exactly once")
        let stats = try XCTUnwrap(run(["stats", "--json"]).json().first)
        XCTAssertEqual(stats["items"] as? Int, 7)
    }

    /// A bad line before the first good one is reported like any other (it was dropped silently, even under
    /// --strict), and so are an array's bad elements.
    func testABadFirstLineIsReportedAndStopsAStrictRun() throws {
        let file = try write("first-bad.jsonl", "not json\n" + item("y", "Y") + "\n")
        let strict = try run(["index", file, "--strict"])
        XCTAssertEqual(strict.status, 1, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("line 1"), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("0 items committed"), strict.stderr)
        let lenient = try run(["index", file])
        XCTAssertEqual(lenient.status, 0, lenient.stderr)
        XCTAssertTrue(lenient.stderr.contains("line 1"), lenient.stderr)
        XCTAssertTrue(lenient.stderr.contains("indexed 1 items, skipped 1 bad lines"), lenient.stderr)
        let array = try write("array.json", "[5, " + item("z", "Z") + "]")
        let arrayRun = try run(["index", array])
        XCTAssertEqual(arrayRun.status, 0, arrayRun.stderr)
        XCTAssertTrue(arrayRun.stderr.contains("indexed 1 items, skipped 1 bad lines"), arrayRun.stderr)
        XCTAssertEqual(try run(["index", array, "--strict"]).status, 1)
    }

    /// Arguments a command has no use for are usage errors, not ignored: `export out.jsonl` wrote to standard
    /// output; an empty sort attribute crashed the tool.
    func testArgumentsACommandCannotUseAreUsageErrors() throws {
        for arguments in [["export", "out.jsonl"], ["stats", "extra"], ["state", "x"], ["demo", "x"],
                          ["query", #"title == "a""#, "--sort", ""], ["query", #"title == "a""#, "--sort", ":"],
                          ["query", #"title == "a""#, "--sort", "title:down"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("USAGE") || result.stderr.contains("searchlight"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.jsonl").path))
        XCTAssertEqual(try run(["index", try write("one.jsonl", item("a", "Alpha") + "\n")]).status, 0)
        let sorted = try run(["query", #"title == "*""#, "--sort", "title:desc", "--sort", "title:asc"])
        XCTAssertEqual(sorted.status, 0, sorted.stderr)
        let webHelp = try run(["help", "web", "index"], useStore: false)
        XCTAssertTrue(webHelp.stdout.contains("USAGE: searchlight web index"), webHelp.stdout)
    }

    func testIndexMissingFileAndStandardInputAndArrays() throws {
        let missing = try run(["index", directory.appendingPathComponent("nope.jsonl").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no such file"), missing.stderr)
        let piped = try run(["index", "-", "--json"], stdin: item("s", "Piped") + "\n")
        XCTAssertEqual(try piped.json().first?["indexed"] as? Int, 1)
        let array = try write("items.json", "[" + [item("x", "Array one"), item("y", "Array two")].joined(separator: ",") + "]")
        let fromArray = try run(["index", array, "--json"])
        XCTAssertEqual(try fromArray.json().first?["indexed"] as? Int, 2, fromArray.stderr)
        let got = try run(["get", "s", "x", "y"])
        XCTAssertEqual(got.status, 0)
        XCTAssertEqual(got.lines.count, 3)
        let notThere = try run(["get", "s", "missing"])
        XCTAssertEqual(notThere.status, 1)
        XCTAssertTrue(notThere.stderr.contains("missing"))
    }

    /// A directory given as an input is named as one, not as a missing file ("no such file" for a path that exists).
    func testIndexNamesADirectoryInputAsOne() throws {
        let folder = directory.appendingPathComponent("a folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let r = try run(["index", folder.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("is a directory, not a file: \(folder.path)"), r.stderr)
    }

    func testIndexReadsAJSONArrayFromStandardInput() throws {
        // '-' is documented to take either form, as a file does.
        let array = "\n [" + [item("p", "Piped one"), #"{"uniqueIdentifier":7}"#, item("q", "Piped two")].joined(separator: ",\n") + "]"
        let piped = try run(["index", "-", "--json"], stdin: array)
        XCTAssertEqual(try piped.json().first?["indexed"] as? Int, 2, piped.stderr)
        XCTAssertTrue(piped.stderr.contains("-: array element 2: uniqueIdentifier"), piped.stderr)
        XCTAssertEqual(try run(["get", "p", "q"]).lines.count, 2)
    }

    func testIndexReadsAPipeNamedAsAFileOnce() throws {
        // A path that is a pipe (/dev/stdin, a FIFO, <(...)) was read to its end to count lines for the progress
        // bar, and again to tell its form, so nothing was left to index: "indexed 0 items", exit 0.
        let lines = [item("f1", "Fifo one"), item("f2", "Fifo two")].joined(separator: "\n") + "\n"
        let piped = try run(["index", "/dev/stdin", "--json"], stdin: lines)
        XCTAssertEqual(try piped.json().first?["indexed"] as? Int, 2, piped.stderr)
        let array = try run(["index", "/dev/stdin", "--json"], stdin: "[" + item("f3", "Fifo three") + "]")
        XCTAssertEqual(try array.json().first?["indexed"] as? Int, 1, array.stderr)
    }

    // MARK: search and query

    func testSearchAndQueryOverAnIndexedFixture() throws {
        let indexed = try run(["index", Self.fixtures.appendingPathComponent("debian-en-ranking.jsonl").path])
        XCTAssertEqual(indexed.status, 0, indexed.stderr)

        let search = try run(["search", "wireshrak", "--json", "--limit", "3"])
        XCTAssertEqual(search.status, 0, search.stderr)
        let results = try XCTUnwrap(search.json().first?["results"] as? [[String: Any]])
        XCTAssertEqual(results.first?["id"] as? String, "deb:wireshark")

        let text = try run(["search", "pdf", "viewer"])
        XCTAssertTrue(text.stdout.contains("[PDF]") || text.stdout.contains("[pdf]"), text.stdout)

        let batch = try run(["search", "-"], stdin: "web server\nthunderb\n")
        XCTAssertEqual(try batch.json().count, 2)

        let query = try run(["query", #"title == "wireshark"c"#, "--json", "--attributes", "title"])
        XCTAssertEqual(query.status, 0, query.stderr)
        XCTAssertEqual(try query.json().first?["count"] as? Int, 1)

        let sorted = try run(["query", #"title == "thunderbird*"c"#, "--sort", "title:desc", "--limit", "2", "--json"])
        let items = try XCTUnwrap(sorted.json().first?["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 2)

        let invalid = try run(["query", #"title == "x" &&"#])
        XCTAssertEqual(invalid.status, 1)
        XCTAssertTrue(invalid.stderr.contains("offset"), invalid.stderr)
    }

    // MARK: parse, delete, state, stats, export

    func testQueryJSONItemsKeepNumberKindsAsIndexInput() throws {
        // The items of 'query --json' are 'index' input: a double stays a double (37.0 came out as 37, an integer).
        let line = #"{"uniqueIdentifier":"n","attributeSet":{"title":"numbers","latitude":37.0,"rating":-0.0,"customAttributes":{"two":2.0,"big":9007199254740993}}}"#
        try run(["index", try write("n.jsonl", line + "\n")])
        let queried = try run(["query", #"title == "numbers""#, "--json", "--attributes", "title,latitude,rating,two,big"])
        XCTAssertEqual(queried.status, 0, queried.stderr)
        for member in [#""latitude":37.0"#, #""rating":-0.0"#, #""two":2.0"#, #""big":9007199254740993"#, #""count":1,"items":[{"#] {
            XCTAssertTrue(queried.stdout.contains(member), queried.stdout)
        }
    }

    func testParsePrintsTheTreeOrTheErrorPosition() throws {
        let ok = try run(["parse", #"title == "fire*"cd && keywords == "game"cd"#], useStore: false)
        XCTAssertEqual(ok.status, 0)
        XCTAssertTrue(ok.stdout.contains("canonical:"))
        let bad = try run(["parse", #"title == "fire*"cx"#, "--json"], useStore: false)
        XCTAssertEqual(bad.status, 1)
        let error = try XCTUnwrap(bad.json().first)
        XCTAssertNotNil(error["offset"] as? Int)
        let stdin = try run(["parse", "-"], stdin: "rating >= 4\n", useStore: false)
        XCTAssertEqual(stdin.status, 0)
    }

    /// In a multi-line query the caret goes under the error's column on the error's own line (the whole query was
    /// printed, so the caret pointed past the end of line 2).
    func testParseCaretSitsUnderTheErrorInAMultiLineQuery() throws {
        for newline in ["\n", "\r\n"] {
            let bad = try run(["parse", "-"], stdin: "title == \"a\" &&" + newline + "  rating == \"x\"cq" + newline, useStore: false)
            XCTAssertEqual(bad.status, 1)
            XCTAssertTrue(bad.stderr.contains("line 2, column 17"), bad.stderr)
            XCTAssertTrue(bad.stderr.hasSuffix("\n    rating == \"x\"cq\n" + String(repeating: " ", count: 18) + "^\n"),
                          bad.stderr.debugDescription)
        }
    }

    func testDeleteModesStateStatsAndExport() throws {
        let file = try write("items.jsonl", [item("1", "One", domain: "a"), item("2", "Two", domain: "a.b"),
                                             item("3", "Three", domain: "ab"), item("4", "Four", domain: "c")].joined(separator: "\n"))
        XCTAssertEqual(try run(["index", file]).status, 0)
        XCTAssertEqual(try run(["delete"]).status, 2, "a delete needs a mode")
        XCTAssertEqual(try run(["delete", "--id", "1", "--all"]).status, 2, "only one mode")
        let byDomain = try run(["delete", "--domain", "a", "--json"])
        XCTAssertEqual(try byDomain.json().first?["deleted"] as? Int, 2)
        let byID = try run(["delete", "--id", "4", "--json"])
        XCTAssertEqual(try byID.json().first?["remaining"] as? Int, 1)

        let jsonl = try run(["export"])
        XCTAssertEqual(jsonl.lines.count, 1)
        XCTAssertTrue(jsonl.stdout.contains(#""uniqueIdentifier":"3""#), jsonl.stdout)
        let bulk = try run(["export", "--format", "elasticsearch-bulk", "--index-name", "packages"])
        XCTAssertEqual(bulk.lines.count, 2)
        XCTAssertTrue(bulk.lines[0].contains(#""_index":"packages""#), bulk.stdout)
        XCTAssertEqual(try run(["export", "--format", "xml"]).status, 2)

        XCTAssertEqual(try run(["stats", "--json"]).json().first?["items"] as? Int, 1)
        XCTAssertEqual(try run(["delete", "--all"]).status, 0)
        let state = try run(["state", "--json"])
        XCTAssertTrue(state.stdout.contains("null"), "delete-all resets the import checkpoint: \(state.stdout)")
    }

    /// An error the library reports (here a bad domain) names the command like every other failure; it was
    /// printed bare, saying neither what tool nor which command.
    func testALibraryErrorNamesTheCommand() throws {
        XCTAssertEqual(try run(["index", try write("one.jsonl", item("a", "Alpha") + "\n")]).status, 0)
        let r = try run(["delete", "--domain", "x."])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("searchlight delete: domain identifier 'x.'"), r.stderr)
        XCTAssertEqual(try run(["stats", "--json"]).json().first?["items"] as? Int, 1, "nothing was deleted")
    }

    /// A store found damaged at open is reset empty (its files moved aside): the tool says so on standard error, and a
    /// read-only command fails rather than report 0 items with exit 0. Later opens warn until an `index` run re-adds
    /// the items. Both a garbage journal and 100 bytes written into the middle of its record were silent.
    func testADamagedStoreIsReportedNotShownAsEmpty() throws {
        let file = try write("items.jsonl", [item("1", "One"), item("2", "Two")].joined(separator: "\n"))
        for damage in ["garbage", "inserted"] {
            try? FileManager.default.removeItem(atPath: store)
            XCTAssertEqual(try run(["index", file]).status, 0)
            let journal = store + "/journal-0.slj"
            var bytes = try XCTUnwrap(FileManager.default.contents(atPath: journal))
            let garbage = Data((0..<100).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) })
            if damage == "garbage" { bytes = garbage } else { bytes.insert(contentsOf: garbage, at: bytes.count - 40) }
            try bytes.write(to: URL(fileURLWithPath: journal))
            let stats = try run(["stats", "--json"])
            XCTAssertEqual(stats.status, 1, "\(damage): \(stats.stdout)")
            XCTAssertEqual(stats.stdout, "", damage)
            XCTAssertTrue(stats.stderr.contains("searchlight stats: the store \(store) was damaged"), stats.stderr)
            XCTAssertTrue(stats.stderr.contains("journal-0.slj"), stats.stderr)
            XCTAssertTrue(stats.stderr.contains(journal + ".corrupt-"), "names where the files went: \(stats.stderr)")
            // Reset: later opens show the empty store, with a warning, until the items are indexed again.
            let again = try run(["export"])
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertTrue(again.stderr.contains("warning"), again.stderr)
            let reindexed = try run(["index", file])
            XCTAssertEqual(reindexed.status, 0, reindexed.stderr)
            XCTAssertTrue(reindexed.stderr.contains("warning"), reindexed.stderr)
            let after = try run(["stats", "--json"])
            XCTAssertEqual(try after.json().first?["items"] as? Int, 2, damage)
            XCTAssertFalse(after.stderr.contains("warning"), after.stderr)
        }
    }

    func testInterruptStopsAtABatchBoundaryAndResumeFinishesExactlyOnce() throws {
        let count = 20_000
        let file = try write("many.jsonl", (0..<count).map { item("n\($0)", "Item \($0)") }.joined(separator: "\n") + "\n")
        let process = Process()
        process.executableURL = try packageExecutable("searchlight")
        process.arguments = ["index", file, "--batch-size", "50", "--json", "--store", store]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Interrupt once the first batches are durable (the journal has grown), long before the end.
        let journal = URL(fileURLWithPath: store).appendingPathComponent("journal-0.slj")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, ((try? FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int) ?? 0) < 20_000 {
            usleep(20_000)
        }
        process.interrupt()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, "an interrupted import reports failure")
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: output) as? [String: Any])
        XCTAssertEqual(summary["interrupted"] as? Bool, true)
        let indexed = try XCTUnwrap(summary["indexed"] as? Int)
        XCTAssertGreaterThan(indexed, 0)
        XCTAssertLessThan(indexed, count)
        XCTAssertEqual(indexed % 50, 0, "the store ends at a batch boundary")
        let stats = try XCTUnwrap(run(["stats", "--json"]).json().first)
        XCTAssertEqual(stats["items"] as? Int, indexed)
        let resumed = try XCTUnwrap(run(["index", file, "--resume", "--batch-size", "5000", "--json"]).json().first)
        XCTAssertEqual(resumed["indexed"] as? Int, count)
        XCTAssertEqual(try run(["stats", "--json"]).json().first?["items"] as? Int, count, "every item exactly once")
    }

    /// An import waiting for input that has not come (a terminal, an idle pipe) is stopped by a second Ctrl-C: the
    /// first only asks it to stop after the batch in flight, and no batch ever finished, so it could not be stopped.
    func testASecondInterruptStopsAnImportWaitingForInput() throws {
        let process = Process()
        process.executableURL = try packageExecutable("searchlight")
        process.arguments = ["index", "-", "--store", store]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((item("w1", "Waiting") + "\n").utf8))
        usleep(500_000)
        process.interrupt()
        usleep(200_000)
        process.interrupt()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        let stopped = !process.isRunning
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertTrue(stopped, "two interrupts did not stop an import waiting for input")
        XCTAssertNotEqual(process.terminationStatus, 0)
    }

    /// A public web index that exists but cannot be opened (another process holds it, it is damaged) is said on
    /// standard error: `search` then shows the app's results alone, never as if the web had nothing.
    func testSearchSaysWhenThePublicWebIndexCannotBeOpened() throws {
        let pages = Self.fixtures.appendingPathComponent("web")
        XCTAssertEqual(try run(["web", "index", pages.path, "--base-url", "https://shop.example.com/"]).status, 0)
        XCTAssertEqual(try run(["index", "-"], stdin: #"{"uniqueIdentifier":"a","attributeSet":{"title":"hiking map"}}"# + "\n").status, 0)
        let web = URL(fileURLWithPath: store).appendingPathComponent("public-web")
        let held = try SearchlightContainer(directory: web)
        let search = try run(["search", "hiking"])
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.contains("hiking map"), search.stdout)
        XCTAssertTrue(search.stderr.contains("public web index") && search.stderr.contains(web.path), search.stderr)
        held.close()
        let free = try run(["search", "hiking"])
        XCTAssertEqual(free.stderr, "", free.stderr)
        XCTAssertTrue(free.stdout.contains("[web]"), free.stdout)
    }

    func testWebIndexFeedsThePublicIndexAndSearchShowsTheSource() throws {
        let pages = Self.fixtures.appendingPathComponent("web")
        let indexed = try run(["web", "index", pages.path, "--base-url", "https://shop.example.com/", "--json"])
        XCTAssertEqual(indexed.status, 0, indexed.stderr)
        XCTAssertEqual(try indexed.json().first?["indexed"] as? Int, 12)
        // The app's own item with the page's identifier wins over the page.
        let own = #"{"uniqueIdentifier":"https://shop.example.com/recipe.html","attributeSet":{"title":"Pesto in the app"}}"#
        XCTAssertEqual(try run(["index", "-"], stdin: own + "\n").status, 0)
        let search = try run(["search", "pesto", "--json"])
        let results = try XCTUnwrap(search.json().first?["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 1, search.stdout)
        XCTAssertEqual(results.first?["source"] as? String, "app")
        XCTAssertEqual(results.first?["title"] as? String, "Pesto in the app")
        let boot = try XCTUnwrap(run(["search", "hiking boot", "--json"]).json().first?["results"] as? [[String: Any]])
        XCTAssertEqual(boot.first?["source"] as? String, "web")
        // Without --base-url pages are identified by their path under https://localhost/.
        let plain = try run(["web", "index", pages.appendingPathComponent("event.html").path, "--json"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(try plain.json().first?["indexed"] as? Int, 1)
        XCTAssertEqual(try run(["web", "index", directory.appendingPathComponent("none").path]).status, 1)
        XCTAssertEqual(try run(["web", "index", pages.path, "--base-url", "ftp://x/"]).status, 2)
        XCTAssertEqual(try run(["web", "crawl"]).status, 2)
    }

    /// A directory named through a symbolic link is searched like the directory itself (it gave "indexed 0 pages",
    /// status 0: the walk did not enter a linked root).
    func testWebIndexFollowsALinkedDirectory() throws {
        let site = directory.appendingPathComponent("site/docs")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try Data("<html><head><title>Linked page</title></head><body>hello</body></html>".utf8)
            .write(to: site.appendingPathComponent("page.html"))
        let link = directory.appendingPathComponent("link to site")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory.appendingPathComponent("site"))
        let indexed = try run(["web", "index", link.path, "--json"])
        XCTAssertEqual(indexed.status, 0, indexed.stderr)
        let summary = try XCTUnwrap(indexed.json().first)
        XCTAssertEqual(summary["identifiers"] as? [String], ["https://localhost/docs/page.html"], indexed.stdout)
    }

    /// Two files of one page (`index.html` and `index.htm`, both canonical to `/`) are one item: the report said
    /// "indexed 2" and listed the identifier twice, unlike `WebMarkupIndexer.index(pages:)`, where the later wins.
    func testWebIndexCountsTwoFilesOfOnePageOnce() throws {
        let site = directory.appendingPathComponent("dup")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for (name, title) in [("index.htm", "Old home"), ("index.html", "Home")] {
            try Data(#"<title>\#(title)</title><link rel="canonical" href="https://www.example.com/">"#.utf8)
                .write(to: site.appendingPathComponent(name))
        }
        let indexed = try run(["web", "index", site.path, "--base-url", "https://www.example.com/", "--json"])
        XCTAssertEqual(indexed.status, 0, indexed.stderr)
        let summary = try XCTUnwrap(indexed.json().first)
        XCTAssertEqual(summary["indexed"] as? Int, 1, indexed.stdout)
        XCTAssertEqual(summary["identifiers"] as? [String], ["https://www.example.com/"], indexed.stdout)
        let results = try XCTUnwrap(run(["search", "home", "--json"]).json().first?["results"] as? [[String: Any]])
        XCTAssertEqual(results.first?["title"] as? String, "Home")
    }

    /// A page whose robots meta asks not to be indexed is skipped as it asks: counted apart, not a failure (exit 0).
    func testWebIndexSkipsANoIndexPageWithoutFailing() throws {
        let site = directory.appendingPathComponent("robots")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try Data("<title>Open page</title>".utf8).write(to: site.appendingPathComponent("open.html"))
        try Data(#"<meta name="robots" content="noindex, follow"><title>Private page</title>"#.utf8)
            .write(to: site.appendingPathComponent("private.html"))
        let indexed = try run(["web", "index", site.path, "--json"])
        XCTAssertEqual(indexed.status, 0, indexed.stderr)
        let summary = try XCTUnwrap(indexed.json().first)
        XCTAssertEqual(summary["indexed"] as? Int, 1, indexed.stdout)
        XCTAssertEqual(summary["failed"] as? Int, 0, indexed.stdout)
        XCTAssertEqual(summary["noindex"] as? Int, 1, indexed.stdout)
        XCTAssertTrue(indexed.stderr.contains("noindex"), indexed.stderr)
    }

    func testDemoRunsEndToEnd() throws {
        let demo = try run(["demo", "--fixtures", Self.fixtures.path], useStore: false)
        XCTAssertEqual(demo.status, 0, demo.stderr)
        XCTAssertTrue(demo.stdout.contains("Becky"), demo.stdout)
        XCTAssertTrue(demo.stdout.contains("deb:wireshark"), demo.stdout)
        XCTAssertTrue(demo.stdout.contains("July Report.Numbers"), demo.stdout)
    }

    // MARK: Review findings

    /// A read-only command on a store that does not exist (a mistyped --store) must fail, not report an empty
    /// index with status 0 and create the directory.
    func testReadCommandsOnMissingStoreFail() throws {
        let missing = directory.appendingPathComponent("no-such-store").path
        for args in [["search", "anything"], ["query", #"title == "x""#], ["export"], ["stats"], ["state"], ["get", "x"]] {
            let r = try run(args + ["--store", missing], useStore: false)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stdout)")
            XCTAssertTrue(r.stderr.contains(missing), "\(args): no message naming the store: \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "a read-only command created the store directory")
        XCTAssertEqual(try run(["index", try write("one.jsonl", item("a", "Alpha") + "\n"), "--store", missing], useStore: false).status, 0)
        XCTAssertEqual(try run(["stats", "--store", missing], useStore: false).status, 0)
    }

    /// An empty `--store` value (an unset shell variable) is a usage error: it named the current directory, where
    /// even a read-only command created a store's files.
    func testAnEmptyStoreValueIsAUsageError() throws {
        let file = try write("one.jsonl", item("a", "Alpha") + "\n")
        for arguments in [["stats", "--store", ""], ["stats", "--store="], ["index", file, "--store", ""],
                          ["--store", "", "delete", "--all"]] {
            let r = try run(arguments, useStore: false)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.stdout) \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("'--store'"), r.stderr)
        }
        let created = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "one.jsonl" }
        XCTAssertEqual(created, [], "store files were created in the current directory")
    }

    /// A read-only command on an existing directory that holds no store (`--store .`, a mistyped path) fails like
    /// one on a missing directory: it reported an empty index and left a store's files in that directory.
    func testReadCommandsOnADirectoryWithoutAStoreFail() throws {
        let plain = directory.appendingPathComponent("just a folder")
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
        for args in [["search", "anything"], ["query", #"title == "x""#], ["export"], ["stats"], ["state"], ["get", "x"]] {
            let r = try run(args + ["--store", plain.path], useStore: false)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stdout)")
            XCTAssertTrue(r.stderr.contains(plain.path), "\(args): no message naming the store: \(r.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: plain.path), [], "a read-only command wrote into it")
        // A store that holds only the public web index is a store.
        let web = directory.appendingPathComponent("web only")
        XCTAssertEqual(try run(["web", "index", Self.fixtures.appendingPathComponent("web").path, "--store", web.path],
                               useStore: false).status, 0)
        XCTAssertEqual(try run(["search", "boot", "--store", web.path], useStore: false).status, 0)
    }

    /// Writing the export must report a failed write (disk full), not claim every item was exported.
    func testExportReportsAFailedWrite() throws {
        let file = try write("items.jsonl", (1...50).map { item("i\($0)", "item \($0)") }.joined(separator: "\n") + "\n")
        XCTAssertEqual(try run(["index", file]).status, 0)
        let r = try run(["export", "--output", "/dev/full"])
        XCTAssertEqual(r.status, 1, "exit 0 although nothing was written: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("cannot write /dev/full"), r.stderr)
        XCTAssertFalse(r.stderr.contains("exported 50 items"), r.stderr)
        // The output is opened in place: the device is not replaced by a regular file.
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType,
                       .typeCharacterSpecial)
    }

    /// A standard output that cannot be written (a full disk) is a failure with a message: every command but
    /// export crashed (SIGILL: `FileHandle.write(_:)` traps on an error).
    func testAFailedWriteToStandardOutputIsAFailureNotACrash() throws {
        XCTAssertEqual(try run(["index", try write("one.jsonl", item("a", "Alpha") + "\n")]).status, 0)
        for arguments in [["stats"], ["query", #"title == "*""#, "--json"], ["search", "alpha"], ["get", "a"], ["parse", "rating > 1"],
                          ["--help"]] {
            let process = Process()
            process.executableURL = try packageExecutable("searchlight")
            process.arguments = arguments + ["--store", store]
            let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
            let err = Pipe()
            process.standardOutput = full
            process.standardError = err
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit, "\(arguments): \(message)")
            XCTAssertEqual(process.terminationStatus, 1, "\(arguments): \(message)")
            XCTAssertTrue(message.contains("cannot write standard output"), "\(arguments): \(message)")
        }
    }

    /// `--help` of every subcommand prints its usage with status 0, `web` included.
    func testWebHelp() throws {
        for flag in ["--help", "-h"] {
            let r = try run(["web", flag], useStore: false)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("USAGE: searchlight web index"), r.stdout + r.stderr)
        }
        XCTAssertEqual(try run(["web", "crawl"], useStore: false).status, 2)
    }

    /// An invalid item in a JSON array file is reported by its array element, as every other array error is;
    /// its element number is not a line number (this file has one line).
    func testInvalidItemInArrayFileIsNamedByElementNotLine() throws {
        let file = try write("items.json", "[" + item("e1", "x") + ", " + item("e2", "y") + ", "
            + #"{"uniqueIdentifier":"e3","expirationDate":"-300000000-01-01T00:00:00Z"}]"#)
        let r = try run(["index", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("array element 3: item 'e3'"), r.stderr)
        XCTAssertFalse(r.stderr.contains("line 3"), "the file has one line: \(r.stderr)")
    }

    #if !canImport(Darwin)
    /// A result that is a donated activity (not linked to an item) is named without its internal record identifier
    /// (raw U+0000 bytes), and `query --json` gives no interchange "item" for it that `index` would refuse.
    func testActivityResultsPrintNoInternalIdentifiers() async throws {
        let container = try SearchlightContainer(directory: URL(fileURLWithPath: store))
        let index = CSSearchableIndex(name: "app", container: container)
        try await index.indexSearchableItems([makeItem("recipe-1", title: "Tomato soup")])
        let loose = NSUserActivity(activityType: "com.example.view")
        loose.title = "Yak walk"
        loose.isEligibleForSearch = true
        loose.container = container
        try await loose.becomeCurrentAndWait()
        let kept = NSUserActivity(activityType: "com.example.view")
        kept.title = "Yak ride"
        kept.persistentIdentifier = "ride-7"
        kept.isEligibleForSearch = true
        kept.container = container
        try await kept.becomeCurrentAndWait()
        container.close()

        let search = try run(["search", "yak"])
        XCTAssertEqual(search.status, 0)
        XCTAssertTrue(search.stdout.contains("Yak walk  [activity com.example.view, score"), search.stdout)
        XCTAssertTrue(search.stdout.contains("Yak ride  [activity id ride-7, score"), search.stdout)
        XCTAssertFalse(search.stdout.contains("\u{0}"), "NUL bytes in the output: \(search.stdout.debugDescription)")
        let searchJSON = try run(["search", "yak", "--json"])
        XCTAssertFalse(searchJSON.stdout.contains("\\u0000"), searchJSON.stdout)
        XCTAssertTrue(searchJSON.stdout.contains(#""source":"activity""#), searchJSON.stdout)
        let query = try run(["query", #"title == "Yak*""#])
        XCTAssertTrue(query.stdout.contains("activity com.example.view  title=Yak walk"), query.stdout)
        XCTAssertFalse(query.stdout.contains("\u{0}"), "NUL bytes in the output: \(query.stdout.debugDescription)")
        let json = try XCTUnwrap(try run(["query", #"title == "Yak*" || title == "Tomato*""#, "--json"]).json().first)
        XCTAssertEqual(json["count"] as? Int, 1)
        XCTAssertEqual(json["activities"] as? Int, 2)
        XCTAssertEqual((json["items"] as? [[String: Any]])?.compactMap { $0["uniqueIdentifier"] as? String }, ["recipe-1"])
    }
    #endif

    /// A closed standard output (`>&-`) must not become the store's file: the store opened its LOCK as the lowest
    /// free descriptor, 1, and `export` wrote every item into it and reported success.
    func testAClosedStandardOutputIsNotTheStoresFile() throws {
        XCTAssertEqual(try run(["index", try write("one.jsonl", item("a", "Alpha") + "\n")]).status, 0)
        let lock = directory.appendingPathComponent("store/LOCK").path
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: lock)[.size] as? Int
        for arguments in [["export"], ["stats"], ["get", "a"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"exec "$0" "$@" >&-"#, try packageExecutable("searchlight").path] + arguments + ["--store", store]
            let err = Pipe()
            process.standardError = err
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 1, "\(arguments): \(message)")
            XCTAssertTrue(message.contains("cannot write standard output"), "\(arguments): \(message)")
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: lock)[.size] as? Int, sizeBefore,
                           "\(arguments) wrote its output into the store's LOCK file")
        }
    }

    /// An input that fails to read (here a non-blocking pipe with no data yet) ends the import with exit 1 and a
    /// message naming it: the failed read was reported as a bad line and retried at once, hundreds of "skipped"
    /// lines a second, and the import ended with exit 0 without the items the failed read had taken.
    func testAnInputThatFailsToReadEndsTheImport() throws {
        let input = Pipe()
        let readEnd = input.fileHandleForReading.fileDescriptor
        XCTAssertEqual(fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK), 0)
        input.fileHandleForWriting.write(Data((1...200).map { item("i\($0)", "item \($0)") + "\n" }.joined().utf8))
        let process = Process()
        process.executableURL = try packageExecutable("searchlight")
        process.arguments = ["index", "-", "--store", store]
        let err = Pipe()
        process.standardInput = input
        process.standardOutput = Pipe()
        process.standardError = err
        try process.run()
        // The write end stays open a while: every read past the data fails (EAGAIN) until it closes.
        Thread.sleep(forTimeInterval: 1)
        try input.fileHandleForWriting.close()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, message)
        XCTAssertTrue(message.contains("searchlight index: -: cannot read"), message)
        XCTAssertFalse(message.contains("skipped"), message)
    }

    /// Runs the tool with a directory as its standard input (every read fails: EISDIR); its standard error.
    private func runReadingADirectory(_ arguments: [String]) throws -> (Process, String) {
        let process = Process()
        process.executableURL = try packageExecutable("searchlight")
        process.arguments = arguments
        let err = Pipe()
        process.standardInput = try XCTUnwrap(FileHandle(forReadingAtPath: directory.path))
        process.standardOutput = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process, message)
    }

    /// `parse -` on a standard input that cannot be read (a directory) is a failure naming it: it crashed (SIGILL,
    /// `readDataToEndOfFile()` traps on a read error).
    func testParseFromAnUnreadableStandardInputIsAFailureNotACrash() throws {
        let (process, message) = try runReadingADirectory(["parse", "-"])
        XCTAssertEqual(process.terminationReason, .exit, message)
        XCTAssertEqual(process.terminationStatus, 1, message)
        XCTAssertTrue(message.contains("searchlight parse: cannot read standard input: Is a directory"), message)
    }

    /// `search -` and `query -` on a standard input that cannot be read fail naming it: they took the read error
    /// for the end of input and exited 0 having run nothing.
    func testSearchAndQueryFromAnUnreadableStandardInputFail() throws {
        XCTAssertEqual(try run(["index", try write("one.jsonl", item("a", "Alpha") + "\n")]).status, 0)
        for command in ["search", "query"] {
            let (process, message) = try runReadingADirectory([command, "-", "--store", store])
            XCTAssertEqual(process.terminationStatus, 1, "\(command): \(message)")
            XCTAssertTrue(message.contains("searchlight \(command): cannot read standard input: Is a directory"), message)
        }
    }

    /// Before the command only the global options are read: a command's option there took its value for the
    /// command ("unknown command '5'"), and a `--store` without its value was "name a command".
    func testAnOptionBeforeTheCommandIsNamedInTheUsageError() throws {
        let commandOption = try run(["--limit", "5", "search", "x"])
        XCTAssertEqual(commandOption.status, 2)
        XCTAssertTrue(commandOption.stderr.contains("'--limit'"), commandOption.stderr)
        XCTAssertFalse(commandOption.stderr.contains("unknown command"), commandOption.stderr)
        let noValue = try run(["--store"], useStore: false)
        XCTAssertEqual(noValue.status, 2)
        XCTAssertTrue(noValue.stderr.contains("option '--store' needs a value"), noValue.stderr)
        XCTAssertEqual(try run(["--json", "--store=\(store)", "delete", "--all"], useStore: false).status, 0)
    }

    /// `query` prints one line per item with its attributes as JSON (a string bare): a value with a line break
    /// broke the line, and arrays and objects printed as Swift literals (`["a", "b"]`, `[["k": v]]`).
    func testQueryPrintsOneLinePerItemWithJSONValues() throws {
        let line = #"{"uniqueIdentifier":"m","attributeSet":{"title":"Multi","contentDescription":"one\ntwo","keywords":["a","b"],"#
            + #""latitude":37.0,"authors":[{"displayName":"Ann"}]}}"#
        XCTAssertEqual(try run(["index", "-"], stdin: line + "\n").status, 0)
        let r = try run(["query", #"title == "Multi""#, "--attributes", "contentDescription,keywords,latitude,authors"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.lines, [#"m  contentDescription=one two  keywords=["a","b"]  latitude=37.0  authors=[{"displayName":"Ann","handles":[],"handleIdentifier":""}]"#])
    }
}
