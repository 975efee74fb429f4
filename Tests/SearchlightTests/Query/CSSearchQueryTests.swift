import Foundation
import Synchronization
import XCTest
@testable import Searchlight

/// `CSSearchQuery` lifecycle: batches, completion, cancel, counts, fetching, filters, sorting and paging.
final class CSSearchQueryTests: XCTestCase {
    /// 250 items: `n0`…`n249`, title "Note N", rating N % 5, domain by parity, keywords for multiples of 10.
    static let container: SearchlightContainer = makeContainer((0..<250).map { i in
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.title = "Note \(i)"
        set.rating = NSNumber(value: i % 5)
        if i % 10 == 0 { set.keywords = ["decade"] }
        return CSSearchableItem(uniqueIdentifier: "n\(i)", domainIdentifier: i % 2 == 0 ? "even" : "odd", attributeSet: set)
    })

    func query(_ string: String, _ configure: (CSSearchQueryContext) -> Void = { _ in },
               container: SearchlightContainer = container) -> CSSearchQuery {
        let context = CSSearchQueryContext()
        configure(context)
        return CSSearchQuery(queryString: string, queryContext: context, container: container)
    }

    /// Apple's default protection classes for a query, without a data-protection entitlement (reference §1.12).
    func testProtectionClassesDefaultToCompleteUntilFirstUserAuthentication() {
        let container = makeContainer([])
        let query = CSSearchQuery(queryString: "true", queryContext: nil, container: container)
        XCTAssertEqual(query.protectionClasses.map(\.rawValue), [FileProtectionType.completeUntilFirstUserAuthentication.rawValue])
        let userQuery = CSUserQuery(userQueryString: "x", userQueryContext: nil, container: container)
        XCTAssertEqual(userQuery.protectionClasses.map(\.rawValue), [FileProtectionType.completeUntilFirstUserAuthentication.rawValue])
    }

    func testBatchesCountsAndOneCompletion() {
        let q = query(#"title == "Note*""#)
        let run = runQuery(q)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.completions, 1)
        XCTAssertEqual(run.batches.map(\.count), [100, 100, 50])
        XCTAssertEqual(q.foundItemCount, 250)
        XCTAssertEqual(Set(run.batches.joined().map(\.uniqueIdentifier)).count, 250)
    }

    func testFoundItemCountIsUpdatedBeforeEachBatch() {
        let q = query("rating == 1")
        let seen = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        q.foundItemsHandler = { [q] items in seen.withLock { $0.append(q.foundItemCount - items.count) } }
        q.completionHandler = { _ in done.signal() }
        q.start()
        done.wait()
        XCTAssertEqual(seen.withLock { $0 }, [0])
        XCTAssertEqual(q.foundItemCount, 50)
    }

