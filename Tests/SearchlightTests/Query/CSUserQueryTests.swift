import Foundation
import XCTest
@testable import Searchlight
import SearchlightEngine
import Synchronization

/// `CSUserQuery` behaviour on small hand-made collections.
final class CSUserQueryTests: XCTestCase {
    static let clock = TestClock()

    func item(_ id: String, title: String, description: String? = nil, hint: Double? = nil,
              lastUsedDaysAgo: Double? = nil, domain: String = "notes") -> CSSearchableItem {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.title = title
        set.contentDescription = description
        if let hint { set.rankingHint = NSNumber(value: hint) }
        if let days = lastUsedDaysAgo { set.lastUsedDate = Self.clock.now.addingTimeInterval(-days * 86_400) }
        return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributeSet: set)
    }

    lazy var container: SearchlightContainer = makeContainer([
        item("budget", title: "Budget 2026", description: "Quarterly budget planning for the garden club"),
        item("garden", title: "Garden planning", description: "Seeds, tools and a budget"),
        item("recipes", title: "Recipes", description: "Chocolate cake and apple pie"),
        item("chinese", title: "中文输入法", description: "中文文本编辑"),
        item("camel", title: "MyWindowController notes", description: "AppKit window controller"),
    ], clock: Self.clock)

    func ids(_ text: String, _ configure: (CSUserQueryContext) -> Void = { $0.enableRankedResults = true }) -> [String] {
        let run = runUserQuery(text, in: container, configure: configure)
        XCTAssertNil(run.error)
        return run.items.map(\.uniqueIdentifier)
    }

    func testAllWordsMustMatchAndTheLastIsAPrefix() {
        XCTAssertEqual(ids("budget plan"), ["budget", "garden"])
        XCTAssertEqual(Set(ids("budg")), ["budget", "garden"])
        XCTAssertEqual(ids("budget "), ["budget", "garden"])
        XCTAssertEqual(ids("chocolate apple"), ["recipes"])
        XCTAssertEqual(ids("chocolate banana"), [])
        XCTAssertEqual(ids("budg "), [], "a finished word is not a prefix")
        XCTAssertEqual(ids(""), [])
    }

    /// A word followed by a space is finished, whatever non-word characters come after the space (the next word
    /// begun with punctuation): "budg (" searched "budg" as a prefix again, where "budg " found nothing.
    func testAWordFinishedByASpaceIsNoPrefixBeforeTrailingPunctuation() {
        XCTAssertEqual(ids("budg ("), [])
        XCTAssertEqual(ids("budg\u{00A0}-"), [])
        XCTAssertEqual(ids("budget ."), ["budget", "garden"])
        XCTAssertEqual(Set(ids("budg.")), ["budget", "garden"], "no space: still being typed")
        XCTAssertFalse(UserQueryPlan(text: "budg #").typing)
    }

    func testTyposAreTolerated() {
        XCTAssertEqual(ids("chocolat"), ["recipes"])
        XCTAssertEqual(ids("chocolaet cake"), ["recipes"])
        XCTAssertEqual(ids("quartely budget"), ["budget"])
        XCTAssertEqual(ids("cakr"), [], "four letters allow no typo")
    }

    /// Words for the typo budget's boundaries, none within two edits of another.
    lazy var typoContainer: SearchlightContainer = makeContainer([
        item("tulip", title: "Tulip bulbs"), item("lily", title: "Lily pond"),
        item("chocolate", title: "Chocolate truffles"), item("lavender", title: "Lavender soap"),
    ], clock: Self.clock)

    func typoIDs(_ text: String) -> [String] {
        let run = runUserQuery(text, in: typoContainer)
        XCTAssertNil(run.error)
        return run.items.map(\.uniqueIdentifier)
    }

    /// One edit is allowed from five characters, none below: a substituted letter finds "tulip" but not "lily".
    /// The typo is a finished word (trailing space) or the first word, so no prefix match can find it instead.
    func testOneTypoFromFiveCharacters() {
        XCTAssertEqual(typoIDs("tulop "), ["tulip"], "5 characters, 1 edit")
        XCTAssertEqual(typoIDs("tulop bulb"), ["tulip"], "the typo first, the last word a prefix")
        XCTAssertEqual(typoIDs("lily "), ["lily"])
        XCTAssertEqual(typoIDs("lilu "), [], "4 characters allow no edit")
        XCTAssertEqual(typoIDs("lilu pon"), [])
    }

    /// Two adjacent letters swapped, the commonest typo, count as one edit (as in Lucene and tantivy): "tuilp"
    /// finds "tulip"; a swap in a four-letter word is still no typo allowed, and a swap with another edit is two.
    func testASwapOfAdjacentLettersIsOneEdit() {
        XCTAssertEqual(typoIDs("tuilp "), ["tulip"], "5 characters, one swap")
        XCTAssertEqual(typoIDs("utlip bulb"), ["tulip"], "a swap at the start")
        XCTAssertEqual(typoIDs("tulpi "), ["tulip"], "a swap at the end")
        XCTAssertEqual(typoIDs("lavendre "), ["lavender"])
        XCTAssertEqual(typoIDs("illy "), [], "4 characters allow no edit")
        XCTAssertEqual(typoIDs("tuilq "), [], "a swap and a substitution are two edits")
        XCTAssertEqual(typoIDs("chocolaet truf"), ["chocolate"], "within two edits a swap was already found")
    }

    /// Two edits are allowed from nine characters, one below: two substituted letters find "chocolate" but not
    /// "lavender" (eight), which one substituted letter still finds.
    func testTwoTyposFromNineCharacters() {
        XCTAssertEqual(typoIDs("chacolatu "), ["chocolate"], "9 characters, 2 edits")
        XCTAssertEqual(typoIDs("chacolatu truf"), ["chocolate"], "the typo first, the last word a prefix")
        XCTAssertEqual(typoIDs("lavindar "), [], "8 characters allow 1 edit, not 2")
        XCTAssertEqual(typoIDs("lavinder "), ["lavender"], "8 characters, 1 edit")
    }

    /// A number (digits only) is matched as typed, never with a typo: its near neighbours are other numbers, as
    /// meaningful as it is ("12345" found invoice 12346), where a near neighbour of a word is mostly no word. Words
    /// around it keep their typos, and a word holding letters too keeps its budget.
    func testNumbersAreMatchedWithoutTypos() {
        let container = makeContainer([item("a", title: "Invoice 12345"), item("b", title: "Invoice 12346"),
                                       item("c", title: "Order 123456789"), item("d", title: "Model x12345")],
                                      clock: Self.clock)
        func found(_ text: String) -> Set<String> { Set(runUserQuery(text, in: container).items.map(\.uniqueIdentifier)) }
        XCTAssertEqual(found("12345 "), ["a"], "5 digits, no edit")
        XCTAssertEqual(found("12346"), ["b"], "nor inside the number being typed")
        XCTAssertEqual(found("123456780 "), [], "9 digits, no edit")
        XCTAssertEqual(found("invoise 12346 "), ["b"], "the word beside it keeps its typo")
        XCTAssertTrue(found("y12345 ").contains("d"), "letters and digits: a word, with its budget")
        XCTAssertEqual(UserQueryPlan(text: "12345 67890").hasTypoBudget, false, "no typo pass to run")
    }

    /// The typo budget counts the characters typed, not the more that folding makes of some ("maße" is four
    /// characters, its term "masse" five; "fußbakks" eight, "fussbakks" nine): one key for ß gave a four-letter
    /// word a typo ("maße" found "Messe") and an eight-letter one two. Typed as folded, the budget is the term's.
    func testTheTypoBudgetCountsTheCharactersTyped() {
        let container = makeContainer([item("messe", title: "Messe Frankfurt"), item("ball", title: "Fussballs")],
                                      clock: Self.clock)
        func found(_ text: String) -> [String] { runUserQuery(text, in: container).items.map(\.uniqueIdentifier) }
        XCTAssertEqual(found("maße "), [], "4 characters allow no edit")
        XCTAssertEqual(found("maße"), [], "nor inside the word being typed")
        XCTAssertEqual(found("masse "), ["messe"], "5 characters, 1 edit")
        XCTAssertEqual(found("fußbakks "), [], "8 characters allow 1 edit, not 2")
        XCTAssertEqual(found("fußbalks "), ["ball"], "8 characters, 1 edit")
        XCTAssertEqual(found("fussbakks "), ["ball"], "9 characters, 2 edits")
        XCTAssertEqual(found("Fussbakk\u{0301}s "), ["ball"], "a combining accent is no character typed")
    }

    /// Words being typed, with typos inside them, none within two edits of another's start.
    lazy var typingContainer: SearchlightContainer = makeContainer([
        item("keyboards", title: "Mechanical keyboards"), item("russian", title: "Клавиатура ноутбука"),
        item("chocolate", title: "Chocolate truffles"), item("kettle", title: "Kettle"),
    ], clock: Self.clock)

    func typingIDs(_ text: String, _ configure: (CSUserQueryContext) -> Void = { $0.enableRankedResults = true }) -> [String] {
        let run = runUserQuery(text, in: typingContainer, configure: configure)
        XCTAssertNil(run.error)
        return run.items.map(\.uniqueIdentifier)
    }

    /// The word being typed tolerates typos inside what is typed so far, as Meilisearch's and tantivy's prefix
    /// fuzzy matching do: a term matches when some prefix of it is within the typo budget (1 edit from 5
    /// characters, 2 from 9, an adjacent swap one edit), in characters.
    func testTyposInsideTheWordBeingTyped() {
        XCTAssertEqual(typingIDs("kwybo"), ["keyboards"], "a substitution")
        XCTAssertEqual(typingIDs("kebyo"), ["keyboards"], "an adjacent swap")
        XCTAssertEqual(typingIDs("mechanical kwybo"), ["keyboards"], "the last word of several")
        XCTAssertEqual(typingIDs("kwyb"), [], "4 characters allow no edit")
        XCTAssertEqual(typingIDs("chicilate"), ["chocolate"], "9 characters, 2 edits")
        XCTAssertEqual(typingIDs("chicilat"), [], "8 characters allow 1 edit, not 2")
        XCTAssertEqual(typingIDs("клваи"), ["russian"], "a swap of two Cyrillic letters")
        XCTAssertEqual(typingIDs("kwybo "), [], "a finished word is not a prefix")
    }

    /// Deleted items' words stay in the index until a merge drops them, and counted toward the near prefixes the
    /// word being typed reads: after 16 items with words near "kwybo" were deleted, typing it no longer found
    /// "Mechanical keyboards", which it finds in an index that never held them.
    func testDeletedItemsDoNotHideATypoInsideTheWordBeingTyped() throws {
        let decoys = Array("acdfghijlmnpqrst").map { "kw\($0)bo" }
        XCTAssertEqual(decoys.count, IndexSnapshot.maxNearPrefixes)
        func build(withDecoys: Bool) -> SearchlightContainer {
            let container = SearchlightContainer(clock: Self.clock.function)
            let index = CSSearchableIndex(name: "typing", container: container)
            var items = [item("keyboards", title: "Mechanical keyboards")]
            items += (0..<300).map { item("f\($0)", title: "filler \($0)") }
            if withDecoys { items += decoys.enumerated().map { item("d\($0.offset)", title: $0.element) } }
            XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
            if withDecoys {
                let ids = decoys.indices.map { "d\($0)" }
                XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: ids, completionHandler: $0) })
            }
            container.waitForBackgroundMerges()
            return container
        }
        let clean = build(withDecoys: false), used = build(withDecoys: true)
        XCTAssertEqual(used.snapshot().count, clean.snapshot().count, "the same visible items")
        XCTAssertEqual(runUserQuery("kwybo", in: clean).items.map(\.uniqueIdentifier), ["keyboards"])
        XCTAssertEqual(runUserQuery("kwybo", in: used).items.map(\.uniqueIdentifier), ["keyboards"])
    }

    /// A typo inside the word being typed, matched only in a non-title attribute, is highlighted there.
    /// A word's near terms score only in the items the word as typed does not match, so only there are they
    /// marked: "tulip" found this item by its description, and the snippet showed the title's "Tulips" instead.
    func testASnippetMarksNearTermsOnlyWhereTheWordAsTypedDidNotMatch() throws {
        let container = makeContainer([makeItem("exact", title: "Tulips in spring", description: "A tulip garden"),
                                       makeItem("near", title: "Tulips in autumn")])
        let run = runUserQuery("tulip ", in: container)
        XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["exact", "near"])
        guard run.items.count == 2 else { return }
        let exact = try XCTUnwrap(run.query.snippet(for: run.items[0]))
        XCTAssertEqual(exact.attribute, "contentDescription")
        XCTAssertEqual(exact.highlightedWords, ["tulip"])
        XCTAssertEqual(run.query.snippet(for: run.items[1])?.highlightedWords, ["Tulips"], "a typo-only match is marked")
    }

    /// A snippet marks only the near terms the search kept (`IndexSnapshot.maxExpansions`): with 256 one-edit
    /// words in the index, a two-edit word is past the cap and finds nothing, but highlighting expanded the word
    /// without the cap and marked it in an item found through a kept one.
    func testASnippetMarksOnlyTheNearTermsTheSearchKept() throws {
        let typed = Array("abcdefghij")
        var decoys: [String] = []
        for position in 0..<typed.count {
            for letter in "klmnopqrstuvwxyz" where decoys.count < IndexSnapshot.maxExpansions {
                var word = typed
                word[position] = letter
                decoys.append(String(word))
            }
        }
        for position in 0...typed.count where decoys.count < IndexSnapshot.maxExpansions {
            for letter in "klmnopqrstuvwxyz" where decoys.count < IndexSnapshot.maxExpansions {
                var word = typed
                word.insert(letter, at: position)
                decoys.append(String(word))
            }
        }
        let container = makeContainer([makeItem("decoys", title: "Decoys", description: decoys.joined(separator: " ")),
                                       makeItem("target", title: "Target", description: decoys[0] + " and abcdefghyy"),
                                       makeItem("far", title: "Far", description: "abcdefghyy")])
        let run = runUserQuery("abcdefghij ", in: container)
        XCTAssertNil(run.error)
        XCTAssertEqual(Set(run.items.map(\.uniqueIdentifier)), ["decoys", "target"], "the two-edit word is past the cap")
        let target = try XCTUnwrap(run.items.first { $0.uniqueIdentifier == "target" })
        XCTAssertEqual(run.query.snippet(for: target)?.highlightedWords, [decoys[0]])
    }

    func testTypoInsideTheTypedWordIsHighlightedInTheDescription() throws {
        let container = makeContainer([makeItem("k", title: "Desk setup", description: "Mechanical keyboards and mice"),
                                       makeItem("m", title: "Мышь", description: "беспроводная клавиатура")])
        for (text, id, word) in [("kwybo", "k", "keyboards"), ("mechanical kwybo", "k", "keyboards"), ("клваи", "m", "клавиатура")] {
            let run = runUserQuery(text, in: container)
            XCTAssertEqual(run.items.map(\.uniqueIdentifier), [id], text)
            let item = try XCTUnwrap(run.items.first)
            XCTAssertTrue(run.query.snippet(for: item)?.highlightedWords.contains(word) ?? false,
                          "\(text): \(String(describing: run.query.snippet(for: item)?.highlightedWords))")
        }
    }

    /// A word being typed that ends inside a grapheme ("किताब" for "किताबो": the vowel sign joins the "ब") is
    /// highlighted where it matches, as typed or with a typo ("कीताब"): the engine matches prefixes by bytes, and
    /// highlighting compared Strings, by grapheme.
    func testAPrefixEndingInsideAGraphemeIsHighlighted() throws {
        let container = makeContainer([item("book", title: "किताबो")], clock: Self.clock)
        for text in ["किताब", "कीताब"] {
            let run = runUserQuery(text, in: container)
            XCTAssertNil(run.error)
            XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["book"], text)
            let found = try XCTUnwrap(run.items.first)
            XCTAssertEqual(run.query.snippet(for: found)?.highlightedWords, ["किताबो"], text)
        }
    }

    /// A typed word longer than a term (`Analyzer.maxTermBytes`) is compared with the documents' overlong words
    /// by bytes, as the engine compares terms: typed up to inside a letter ("…किताब" of "…किताबो"), it still
    /// finds the word being typed.
    func testAnOverlongPrefixEndingInsideAGraphemeFindsItsWord() throws {
        let word = String(repeating: "किताबो", count: 8)
        XCTAssertGreaterThan(word.utf8.count, Analyzer.maxTermBytes)
        let container = makeContainer([item("book", title: word), item("other", title: "किताबो")], clock: Self.clock)
        let typed = String(repeating: "किताबो", count: 7) + "किताब"
        XCTAssertGreaterThan(typed.utf8.count, Analyzer.maxTermBytes)
        let run = runUserQuery(typed, in: container)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["book"])
    }

    /// A fuzzy-prefix match ranks below an exact-prefix match of the same item quality, and is highlighted. The
    /// typo pass runs only when the words as typed do not fill the page; the exact pass's query is the one it
    /// was before prefixes were typo tolerant (the word as typed and its completions), the typo pass's adds the
    /// near prefixes' terms where the word as typed does not match, scored `fuzzyWeight`.
    func testAnExactPrefixRanksAboveATypoInsideIt() throws {
        let container = makeContainer([item("exact", title: "Keyboards"), item("typo", title: "Kaybords")], clock: Self.clock)
        let run = runUserQuery("keybo", in: container)
        XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["exact", "typo"])
        guard run.items.count == 2 else { return }
        XCTAssertGreaterThan(run.items[0].rank, run.items[1].rank)
        let typo = try XCTUnwrap(run.items.last)
        XCTAssertEqual(run.query.snippet(for: typo)?.highlightedWords, ["Kaybords"])
        let filled = runUserQuery("keybo", in: container) { $0.enableRankedResults = true; $0.maxResultCount = 1 }
        XCTAssertEqual(filled.items.map(\.uniqueIdentifier), ["exact"])
        let plan = UserQueryPlan(text: "keybo")
        let asTyped: [Query] = [.boost(.term("keybo"), 1 + UserQueryPlan.fuzzyWeight), .prefix("keybo")]
        XCTAssertEqual(plan.query(typoTolerant: false), .and([.or(asTyped)]))
        let near = Query.boost(.not(.fuzzyPrefix("keybo", maxEdits: nil), excluding: .prefix("keybo")), UserQueryPlan.fuzzyWeight)
        XCTAssertEqual(plan.query(typoTolerant: true), .and([.or([asTyped[0], near, asTyped[1]])]))
        XCTAssertEqual(UserQueryPlan(text: "keybo", lastWordIsPrefix: false, lastWordIsChosen: true).query,
                       .and([asTyped[0]]), "a chosen completion stays exact")
    }

    func testCJKAndCamelCase() {
        XCTAssertEqual(ids("中文"), ["chinese"])
        XCTAssertEqual(ids("输入"), ["chinese"])
        XCTAssertEqual(ids("window controller"), ["camel"])
    }

    func testRankedOrderTitleFirstAndRanksSet() {
        let run = runUserQuery("budget", in: container)
        XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["budget", "garden"])
        XCTAssertEqual(run.items[0].compare(byRank: run.items[1]), .orderedAscending)
        XCTAssertGreaterThan(run.items[0].rank, run.items[1].rank)
        let wrapped = run.items.map { CSUserQuery.Item(item: $0) }
        XCTAssertEqual(wrapped.reversed().sorted().map(\.id), ["budget", "garden"])
    }

    func testRankingHintAndRecencyLiftEqualMatches() {
        let container = makeContainer([
            item("a", title: "Meeting notes"), item("b", title: "Meeting notes", hint: 100),
            item("c", title: "Meeting notes", lastUsedDaysAgo: 1), item("d", title: "Meeting notes", lastUsedDaysAgo: 400),
        ], clock: Self.clock)
        let ranked = runUserQuery("meeting", in: container).items.map(\.uniqueIdentifier)
        XCTAssertEqual(ranked.first, "b", "\(ranked)")
        XCTAssertEqual(ranked[1], "c", "\(ranked)")
        XCTAssertEqual(Set(ranked.suffix(2)), ["a", "d"])
    }

    func testEngagementLiftsASelectedItem() {
        let container = makeContainer([item("x", title: "Report"), item("y", title: "Report")], clock: Self.clock)
        let before = runUserQuery("report", in: container)
        XCTAssertEqual(before.items.map(\.uniqueIdentifier), ["x", "y"])
        let selected = CSUserQuery.Item(item: before.items[1])
        before.query.userEngaged(selected, visibleItems: before.items.map { CSUserQuery.Item(item: $0) }, interaction: .select)
        XCTAssertEqual(runUserQuery("report", in: container).items.map(\.uniqueIdentifier), ["y", "x"])
    }

    func testFilterQueriesMaxResultCountAndUnrankedOrder() {
        XCTAssertEqual(ids("budget") { $0.enableRankedResults = true; $0.filterQueries = [#"title == "Garden*""#] }, ["garden"])
        XCTAssertEqual(ids("budget") { $0.enableRankedResults = true; $0.maxResultCount = 1 }, ["budget"])
        XCTAssertEqual(ids("plan") { $0.enableRankedResults = false }, ["budget", "garden"])
        let bad = runUserQuery("budget", in: container) { $0.filterQueries = ["title == "] }
        XCTAssertEqual((bad.error as? CSSearchQueryError)?.code, .invalidQuery)
        let fetched = runUserQuery("recipes", in: container) { $0.fetchAttributes = ["title"] }
        XCTAssertEqual(fetched.items.first?.attributeSet.title, "Recipes")
        XCTAssertNil(fetched.items.first?.attributeSet.contentDescription)
    }

    /// A suggestion's surface form and count come from visible items only: not a deleted one (its segment
    /// kept, not merged), not an expired one, not one a filter query leaves out.
    func testSuggestionSurfaceAndCountIgnoreDeletedExpiredAndFilteredItems() throws {
        let clock = TestClock()
        let container = SearchlightContainer(clock: clock.function)
        let index = CSSearchableIndex(name: "suggestions", container: container)
        var items = (0..<200).map { makeItem("f\($0)", title: "filler \($0)", domain: "two") }
        items.insert(makeItem("deleted", title: "Amélie deleted", domain: "one"), at: 0)
        let expiring = makeItem("expired", title: "AMÉLIE expired", domain: "one")
        expiring.expirationDate = clock.now.addingTimeInterval(10)
        items.insert(expiring, at: 1)
        items.insert(makeItem("other", title: "amélie other", domain: "two"), at: 2)
        items.append(makeItem("live", title: "Amelie live", domain: "one"))
        XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
        XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: ["deleted"], completionHandler: $0) })
        clock.advance(by: 20)
        let plain = runUserQuery("am", in: container, suggestions: true).suggestions
        XCTAssertEqual(plain.map { "\($0.suggestionText) \($0.resultCount)" }, ["amélie 2"], "'other' holds it first")
        let filtered = runUserQuery("am", in: container, configure: { $0.filterQueries = [#"domainIdentifier == "one""#] },
                                    suggestions: true).suggestions
        XCTAssertEqual(filtered.map { "\($0.suggestionText) \($0.resultCount)" }, ["amelie 1"])
        let withWord = runUserQuery("live am", in: container, suggestions: true).suggestions
        XCTAssertEqual(withWord.map { "\($0.suggestionText) \($0.resultCount)" }, ["live amelie 1"])
    }

    /// Deleted items' words stay in the index until a merge drops them, with their document frequencies: 40 deleted
    /// items' completions of "ap", each held by two of them, filled the completions counted and "apricot", the
    /// one a visible item holds, was never suggested; an index that never held them suggests it.
    func testDeletedItemsWordsDoNotCrowdOutALiveSuggestion() throws {
        let decoys = (0..<40).map { "apdecoy\(String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))))\($0 / 26 == 0 ? "" : "x")" }
        XCTAssertEqual(Set(decoys).count, 40)
        func build(withDecoys: Bool) -> SearchlightContainer {
            let container = SearchlightContainer(clock: Self.clock.function)
            let index = CSSearchableIndex(name: "suggesting", container: container)
            var items = [item("apricot", title: "Apricot jam")]
            items += (0..<300).map { item("f\($0)", title: "filler \($0)") }
            if withDecoys {
                items += decoys.enumerated().flatMap { n, word in [item("d\(n)", title: word), item("e\(n)", title: word)] }
            }
            XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
            if withDecoys {
                let ids = decoys.indices.flatMap { ["d\($0)", "e\($0)"] }
                XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: ids, completionHandler: $0) })
            }
            container.waitForBackgroundMerges()
            return container
        }
        let clean = build(withDecoys: false), used = build(withDecoys: true)
        XCTAssertEqual(used.snapshot().count, clean.snapshot().count, "the same visible items")
        XCTAssertEqual(runUserQuery("ap", in: clean, suggestions: true).suggestions.map(\.suggestionText), ["apricot"])
        XCTAssertEqual(runUserQuery("ap", in: used, suggestions: true).suggestions.map(\.suggestionText), ["apricot"])
    }

    /// Completions that find as many visible items rank the same whatever deleted items held them: the tie went to
    /// the one deleted items had held (its document frequency counts them until a merge), so the suggestions shown
    /// depended on what was deleted, and changed when a merge dropped them.
    func testDeletedItemsDoNotBreakASuggestionTie() throws {
        func build(withDecoys: Bool) -> SearchlightContainer {
            let container = SearchlightContainer(clock: Self.clock.function)
            let index = CSSearchableIndex(name: "ties", container: container)
            var items = [item("a1", title: "apple pie"), item("a2", title: "apple tart"),
                         item("b1", title: "apricot jam"), item("b2", title: "apricot tart")]
            items += (0..<300).map { item("f\($0)", title: "filler \($0)") }
            if withDecoys { items += (0..<3).map { item("d\($0)", title: "apricot \($0)") } }
            XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
            if withDecoys {
                XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: ["d0", "d1", "d2"], completionHandler: $0) })
            }
            container.waitForBackgroundMerges()
            return container
        }
        let clean = build(withDecoys: false), used = build(withDecoys: true)
        func shown(_ container: SearchlightContainer) -> [String] {
            runUserQuery("ap", in: container, suggestions: true).suggestions.map { "\($0.suggestionText) \($0.resultCount)" }
        }
        XCTAssertEqual(shown(clean), ["apple 2", "apricot 2"])
        XCTAssertEqual(shown(used), shown(clean))
    }

    /// Apple's names for the highlight compile and mark the typed part: `.suggestionHighlight` on runs and as an
    /// `NSAttributedString.Key` (`CSSuggestionHighlightAttributeName`).
    func testSuggestionHighlightHasApplesNames() throws {
        let container = makeContainer([makeItem("a", title: "recipes")], clock: Self.clock)
        let suggestion = try XCTUnwrap(runUserQuery("rec", in: container, suggestions: true).suggestions.first)
        let typed = suggestion.localizedAttributedSuggestion.runs.filter { $0.suggestionHighlight != nil }
        XCTAssertEqual(typed.map { String(suggestion.localizedAttributedSuggestion[$0.range].characters) }, ["rec"])
        XCTAssertEqual(NSAttributedString.Key.suggestionHighlight.rawValue, CSSuggestionHighlightAttributeName)
    }

    /// Apple's `CSSuggestion` is `NSSecureCoding`: a keyed archive keeps the text, the typed part, rank, result count
    /// and kind; a corrupt archive fails to decode instead of crashing.
    func testSuggestionArchivesAndUnarchives() throws {
        XCTAssertTrue(CSSuggestion.supportsSecureCoding)
        let suggestion = CSSuggestion(text: "café crème", typedBytes: 5, rank: 2, resultCount: 9, kind: .custom)
        let data = try NSKeyedArchiver.archivedData(withRootObject: suggestion, requiringSecureCoding: true)
        let back = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSuggestion.self, from: data))
        XCTAssertEqual(back, suggestion)
        XCTAssertEqual(back.suggestionText[back.typedRange], "café")
        XCTAssertEqual(back.resultCount, 9)
        XCTAssertEqual(back.suggestionKind, .custom)
        XCTAssertEqual(back.compare(byRank: suggestion), .orderedSame)
        for cut in 0..<data.count { _ = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CSSuggestion.self, from: data.prefix(cut)) }
        XCTAssertThrowsError(try NSKeyedUnarchiver.unarchivedObject(ofClass: CSSuggestion.self, from: Data([1, 2])))
    }

    /// Apple: the value of `.suggestionHighlight` "is an NSString object with the text that Spotlight suggested";
    /// it was a Bool. A snippet's highlight carries the text it marks.
    func testSuggestionHighlightValueIsTheSuggestedText() throws {
        let container = makeContainer([makeItem("a", title: "search suggestion")], clock: Self.clock)
        let run = runUserQuery("search sug", in: container, suggestions: true)
        let suggestion = try XCTUnwrap(run.suggestions.first)
        XCTAssertEqual(suggestion.suggestionText, "search suggestion")
        let attributed = suggestion.localizedAttributedSuggestion
        let marked = attributed.runs.compactMap { run in run.suggestionHighlight.map { (run.range, $0) } }
        XCTAssertEqual(marked.map { String(attributed[$0.0].characters) }, ["search sug"])
        let value: Any? = marked.first?.1
        XCTAssertEqual(value as? String, "search suggestion")
        let snippet = try XCTUnwrap(run.query.snippet(for: try XCTUnwrap(run.items.first)))
        let highlights = snippet.attributedText.runs.compactMap(\.suggestionHighlight)
        XCTAssertEqual(highlights.map { $0 as Any as? String }, ["search", "suggestion"])
    }

    func testSuggestionsCompleteTheLastWordWithTheTypedPartHighlighted() throws {
        let run = runUserQuery("garden pla", in: container, suggestions: true)
        XCTAssertEqual(run.query.foundSuggestionCount, run.suggestions.count)
        let first = try XCTUnwrap(run.suggestions.first)
        XCTAssertEqual(first.suggestionText, "garden planning")
        XCTAssertEqual(first.suggestionKind, .default)
        XCTAssertEqual(String(first.suggestionText[first.typedRange]), "garden pla")
        let highlighted = first.localizedAttributedSuggestion.runs.filter { $0[CSSuggestionHighlightAttribute.self] != nil }
            .map { String(first.localizedAttributedSuggestion[$0.range].characters) }
        XCTAssertEqual(highlighted, ["garden pla"])
        for (a, b) in zip(run.suggestions, run.suggestions.dropFirst()) {
            XCTAssertEqual(a.compare(byRank: b), .orderedAscending)
        }
        // Completions must co-occur with the other words: "chocolate" exists, but never with "garden".
        XCTAssertFalse(runUserQuery("garden cho", in: container, suggestions: true).suggestions.contains {
            $0.suggestionText == "garden chocolate"
        })
        XCTAssertEqual(runUserQuery("cake cho", in: container, suggestions: true).suggestions.first?.suggestionText,
                       "cake chocolate")
        let none = runUserQuery("zzz", in: container, suggestions: true)
        XCTAssertTrue(none.suggestions.isEmpty)
        XCTAssertEqual(none.query.foundSuggestionCount, 0)
        let limited = runUserQuery("p", in: container, configure: { $0.maxSuggestionCount = 1 }, suggestions: true)
        XCTAssertEqual(limited.suggestions.count, 1)
    }

    func testCurrentSuggestionRefinesTheSearch() throws {
        let suggestion = try XCTUnwrap(runUserQuery("chocolate c", in: container, suggestions: true).suggestions.first)
        XCTAssertEqual(suggestion.suggestionText, "chocolate cake")
        let context = CSUserQueryContext(currentSuggestion: suggestion)
        XCTAssertTrue(context.currentSuggestion === suggestion)
        XCTAssertTrue(runUserQuery("", in: container).items.isEmpty)
        let refined = CSUserQuery(userQueryString: "choc", userQueryContext: context, container: container)
        let result = runQuery(refined)
        XCTAssertEqual(result.batches.joined().map(\.uniqueIdentifier), ["recipes"])
    }

    /// A suggestion keeps the characters typed and adds the rest of the completion: the index's term is folded,
    /// and writing its first letter in lower case would join a camel-case word to the word before it, so the
    /// chosen suggestion would find nothing of what its count promised.
    func testASuggestionKeepsWhatWasTypedSoChoosingItFindsWhatItCounted() throws {
        let container = makeContainer([item("a", title: "MyWindowControllerDelegate"),
                                       item("b", title: "XMLHttpRequest handler"), item("c", title: "Große Straße")],
                                      clock: Self.clock)
        for (typed, expected, id) in [("MyWindowCont", "MyWindowController", "a"), ("MyWindowC", "MyWindowController", "a"),
                                      ("XMLHttpReq", "XMLHttpRequest", "b"), ("große Straß", "große Straße", "c"),
                                      ("Große STRA", "Große STRASSE", "c")] {
            let suggestion = try XCTUnwrap(runUserQuery(typed, in: container, suggestions: true).suggestions.first, typed)
            XCTAssertEqual(suggestion.suggestionText, expected)
            XCTAssertEqual(String(suggestion.suggestionText[suggestion.typedRange]), typed)
            XCTAssertEqual(suggestion.resultCount, 1, typed)
            XCTAssertEqual(runUserQuery(suggestion.suggestionText, in: container).items.map(\.uniqueIdentifier), [id], typed)
            let refined = CSUserQuery(userQueryString: typed, userQueryContext: CSUserQueryContext(currentSuggestion: suggestion),
                                      container: container)
            XCTAssertEqual(runQuery(refined).batches.joined().map(\.uniqueIdentifier), [id], typed)
        }
    }

    /// Choosing a suggestion finds exactly the items its `resultCount` promised: its words are searched as they
    /// are, without typo tolerance ("houses" counted 1 but found 4, "house" counted 3 but found 4, the two being
    /// one edit apart), and the other words are counted so too.
    func testChoosingASuggestionFindsItsResultCount() throws {
        let container = makeContainer([makeItem("a", title: "houses for sale"), makeItem("b", title: "house"),
                                       makeItem("c", title: "house boat"), makeItem("d", title: "green house")],
                                      clock: Self.clock)
        for typed in ["hous", "green hous", "grean hous"] {
            let suggestions = runUserQuery(typed, in: container, suggestions: true).suggestions
            if typed == "hous" { XCTAssertEqual(Set(suggestions.map(\.suggestionText)), ["houses", "house"]) }
            // A typo in an earlier word is tolerated while counting and when the suggestion is chosen.
            if typed == "grean hous" { XCTAssertEqual(suggestions.map(\.suggestionText), ["grean house"]) }
            for suggestion in suggestions {
                let context = CSUserQueryContext(currentSuggestion: suggestion)
                let chosen = runQuery(CSUserQuery(userQueryString: typed, userQueryContext: context, container: container))
                XCTAssertNil(chosen.error)
                XCTAssertEqual(chosen.batches.joined().count, suggestion.resultCount, suggestion.suggestionText)
            }
        }
    }

    /// CJK typed without spaces is searched as overlapping bigrams ("中文输": 中文, 文输), so the words before the
    /// last bigram are not the text before it: counted with "中" alone, "中文输" promised "中国文输", which choosing it
    /// does not find.
    func testACJKSuggestionCountsWhatChoosingItFinds() throws {
        let container = makeContainer([item("a", title: "中文输入法"), item("b", title: "中国文输")], clock: Self.clock)
        let suggestions = runUserQuery("中文输", in: container, suggestions: true).suggestions
        XCTAssertFalse(suggestions.isEmpty)
        for suggestion in suggestions {
            let context = CSUserQueryContext(currentSuggestion: suggestion)
            let chosen = runQuery(CSUserQuery(userQueryString: "中文输", userQueryContext: context, container: container))
            XCTAssertNil(chosen.error)
            XCTAssertEqual(chosen.batches.joined().count, suggestion.resultCount, suggestion.suggestionText)
        }
    }

    /// A suggestion shows the word as items write it (the index's term is folded): "ame" suggested "amelie" for
    /// "Amélie", and "Rés" suggested "Résult", a word no item holds ("Result list"). What was typed keeps its
    /// case; a letter that differs beyond case is the item's.
    func testASuggestionShowsTheWordAsItemsWriteIt() throws {
        let container = makeContainer([makeItem("a", title: "Amélie"), makeItem("r", title: "Result list")],
                                      clock: Self.clock)
        for (typed, expected, typedPart, id) in [("ame", "amélie", "amé", "a"), ("AME", "AMÉLIE", "AMÉ", "a"),
                                                 ("Amé", "Amélie", "Amé", "a"), ("Rés", "Result", "Res", "r"),
                                                 ("res", "result", "res", "r")] {
            let suggestions = runUserQuery(typed, in: container, suggestions: true).suggestions
            XCTAssertEqual(suggestions.map(\.suggestionText), [expected], typed)
            let suggestion = try XCTUnwrap(suggestions.first, typed)
            XCTAssertEqual(String(suggestion.suggestionText[suggestion.typedRange]), typedPart, typed)
            XCTAssertEqual(runUserQuery(suggestion.suggestionText, in: container).items.map(\.uniqueIdentifier), [id])
        }
        // Engagement recorded under the shown text is what ranking reads for the completion as counted.
        XCTAssertEqual(CSUserQuery.engagementKey("amélie"), CSUserQuery.engagementKey("amelie"))
    }

    /// Where the item's first writing of a word does not line up with what was typed (in capitals after lower case,
    /// it would read as two words), the suggestion is its next writing that does: "ame" over "AMÉLIE / Amélie" and
    /// "σι" over "ΣΊΣΥΦΟΣ σίσυφος" suggested the folded index term ("amelie", "σισυφοσ" with a medial sigma at
    /// the end), a word no item writes.
    func testASuggestionShowsAWritingOfTheWordThatLinesUpWithWhatWasTyped() throws {
        let container = makeContainer([makeItem("a", title: "AMÉLIE / Amélie"), makeItem("s", title: "ΣΊΣΥΦΟΣ σίσυφος")],
                                      clock: Self.clock)
        for (typed, expected, typedPart) in [("ame", "amélie", "amé"), ("AME", "AMÉLIE", "AMÉ"), ("σι", "σίσυφος", "σί")] {
            let suggestions = runUserQuery(typed, in: container, suggestions: true).suggestions
            XCTAssertEqual(suggestions.map(\.suggestionText), [expected], typed)
            let suggestion = try XCTUnwrap(suggestions.first, typed)
            XCTAssertEqual(String(suggestion.suggestionText[suggestion.typedRange]), typedPart, typed)
        }
    }

    /// A suggestion's writing is looked for only until one lines up: the item's description (a default field
    /// before textContent) writes it, so its long textContent is not analyzed again on every keystroke (it was, for
    /// each suggestion shown, once every writing was collected: ten queries cost six times the indexing).
    func testASuggestionDoesNotAnalyzeTheWholeItemOnceAWritingLinesUp() {
        let words = ["amelia", "amend", "amenity", "amethyst", "america"]
        let filler = String(repeating: "filler words here and there ", count: 20_000)
        let start = Date()
        let items = words.enumerated().map { index, word in
            let item = makeItem("\(index)", title: "", description: word.capitalized)
            item.attributeSet.textContent = filler
            return item
        }
        let container = makeContainer(items, clock: Self.clock)
        let indexing = Date().timeIntervalSince(start)
        let searching = Date()
        for _ in 0..<10 {
            XCTAssertEqual(runUserQuery("ame", in: container, suggestions: true).suggestions.count, words.count)
        }
        XCTAssertLessThan(Date().timeIntervalSince(searching), indexing)
    }

    /// An expired item (not yet purged) is no item for suggestions: its words are not suggested, it is not counted,
    /// and a word is shown as a visible item writes it. Alone and with another word, as once no item can have
    /// expired a count reads no expiration.
    func testSuggestionsLeaveOutExpiredItems() throws {
        let clock = TestClock()
        let expiring = makeItem("old", title: "Amélie amethyst notes")
        expiring.expirationDate = clock.now.addingTimeInterval(3_600)
        let container = makeContainer([expiring, makeItem("new", title: "Amelie notes")], clock: clock)
        func suggestions(_ text: String) -> [String] {
            runUserQuery(text, in: container, suggestions: true).suggestions.map { "\($0.suggestionText) \($0.resultCount)" }
        }
        XCTAssertEqual(suggestions("am"), ["amélie 2", "amethyst 1"])
        XCTAssertEqual(suggestions("notes am"), ["notes amélie 2", "notes amethyst 1"])
        clock.advance(by: 7_200)
        XCTAssertEqual(suggestions("am"), ["amelie 1"])
        XCTAssertEqual(suggestions("notes am"), ["notes amelie 1"])
    }

    /// A word longer than the index's term limit (128 bytes: a hash, or a Thai sentence, which has no spaces)
    /// has no term, but every word typed must still match: it matches the same word in a document's text,
    /// folded, and as a prefix while it is being typed. Dropping it found documents without it.
    func testAWordOverTheTermLimitMustMatchAsEveryWordDoes() throws {
        let thai = "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำในประโยคยาวมากมาย"
        let hash = String(repeating: "0123456789abcdef", count: 10)
        XCTAssertGreaterThan(thai.utf8.count, 128)
        let container = makeContainer([
            item("t", title: thai), item("h", title: "Commit " + hash), item("h2", title: "Commit " + hash + "ff"),
            item("k", title: "Commit other"), item("x", title: "Other words", description: "commit " + hash + "00"),
            item("c", title: "Committee " + hash),
        ], clock: Self.clock)
        func ids(_ text: String) -> [String] {
            let run = runUserQuery(text, in: container)
            XCTAssertNil(run.error, text)
            return run.items.map(\.uniqueIdentifier).sorted()
        }
        XCTAssertEqual(ids("commit"), ["c", "h", "h2", "k", "x"])
        XCTAssertEqual(ids("commit " + hash), ["h", "h2", "x"], "still typing the hash: a prefix, and only the hash")
        XCTAssertEqual(ids("commit " + hash + " "), ["h"], "typed whole: the word itself")
        XCTAssertEqual(ids(hash.uppercased() + " comm"), ["c", "h"], "folded; the other word is the prefix")
        XCTAssertEqual(ids(hash + "00 other"), ["x"])
        XCTAssertEqual(ids("other " + thai), [])
        XCTAssertEqual(ids(thai), ["t"])
        XCTAssertEqual(ids(thai + " "), ["t"])
        XCTAssertEqual(ids(String(repeating: "f", count: 200)), [])
    }

    /// `maxResultCount` as "no practical cap" (`Int.max`, 2^40) gives every match: it overflowed counts and sized
    /// a 13 TB buffer, killing the process.
    func testAHugeMaxResultCountIsEveryMatch() {
        for count in [Int.max, 1 << 40, Int.max - 1] {
            let run = runUserQuery("budg", in: container) { $0.maxResultCount = count }
            XCTAssertNil(run.error)
            XCTAssertEqual(Set(run.items.map(\.uniqueIdentifier)), ["budget", "garden"], "\(count)")
        }
    }

    /// Typed text finds CJK stored in another canonically equivalent form (Hangul as conjoining jamo, as macOS
    /// file names store it; kana with a combining voicing mark; a compatibility ideograph), and the highlights
    /// fall on characters of the stored text.
    func testCanonicallyEquivalentCJKIsFound() throws {
        func found(_ text: String) -> [String] {
            let run = runUserQuery(text, in: scriptsContainer)
            XCTAssertNil(run.error)
            return run.items.map(\.uniqueIdentifier)
        }
        XCTAssertEqual(found("한국어"), ["hangulNFD"])
        XCTAssertEqual(found("한국"), ["hangulNFD"])
        XCTAssertEqual(found("がっこう"), ["kanaNFD"])
        XCTAssertEqual(found("\u{8C48}子"), ["compatIdeograph"])
        let run = runUserQuery("\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}", in: scriptsContainer)  // 한국, as typed on macOS
        let item = try XCTUnwrap(run.items.first { $0.uniqueIdentifier == "hangulNFD" })
        let snippet = try XCTUnwrap(run.query.snippet(for: item))
        XCTAssertEqual(snippet.highlightedWords, ["\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}"])
        let boundaries = Set(Array(snippet.text.indices) + [snippet.text.endIndex])
        for range in snippet.highlights {
            XCTAssertTrue(boundaries.contains(range.lowerBound) && boundaries.contains(range.upperBound), snippet.text)
        }
    }

    /// An ideographic variation selector (a glyph choice, as Japanese names are written) does not split the word:
    /// typed text finds it with or without the selector.
    func testVariationSelectorDoesNotSplitACJKWord() {
        for text in ["葛飾", "葛\u{E0100}飾", "葛\u{FE00}飾区"] {
            let run = runUserQuery(text, in: scriptsContainer)
            XCTAssertNil(run.error)
            XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["ivs"], text)
        }
    }

    /// A soft hyphen (a format character: UAX #29 keeps it inside the word) does not split the word it hyphenates.
    func testSoftHyphenDoesNotSplitAWord() {
        for text in ["wikipedia", "Wikiped", "wiki\u{AD}pedia"] {
            let run = runUserQuery(text, in: scriptsContainer)
            XCTAssertNil(run.error)
            XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["shy"], text)
        }
    }

    /// A word stretched with the Arabic tatweel is found as typed without it (and as copied, with it).
    func testArabicTatweelDoesNotHideAWord() {
        for text in ["كتاب", "كتا", "كتـاب", "كتـــاب"] {
            let run = runUserQuery(text, in: scriptsContainer)
            XCTAssertNil(run.error)
            XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["tatweel"], text)
        }
    }

    /// A word written with a ZERO WIDTH JOINER (a conjunct's shape) is found as typed without it, and as copied.
    func testZeroWidthJoinerDoesNotSplitAWord() {
        for text in ["ශ්රී", "ශ්\u{200D}රී", "ශ්\u{200D}රී පා", "ශ්ර"] {
            let run = runUserQuery(text, in: scriptsContainer)
            XCTAssertNil(run.error)
            XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["zwj"], text)
        }
    }

    /// A word written with a ZERO WIDTH NON-JOINER after a virama (a half form) is found as typed without it, and as
    /// copied, at every prefix typed scalar by scalar; elsewhere the non-joiner still separates words (Persian).
    func testZeroWidthNonJoinerAfterAViramaDoesNotSplitAWord() {
        for word in ["क्षमा", "क्\u{200C}षमा"] {
            let scalars = Array(word.unicodeScalars)
            for count in 1...scalars.count {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[..<count])
                let text = String(view)
                let run = runUserQuery(text, in: scriptsContainer)
                XCTAssertNil(run.error)
                XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["zwnj"], text.debugDescription)
            }
        }
        XCTAssertEqual(TextMatch.droppingFormatCharacters("क्\u{200C}ष می\u{200C}خواهم \u{200C}x"),
                       "क्ष می\u{200C}خواهم \u{200C}x")
        // Typed up to the virama, the title's word goes on (its non-joiner is inside it); the Persian one ends.
        XCTAssertFalse(UserQueryRanking.endsAtWord("क्\u{200C}षमा", "क्"))
        XCTAssertTrue(UserQueryRanking.endsAtWord("می\u{200C}خواهم", "می"))
    }

    /// Emoji are found (they were in no term): each sequence as typed scalar by scalar, "❤" without its variation
    /// selector, one beside a word; and a `t` pattern written with a variation selector matches.
    func testEmojiAreFound() {
        for word in ["🎉", "❤️", "👨\u{200D}👩\u{200D}👧", "🇫🇷"] {
            let scalars = Array(word.unicodeScalars)
            for count in 1...scalars.count {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[..<count])
                let run = runUserQuery(String(view), in: scriptsContainer)
                XCTAssertNil(run.error)
                XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["emoji"], String(view).debugDescription)
            }
        }
        for text in ["❤", "fête 🎉", "fete"] {
            XCTAssertEqual(runUserQuery(text, in: scriptsContainer).items.map(\.uniqueIdentifier), ["emoji"], text)
        }
        XCTAssertEqual(TextMatch.droppingFormatCharacters("❤️ a\u{FE0F}"), "❤ a")
    }

    /// The flags of England and Scotland (emoji tag sequences: 🏴 with tags) are told apart: each had the term "🏴",
    /// so searching one found the other. A query word, a `t` pattern and a highlight take the whole flag.
    func testSubdivisionFlagsAreToldApart() throws {
        let england = "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        let container = makeContainer([makeItem("england", title: "Go \(england) team"),
                                       makeItem("scotland", title: "Go \(scotland) team"),
                                       makeItem("black", title: "Go 🏴 team")])
        // The black flag, still being typed, is a prefix of the others' terms: it finds all three.
        XCTAssertEqual(runUserQuery("🏴", in: container).items.map(\.uniqueIdentifier).sorted(),
                       ["black", "england", "scotland"])
        for (flag, identifier) in [(england, "england"), (scotland, "scotland"), ("🏴", "black")] {
            for text in (flag == "🏴" ? [] : [flag]) + [flag + " ", "go " + flag + " team"] {
                XCTAssertEqual(runUserQuery(text, in: container).items.map(\.uniqueIdentifier), [identifier],
                               text.debugDescription)
            }
            XCTAssertEqual(try evaluate("title == \"\(flag)\"t", in: container), [identifier], flag.debugDescription)
        }
        let run = runUserQuery(england + " ", in: container)
        let item = try XCTUnwrap(run.items.first)
        let snippet = try XCTUnwrap(run.query.snippet(for: item))
        XCTAssertEqual(snippet.highlights.map { String(snippet.text[$0]) }, [england])
        XCTAssertEqual(TextMatch.droppingFormatCharacters(scotland + " a\u{E0067}\u{E007F}"), scotland + " a")
    }

    /// Ⓜ (an emoji) case-folds to ⓜ: its term must be what the query side folds it to, or a `t` pattern and the word
    /// being typed (a prefix) miss the item a finished word finds.
    func testAnEmojiThatCaseFoldsIsFoundEveryWay() throws {
        let container = makeContainer([makeItem("metro", title: "Ⓜ\u{FE0F} Line 4"), makeItem("bus", title: "Bus Line 5")])
        for text in ["Ⓜ", "Ⓜ ", "Ⓜ\u{FE0F}", "ⓜ"] {
            XCTAssertEqual(runUserQuery(text, in: container).items.map(\.uniqueIdentifier), ["metro"], text.debugDescription)
        }
        XCTAssertEqual(try evaluate(#"title == "Ⓜ"t"#, in: container), ["metro"])
    }

    /// A variation selector after a skin tone is inside the emoji sequence, in no term, as after the emoji itself:
    /// a `t` pattern written so kept it and matched nothing.
    func testAVariationSelectorAfterASkinToneIsInNoTerm() throws {
        let container = makeContainer([makeItem("thumbs", title: "👍🏻\u{FE0F} great"), makeItem("other", title: "fine")])
        XCTAssertEqual(try evaluate(#"title == "👍🏻\#u{FE0F}"t"#, in: container), ["thumbs"])
        XCTAssertEqual(try evaluate(#"title == "👍🏻"t"#, in: container), ["thumbs"])
        XCTAssertEqual(TextMatch.droppingFormatCharacters("👍🏻\u{FE0F}"), "👍🏻")
    }

    /// Results whose identifiers are canonically equivalent ("café" precomposed and decomposed) are two items: each
    /// snippet comes from its own document (the annotator keyed documents by `String ==`, so one got the other's).
    func testCanonicallyEquivalentIdentifiersHaveSnippetsOfTheirOwn() throws {
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let container = makeContainer([makeItem(precomposed, title: "Report alpha"),
                                       makeItem(decomposed, title: "Report beta")])
        let run = runUserQuery("report", in: container)
        XCTAssertEqual(run.items.count, 2)
        for item in run.items {
            let expected = item.uniqueIdentifier.utf8.elementsEqual(precomposed.utf8) ? "Report alpha" : "Report beta"
            XCTAssertEqual(run.query.snippet(for: item)?.text, expected)
        }
    }

    /// A suggestion shown as an item writes it (decomposed kana: かか\u{3099}) and the same completion as ranked
    /// (the composed term: かが) are one suggestion: the ledger now keys by bytes, so their engagement keys must agree.
    func testCanonicallyEquivalentSuggestionTextsShareEngagement() {
        let shown = "かか\u{3099}", ranked = "かが"
        XCTAssertEqual(Array(CSUserQuery.engagementKey(shown).utf8), Array(CSUserQuery.engagementKey(ranked).utf8))
        let ledger = EngagementLedger(), now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        ledger.recordSelection(of: CSUserQuery.engagementKey(shown), at: now)
        XCTAssertGreaterThan(ledger.factor(for: CSUserQuery.engagementKey(ranked), at: now), 1)
    }

    /// A suggestion's engagement and an item's are kept apart even when the item's identifier is spelled like a
    /// suggestion key ("suggestion:apricot"): choosing that item lifted the suggestion "apricot" above "apples",
    /// and choosing the suggestion lifted the item.
    func testSuggestionEngagementIsApartFromAnItemNamedLikeItsKey() throws {
        let container = makeContainer([makeItem("a1", title: "apples"),
                                       makeItem("suggestion:apricot", title: "apricot")])
        XCTAssertEqual(runUserQuery("ap", in: container, suggestions: true).suggestions.map(\.suggestionText),
                       ["apples", "apricot"], "equal counts: in text order")
        for _ in 0..<5 { _ = SearchlightContinuation.activity(forSelecting: "suggestion:apricot", in: container) }
        let run = runUserQuery("ap", in: container, suggestions: true)
        XCTAssertEqual(run.suggestions.map(\.suggestionText), ["apples", "apricot"],
                       "the item's choices: not the suggestion's")
        let apricot = CSUserQuery.Suggestion(suggestion: try XCTUnwrap(run.suggestions.last))
        let before = container.engagement.record(for: "suggestion:apricot", at: container.clock())
        run.query.userEngaged(apricot, visibleSuggestions: [], interaction: .select)
        XCTAssertEqual(container.engagement.record(for: "suggestion:apricot", at: container.clock()), before,
                       "the suggestion's choice: not the item's")
    }

    /// A zero-width joiner sequence is one term (👨👩👧): a finished word (the term searched as text again) and its
    /// suggestion (counted by that term) must find it, not split it into 👨, 👩 and 👧, which no item holds.
    func testAZeroWidthJoinerSequenceIsFoundAsAFinishedWord() {
        let family = "👨\u{200D}👩\u{200D}👧"
        XCTAssertEqual(runUserQuery(family + " ", in: scriptsContainer).items.map(\.uniqueIdentifier), ["emoji"])
        let run = runUserQuery("👨", in: scriptsContainer, suggestions: true)
        XCTAssertTrue(run.suggestions.contains { $0.suggestionText.unicodeScalars.contains("👧") },
                      "\(run.suggestions.map(\.suggestionText))")
    }

    /// Half-width katakana fold to full-width ones (Lucene's CJKWidthFilter, Foundation's width-insensitivity).
    func testHalfWidthKatakanaIsFoundByFullWidthKatakana() {
        for text in ["カタカナ", "ｶﾀｶﾅ", "カタカナ テスト"] {
            let run = runUserQuery(text, in: scriptsContainer)
            XCTAssertNil(run.error)
            XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["halfwidth"], text)
        }
    }

    func testSnippetAndExplanation() throws {
        let run = runUserQuery("seeds", in: container)
        let hit = try XCTUnwrap(run.items.first)
        let snippet = try XCTUnwrap(run.query.snippet(for: hit))
        XCTAssertEqual(snippet.attribute, "contentDescription")
        XCTAssertEqual(snippet.highlightedWords, ["Seeds"])
        XCTAssertTrue(snippet.text.hasPrefix("Seeds"))
        let marked = snippet.attributedText.runs.filter { $0[CSSuggestionHighlightAttribute.self] != nil }
        XCTAssertEqual(marked.map { String(snippet.attributedText[$0.range].characters) }, ["Seeds"])
        let explanation = try XCTUnwrap(run.query.explanation(for: hit))
        XCTAssertTrue(explanation.contains("BM25F"), explanation)
        let long = String(repeating: "filler words here ", count: 30) + "needle" + String(repeating: " more text", count: 30)
        let container = makeContainer([item("long", title: "Long", description: long)], clock: Self.clock)
        let longRun = runUserQuery("needl", in: container)
        let cut = try XCTUnwrap(longRun.query.snippet(for: try XCTUnwrap(longRun.items.first)))
        XCTAssertTrue(cut.text.hasPrefix("…") && cut.text.hasSuffix("…"), cut.text)
        XCTAssertEqual(cut.highlightedWords, ["needle"])
        XCTAssertLessThan(cut.text.utf8.count, 200)
    }

    /// An item matched through any attribute searched by default has a snippet from it, custom keys named by
    /// their key name (only 8 preferred attributes were read, so a match in `authorNames`, `city` or a custom
    /// key had no snippet).
    func testSnippetOfAMatchInAnotherDefaultSearchableAttribute() throws {
        let item = makeItem("x", title: "Field notes")
        item.attributeSet.authorNames = ["Jane Goodall"]
        item.attributeSet.city = "Kigoma"
        let species = try XCTUnwrap(CSCustomAttributeKey(keyName: "species", searchable: true, searchableByDefault: true,
                                                         unique: false, multiValued: false))
        item.attributeSet.setValue("chimpanzee", forCustomKey: species)
        let container = makeContainer([item], clock: Self.clock)
        for (typed, attribute, word) in [("goodall", "authorNames", "Goodall"), ("kigoma", "city", "Kigoma"),
                                         ("chimpanzee", "species", "chimpanzee")] {
            let run = runUserQuery(typed, in: container)
            XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["x"], typed)
            let hit = try XCTUnwrap(run.items.first, typed)
            let snippet = try XCTUnwrap(run.query.snippet(for: hit), typed)
            XCTAssertEqual(snippet.attribute, attribute, typed)
            XCTAssertEqual(snippet.highlightedWords, [word], typed)
        }
    }

    /// Runs a user query over a one-item container and returns the highlighted words of its snippet.
    private func snippetWords(title: String, typed: String) throws -> [String]? {
        let container = makeContainer([makeItem("s", title: title)])
        let query = CSUserQuery(userQueryString: typed, userQueryContext: nil, container: container)
        let run = runQuery(query)
        XCTAssertNil(run.error)
        let item = try XCTUnwrap(run.batches.first?.first, "the item must match \(typed)")
        return query.snippet(for: item)?.highlightedWords
    }

    /// CJK text is indexed as overlapping bigrams: every piece of a typed word is highlighted, merged into one
    /// highlight (the pieces overlapping the one before were skipped, leaving the word's tail unmarked).
    func testSnippetHighlightsAllOfATypedCJKWord() throws {
        XCTAssertEqual(try snippetWords(title: "中文输入法", typed: "中文输")?.joined(), "中文输")
        XCTAssertEqual(try snippetWords(title: "中文输入法", typed: "输入法")?.joined(), "输入法")
        XCTAssertEqual(try snippetWords(title: "中文输入法", typed: "输"), ["输"], "the character typed, not its bigram")
    }

    /// A match on a whole camelCase identifier (its compound term) has a snippet with the identifier highlighted
    /// (compound terms were never highlighted, so the snippet was nil).
    func testSnippetOfAMatchOnAWholeCamelCaseIdentifier() throws {
        let words = try snippetWords(title: "MyWindowController notes", typed: "mywindowcontroller")
        XCTAssertNotNil(words, "the item matched on its title, so a snippet with a highlight is expected")
        XCTAssertFalse(words?.isEmpty ?? true)
        XCTAssertEqual(words, ["MyWindowController"])
        XCTAssertEqual(try snippetWords(title: "MyWindowController notes", typed: "my"), ["My"], "the part typed only")
    }

    /// A long matched word keeps its highlight: the window began a third of its length before the word, which
    /// then ran past the window's end and lost its mark.
    func testSnippetKeepsTheHighlightOfALongMatchedWord() throws {
        let long = String(repeating: "w", count: 120)   // 120 bytes: still a term (limit 128)
        let words = try snippetWords(title: String(repeating: "filler ", count: 40) + long + " end", typed: long)
        XCTAssertEqual(words, [long])
    }

    /// A snippet of text holding a huge Character (a letter with 100,000 combining accents) is cut after it, whole.
    /// Each Character boundary was found by stepping byte by byte, re-segmenting the Character at each step:
    /// quadratic, about 20 s at 20,000 accents, so this test would run for minutes; found in one pass, it takes
    /// milliseconds.
    func testSnippetOfTextHoldingAHugeCharacterIsCutInOnePass() throws {
        let huge = "x" + String(repeating: "\u{0301}", count: 100_000)
        let snippet = UserQueryAnnotator.cut("match " + huge + " tail", attribute: "textContent", highlights: [0..<5])
        XCTAssertEqual(snippet.highlightedWords, ["match"])
        XCTAssertEqual(snippet.text, "match " + huge + "…", "the window ends after the huge Character, not inside it")
        XCTAssertEqual(UserQueryAnnotator.characterBoundaries([(7, false), (7, true), (6, true), (-1, false), (99, true)],
                                                              in: "ab " + "x\u{0301}\u{0302}" + " c"),
                       [3, 8, 8, 0, 10])
        let container = makeContainer([makeItem("zalgo", title: "Note", description: "match " + huge + " tail")])
        let run = runUserQuery("match", in: container)
        XCTAssertEqual(run.query.snippet(for: try XCTUnwrap(run.items.first))?.highlightedWords, ["match"])
    }

    /// A highlight is on Character boundaries and marked in `attributedText`: the analyzer splits Persian words at
    /// a ZERO WIDTH NON-JOINER, which belongs to the Character before it, so the highlight of "می" ended inside a
    /// Character and `attributedText` dropped it.
    func testSnippetHighlightBeforeAZeroWidthNonJoinerIsOnACharacterBoundary() throws {
        let container = makeContainer([makeItem("fa", title: "می\u{200C}خواهم بروم")])
        let run = runUserQuery("می", in: container)
        XCTAssertNil(run.error)
        let snippet = try XCTUnwrap(run.query.snippet(for: try XCTUnwrap(run.items.first)))
        XCTAssertEqual(snippet.highlightedWords, ["می\u{200C}"])
        let boundaries = Set(Array(snippet.text.indices) + [snippet.text.endIndex])
        for range in snippet.highlights {
            XCTAssertTrue(boundaries.contains(range.lowerBound) && boundaries.contains(range.upperBound), snippet.text)
        }
        let marked = snippet.attributedText.runs.filter { $0[CSSuggestionHighlightAttribute.self] != nil }
        XCTAssertEqual(marked.map { String(snippet.attributedText[$0.range].characters) }, snippet.highlightedWords)
        // Even off Character boundaries, `attributedText` marks a highlight.
        let text = "می\u{200C}خواهم"
        let inside = text.utf8.index(text.startIndex, offsetBy: 4)
        let raw = CSUserQuery.Snippet(attribute: "title", text: text, highlights: [text.startIndex..<inside])
        XCTAssertEqual(raw.attributedText.runs.filter { $0[CSSuggestionHighlightAttribute.self] != nil }.count, 1)
        XCTAssertEqual(String(raw.attributedText.characters), text)
    }

    /// A long value is cut around the match between Characters: it was cut between Unicode scalars, so a
    /// decomposed "é" lost its accent at the end and the orphaned accent fused with the leading "…".
    func testSnippetCutOfALongTextKeepsWholeCharacters() throws {
        let filler = String(repeating: "e\u{301}", count: 200)
        let value = filler + " needle " + filler
        let container = makeContainer([makeItem("long", title: "Long", description: value)])
        let run = runUserQuery("needle", in: container)
        let snippet = try XCTUnwrap(run.query.snippet(for: try XCTUnwrap(run.items.first)))
        XCTAssertEqual(snippet.highlightedWords, ["needle"])
        XCTAssertEqual(snippet.text.first, "…", "the first Character is \(Array(snippet.text.unicodeScalars.prefix(2)))")
        XCTAssertEqual(snippet.text.last, "…", "the last Characters are \(Array(snippet.text.suffix(2)))")
        let body = snippet.text.unicodeScalars.dropFirst().dropLast()
        XCTAssertEqual(body.first, "e")
        XCTAssertEqual(body.last, "\u{301}")
        XCTAssertTrue(value.unicodeScalars.count > body.count && value.contains(String(body)))
    }

    /// A long value is cut between words, as Lucene's and tantivy's fragments are: the window was cut at any
    /// Character boundary, so the snippet began and ended inside words ("…iller words", "more te…").
    func testSnippetCutOfALongTextKeepsWholeWords() throws {
        let words: Set<Substring> = ["filler", "words", "here", "needle", "more", "text"]
        let long = String(repeating: "filler words here ", count: 30) + "needle" + String(repeating: " more text", count: 30)
        let container = makeContainer([makeItem("long", title: "Long", description: long)])
        let run = runUserQuery("needle", in: container)
        let snippet = try XCTUnwrap(run.query.snippet(for: try XCTUnwrap(run.items.first)))
        XCTAssertEqual(snippet.highlightedWords, ["needle"])
        XCTAssertTrue(snippet.text.hasPrefix("…") && snippet.text.hasSuffix("…"), snippet.text)
        let body = snippet.text.dropFirst().dropLast()
        XCTAssertEqual(body.split(separator: " ").filter { !words.contains($0) }, [], snippet.text)
        XCTAssertFalse(body.first?.isWhitespace ?? true, snippet.text)
        XCTAssertFalse(body.last?.isWhitespace ?? true, snippet.text)
        // A word longer than the cut may move (a run without spaces) is still cut between Characters.
        let run2 = UserQueryAnnotator.cut(String(repeating: "x", count: 300) + " needle " + String(repeating: "y", count: 300),
                                          attribute: "textContent", highlights: [301..<307])
        XCTAssertEqual(run2.highlightedWords, ["needle"])
        XCTAssertTrue(run2.text.hasPrefix("…x") && run2.text.hasSuffix("y…"), run2.text)
    }

    /// A snippet of a query repeating a word 10,000 times is made at once: every token matching it was a match per
    /// word, all over one range, and each match looked at every match overlapping it, 10,000 × 10,000 per token
    /// (about 20 s for one item).
    func testSnippetOfAQueryRepeatingAWordTenThousandTimesIsQuick() throws {
        let container = makeContainer([makeItem("s", title: "Straße", description: "Die Straße ist lang, die Strasse")])
        let text = Array(repeating: "strasse", count: 10_000).joined(separator: " ")
        let run = runUserQuery(text, in: container)
        XCTAssertNil(run.error)
        let hit = try XCTUnwrap(run.items.first)
        let start = Date()
        let snippet = try XCTUnwrap(run.query.snippet(for: hit))
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertEqual(snippet.attribute, "title")
        XCTAssertEqual(snippet.highlightedWords, ["Straße"])
        let ranges = UserQueryAnnotator.highlights((0..<20_000).map { (range: 2..<9, word: $0 % 1000) }
                                                   + [(range: 0..<9, word: 3), (range: 12..<14, word: 5)])
        XCTAssertEqual(ranges, [2..<9, 12..<14], "a range holding another of its word is left out")
    }

    /// A match on a typed word longer than a term (`Analyzer.maxTermBytes`, matched on the stored text) is
    /// highlighted: snippets looked at terms only, so such a match had no snippet, or one without that word.
    func testSnippetOfAMatchOnAnOverlongWord() throws {
        let long = String(repeating: "w", count: 140)
        let container = makeContainer([makeItem("s", title: "Notes " + long + " end"), makeItem("t", title: "other")])
        let run = runUserQuery(long, in: container)
        XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["s"])
        XCTAssertEqual(run.query.snippet(for: try XCTUnwrap(run.items.first))?.highlightedWords, [long])
        let both = runUserQuery("notes " + long.uppercased(), in: container)
        XCTAssertEqual(both.query.snippet(for: try XCTUnwrap(both.items.first))?.highlightedWords, ["Notes", long])
        let typing = runUserQuery("notes " + long.dropLast(3), in: container)
        XCTAssertEqual(typing.query.snippet(for: try XCTUnwrap(typing.items.first))?.highlightedWords, ["Notes", long],
                       "the word being typed marks the stored word it starts")
    }

    /// A completion found with the other words is suggested even when many more frequent completions are not
    /// (only the 30 most frequent overall were counted).
    func testACompletionThatCoOccursIsNotCrowdedOutByFrequentUnrelatedOnes() {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var items: [CSSearchableItem] = []
        for n in 0..<40 {
            let word = "cho" + String(letters[n / 26]) + String(letters[n % 26])
            items.append(makeItem("x\(n)a", title: "\(word) kitchen"))
            items.append(makeItem("x\(n)b", title: "\(word) kitchen"))
        }
        items.append(makeItem("g", title: "garden chores"))
        let container = makeContainer(items)
        let run = runUserQuery("garden cho", in: container, suggestions: true)
        XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["g"], "the query itself finds the item")
        XCTAssertEqual(run.suggestions.map(\.suggestionText), ["garden chores"])
    }

    /// `maxSuggestionCount` above 30 is honoured (it was capped at 30).
    func testMaxSuggestionCountAbove30IsHonoured() {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let items = (0..<60).map { n in makeItem("x\(n)", title: "cho" + String(letters[n / 26]) + String(letters[n % 26])) }
        let container = makeContainer(items)
        let run = runUserQuery("cho", in: container, configure: { $0.maxSuggestionCount = 50 }, suggestions: true)
        XCTAssertEqual(run.items.count, 60)
        XCTAssertEqual(run.suggestions.count, 50)
    }

    /// `CSUserQuery.Suggestion` is a strict total order consistent with `==`: of two different suggestions of
    /// equal rank, one is `<` the other (`<` compared ranks only).
    func testSuggestionComparableIsATotalOrder() throws {
        let apples = runUserQuery("app", in: makeContainer([makeItem("a", title: "apple")]), suggestions: true)
        let bananas = runUserQuery("ban", in: makeContainer([makeItem("b", title: "banana")]), suggestions: true)
        let x = CSUserQuery.Suggestion(suggestion: try XCTUnwrap(apples.suggestions.first))
        let y = CSUserQuery.Suggestion(suggestion: try XCTUnwrap(bananas.suggestions.first))
        XCTAssertTrue(x < y || y < x || x == y, "exactly one of <, ==, > must hold for \(x.id) and \(y.id)")
        XCTAssertNotEqual(x < y, y < x)
        XCTAssertFalse(x < x)
        XCTAssertEqual([y, x].sorted().map(\.id), ["apple", "banana"])
    }

    /// The typed range is exactly the text typed, even when the text before the last word joins its first
    /// letter into one character (the counts of the two parts were added).
    func testTypedRangeIsExactlyWhatWasTyped() throws {
        let container = makeContainer([makeItem("a", title: "recipes")])
        let text = "\u{0600}rec"   // ARABIC NUMBER SIGN (Grapheme_Cluster_Break=Prepend) joins the next letter
        let suggestion = try XCTUnwrap(runUserQuery(text, in: container, suggestions: true).suggestions.first)
        XCTAssertEqual(String(suggestion.suggestionText[suggestion.typedRange]), text)
    }

    /// The explanation accounts for the score the query ranked by: its first line's value (relevance × signals
    /// factor, the two lines below it) is the item's `rank`, for exact, prefix and typo matches whose signals
    /// (ranking hint, recent use, title coverage) differ.
    func testExplanationValueIsTheDeliveredRank() throws {
        let container = makeContainer([
            item("hinted", title: "Meeting notes", hint: 100), item("recent", title: "Meeting", lastUsedDaysAgo: 1),
            item("plain", title: "Weekly meeting agenda", description: "Notes for the meeting"),
            item("body", title: "Agenda", description: "Agenda of the meeting, meeting room booked"),
        ], clock: Self.clock)
        /// The leading number of a line `value = what`.
        func value(_ line: Substring) throws -> Float {
            try XCTUnwrap(Float(String(line.drop { $0 == " " }.prefix { $0 != " " })), String(line))
        }
        var ranks = Set<Double>()
        for text in ["meeting", "meet", "meetung ", "meeting notes", "agenda meet"] {
            let run = runUserQuery(text, in: container)
            XCTAssertNil(run.error)
            XCTAssertFalse(run.items.isEmpty, text)
            for hit in run.items {
                let explanation = try XCTUnwrap(run.query.explanation(for: hit), text)
                let lines = explanation.split(separator: "\n")
                XCTAssertGreaterThanOrEqual(lines.count, 3, explanation)
                let total = try value(lines[0]), factor = try value(lines[1]), relevance = try value(lines[2])
                XCTAssertGreaterThan(hit.rank, 0, "\(text) \(hit.uniqueIdentifier)")
                XCTAssertEqual(Double(total), hit.rank, accuracy: hit.rank * 1e-5, "\(text) \(hit.uniqueIdentifier)\n\(explanation)")
                XCTAssertEqual(total, factor * relevance, accuracy: total * 1e-5, explanation)
                ranks.insert(hit.rank)
            }
        }
        XCTAssertGreaterThan(ranks.count, 8, "the ranks compared differ")
    }

    /// A result past `maxRankedResultCount` is delivered unranked (rank 0): its explanation's first line must give
    /// that 0, not the relevance × signals it was selected by, which `compare(byRank:)` never sees.
    func testExplanationOfAnUnrankedResultGivesItsRankZero() throws {
        let container = makeContainer([
            item("a", title: "Meeting"), item("b", title: "Meeting notes"),
            item("c", title: "Weekly meeting agenda"), item("d", title: "Agenda", description: "the meeting room"),
        ], clock: Self.clock)
        let run = runUserQuery("meeting", in: container) { $0.enableRankedResults = true; $0.maxRankedResultCount = 1 }
        XCTAssertNil(run.error)
        XCTAssertEqual(run.items.count, 4)
        for hit in run.items {
            let explanation = try XCTUnwrap(run.query.explanation(for: hit))
            let first = try XCTUnwrap(Double(String(explanation.prefix { $0 != " " })), explanation)
            XCTAssertEqual(first, hit.rank, accuracy: hit.rank * 1e-5, "\(hit.uniqueIdentifier)\n\(explanation)")
        }
        XCTAssertEqual(run.items.filter { $0.rank == 0 }.count, 3)
    }

    /// The signals factor is itemized: each signal that moved the score is named with its factor, and the factors
    /// named multiply to the signals factor, so an explanation tells which signal lifted a result.
    func testExplanationItemizesTheSignalsFactor() throws {
        let container = makeContainer([
            item("all", title: "Meeting", hint: 100, lastUsedDaysAgo: 0), item("hinted", title: "Agenda meeting", hint: 50),
            item("plain", title: "Room", description: "the meeting room"),
        ], clock: Self.clock)
        let run = runUserQuery("meeting", in: container)
        XCTAssertNil(run.error)
        var named: [String: Set<String>] = [:]
        for hit in run.items {
            let explanation = try XCTUnwrap(run.query.explanation(for: hit))
            let line = explanation.split(separator: "\n")[1]
            let factor = try XCTUnwrap(Double(String(line.drop { $0 == " " }.prefix { $0 != " " })), String(line))
            let list = try XCTUnwrap(line.split(separator: "(", maxSplits: 1).last?.dropLast(), String(line))
            var product = 1.0, names: Set<String> = []
            for part in list.split(separator: "×") where !part.trimmingCharacters(in: .whitespaces).isEmpty {
                let words = part.split(separator: " ")
                product *= try XCTUnwrap(Double(String(words.last ?? "")), String(line))
                names.insert(words.dropLast().joined(separator: " "))
            }
            XCTAssertEqual(product, factor, accuracy: factor * 1e-5, String(line))
            named[hit.uniqueIdentifier] = names
        }
        XCTAssertEqual(named["all"], ["title coverage", "rankingHint", "lastUsedDate"], "\(named)")
        XCTAssertEqual(named["hinted"], ["rankingHint"], "\(named)")
        XCTAssertEqual(named["plain"], [], "\(named)")
    }

    func testResponsesAndSuggestionsSequences() async throws {
        let query = CSUserQuery(userQueryString: "budg", userQueryContext: .userQueryContext, container: container)
        var items: [String] = [], suggestions: [String] = []
        for try await response in query.responses {
            switch response {
            case .item(let item):
                items.append(item.id)
                XCTAssertNotNil(item.explanation)
            case .suggestion(let suggestion): suggestions.append(suggestion.id)
            }
        }
        XCTAssertEqual(Set(items), ["budget", "garden"])
        XCTAssertEqual(suggestions.first, "budget")
        var only: [CSUserQuery.Suggestion] = []
        for try await suggestion in CSUserQuery(userQueryString: "reci", userQueryContext: nil, container: container).suggestions {
            only.append(suggestion)
        }
        XCTAssertEqual(only.map(\.id), ["recipes"])
    }

    /// Cancelling the task that iterates `responses` or `suggestions` cancels the query and ends the iteration
    /// with `.cancelled`: mid-iteration it ended with nil (a list cut short looked complete), and a task cancelled
    /// before iterating was handed every response without the query being cancelled.
    func testTaskCancelledWhileIteratingResponsesEndsWithAnError() async throws {
        let container = makeContainer((0..<1000).map { item("r\($0)", title: "Review note \($0)") })
        for early in [false, true] {
            let query = CSUserQuery(userQueryString: "review", userQueryContext: nil, container: container)
            let (count, error) = await iterateCancelled(query.responses, early: early)
            XCTAssertEqual((error as? CSSearchQueryError)?.code, .cancelled,
                           "cancelled \(early ? "before iterating" : "mid-iteration"), it ended after \(count) responses")
            XCTAssertTrue(query.isCancelled)
        }
        let query = CSUserQuery(userQueryString: "revi", userQueryContext: nil, container: container)
        let (_, error) = await iterateCancelled(query.suggestions, early: true)
        XCTAssertEqual((error as? CSSearchQueryError)?.code, .cancelled)
        XCTAssertTrue(query.isCancelled)
    }

    func testContextDefaultsAndCopy() {
        let context = CSUserQueryContext.userQueryContext
        XCTAssertFalse(context.enableRankedResults)
        XCTAssertEqual(context.maxResultCount, 0)
        XCTAssertEqual(context.maxRankedResultCount, 100)
        XCTAssertEqual(context.maxSuggestionCount, 0)
        context.disableSemanticSearch = true
        context.maxResultCount = 7
        context.filterQueries = ["rating > 1"]
        let copy = context.copy() as? CSUserQueryContext
        XCTAssertEqual(copy?.maxResultCount, 7)
        XCTAssertEqual(copy?.disableSemanticSearch, true)
        XCTAssertEqual(copy?.filterQueries, ["rating > 1"])
        CSUserQuery.prepare()
        CSUserQuery.prepareProtectionClasses([])
    }

    /// Apple's `CSUserQueryContext` is `NSSecureCoding` like its superclass: a keyed archive keeps its own settings,
    /// the suggestion it refines around and the inherited ones; hostile counts decode clamped as the setters clamp.
    func testContextArchivesAndUnarchives() throws {
        XCTAssertTrue(CSUserQueryContext.supportsSecureCoding)
        let suggestion = CSSuggestion(text: "chocolate cake", typedBytes: 5, rank: 1, resultCount: 2, kind: .custom)
        let context = CSUserQueryContext(currentSuggestion: suggestion)
        context.enableRankedResults = true
        context.disableSemanticSearch = true
        context.maxResultCount = 7
        context.maxSuggestionCount = 3
        context.maxRankedResultCount = 20
        context.filterQueries = ["rating > 1"]
        context.fetchAttributes = ["title"]
        context.limit = 4
        let data = try NSKeyedArchiver.archivedData(withRootObject: context, requiringSecureCoding: true)
        let back = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSUserQueryContext.self, from: data))
        XCTAssertTrue(back.enableRankedResults)
        XCTAssertTrue(back.disableSemanticSearch)
        XCTAssertEqual(back.maxResultCount, 7)
        XCTAssertEqual(back.maxSuggestionCount, 3)
        XCTAssertEqual(back.maxRankedResultCount, 20)
        XCTAssertEqual(back.currentSuggestion, suggestion)
        XCTAssertEqual(back.filterQueries, ["rating > 1"])
        XCTAssertEqual(back.fetchAttributes, ["title"])
        XCTAssertEqual(back.limit, 4)

        let empty = try NSKeyedArchiver.archivedData(withRootObject: CSUserQueryContext(), requiringSecureCoding: true)
        let defaults = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSUserQueryContext.self, from: empty))
        XCTAssertFalse(defaults.enableRankedResults)
        XCTAssertEqual(defaults.maxRankedResultCount, 100)
        XCTAssertNil(defaults.currentSuggestion)

        for cut in 0..<data.count {
            _ = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CSUserQueryContext.self, from: data.prefix(cut))
        }
        let clamped = try XCTUnwrap(ForgedKeyedArchive.decode(CSUserQueryContext.self, [
            "maxResultCount": Int64(-1), "maxSuggestionCount": Int64.min, "maxRankedResultCount": Int64(-100),
            "limit": Int64(-2),
        ]))
        XCTAssertEqual(clamped.maxResultCount, 0)
        XCTAssertEqual(clamped.maxSuggestionCount, 0)
        XCTAssertEqual(clamped.maxRankedResultCount, 0)
        XCTAssertEqual(clamped.limit, 0)
        XCTAssertEqual(ForgedKeyedArchive.decode(CSUserQueryContext.self, [:])?.maxRankedResultCount, 100,
                       "a missing count keeps its default")
        XCTAssertNil(ForgedKeyedArchive.decode(CSUserQueryContext.self, ["filterQueries": [Data()] as NSArray]),
                     "the inherited settings are checked too")
        XCTAssertNil(ForgedKeyedArchive.decode(CSUserQueryContext.self, ["currentSuggestion": NSString(string: "cake")]))
    }

    /// `prepareUserQueries()` builds the typo-tolerance vocabularies, the titles' leading keys and their names
    /// (renown) ahead of the first user query, which then finds the same items without building more.
    func testPreparingUserQueriesBuildsTheirVocabularies() {
        let engine = { self.container.snapshot().engine }
        XCTAssertEqual(engine().memoryBreakdown["vocabulary"], 0)
        XCTAssertEqual(engine().memoryBreakdown["leadingKeys"], 0)
        XCTAssertEqual(engine().memoryBreakdown["names"], 0)
        container.prepareUserQueries()
        let built = engine().memoryBreakdown["vocabulary"] ?? 0
        let keys = engine().memoryBreakdown["leadingKeys"] ?? 0
        let names = engine().memoryBreakdown["names"] ?? 0
        XCTAssertGreaterThan(built, 0)
        XCTAssertGreaterThan(keys, 0)
        XCTAssertGreaterThan(names, 0)
        XCTAssertEqual(ids("chocolaet cake"), ["recipes"])
        XCTAssertEqual(ids("budg"), ["budget", "garden"])
        XCTAssertEqual(engine().memoryBreakdown["vocabulary"], built)
        XCTAssertEqual(engine().memoryBreakdown["leadingKeys"], keys)
        XCTAssertEqual(engine().memoryBreakdown["names"], names)
    }

    func testMaxRankedResultCountLeavesTheTailUnranked() {
        let container = makeContainer((0..<5).map { item("m\($0)", title: "Memo", hint: Double($0) * 20) }, clock: Self.clock)
        let run = runUserQuery("memo", in: container) { $0.enableRankedResults = true; $0.maxRankedResultCount = 2 }
        XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["m4", "m3", "m0", "m1", "m2"])
        XCTAssertEqual(run.items.suffix(3).map(\.rank), [0, 0, 0])
    }

    /// A query cancelled while it searches delivers no suggestions: a type-ahead field cancels the query of the
    /// previous keystroke, whose suggestions must not replace the current ones. They were delivered regardless
    /// (only the items checked for cancellation). The container's clock, read as the run takes its snapshot,
    /// cancels the query there.
    func testAQueryCancelledWhileSearchingDeliversNoSuggestions() {
        let armed = Mutex<CSUserQuery?>(nil)
        let container = SearchlightContainer(clock: {
            armed.withLock { $0?.cancel() }
            return Self.clock.now
        })
        let index = CSSearchableIndex(name: "cancel-tests", container: container)
        XCTAssertNil(index.completion { index.indexSearchableItems([self.item("b", title: "Budget")], completionHandler: $0) })
        let query = CSUserQuery(userQueryString: "bud", userQueryContext: nil, container: container)
        let calls = Mutex((suggestions: 0, items: 0, error: CSSearchQueryError?.none))
        let done = DispatchSemaphore(value: 0)
        query.foundSuggestionsHandler = { _ in calls.withLock { $0.suggestions += 1 } }
        query.foundItemsHandler = { _ in calls.withLock { $0.items += 1 } }
        query.completionHandler = { error in
            calls.withLock { $0.error = error as? CSSearchQueryError }
            done.signal()
        }
        armed.withLock { $0 = query }
        query.start()
        done.wait()
        let result = calls.withLock { $0 }
        XCTAssertEqual(result.error?.code, .cancelled)
        XCTAssertEqual(result.items, 0)
        XCTAssertEqual(result.suggestions, 0, "the cancelled query delivered suggestions")
        XCTAssertEqual(query.foundSuggestionCount, 0)
    }

    /// The filter queries of a user query are parsed and evaluated once per query: its results and its
    /// suggestions are restricted by the same documents (each evaluation reads the calendar once), where the
    /// suggestions evaluated them all again. A filter repeated in `filterQueries` is evaluated once.
    func testFilterQueriesAreEvaluatedOncePerQuery() throws {
        let container = makeContainer([item("a", title: "alpha apple", domain: "x"),
                                       item("b", title: "alpha apricot", domain: "y")])
        let context = CSUserQueryContext()
        context.filterQueries = [#"domainIdentifier == "x""#]
        let query = CountingUserQuery(userQueryString: "alpha ap", userQueryContext: context, container: container)
        let suggested = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        query.foundSuggestionsHandler = { list in suggested.withLock { $0 += list.map(\.suggestionText) } }
        query.completionHandler = { _ in done.signal() }
        query.start()
        done.wait()
        XCTAssertEqual(suggested.withLock { $0 }, ["alpha apple"])
        XCTAssertEqual(query.foundItemCount, 1)
        XCTAssertEqual(query.reads.withLock { $0 }, 1)
        let repeated = try QueryEvaluator.parse(filters: ["rating == 1", "true", "rating == 1", "true"])
        XCTAssertEqual(repeated.count, 2)
    }

    /// An invalid sort attribute fails a user query before its filter queries are evaluated (they used to be
    /// evaluated first, then thrown away).
    func testAnInvalidSortAttributeFailsBeforeTheFiltersAreEvaluated() {
        let container = makeContainer([item("a", title: "alpha", domain: "x")])
        let context = CSUserQueryContext()
        context.filterQueries = [#"domainIdentifier == "x""#]
        context.sortAttributes = [.init("no such attribute")]
        let query = CountingUserQuery(userQueryString: "alpha", userQueryContext: context, container: container)
        let failed = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        query.completionHandler = { error in failed.withLock { $0 = error }; done.signal() }
        query.start()
        done.wait()
        XCTAssertEqual((failed.withLock { $0 } as? CSSearchQueryError)?.code, .invalidQuery)
        XCTAssertEqual(query.reads.withLock { $0 }, 0)
    }

    /// A user query with no words to search (empty or only spaces and punctuation) finds nothing without
    /// evaluating its filter queries, whose documents it used to find and throw away.
    func testAQueryWithoutWordsDoesNotEvaluateItsFilters() {
        let container = makeContainer([item("a", title: "alpha", domain: "x")])
        for text in ["", "  ", "?!"] {
            let context = CSUserQueryContext()
            context.filterQueries = [#"domainIdentifier == "x""#]
            let query = CountingUserQuery(userQueryString: text, userQueryContext: context, container: container)
            let failed = Mutex<(any Error)?>(nil)
            let done = DispatchSemaphore(value: 0)
            query.completionHandler = { error in failed.withLock { $0 = error }; done.signal() }
            query.start()
            done.wait()
            XCTAssertNil(failed.withLock { $0 }, text.debugDescription)
            XCTAssertEqual(query.foundItemCount, 0, text.debugDescription)
            XCTAssertEqual(query.reads.withLock { $0 }, 0, text.debugDescription)
        }
        // A filter's syntax error still fails such a query.
        let invalid = runUserQuery("", in: container) { $0.filterQueries = ["rating >"] }
        XCTAssertEqual((invalid.error as? CSSearchQueryError)?.code, .invalidQuery)
    }
}

/// A user query that counts the evaluations of its filter queries: each one reads the calendar once.
private final class CountingUserQuery: CSUserQuery, @unchecked Sendable {
    let reads = Mutex(0)
    override var calendar: Calendar {
        get { reads.withLock { $0 += 1 }; return super.calendar }
        set { super.calendar = newValue }
    }
}
