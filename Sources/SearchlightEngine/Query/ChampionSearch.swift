extension IndexSnapshot {
    /// The best `window` hits of a lone term or prefix over the default fields, read from the segments' champion
    /// lists (`ChampionLists`) where they have one for it and from the postings elsewhere; nil when no list
    /// applies (the search reads every posting instead).
    ///
    /// A segment's list leaves out documents scoring at most idf × stretch × bound. The lists' answer stands when
    /// the k-th hit scores above that in every segment whose list was read (strictly, with room for rounding), or
    /// when those lists hold all their matches; otherwise those segments read their postings, and the others'
    /// hits are kept. `vouched`: whether the lists' answer stood. `plan`: the query's plan if the caller made one;
    /// nil lets a key that every segment lists skip planning (the lists hold its document frequencies).
    func championSearch(_ query: Query, plan given: QueryPlan?, planner: inout QueryPlanner, window: Int,
                        options: SearchOptions) -> (hits: [SearchHit], vouched: Bool)? {
        // The snapshot's length factors must be those of its parameters (they can be set after it was made).
        guard options.championLists, options.filter == nil, options.boostField == nil,
              window <= ChampionLists.capacity, parameters == factorParameters else { return nil }
        // The query's scope is the default fields (it is not scoped): what the lists rank for, if built alike.
        guard let scope = championScope else { return nil }
        // The key, as the plan has it: one token (a term group), or a prefix without earlier words.
        let key: [UInt8], isPrefix: Bool
        switch query {
        case .term(let text), .phrase(let text):
            // Plain words are read without the analyzer: one is the key itself, several have no lone key.
            if let word = QueryPlanner.plainWord(text) {
                (key, isPrefix) = (word, false)
                break
            }
            if QueryPlanner.plainWords(text) != nil { return nil }
            let tokens = planner.analyzer.tokens(text, mode: .query)
            planner.analyzed = (text, tokens)
            guard tokens.count == 1 else { return nil }
            (key, isPrefix) = (Array(tokens[0].term.utf8), false)
        case .prefix(let text):
            guard let (earlier, prefix) = QueryPlanner.prefixWords(text), earlier.isEmpty else { return nil }
            (key, isPrefix) = (Array(prefix.utf8), true)
        default:
            return nil
        }
        // Each segment's list of the key, where it has one (built now if this is the first search for it).
        let found = segments.map { segment -> (lists: ChampionLists, list: ChampionLists.List)? in
            guard let lists = segment.championLists, lists.scope == scope else { return nil }
            return lists.list(key, prefix: isPrefix, in: segment).map { (lists, $0) }
        }
        guard found.contains(where: { $0 != nil }) else { return nil }
        // The idf: from the lists' document frequencies when every segment has a list and they add up as the plan's
        // do (a term's, field by field; a prefix's largest term only within one segment), so no dictionary is
        // searched; otherwise from the plan.
        var plan = given
        func planned(_ planner: inout QueryPlanner) -> QueryPlan {
            if let plan { return plan }
            let made = planner.plan(query, scope: planner.resolve(.defaultFields))
            plan = made
            return made
        }
        let idf: Float
        if given == nil, found.allSatisfy({ $0 != nil }), !isPrefix || segments.count == 1 {
            let positions = scope.fields.count
            var df = 0
            for position in 0..<positions {
                var total = 0
                for case let (_, list)? in found { total += Int(list.docFreq[position]) }
                df = max(df, total)
            }
            idf = planner.idf(df)
        } else {
            switch (query, planned(&planner)) {
            case (.term, .group(let entries, let planIDF, _)), (.phrase, .group(let entries, let planIDF, _)):
                guard entries.allSatisfy({ $0.isExact && $0.term == key }) else { return nil }
                idf = planIDF
            case (.prefix, .prefix(_, _, let planIDF, _)):
                idf = planIDF
            default:
                return nil
            }
        }
        // The segments without a list for the key read their postings, once, whatever the lists vouch for.
        var read = TopK(k: window)
        for ordinal in segments.indices where found[ordinal] == nil {
            let iterator = planner.iterator(planned(&planner), segment: ordinal, scored: true, root: true)
            if !(iterator is EmptyIterator) { collect(iterator, segment: ordinal, boostField: nil, into: &read) }
        }
        let others = read.sorted()
        var top = TopK(k: window)
        for hit in others { top.insert(hit) }
        // The best score a document left out of a list read could have.
        var ceiling = -Float.infinity
        for ordinal in segments.indices {
            guard let (lists, list) = found[ordinal] else { continue }
            lists.collect(list, ordinal: ordinal, alive: live[ordinal], factors: fieldFactors, idf: idf, into: &top)
            let bound = list.bound
            // The factor covers rounding: the lists' scores and these are computed in another order.
            if bound > -.infinity { ceiling = max(ceiling, idf * lists.stretch(averages: fieldAverages) * bound * 1.0001) }
        }
        if ceiling == -.infinity || (top.isFull && top.threshold > ceiling) { return (top.sorted(), true) }
        // The lists cannot vouch for the page: their segments read their postings too. In segment order, as a
        // search does: a collection skips documents that only tie the worst kept hit, which is right only when
        // every kept hit has a smaller address.
        var full = TopK(k: window)
        for ordinal in segments.indices {
            guard found[ordinal] != nil else {
                for hit in others where hit.address.segment == UInt32(ordinal) { full.insert(hit) }
                continue
            }
            let iterator = planner.iterator(planned(&planner), segment: ordinal, scored: true, root: true)
            if !(iterator is EmptyIterator) { collect(iterator, segment: ordinal, boostField: nil, into: &full) }
        }
        return (full.sorted(), false)
    }
}