    func testWithoutHandlerFoundItemCountIsTheTotalAtCompletion() {
        let q = query(#"keywords == "decade""#)
        let done = DispatchSemaphore(value: 0)
        q.completionHandler = { _ in done.signal() }
        q.start()
        done.wait()
        XCTAssertEqual(q.foundItemCount, 25)
    }

    /// Items carry only the attributes fetched, named by property or by `kMDItem…` alias: "Note 70" has
    /// keywords, fetched as `kMDItemKeywords`, and a rating, not fetched.
    func testFetchAttributesOnly() throws {
        let run = runQuery(query(#"title == "Note 70""#) { $0.fetchAttributes = ["title", "kMDItemKeywords"] })
        let item = try XCTUnwrap(run.batches.first?.first)
        XCTAssertEqual(run.batches.joined().count, 1)
        XCTAssertEqual(item.uniqueIdentifier, "n70")
        XCTAssertEqual(item.domainIdentifier, "even")
        XCTAssertEqual(item.attributeSet.title, "Note 70")
        XCTAssertEqual(item.attributeSet.keywords, ["decade"])
        XCTAssertNil(item.attributeSet.rating)
        XCTAssertNil(item.attributeSet.contentType)
        let bare = try XCTUnwrap(runQuery(query(#"title == "Note 7""#)).batches.first?.first)
        XCTAssertNil(bare.attributeSet.title)
        XCTAssertEqual(bare.uniqueIdentifier, "n7")
    }

    /// A multi-valued number matches a comparison when any one of its values does, and only then: `InRange`
    /// tests each value, so bounds falling between two values (above the lowest, below the highest) match
    /// nothing. Checked alone (the engine scans the column) and after a title narrows the items to a few (each
    /// item's values are read).
    func testMultiValuedNumberMatchesWhenAnyValueDoes() throws {
        let key = try XCTUnwrap(CSCustomAttributeKey(keyName: "scores", searchable: true, searchableByDefault: false,
                                                     unique: false, multiValued: true))
        func scored(_ id: String, _ values: [Int]?) -> CSSearchableItem {
            let item = makeItem(id, title: "Scored \(id)")
            if let values { item.attributeSet.setValue(values.map { NSNumber(value: $0) }, forCustomKey: key) }
            return item
        }
        let fillers = (0..<40).map { makeItem("filler\($0)", title: "Filler \($0)") }
        let container = makeContainer([scored("wide", [3, 10, 42]), scored("high", [50, 60]), scored("single", [7]),
                                       scored("none", nil)] + fillers)
        let cases: [(query: String, ids: [String])] = [
            ("scores == 10", ["wide"]), ("scores == 42", ["wide"]), ("scores == 60", ["high"]), ("scores == 11", []),
            ("scores < 5", ["wide"]), ("scores < 8", ["single", "wide"]), ("scores < 3", []),
            ("scores > 45", ["high"]), ("scores > 40", ["high", "wide"]), ("scores > 60", []),
            ("InRange(scores, 8, 12)", ["wide"]), ("InRange(scores, 55, 70)", ["high"]),
            ("InRange(scores, 11, 41)", []), ("InRange(scores, 43, 49)", []), ("InRange(scores, 51, 59)", []),
        ]
        for (string, expected) in cases {
            for narrowed in [string, #"title == "Scored*" && "# + string] {
                let run = runQuery(query(narrowed, container: container))
                XCTAssertNil(run.error, narrowed)
                XCTAssertEqual(run.batches.joined().map(\.uniqueIdentifier).sorted(), expected, narrowed)
            }
        }
    }

    func testFilterQueriesMustAllHold() {
        let run = runQuery(query("rating >= 3") { $0.filterQueries = [#"keywords == "decade""#, "rating == 4"] })
        XCTAssertNil(run.error)
        XCTAssertEqual(run.batches.joined().count, 0)  // multiples of 10 have rating 0
        let run2 = runQuery(query("rating == 0") { $0.filterQueries = [#"keywords == "decade""#, #"domainIdentifier != "x""#] })
        XCTAssertEqual(run2.batches.joined().count, 25)
    }

    func testInvalidQueryAndInvalidFilterFailWithPosition() {
        let run = runQuery(query(#"title == "Note" &&& x"#))
        XCTAssertEqual(run.completions, 1)
        let error = run.error as? CSSearchQueryError
        XCTAssertEqual(error?.code, .invalidQuery)
        XCTAssertTrue(error?.message.contains("offset") ?? false, error?.message ?? "")
        XCTAssertTrue(run.batches.isEmpty)
        let filtered = runQuery(query("rating == 1") { $0.filterQueries = ["title =="] })
        XCTAssertEqual((filtered.error as? CSSearchQueryError)?.code, .invalidQuery)
    }

    /// An invalid filter query's error says which of `filterQueries` it is, for both kinds of query.
    func testInvalidFilterQueryErrorSaysWhichFilter() {
        let container = makeContainer([makeItem("a", title: "zebra")])
        let filters = [#"title == "zebra""#, "rating >"]
        let run = runQuery(query(#"title == "z*""#, { $0.filterQueries = filters }, container: container))
        let error = run.error as? CSSearchQueryError
        XCTAssertEqual(error?.code, .invalidQuery)
        XCTAssertEqual(error?.message, #"invalid filter query 1 ("rating >"): expected a value after '>' at offset 8 (found end of query)"#)
        let user = runUserQuery("zeb", in: container) { $0.filterQueries = filters }
        let userError = user.error as? CSSearchQueryError
        XCTAssertEqual(userError?.code, .invalidQuery)
        XCTAssertTrue(userError?.message.contains("filter query 1") ?? false, userError?.message ?? "no error")
    }

    /// An error about a huge query, filter query or sort attribute quotes a bounded excerpt of the text it is
    /// about (the offending token, the filter, the attribute), not all of it: a 200 KB query made a 200 KB message.
    func testErrorMessagesQuoteABoundedExcerptOfHugeTexts() {
        let container = makeContainer([makeItem("a", title: "zebra")])
        let huge = String(repeating: "a", count: 200_000)
        let queries = [
            "title == \"x\" && \(huge)",                  // expected a comparison operator after '…'
            "\(huge)(x)",                                  // unknown function '…'
            "title == \(huge)",                            // strings must be quoted, e.g. "…"
            "rating == 1\(huge)",                          // invalid number '…'
            "rating == $time.iso(\(huge))",                // invalid ISO-8601 date '…'
            "rating == $time.absolute(\(huge))",           // invalid number of seconds '…'
            "rating == $time.\(huge)",                     // unknown time function '$time.…'
            "rating == $\(huge)",                          // unknown variable '…'
            "title == \"x\"\(huge)",                       // unknown modifier
        ]
        for string in queries {
            let error = runQuery(query(string, container: container)).error as? CSSearchQueryError
            XCTAssertEqual(error?.code, .invalidQuery, String(string.prefix(40)))
            XCTAssertLessThan(error?.message.utf8.count ?? .max, 1_000, String(string.prefix(40)))
        }
        let filter = #"title == "x" "# + String(repeating: " ", count: 200_000) + "&&&"
        let filtered = runQuery(query("true", { $0.filterQueries = [filter] }, container: container))
        let filterError = filtered.error as? CSSearchQueryError
        XCTAssertEqual(filterError?.code, .invalidQuery)
        XCTAssertLessThan(filterError?.message.utf8.count ?? .max, 1_000)
        XCTAssertTrue(filterError?.message.hasPrefix(#"invalid filter query 0 ("title == \"x\" "#) ?? false)
        let user = runUserQuery("zeb", in: container) { $0.filterQueries = [filter] }
        XCTAssertLessThan((user.error as? CSSearchQueryError)?.message.utf8.count ?? .max, 1_000)
        let sorted = runQuery(query("true", { $0.sortAttributes = [.init(huge + "-")] }, container: container))
        let sortError = sorted.error as? CSSearchQueryError
        XCTAssertEqual(sortError?.code, .invalidQuery)
        XCTAssertLessThan(sortError?.message.utf8.count ?? .max, 1_000)
    }

    func testCancelBeforeStartCompletesCancelled() {
        let q = query("rating == 1")
        q.cancel()
        XCTAssertTrue(q.isCancelled)
        let run = runQuery(q)
        XCTAssertEqual((run.error as? CSSearchQueryError)?.code, .cancelled)
        XCTAssertEqual(run.completions, 1)
        XCTAssertTrue(run.batches.isEmpty)
    }

    func testCancelDuringDeliveryStopsAndCompletesOnce() {
        let q = query(#"title == "*""#)
        let batches = Mutex(0)
        let completions = Mutex<[(any Error)?]>([])
        let done = DispatchSemaphore(value: 0)
        q.foundItemsHandler = { [q] _ in
            batches.withLock { $0 += 1 }
            q.cancel()
        }
        q.completionHandler = { error in
            completions.withLock { $0.append(error) }
            done.signal()
        }
        q.start()
        done.wait()
        q.cancel()
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(batches.withLock { $0 }, 1)
        XCTAssertEqual(completions.withLock { $0.count }, 1)
        XCTAssertEqual((completions.withLock { $0.first } as? CSSearchQueryError)?.code, .cancelled)
        XCTAssertEqual(q.foundItemCount, 100)
    }

    func testSecondStartIsIgnored() {
        let q = query("rating == 2")
        let run = runQuery(q)
        XCTAssertEqual(run.completions, 1)
        q.start()
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(q.foundItemCount, 50)
    }

    func testSortLimitOffset() {
        let run = runQuery(query(#"keywords == "decade""#) {
            $0.sortAttributes = [.init("rating", ascending: true), .init("title", ascending: false)]
            $0.limit = 5
            $0.offset = 2
        })
        // All have rating 0; titles descending by folded text: "note 90", "note 80", "note 70", ...
        XCTAssertEqual(run.batches.joined().map(\.uniqueIdentifier), ["n70", "n60", "n50", "n40", "n30"])
        let byRating = runQuery(query(#"title == "Note 1*""#) { $0.sortAttributes = [.init("rating", ascending: false)]; $0.limit = 3 })
        XCTAssertEqual(byRating.batches.joined().map(\.uniqueIdentifier), ["n104", "n109", "n114"])
    }

    /// `domainIdentifier` (and its `kMDItem…` alias) sorts by the item's domain, folded like any text; items
    /// without a domain come last.
    func testSortByDomainIdentifier() {
        let domains = ["Dom.c", "dom.a", nil, "dom.d", "dom.B"]
        let container = makeContainer(domains.enumerated().map { makeItem("s\($0)", title: "Sorted", domain: $1) })
        for attribute in ["domainIdentifier", "kMDItemDomainIdentifier"] {
            for (ascending, expected) in [(true, ["s1", "s4", "s0", "s3", "s2"]), (false, ["s3", "s0", "s4", "s1", "s2"])] {
                let run = runQuery(query("true", { $0.sortAttributes = [.init(attribute, ascending: ascending)] },
                                         container: container))
                XCTAssertNil(run.error)
                XCTAssertEqual(run.batches.joined().map(\.uniqueIdentifier), expected, "\(attribute) ascending \(ascending)")
            }
        }
    }

    /// A sort attribute that can never name an attribute (not a property, `kMDItem…` alias or valid custom key
    /// name) fails either kind of query, saying which one; a valid custom key no item holds sorts as missing.
    func testInvalidSortAttributeIsAnErrorSayingWhichOne() {
        let container = makeContainer((0..<3).map { makeItem("v\($0)", title: "Valid \(2 - $0)") })
        for bad in ["", "title ", "no such attribute!", "a\u{0}b", "kMDItemNoSuchKey", "*"] {
            let run = runQuery(query("true", { $0.sortAttributes = [.init("title"), .init(bad)] }, container: container))
            let error = run.error as? CSSearchQueryError
            XCTAssertEqual(error?.code, .invalidQuery, bad.debugDescription)
            XCTAssertTrue(error?.message.hasPrefix("invalid sort attribute 1 (\(bad.debugDescription)): ") ?? false,
                          error?.message ?? "no error for \(bad.debugDescription)")
            XCTAssertTrue(run.batches.isEmpty)
            for text in ["valid", ""] {
                let user = runUserQuery(text, in: container) { $0.sortAttributes = [.init(bad)] }
                XCTAssertEqual((user.error as? CSSearchQueryError)?.code, .invalidQuery, "\(bad.debugDescription) '\(text)'")
            }
        }
        let run = runQuery(query("true", { $0.sortAttributes = [.init("title ")] }, container: container))
        XCTAssertEqual((run.error as? CSSearchQueryError)?.message, #"invalid sort attribute 0 ("title "): not a "#
            + #"property name or kMDItem alias, and custom attribute key name 'title ' may contain only ASCII letters, "#
            + #"digits and '_'"#)
        let unheld = runQuery(query("true", { $0.sortAttributes = [.init("neverSetKey"), .init("kMDItemTitle")] },
                                    container: container))
        XCTAssertNil(unheld.error)
        XCTAssertEqual(unheld.batches.joined().map(\.uniqueIdentifier), ["v2", "v1", "v0"])
    }

    func testSortedCursorContinuesAfterTheLastResultEvenAfterChanges() throws {
        let clock = TestClock()
        let container = makeContainer((0..<30).map { makeItem("c\($0)", title: "Item \(1000 + $0)") }, clock: clock)
        let sort = [CSSearchQueryContext.SortAttribute("title")]
        let first = query(#"title == "Item*""#, { $0.sortAttributes = sort; $0.limit = 10 }, container: container)
        XCTAssertEqual(runQuery(first).batches.joined().map(\.uniqueIdentifier), (0..<10).map { "c\($0)" })
        let cursor = try XCTUnwrap(first.cursor)
        // An item sorting before the cursor and one after it are added in between.
        _ = makeIndexing(container, [makeItem("early", title: "Item 0999"), makeItem("late", title: "Item 1015x")])
        let second = query(#"title == "Item*""#, { $0.sortAttributes = sort; $0.limit = 7; $0.cursor = cursor }, container: container)
        XCTAssertEqual(runQuery(second).batches.joined().map(\.uniqueIdentifier),
                       ["c10", "c11", "c12", "c13", "c14", "c15", "late"])
    }

    /// Identifiers that are canonically equivalent but distinct ("café" precomposed and decomposed) are two
    /// items: tied on the sort key, a sorted cursor after one of them must still deliver the other.
    func testSortedCursorKeepsCanonicallyEquivalentIdentifiersApart() throws {
        let ids = ["caf\u{E9}", "cafe\u{301}", "cafa"]
        let container = makeContainer(ids.map { makeItem($0, title: "Same") })
        var cursor: CSSearchQueryCursor?
        var paged: [[Unicode.Scalar]] = []
        for _ in 0..<4 {
            let page = query("true", { $0.sortAttributes = [.init("title")]; $0.limit = 1; $0.cursor = cursor }, container: container)
            let ids = runQuery(page).batches.joined().map(\.uniqueIdentifier)
            if ids.isEmpty { break }
            paged += ids.map { Array($0.unicodeScalars) }
            cursor = page.cursor
        }
        XCTAssertEqual(paged.count, 3)
        XCTAssertEqual(Set(paged), Set(ids.map { Array($0.unicodeScalars) }))
    }

    /// A cursor continues only the query that made it: given to a query with another query string or other filter
    /// queries it fails with `invalidQuery` (it went on after the other query's last address or key, silently
    /// skipping this query's first results), sorted or not.
    func testCursorOfAnotherQueryIsAnError() throws {
        let container = makeContainer((0..<10).map { makeItem("q\($0)", title: $0 % 2 == 0 ? "Even \($0)" : "Odd \($0)") })
        for sort in [[], [CSSearchQueryContext.SortAttribute("title")]] {
            let first = query(#"title == "Even*""#, { $0.limit = 2; $0.sortAttributes = sort }, container: container)
            XCTAssertEqual(runQuery(first).batches.joined().count, 2)
            let cursor = try XCTUnwrap(first.cursor)
            for (string, filters) in [(#"title == "Odd*""#, [String]()), (#"title == "Even*""#, ["true"])] {
                let other = runQuery(query(string, { $0.cursor = cursor; $0.sortAttributes = sort; $0.filterQueries = filters },
                                           container: container))
                let error = other.error as? CSSearchQueryError
                XCTAssertEqual(error?.code, .invalidQuery, "\(string) \(filters) sorted \(!sort.isEmpty)")
                XCTAssertEqual(error?.message, "the cursor was made by a query with another query string or filter queries")
                XCTAssertTrue(other.batches.isEmpty)
            }
            let same = runQuery(query(#"title == "Even*""#, { $0.cursor = cursor; $0.sortAttributes = sort }, container: container))
            XCTAssertNil(same.error)
            XCTAssertEqual(same.batches.joined().count, 3)
        }
    }

    /// A cursor that does not fit the query (another query string, filters or sort, or an unsorted cursor of an
    /// index that changed since) is refused before the query runs: the query is not evaluated (its calendar, which
    /// evaluation reads first, is never asked for), where it used to be refused only after every match was found
    /// and sorted.
    func testAMismatchedCursorIsRefusedBeforeTheQueryRuns() throws {
        /// Counts the evaluations: each one reads the calendar once.
        final class CountingQuery: CSSearchQuery, @unchecked Sendable {
            let reads = Mutex(0)
            override var calendar: Calendar {
                get { reads.withLock { $0 += 1 }; return super.calendar }
                set { super.calendar = newValue }
            }
        }
        let container = makeContainer((0..<6).map { makeItem("m\($0)", title: "Mismatch \($0)") })
        let title = CSSearchQueryContext.SortAttribute("title")
        for sort in [[], [title]] {
            let first = query(#"title == "Mismatch*""#, { $0.limit = 2; $0.sortAttributes = sort },
                              container: container)
            XCTAssertEqual(runQuery(first).batches.joined().count, 2)
            let cursor = try XCTUnwrap(first.cursor)
            let mismatches: [(String, [String], [CSSearchQueryContext.SortAttribute])] = [
                (#"title == "M*""#, [], sort), (#"title == "Mismatch*""#, ["true"], sort),
                (#"title == "Mismatch*""#, [], sort.isEmpty ? [title] : []),
            ]
            for (string, filters, otherSort) in mismatches {
                let context = CSSearchQueryContext()
                context.cursor = cursor
                context.filterQueries = filters
                context.sortAttributes = otherSort
                let other = CountingQuery(queryString: string, queryContext: context, container: container)
                let run = runQuery(other)
                let label = "\(string) \(filters) \(otherSort)"
                XCTAssertEqual((run.error as? CSSearchQueryError)?.code, .invalidQuery, label)
                XCTAssertEqual(other.reads.withLock { $0 }, 0, label)
            }
        }
        let unsorted = query(#"title == "Mismatch*""#, { $0.limit = 2 }, container: container)
        _ = runQuery(unsorted)
        let stale = try XCTUnwrap(unsorted.cursor)
        _ = makeIndexing(container, [makeItem("later", title: "Mismatch later")])
        let context = CSSearchQueryContext()
        context.cursor = stale
        let after = CountingQuery(queryString: #"title == "Mismatch*""#, queryContext: context, container: container)
        XCTAssertEqual((runQuery(after).error as? CSSearchQueryError)?.code, .invalidQuery)
        XCTAssertEqual(after.reads.withLock { $0 }, 0)
    }

    /// A user query makes no cursors, so a cursor given to one is another query's: it fails with `invalidQuery`
    /// as that does, instead of being ignored (which delivered the first page again, as if it were the next).
    func testCursorGivenToAUserQueryIsAnError() throws {
        let container = makeContainer((0..<6).map { makeItem("u\($0)", title: "Paged note \($0)") })
        for sort in [[], [CSSearchQueryContext.SortAttribute("title")]] {
            let first = query(#"title == "Paged*""#, { $0.limit = 2; $0.sortAttributes = sort }, container: container)
            XCTAssertEqual(runQuery(first).batches.joined().count, 2)
            let cursor = try XCTUnwrap(first.cursor)
            let user = runUserQuery("paged", in: container) { $0.cursor = cursor; $0.sortAttributes = sort }
            let error = user.error as? CSSearchQueryError
            XCTAssertEqual(error?.code, .invalidQuery, "sorted \(!sort.isEmpty)")
            XCTAssertEqual(error?.message, "user queries do not support cursors (the cursor was made by a CSSearchQuery); "
                + "page them with offset and limit")
            XCTAssertTrue(user.items.isEmpty)
        }
        XCTAssertEqual(runUserQuery("paged", in: container).items.count, 6)
    }

    func testUnsortedCursorWorksOnTheSameGenerationOnly() throws {
        let container = makeContainer((0..<12).map { makeItem("u\($0)", title: "Unsorted") })
        let first = query(#"title == "Unsorted""#, { $0.limit = 5 }, container: container)
        let firstIDs = runQuery(first).batches.joined().map(\.uniqueIdentifier)
        let cursor = try XCTUnwrap(first.cursor)
        let second = query(#"title == "Unsorted""#, { $0.cursor = cursor }, container: container)
        let secondIDs = runQuery(second).batches.joined().map(\.uniqueIdentifier)
        XCTAssertEqual(firstIDs.count, 5)
        XCTAssertEqual(secondIDs.count, 7)
        XCTAssertTrue(Set(firstIDs).isDisjoint(with: secondIDs))
        _ = makeIndexing(container, [makeItem("other", title: "x")])
        let stale = runQuery(query(#"title == "Unsorted""#, { $0.cursor = cursor }, container: container))
        XCTAssertEqual((stale.error as? CSSearchQueryError)?.code, .invalidQuery)
    }

    /// A merge published between two pages reorders the index but changes no item: an unsorted cursor goes on
    /// from the snapshot it was made on, so the pages still hold every item once. A write after that ends it.
    func testUnsortedCursorSurvivesAMergePublishedBetweenPages() throws {
        let container = SearchlightContainer()
        container.setIdleMergeDelay(nil)  // only the policy's merge, which the test holds
        let held = Mutex<[@Sendable () -> Void]>([])
        container.setMergeStarter { work in held.withLock { $0.append(work) } }
        // Four one-item writes: four segments of one tier, whose merge starts (and is held) at the fourth.
        for i in 0..<4 { _ = makeIndexing(container, [makeItem("m\(i)", title: "Merged")]) }
        XCTAssertEqual(container.snapshot().engine.stats.segments, 4)
        XCTAssertEqual(held.withLock { $0.count }, 1)
        let first = query(#"title == "Merged""#, { $0.limit = 2 }, container: container)
        let firstIDs = runQuery(first).batches.joined().map(\.uniqueIdentifier)
        let cursor = try XCTUnwrap(first.cursor)
        for work in held.withLock({ $0 }) { work() }
        container.waitForBackgroundMerges()
        XCTAssertEqual(container.snapshot().engine.stats.segments, 1, "the merge was published without a write")
        let second = runQuery(query(#"title == "Merged""#, { $0.cursor = cursor }, container: container))
        XCTAssertNil(second.error)
        let secondIDs = second.batches.joined().map(\.uniqueIdentifier)
        XCTAssertEqual(firstIDs.count, 2)
        XCTAssertEqual(Set(firstIDs + secondIDs), ["m0", "m1", "m2", "m3"])
        XCTAssertEqual(secondIDs.count, 2)
        _ = makeIndexing(container, [makeItem("other", title: "x")])
        let stale = runQuery(query(#"title == "Merged""#, { $0.cursor = cursor }, container: container))
        XCTAssertEqual((stale.error as? CSSearchQueryError)?.code, .invalidQuery)
    }

    /// An unsorted cursor only continues on its own container: another container, whose generations happen to
    /// match, fails it instead of paging the cursor's pinned items.
    func testUnsortedCursorDoesNotCrossContainers() throws {
        let a = makeContainer((0..<4).map { makeItem("a\($0)", title: "Shared") })
        let b = makeContainer((0..<4).map { makeItem("b\($0)", title: "Shared") })
        let first = query(#"title == "Shared""#, { $0.limit = 1 }, container: a)
        XCTAssertEqual(runQuery(first).batches.joined().map(\.uniqueIdentifier).count, 1)
        let cursor = try XCTUnwrap(first.cursor)
        // A write that changes no item: B's generation moves on, its content generation does not.
        let index = CSSearchableIndex(name: "query-tests", container: b)
        XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: ["missing"], completionHandler: $0) })
        let crossed = runQuery(query(#"title == "Shared""#, { $0.cursor = cursor }, container: b))
        XCTAssertEqual((crossed.error as? CSSearchQueryError)?.code, .invalidQuery)
        XCTAssertFalse(crossed.batches.joined().contains { $0.uniqueIdentifier.hasPrefix("a") })
    }

    /// Generations count per writer, so an unsorted cursor's generation can match another writer's: a cursor from
    /// another container with the same generation, or from a store before a crash and reopen (whose recovery
    /// merged the segments), is refused, never paged through other documents' addresses.
    func testUnsortedCursorOfAnotherWriterIsRefusedWhateverItsGeneration() throws {
        func page(_ container: SearchlightContainer, limit: Int, cursor: CSSearchQueryCursor?)
            -> (ids: [String], error: (any Error)?, cursor: CSSearchQueryCursor?) {
            let first = query(#"title == "Paged*""#, { $0.limit = limit; $0.cursor = cursor }, container: container)
            let run = runQuery(first)
            return (run.batches.joined().map(\.uniqueIdentifier), run.error, first.cursor)
        }
        let a = makeContainer((0..<4).map { makeItem("a\($0)", title: "Paged") })
        let b = makeContainer((0..<4).map { makeItem("b\($0)", title: "Paged") })
        XCTAssertEqual(a.snapshot().engine.generation, b.snapshot().engine.generation)
        let first = page(a, limit: 1, cursor: nil)
        let crossed = page(b, limit: 100, cursor: try XCTUnwrap(first.cursor))
        XCTAssertEqual((crossed.error as? CSSearchQueryError)?.code, .invalidQuery)
        XCTAssertTrue(crossed.ids.isEmpty)

        let url = makeStoreURL(self)
        let before: (ids: [String], error: (any Error)?, cursor: CSSearchQueryCursor?)
        do {
            let container = try SearchlightContainer(directory: url)
            container.setIdleMergeDelay(nil)
            let held = Mutex<[@Sendable () -> Void]>([])
            container.setMergeStarter { work in held.withLock { $0.append(work) } }  // merges never run
            let index = CSSearchableIndex(name: "p", container: container)
            for batch in 0..<4 {
                let items = (0..<5).map { makeItem("p\(batch * 5 + $0)", title: "Paged \(batch * 5 + $0)") }
                XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
                if batch == 2 { try container.checkpoint() }
            }
            before = page(container, limit: 7, cursor: nil)
            XCTAssertEqual(before.ids.count, 7)
            container.closeWithoutCheckpoint()
        }
        let reopened = try SearchlightContainer(directory: url)
        defer { reopened.close() }
        let after = page(reopened, limit: 100, cursor: try XCTUnwrap(before.cursor))
        XCTAssertEqual((after.error as? CSSearchQueryError)?.code, .invalidQuery, "\(after.ids)")
    }

    /// Two items whose identifiers are canonically equivalent ("café" precomposed and decomposed) are two results:
    /// `Item`'s `==` and `<` told them apart by `String`'s canonical comparison only, so a set of results lost one
    /// and `sorted()` depended on the input order.
    func testResultItemsWithCanonicallyEquivalentIdentifiersStayDistinct() async throws {
        let container = makeContainer(["caf\u{E9}", "cafe\u{301}"].map { makeItem($0, title: "Same") })
        var items: [CSSearchQuery.Results.Item] = []
        for try await item in CSSearchQuery(queryString: "true", queryContext: nil, container: container).results {
            items.append(item)
        }
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(Set(items).count, 2)
        XCTAssertNotEqual(items.first, items.last)
        let order = items.sorted().map { Array($0.id.unicodeScalars) }
        XCTAssertEqual(Array(items.reversed()).sorted().map { Array($0.id.unicodeScalars) }, order)
    }

    func testAsyncResultsSequence() async throws {
        var ids: [String] = []
        for try await result in query("rating == 3").results {
            XCTAssertEqual(result.id, result.item.uniqueIdentifier)
            ids.append(result.id)
        }
        XCTAssertEqual(Set(ids), Set((0..<250).filter { $0 % 5 == 3 }.map { "n\($0)" }))
        // A second iteration of the same query ends with an error instead of hanging.
        let once = query("rating == 4")
        var count = 0
        for try await _ in once.results { count += 1 }
        XCTAssertEqual(count, 50)
        do {
            for try await _ in once.results { XCTFail("a query runs once") }
            XCTFail("expected an error")
        } catch let error as CSSearchQueryError {
            XCTAssertEqual(error.code, .unknown)
        }
        do {
            for try await _ in query(#"title == "#).results { XCTFail("no results expected") }
            XCTFail("expected an error")
        } catch let error as CSSearchQueryError {
            XCTAssertEqual(error.code, .invalidQuery)
        }
    }

    /// Cancelling the task that iterates `results` cancels the query and ends the iteration with `.cancelled`,
    /// as a cancelled query ends: the iteration ended with nil, so a list cut short looked complete.
    func testTaskCancelledMidIterationEndsWithAnError() async throws {
        let container = makeContainer((0..<1000).map { makeItem("r\($0)", title: "Review note \($0)") })
        for early in [false, true] {
            let query = CSSearchQuery(queryString: #"title == "Review*""#, queryContext: nil, container: container)
            let (count, error) = await iterateCancelled(query.results, early: early)
            XCTAssertEqual((error as? CSSearchQueryError)?.code, .cancelled,
                           "cancelled \(early ? "before iterating" : "mid-iteration"), it ended after \(count) of 1000")
            XCTAssertTrue(query.isCancelled)
        }
    }

    @available(*, deprecated)
    func testAppleInitializersSearchTheDefaultContainer() {
        let token = "zqdefault\(UInt32.random(in: 0..<UInt32.max))"
        let index = CSSearchableIndex.default()
        XCTAssertNil(index.completion {
            index.indexSearchableItems([makeItem("\(token)-1", title: token, keywords: ["k"])], completionHandler: $0)
        })
        defer { _ = index.completion { index.deleteSearchableItems(withIdentifiers: ["\(token)-1"], completionHandler: $0) } }
        let modern = runQuery(CSSearchQuery(queryString: "title == \"\(token)\"", queryContext: nil))
        XCTAssertEqual(modern.batches.joined().map(\.uniqueIdentifier), ["\(token)-1"])
        let legacy = runQuery(CSSearchQuery(queryString: "title == \"\(token)\"", attributes: ["keywords"]))
        let item = legacy.batches.first?.first
        XCTAssertEqual(item?.attributeSet.keywords, ["k"])
        XCTAssertNil(item?.attributeSet.title)
        let user = runQuery(CSUserQuery(userQueryString: token, userQueryContext: nil))
        XCTAssertEqual(user.batches.joined().map(\.uniqueIdentifier), ["\(token)-1"])
    }

    func testExpiredItemsAreInvisibleToEveryQuery() {
        let clock = TestClock()
        let fading = makeItem("fading", title: "Fading note")
        fading.expirationDate = clock.now.addingTimeInterval(3_600)
        let container = makeContainer([fading, makeItem("staying", title: "Staying note")], clock: clock)
        let before = runQuery(query("title != \"x\"", container: container)).batches.joined().map(\.uniqueIdentifier)
        XCTAssertEqual(Set(before), ["fading", "staying"])
        clock.advance(by: 7_200)
        for string in ["title != \"x\"", "title == \"*\"", "true", "!(title == \"Staying*\")"] {
            let ids = runQuery(query(string, container: container)).batches.joined().map(\.uniqueIdentifier)
            XCTAssertFalse(ids.contains("fading"), string)
        }
        XCTAssertEqual(runUserQuery("note", in: container).items.map(\.uniqueIdentifier), ["staying"])
    }

    func testCalendarDrivesTimeExpressions() {
        let clock = TestClock(Date(timeIntervalSinceReferenceDate: 800_000_000))
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        // Ten minutes after UTC midnight of the clock's day.
        let midnight = utcCalendar.startOfDay(for: clock.now)
        set.contentCreationDate = midnight.addingTimeInterval(600)
        let container = makeContainer([CSSearchableItem(uniqueIdentifier: "d", domainIdentifier: nil, attributeSet: set)], clock: clock)
        let utc = query("contentCreationDate >= $time.today", container: container)
        utc.calendar = utcCalendar
        XCTAssertEqual(runQuery(utc).batches.joined().count, 1)
        var east = utcCalendar
        east.timeZone = TimeZone(secondsFromGMT: -3 * 3_600) ?? east.timeZone
        // The clock reads 06:13 UTC, 03:13 in UTC-3: "today" there began at 03:00 UTC, after the item.
        let later = query("contentCreationDate >= $time.today", container: container)
        later.calendar = east
        XCTAssertEqual(east.startOfDay(for: clock.now), midnight.addingTimeInterval(3 * 3_600))
        XCTAssertEqual(runQuery(later).batches.joined().count, 0)
    }

    func testContextIsCopiedAtInit() {
        let context = CSSearchQueryContext()
        context.filterQueries = ["rating == 4"]
        let q = CSSearchQuery(queryString: #"keywords == "decade""#, queryContext: context, container: Self.container)
        context.filterQueries = []
        XCTAssertEqual(runQuery(q).batches.joined().count, 0)
        let copy = context.copy() as? CSSearchQueryContext
        XCTAssertEqual(copy?.filterQueries, [])
    }

    /// Apple's `CSSearchQueryContext` is `NSSecureCoding`: a keyed archive keeps every setting but the cursor,
    /// which holds an index snapshot, so the unarchived context runs from the first page.
    func testContextArchivesAndUnarchives() throws {
        XCTAssertTrue(CSSearchQueryContext.supportsSecureCoding)
        let sort = [CSSearchQueryContext.SortAttribute("rating", ascending: false), .init("title")]
        let decade = [#"keywords == "decade""#]
        let first = query("true", { $0.filterQueries = decade; $0.sortAttributes = sort; $0.limit = 4 })
        XCTAssertEqual(runQuery(first).batches.joined().map(\.uniqueIdentifier), ["n0", "n10", "n100", "n110"])
        let context = CSSearchQueryContext()
        context.fetchAttributes = ["title", "rating"]
        context.filterQueries = decade
        context.keyboardLanguage = "fr-FR"
        context.sourceOptions = .allowMail
        context.sortAttributes = sort
        context.limit = 3
        context.offset = 1
        context.cursor = try XCTUnwrap(first.cursor)
        let data = try NSKeyedArchiver.archivedData(withRootObject: context, requiringSecureCoding: true)
        let back = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchQueryContext.self, from: data))
        XCTAssertEqual(back.fetchAttributes, ["title", "rating"])
        XCTAssertEqual(back.filterQueries, decade)
        XCTAssertEqual(back.keyboardLanguage, "fr-FR")
        XCTAssertEqual(back.sourceOptions, .allowMail)
        XCTAssertEqual(back.sortAttributes, sort)
        XCTAssertEqual(back.limit, 3)
        XCTAssertEqual(back.offset, 1)
        XCTAssertNil(back.cursor)
        let q = CSSearchQuery(queryString: "true", queryContext: back, container: Self.container)
        let found = runQuery(q).batches.joined()
        XCTAssertEqual(found.map(\.uniqueIdentifier), ["n10", "n100", "n110"], "from the first page, not the cursor")
        XCTAssertEqual(found.first?.attributeSet.title, "Note 10")

        let empty = try NSKeyedArchiver.archivedData(withRootObject: CSSearchQueryContext(), requiringSecureCoding: true)
        let defaults = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchQueryContext.self, from: empty))
        XCTAssertEqual(defaults.values.fetchAttributes, [])
        XCTAssertNil(defaults.keyboardLanguage)
        XCTAssertEqual(defaults.sourceOptions, .default)
        XCTAssertEqual(defaults.sortAttributes, [])
        XCTAssertEqual(defaults.limit, 0)
    }

    /// A corrupt or hostile context archive decodes to nothing or to settings the setters could hold (negative
    /// counts clamped to 0), never a crash.
    func testCorruptContextArchiveFailsCleanly() throws {
        let context = CSSearchQueryContext()
        context.fetchAttributes = ["title"]
        context.sortAttributes = [.init("title", ascending: false)]
        context.limit = 5
        let data = try NSKeyedArchiver.archivedData(withRootObject: context, requiringSecureCoding: true)
        for cut in 0..<data.count {
            _ = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchQueryContext.self, from: data.prefix(cut))
        }
        XCTAssertThrowsError(try NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchQueryContext.self, from: Data([1, 2])))

        let clamped = try XCTUnwrap(ForgedKeyedArchive.decode(CSSearchQueryContext.self, [
            "limit": Int64(-5), "offset": Int64.min, "sourceOptions": Int64(-1),
        ]))
        XCTAssertEqual(clamped.limit, 0)
        XCTAssertEqual(clamped.offset, 0)
        XCTAssertEqual(clamped.sourceOptions.rawValue, UInt.max)
        XCTAssertEqual(clamped.sortAttributes, [])
        XCTAssertNil(ForgedKeyedArchive.decode(CSSearchQueryContext.self, ["fetchAttributes": ["title", 3] as NSArray]))
        XCTAssertNil(ForgedKeyedArchive.decode(CSSearchQueryContext.self, ["filterQueries": [NSNumber(value: 1)] as NSArray]))
        XCTAssertNil(ForgedKeyedArchive.decode(CSSearchQueryContext.self, ["fetchAttributes": ["title": 1] as NSDictionary]))
        XCTAssertNil(ForgedKeyedArchive.decode(CSSearchQueryContext.self, ["filterQueries": NSString(string: "true")]))
        XCTAssertNil(ForgedKeyedArchive.decode(CSSearchQueryContext.self, [
            "sortAttributes": ["title", "rating"] as NSArray, "sortAscending": [true] as NSArray,
        ]), "a direction missing")
        XCTAssertNil(ForgedKeyedArchive.decode(CSSearchQueryContext.self, [
            "sortAttributes": ["title"] as NSArray, "sortAscending": ["yes"] as NSArray,
        ]))
    }
}

/// Archives the given keys (Int64 and Bool as scalars, anything else as an object) under a class name the test
/// maps to `T`, so a decoder meets values `encode(with:)` never writes.
final class ForgedKeyedArchive: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let values: [String: Any]
    init(_ values: [String: Any]) { self.values = values }
    init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {
        for (key, value) in values {
            switch value {
            case let value as Int64: coder.encode(value, forKey: key)
            case let value as Bool: coder.encode(value, forKey: key)
            default: coder.encode(value, forKey: key)
            }
        }
    }

    static func decode<T: NSObject & NSSecureCoding>(_ type: T.Type, _ values: [String: Any]) -> T? {
        guard let data = try? NSKeyedArchiver.archivedData(withRootObject: ForgedKeyedArchive(values), requiringSecureCoding: true),
              let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.decodingFailurePolicy = .setErrorAndReturn  // as `unarchivedObject(ofClass:from:)` sets it
        unarchiver.setClass(T.self, forClassName: NSStringFromClass(ForgedKeyedArchive.self))
        return unarchiver.decodeObject(of: T.self, forKey: NSKeyedArchiveRootObjectKey)
    }
}

/// Indexes more items into an existing container and waits.
@discardableResult
func makeIndexing(_ container: SearchlightContainer, _ items: [CSSearchableItem]) -> (any Error)? {
    let index = CSSearchableIndex(name: "query-tests", container: container)
    return index.completion { index.indexSearchableItems(items, completionHandler: $0) }
}
