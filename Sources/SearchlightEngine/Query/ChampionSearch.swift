extension IndexSnapshot {
    /// The best `window` hits of a lone term or prefix over the default fields, read from the segments' champion
    /// lists (`ChampionLists`) where they have one for it and from the postings elsewhere; nil when no list
    /// applies (the search reads every posting instead).
    ///
    /// A segment's list leaves out documents scoring at most idf × stretch × bound. The lists' answer stands when
    /// the k-th hit scores above that in every segment whose list was read (strictly, with room for rounding), or
    /// when those lists hold all their matches; otherwise those segments read their postings, and the others'
    /// hits are kept. `vouched`: whether the lists' answer stood.
    func championSearch(_ query: Query, plan: QueryPlan, planner: inout QueryPlanner, window: Int,
                        options: SearchOptions) -> (hits: [SearchHit], vouched: Bool)? {
        // The snapshot's length factors must be those of its parameters (they can be set after it was made).
        guard options.championLists, options.filter == nil, options.boostField == nil,
              window <= ChampionLists.capacity, parameters == factorParameters else { return nil }
        let key: [UInt8], isPrefix: Bool, idf: Float
        switch (query, plan) {
        case (.term, .group(let entries, let planIDF, _)), (.phrase, .group(let entries, let planIDF, _)):
            // One token: a term group.
            guard let first = entries.first, entries.allSatisfy({ $0.isExact && $0.term == first.term }) else { return nil }
            (key, isPrefix, idf) = (first.term, false, planIDF)
        case (.prefix(let text), .prefix(_, let planIDF, _)):
            guard let (earlier, prefix) = QueryPlanner.prefixWords(text), earlier.isEmpty else { return nil }
            (key, isPrefix, idf) = (Array(prefix.utf8), true, planIDF)
        default:
            return nil
        }
        // The query's scope is the default fields (it is not scoped): what the lists rank for, if built alike.
        guard let scope = championScope else { return nil }
        // Each segment's list of the key, where it has one.
        let found = segments.map { segment -> (lists: ChampionLists, keyed: ChampionLists.Lists, index: Int)? in
            guard let lists = segment.championLists, lists.scope == scope else { return nil }
            let keyed = isPrefix ? lists.prefixes : lists.terms
            return key.withUnsafeBufferPointer { keyed.find($0) }.map { (lists, keyed, $0) }
        }
        guard found.contains(where: { $0 != nil }) else { return nil }
        // The segments without a list for the key read their postings, once, whatever the lists vouch for.
        var read = TopK(k: window)
        for ordinal in segments.indices where found[ordinal] == nil {
            let iterator = planner.iterator(plan, segment: ordinal, scored: true, root: true)
            if !(iterator is EmptyIterator) { collect(iterator, segment: ordinal, boostField: nil, into: &read) }
        }
        let others = read.sorted()
        var top = TopK(k: window)
        for hit in others { top.insert(hit) }
        // The best score a document left out of a list read could have.
        var ceiling = -Float.infinity
        for ordinal in segments.indices {
            guard let (lists, keyed, index) = found[ordinal] else { continue }
            lists.collect(keyed, index, segment: segments[ordinal], ordinal: ordinal, alive: live[ordinal],
                          factors: fieldFactors, idf: idf, into: &top)
            let bound = keyed.bound[index]
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
            let iterator = planner.iterator(plan, segment: ordinal, scored: true, root: true)
            if !(iterator is EmptyIterator) { collect(iterator, segment: ordinal, boostField: nil, into: &full) }
        }
        return (full.sorted(), false)
    }
}
