import Foundation
import SearchlightEngine
import SearchlightQueryLanguage
import Synchronization

/// Mirror of `CSUserQuery`: a search for text a person typed (not the query language), ranked by relevance.
///
/// Matching is `UserQueryPlan` (all words, the last as a prefix while typing, typo tolerant, CJK bigrams) over
/// the default free-text fields, scored by the engine's BM25F (title > displayName/keywords > descriptions >
/// bodies, with exact and prefix title boosts) times the signals of `UserQueryRanking` (rankingHint,
/// lastUsedDate recency, engagement). `filterQueries` (query-language strings) restrict the results,
/// `fetchAttributes` select what items carry, and every item carries its rank for `compare(byRank:)`.
/// With a `foundSuggestionsHandler`, completions of the last word are delivered once, before the items.
/// Cursors are not supported for user queries (`cursor` stays nil; a context's cursor fails with `invalidQuery`);
/// `offset` and `limit` apply.
open class CSUserQuery: CSSearchQuery, @unchecked Sendable {
    // `@unchecked Sendable` is sound: the added mutable state is inside a `Mutex`; the suggestions handler is
    // only called on the query's serial queue (see `HandlerBox`).
    private struct UserState {
        var suggestionsHandler = HandlerBox<([CSSuggestion]) -> Void>()
        var foundSuggestionCount = 0
        var annotator: UserQueryAnnotator?
        var filtered: FilteredDocuments?
    }

    /// The documents matching the filter queries in one snapshot, kept so that the results and the suggestions of
    /// a run evaluate the filters once.
    private struct FilteredDocuments {
        let engine: IndexSnapshot
        let now: Date
        let documents: [DocAddress]

        func holds(_ snapshot: ContainerSnapshot) -> Bool {
            engine.generation == snapshot.engine.generation && engine.isFromSameWriter(as: snapshot.engine)
                && now == snapshot.now
        }
    }

    private let userState = Mutex(UserState())
    /// What the person typed.
    public let userQueryString: String
    package let userValues: CSUserQueryContext.UserState

    public init(userQueryString: String?, userQueryContext: CSUserQueryContext?) {
        self.userQueryString = userQueryString ?? ""
        userValues = userQueryContext?.userValues ?? CSUserQueryContext.UserState()
        super.init(queryString: userQueryString ?? "", queryContext: userQueryContext, container: .default)
    }

    /// Searchlight extension: a user query over a given container.
    public init(userQueryString: String?, userQueryContext: CSUserQueryContext?, container: SearchlightContainer) {
        self.userQueryString = userQueryString ?? ""
        userValues = userQueryContext?.userValues ?? CSUserQueryContext.UserState()
        super.init(queryString: userQueryString ?? "", queryContext: userQueryContext, container: container)
    }

    /// Warms up what a search needs: the folding tables and the default container's typo-tolerance vocabularies
    /// (`SearchlightContainer.prepareUserQueries()`, which other containers call themselves). Searchlight has no
    /// semantic model to load.
    open class func prepare() {
        _ = Folding.fold("Searchlight")
        SearchlightContainer.default.prepareUserQueries()
    }

    /// Accepted for API compatibility; a container's items are searched whatever their protection class.
    open class func prepareProtectionClasses(_ protectionClasses: [FileProtectionType]) { prepare() }

    /// Suggestions delivered (0 without a suggestions handler).
    open var foundSuggestionCount: Int { userState.withLock { $0.foundSuggestionCount } }

    /// Receives the complete ordered list of suggestions once, before the items; without it none are made.
    open var foundSuggestionsHandler: (([CSSuggestion]) -> Void)? {
        get { userState.withLock { $0.suggestionsHandler.value } }
        set { let box = HandlerBox(newValue); userState.withLock { $0.suggestionsHandler = box } }
    }

    /// The text searched and whether it is being typed (its last word a prefix, its words typo tolerant); else it
    /// is a chosen suggestion, whose completed last word (an index term) is searched as it is, without near terms, so it
    /// finds what it counted.
    private var effectiveText: (text: String, typing: Bool) {
        if let suggestion = userValues.currentSuggestion { return (suggestion.suggestionText, false) }
        return (userQueryString, true)
    }

    /// The documents matching every filter query and holding every overlong word of `plan` (visible ones only),
    /// or nil when neither restricts.
    /// `filters`: the filter queries already parsed, if they were.
    private func restriction(in snapshot: ContainerSnapshot, plan: UserQueryPlan,
                             filters: [QueryExpression]? = nil) throws(CSSearchQueryError) -> Query? {
        var restrictions: [Query] = []
        if let documents = try filteredDocuments(in: snapshot, filters: filters) {
            restrictions.append(.documents(DocumentSet(documents)))
        }
        if !plan.overlong.isEmpty {
            // The words no term holds are compared on the texts of the documents holding any such word (few).
            let engine = snapshot.engine
            let fields = engine.schema.defaultFieldNumbers.map { FieldID(rawValue: UInt16($0)) }
            let holding = engine.matches(.terms([Analyzer.overlongTerm])).filter { address in
                snapshot.isVisible(address) && plan.overlongMatches(fields.flatMap { engine.text($0, of: address) })
            }
            restrictions.append(.documents(DocumentSet(holding)))
        }
        return restrictions.count > 1 ? .and(restrictions) : restrictions.first
    }

    /// The visible documents matching every filter query (nil without filters), evaluated once per snapshot: the
    /// results and the suggestions of a run share them.
    private func filteredDocuments(in snapshot: ContainerSnapshot,
                                   filters: [QueryExpression]?) throws(CSSearchQueryError) -> [DocAddress]? {
        guard !contextValues.filterQueries.isEmpty else { return nil }
        if let kept = userState.withLock({ $0.filtered }), kept.holds(snapshot) { return kept.documents }
        let expressions: [QueryExpression]
        if let filters { expressions = filters } else {
            expressions = try QueryEvaluator.parse(filters: contextValues.filterQueries)
        }
        var evaluator = QueryEvaluator(snapshot: snapshot, calendar: calendar)
        let documents = evaluator.matches(all: expressions)
        let kept = FilteredDocuments(engine: snapshot.engine, now: snapshot.now, documents: documents)
        userState.withLock { $0.filtered = kept }
        return documents
    }

    override package func execute(in snapshot: ContainerSnapshot) throws(CSSearchQueryError) -> Outcome {
        // Only a CSSearchQuery makes cursors: ignoring one here would deliver the first page as if it were the next.
        if contextValues.cursor != nil {
            throw CSSearchQueryError(.invalidQuery, message: "user queries do not support cursors (the cursor was made "
                + "by a CSSearchQuery); page them with offset and limit")
        }
        // An invalid sort attribute refuses the query before any work.
        let order = try ResultOrder(snapshot: snapshot, sortAttributes: contextValues.sortAttributes)
        let (text, typing) = effectiveText
        let plan = UserQueryPlan(text: text, lastWordIsPrefix: typing, lastWordIsChosen: !typing)
        // A filter's syntax error fails the query even when no word is searched; they are evaluated only then.
        let filters = try QueryEvaluator.parse(filters: contextValues.filterQueries)
        guard !plan.isEmpty else { return Outcome(hits: [], cursor: nil) }
        let restriction = try restriction(in: snapshot, plan: plan, filters: filters)
        let engagement = container.engagement.rankingState(at: snapshot.now)
        let ranking = UserQueryRanking(snapshot: snapshot, engagement: engagement.records,
                                       engagementCeiling: engagement.ceiling, typedText: text, typing: plan.typing)
        // All matches (0) or at most `maxResultCount`: never more than the documents there are (`Int.max` too).
        let everything = max(snapshot.engine.documentCount, 1)
        let limit = userValues.maxResultCount > 0 ? min(userValues.maxResultCount, everything) : everything
        let search = RankedSearch(snapshot: snapshot, restriction: restriction, ranking: ranking)
        // Typo tolerance only when the words as typed do not fill the requested results. When their document
        // frequencies already show they cannot, the exact search is skipped: its hits would be discarded.
        var query = plan.query(typoTolerant: false)
        var typoTolerant = false
        let hasTypoBudget = plan.hasTypoBudget
        var scored: [SearchHit] = [], renowned: Set<DocAddress> = [], sources: [DocAddress: DocAddress] = [:]
        if !hasTypoBudget || search.maximumMatches(query) >= limit {
            (scored, renowned, sources) = Self.results(of: query, limit: limit, search: search, in: snapshot)
        }
        if scored.count < limit, hasTypoBudget {
            query = plan.query(typoTolerant: true)
            typoTolerant = true
            (scored, renowned, sources) = Self.results(of: query, limit: limit, search: search, in: snapshot)
        }
        let rankedCount = userValues.maxRankedResultCount
        var hits: [Hit] = scored.enumerated().map { index, hit in
            let entry = ResultOrder.Entry(address: hit.address, identifier: snapshot.engine.id(of: hit.address) ?? "",
                                          key: order.key(of: hit.address))
            return Hit(entry: entry, rank: index < rankedCount ? Double(hit.score) : 0)
        }
        if !contextValues.sortAttributes.isEmpty {
            // Only the results up to the page's end are ordered (`TopSelection`), not every match.
            let (end, overflow) = contextValues.offset.addingReportingOverflow(contextValues.limit)
            hits = TopSelection.first(contextValues.limit > 0 && !overflow ? end : hits.count, of: hits) {
                order.precedes(($0.entry.key, $0.entry.identifier), ($1.entry.key, $1.entry.identifier))
            }
        } else if userValues.enableRankedResults {
            // Best first, ties by identifier: the unranked tail (rank 0) too, so `Item`'s `<` keeps the order.
            Self.orderTies(&hits[...])
        } else {
            hits.sort { $0.entry.address < $1.entry.address }
        }
        if contextValues.offset > 0 { hits.removeFirst(min(contextValues.offset, hits.count)) }
        if contextValues.limit > 0, hits.count > contextValues.limit { hits.removeLast(hits.count - contextValues.limit) }
        // What each result's score came from (a linked activity's document for an item found through it).
        var addresses = [ExactIdentifier: DocAddress](minimumCapacity: hits.count)
        // The results past `maxRankedResultCount`, delivered with rank 0 (a match's score is positive).
        var unranked: Set<ExactIdentifier> = []
        for hit in hits {
            let id = ExactIdentifier(hit.entry.identifier)
            addresses[id] = sources[hit.entry.address] ?? hit.entry.address
            if hit.rank == 0 { unranked.insert(id) }
        }
        let annotator = UserQueryAnnotator(snapshot: snapshot, plan: plan, query: query, typoTolerant: typoTolerant,
                                           ranking: ranking, addresses: addresses, renowned: renowned,
                                           unranked: unranked, rankedCount: rankedCount)
        userState.withLock { $0.annotator = annotator }
        return Outcome(hits: hits, cursor: nil)
    }

    /// Sorts each run of equal ranks in `hits` (best first) by identifier, the order `CSSearchableItem.ranksBefore`
    /// documents: the engine breaks ties by address. Work on the delivered results only, after the ranking.
    private static func orderTies(_ hits: inout ArraySlice<Hit>) {
        var start = hits.startIndex
        while start < hits.endIndex {
            var end = start + 1
            while end < hits.endIndex, hits[end].rank == hits[start].rank { end += 1 }
            if end - start > 1 { hits[start..<end].sort { ResultOrder.identifier($0.entry.identifier, precedes: $1.entry.identifier) } }
            start = end
        }
    }

    /// The best `limit` results of `query`, best first. Activities linked to items become those items, one result
    /// each (Activities/ActivityResults): when that leaves fewer than `limit`, more hits are asked for until it
    /// does not or the matches run out (the collapse of a longer best-first list starts with the shorter's).
    /// `sources`: the hit whose score a result carries, where it is another document (`collapseKeepingSources`).
    private static func results(of query: Query, limit: Int, search: RankedSearch, in snapshot: ContainerSnapshot)
        -> (hits: [SearchHit], renowned: Set<DocAddress>, sources: [DocAddress: DocAddress]) {
        var request = limit
        while true {
            let (found, renowned) = search.hits(query, limit: request)
            let (collapsed, sources) = ActivityResults.collapseKeepingSources(found, in: snapshot)
            if collapsed.count >= limit || found.count < request || request >= snapshot.engine.documentCount {
                return (Array(collapsed.prefix(limit)), renowned, sources)
            }
            request = min(request * 2, snapshot.engine.documentCount)
        }
    }

    override package func releaseHandlers() {
        userState.withLock {
            $0.suggestionsHandler = HandlerBox()
            $0.filtered = nil
        }
    }

    /// Delivers the suggestions, unless the query was cancelled (a type-ahead field cancels the previous
    /// keystroke's query, whose suggestions must not replace the current ones; `run` then completes it).
    override package func willDeliver(in snapshot: ContainerSnapshot) {
        let handler = userState.withLock { $0.suggestionsHandler }
        guard let deliver = handler.value, !isCancelled else { return }
        let list = (try? suggestions(in: snapshot)) ?? []
        guard !isCancelled else { return }
        userState.withLock { $0.foundSuggestionCount = list.count }
        deliver(list)
    }

    /// Completions of the last word from the index's terms, ranked by how many visible items (that also match
    /// the other words and the filters) each would find, then by document frequency (with no other word or filter,
    /// that count again: deleted items must not break ties); the typed part is marked.
    /// The shown ones are written as an item holding the completion writes it (`surface(of:among:in:where:)`).
    /// Counted as choosing the suggestion searches it: the other words typo tolerant, the completion as it is.
    package func suggestions(in snapshot: ContainerSnapshot) throws(CSSearchQueryError) -> [CSSuggestion] {
        let text = userQueryString
        let tokens = Analyzer().tokens(text, mode: .query)
        guard let last = tokens.last, last.byteRange.upperBound == text.utf8.count else { return [] }
        let utf8 = Array(text.utf8)
        let head = String(decoding: utf8[..<last.byteRange.lowerBound], as: UTF8.self)
        let typed = String(decoding: utf8[last.byteRange], as: UTF8.self)
        // The other words as choosing a suggestion searches them: the text's words but the last, not the words of
        // `head` (CJK bigrams overlap: "中文输" is 中文 and 文输, its text before 文输 only 中).
        let plan = UserQueryPlan(text: text, lastWordIsPrefix: false)
        let others = plan.words.dropLast()
        let restriction = try restriction(in: snapshot, plan: plan)
        // The visible documents matching the other words and the filters, found once (nil: every visible
        // document); each completion's count is its postings intersected with them (none: nothing to complete).
        var base: [DocAddress]?
        if !others.isEmpty || restriction != nil {
            var clauses = others.map(plan.clause)
            if let restriction { clauses.append(restriction) }
            base = snapshot.engine.matches(clauses.count == 1 ? clauses[0] : .and(clauses)).filter(snapshot.isUnexpired)
            if base?.isEmpty == true { return [] }
        }
        let maximum = userValues.maxSuggestionCount > 0 ? userValues.maxSuggestionCount : 10
        // The completions counted, most frequent first. Within the other words' matches a count is a conjunction
        // with them (it costs no more than they are many), so up to `coOccurrenceCandidates` are counted and a
        // rare completion that goes with them is found; alone, a count reads the term's postings, so only as many
        // as are shown, and at least `frequentCandidates` (for engagement to reorder).
        let budget = max(maximum, base == nil ? Self.frequentCandidates : Self.coOccurrenceCandidates)
        let candidates = snapshot.engine.topTerms(withPrefix: last.term, in: .defaultFields, limit: budget)
        guard !candidates.isEmpty else { return [] }
        // The documents a count walks (nil: every live one, all visible while none can have expired).
        let among = base ?? (snapshot.noneExpired ? nil : snapshot.visibleAddresses())
        let engagement = container.engagement
        // The activities among them, found once: a count changes only where a completion matches one of these.
        let activities = ActivityResults.mayHoldActivities(snapshot) ? Self.activities(among: among, in: snapshot) : []
        var scored: [(text: String, term: String, count: Int, score: Double, df: Int)] = []
        for (term, df) in candidates {
            var count = snapshot.engine.count(.term(term), among: among)
            if !activities.isEmpty, count > 0 {
                count = Self.resultCount(of: term, documents: count, activities: activities, among: among, in: snapshot)
            }
            guard count > 0 else { continue }
            let suggestion = head + Self.completing(typed, folded: last.term, with: term)
            let boost = engagement.factor(for: Self.engagementKey(suggestion), at: snapshot.now)
            // Ties go to the more frequent term; with no other word or filter the count is its frequency among the
            // visible items, where the index's (deleted items counted until a merge) would rank by what was deleted.
            scored.append((suggestion, term, count, Double(count) * boost, base == nil ? count : df))
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.df != $1.df ? $0.df > $1.df : $0.text < $1.text }
        // The last word as an item holding it writes it, where that lines up with what was typed; the typed
        // part is then the characters standing for what was typed.
        return scored.prefix(maximum).enumerated().map { rank, entry in
            if let (word, typedBytes) = Self.surface(of: entry.term, among: among, in: snapshot, where: {
                Self.completing(typed, folded: last.term, with: entry.term, surface: $0)
            }) {
                return CSSuggestion(text: head + word, typedBytes: head.utf8.count + typedBytes, rank: rank,
                                    resultCount: entry.count)
            }
            // The typed part: all that was typed, which a suggestion keeps (else the words before the last).
            let typedBytes = entry.text.utf8.starts(with: text.utf8) ? text.utf8.count : head.utf8.count
            return CSSuggestion(text: entry.text, typedBytes: typedBytes, rank: rank, resultCount: entry.count)
        }
    }

    /// The live activity documents among `among` (nil: every live one), ascending.
    private static func activities(among: [DocAddress]?, in snapshot: ContainerSnapshot) -> [DocAddress] {
        let all = ActivityWriter.activityAddresses(in: snapshot.engine)
        return among.map { SortedAddresses.intersect(all, $0) } ?? all
    }

    /// How many results choosing the completion `term` finds: its `documents` (among `among`, nil: every live one)
    /// as results collapse them (`ActivityResults.collapse`), a linked activity counted as its item, once, and one
    /// standing for a hidden item not at all. Only the term's matches among `activities` are walked, not all its
    /// documents: this runs for every candidate completion on every keystroke.
    private static func resultCount(of term: String, documents: Int, activities: [DocAddress], among: [DocAddress]?,
                                    in snapshot: ContainerSnapshot) -> Int {
        let matched = snapshot.engine.matches(.term(term), among: activities)
        guard !matched.isEmpty else { return documents }
        var count = documents - matched.count
        var items: Set<DocAddress> = []
        for activity in matched {
            guard let result = ActivityResults.representative(of: activity, in: snapshot) else { continue }
            if result == activity { count += 1 } else { items.insert(result) }
        }
        guard !items.isEmpty else { return count }
        // The items its activities stand for, less those the term's own documents already count.
        let sorted = items.sorted()
        let candidates = among.map { SortedAddresses.intersect(sorted, $0) } ?? sorted
        let counted = snapshot.engine.count(.term(term), among: candidates)
        return count + items.count - counted
    }

    /// How many completions of the last word are counted when no other word restricts them (each count reads the
    /// term's postings), unless more suggestions are asked for.
    static let frequentCandidates = 30
    /// How many completions of the last word are counted within the matches of the other words and the filters
    /// (each count costs at most as much as those matches are many), unless more suggestions are asked for.
    static let coOccurrenceCandidates = 200

    /// The last word of a suggestion: the characters typed as typed, then the rest of `term`, a completion of
    /// `folded` (how the analyzer folded them), in capitals after a run of them. Read again, it must split into the
    /// words that were counted: the folded term alone lowers a camel-case word's first letter and joins it to the
    /// word before ("MyWindowCont": "MyWindowcontroller"), and lower-case letters after capitals start a new
    /// word ("STRA": "STRAsse").
    static func completing(_ typed: String, folded: String, with term: String) -> String {
        guard term.utf8.starts(with: folded.utf8) else { return term }
        let rest = String(decoding: term.utf8.dropFirst(folded.utf8.count), as: UTF8.self)
        return typed + Self.rest(rest, after: typed)
    }

    /// The rest of a completed word as written after `typed`: in capitals after a run of them ("STRA": "STRASSE").
    private static func rest(_ rest: String, after typed: String) -> String {
        let letters = typed.filter(\.isLetter).suffix(2)
        return letters.count == 2 && letters.allSatisfy(\.isUppercase) ? rest.uppercased() : rest
    }

    /// The engagement-store key of a suggestion: its text folded, so the key ranking reads (from the completion
    /// as counted, folded) is the key a shown suggestion records (as items write it: "amelie", "amélie"). Composed
    /// too: the ledger keys by bytes, and a shown suggestion can be decomposed (かか\u{3099}) where the counted term
    /// is composed (かが). The prefix starts with U+0000, which item identifiers cannot (nor is it the activity
    /// namespace): spelled "suggestion:", it was also the key of an item so named, sharing its engagement.
    static func engagementKey(_ suggestionText: String) -> String {
        "\u{0}suggestion\u{0}" + TextMatch.folded(suggestionText, options: .all)
    }

    /// How an item writes `term` (a folded index term): the first of the tokens of that term in the default-field
    /// texts of the first visible document holding it (among `among`, the documents counted; nil: all), as written
    /// there and in order, that `linesUp` takes ("AMÉLIE" does not line up with "ame", the "Amélie" after it does).
    /// The texts after the one holding it are not analyzed (a long textContent, on every keystroke).
    static func surface<Result>(of term: String, among: [DocAddress]?, in snapshot: ContainerSnapshot,
                                where linesUp: (String) -> Result?) -> Result? {
        let engine = snapshot.engine
        guard let address = engine.firstMatch(.term(term), among: among, where: snapshot.isUnexpired) else {
            return nil
        }
        let analyzer = Analyzer()
        var tried: [String] = []
        for field in engine.schema.defaultFields {
            for value in engine.text(field, of: address) {
                let utf8 = Array(value.utf8)
                for token in analyzer.tokens(value, mode: .index) where token.term == term {
                    let surface = String(decoding: utf8[token.byteRange], as: UTF8.self)
                    guard !tried.contains(where: { $0.utf8.elementsEqual(surface.utf8) }) else { continue }
                    if let result = linesUp(surface) { return result }
                    tried.append(surface)
                }
            }
        }
        return nil
    }

    /// The last word of a suggestion written as `surface` (how an item writes `term`), with the UTF-8 length of
    /// the part standing for what was typed. `typed` (folded: `folded`) must fold as the surface's first as many
    /// characters do; those keep their typed case, and one that differs beyond case is the surface's, in the typed
    /// case ("ame" with "Amélie": "amélie"; "Rés" with "Result": "Result"). The rest follows the rules of
    /// `completing(_:folded:with:)` (capitals after a run of them). Nil when the typed characters do not line up
    /// with the surface's, or the word would not read again as `term`.
    static func completing(_ typed: String, folded: String, with term: String,
                           surface: String) -> (word: String, typedBytes: Int)? {
        let typedCharacters = Array(typed), surfaceCharacters = Array(surface)
        guard surfaceCharacters.count >= typedCharacters.count,
              Folding.fold(String(surfaceCharacters[..<typedCharacters.count])) == folded else { return nil }
        var word = ""
        for (mine, theirs) in zip(typedCharacters, surfaceCharacters) {
            if mine == theirs || mine.lowercased() == theirs.lowercased() {
                word.append(mine)
            } else {
                word += mine.isUppercase ? theirs.uppercased() : theirs.lowercased()
            }
        }
        let typedBytes = word.utf8.count
        word += Self.rest(String(surfaceCharacters[typedCharacters.count...]), after: typed)
        guard Analyzer().tokens(word, mode: .query).map(\.term) == [term] else { return nil }
        return (word, typedBytes)
    }

    /// The annotator of the finished run (nil before it ran).
    var annotator: UserQueryAnnotator? { userState.withLock { $0.annotator } }

    /// Searchlight extension: the highlighted snippet of a result of this query.
    public func snippet(for item: CSSearchableItem) -> Snippet? { annotator?.snippet(for: item.uniqueIdentifier) }

    /// Searchlight extension: how a result's score was computed (BM25F terms and the ranking signals).
    public func explanation(for item: CSSearchableItem) -> String? {
        annotator?.explanation(for: item.uniqueIdentifier)
    }

    /// Records that the person engaged with a result (ranking favours it in later queries on this container): a
    /// selection counts 1 for it and an impression for every visible item; a focus counts a quarter selection.
    /// Kept in the container's `EngagementLedger` (Activities/), decaying with a 14-day half-life.
    public func userEngaged(_ item: Item, visibleItems: [Item], interaction: UserInteractionKind) {
        let engagement = container.engagement
        container.recordingEngagement { snapshot in
            // Results deleted since they were shown count for nothing (`ActivityResults.engagementIdentifier`).
            let key = ActivityResults.engagementIdentifier(ofResult: item.id, in: snapshot)
            if interaction == .select {
                let shown = visibleItems.compactMap {
                    ActivityResults.engagementIdentifier(ofResult: $0.id, in: snapshot)
                }
                if let key {
                    engagement.recordSelection(of: key, visible: shown, at: snapshot.now)
                } else if !shown.isEmpty {
                    engagement.recordImpressions(of: shown, at: snapshot.now)
                }
            } else if let key {
                engagement.recordSelection(of: key, weight: 0.25, at: snapshot.now)
            }
        }
    }

    /// Records that the person engaged with a suggestion (later suggestion lists favour it).
    public func userEngaged(_ suggestion: Suggestion, visibleSuggestions: [Suggestion], interaction: UserInteractionKind) {
        let now = container.clock()
        let key = Self.engagementKey(suggestion.suggestion.suggestionText)
        if interaction == .select {
            let shown = visibleSuggestions.map { Self.engagementKey($0.suggestion.suggestionText) }
            container.engagement.recordSelection(of: key, visible: shown, at: now)
        } else {
            container.engagement.recordSelection(of: key, weight: 0.25, at: now)
        }
    }
}
