/// A rescore applied while collecting (`SearchOptions.rescoreCeiling`): the heap holds rescored scores, and
/// the thresholds the iterators prune with are scaled down by the ceiling: the lifted one while a lifted
/// document of the segment is still ahead.
struct RescoreWhileCollecting {
    let rescore: @Sendable (DocAddress, Float) -> Float
    let ceiling: Float
    let liftedCeiling: Float
    /// The lifted documents, by segment.
    let lifted: [UInt32: [UInt32]]

    init(options: SearchOptions, ceiling: Float) {
        rescore = options.rescore!
        self.ceiling = ceiling
        liftedCeiling = max(options.liftedCeiling.isFinite ? options.liftedCeiling : .infinity, ceiling)
        lifted = Dictionary(grouping: options.lifted, by: \.segment).mapValues { $0.map(\.doc).sorted() }
    }

    /// The score a document must exceed for its rescored score, at most `ceiling` times it, to possibly beat
    /// `threshold` (a rescored score), with a margin for float rounding.
    @inline(__always)
    static func scoreThreshold(_ threshold: Float, ceiling: Float) -> Float { threshold / ceiling * 0.9999 }

    /// Whether a hit scoring `score` before the rescore, which lifts it at most × `ceiling`, may still enter `top`
    /// (rescored scores): not when `score × ceiling` is below the worst kept hit. A threshold at or below 0 cannot
    /// be scaled (a negative score's rescore may rise to 0): until it is positive, every hit may.
    @inline(__always)
    static func mayPlace(_ score: Float, ceiling: Float, in top: borrowing TopK) -> Bool {
        !top.isFull || top.threshold <= 0 || score * ceiling >= top.threshold
    }
}

extension IndexSnapshot {
    /// `collect` with the rescore applied as documents are collected: the heap holds rescored scores, and a
    /// document is rescored only when its score times its ceiling could still place.
    func collectRescoring(_ iterator: DocIterator, segment ordinal: Int, boostField: FieldID?,
                          rescore: RescoreWhileCollecting, into top: inout TopK) {
        let alive = live[ordinal]
        let segment = segments[ordinal]
        // Block-max pruning: once the heap is full, a window of documents whose score bound cannot beat
        // the worst kept hit is skipped without scoring (ties lose: later documents have larger addresses).
        let pruning = boostField == nil
        let ceiling = rescore.ceiling, liftedCeiling = rescore.liftedCeiling
        // The segment's lifted documents; `next` is the first at or after the current document.
        let lifted = rescore.lifted[UInt32(ordinal)] ?? []
        var next = 0
        var windowEnd = -1
        var doc = iterator.next()
        while doc != DocIterator.end {
            while next < lifted.count, Int(lifted[next]) < doc { next += 1 }
            // A rescored threshold at or below 0 cannot be scaled (a negative score's rescore may rise to 0):
            // nothing is skipped until it is positive.
            let prunable = pruning && top.isFull && top.threshold > 0
            if prunable, doc > windowEnd {
                if let (bound, upTo) = iterator.blockBound() {
                    let most = next < lifted.count && Int(lifted[next]) <= upTo ? liftedCeiling : ceiling
                    if bound * most * 1.0001 <= top.threshold {
                        doc = upTo + 1 >= DocIterator.end ? DocIterator.end : iterator.advance(upTo + 1)
                        continue
                    }
                    windowEnd = upTo
                } else {
                    windowEnd = DocIterator.end
                }
            }
            let isLifted = next < lifted.count && Int(lifted[next]) == doc
            if alive[doc] {
                var score = iterator.score()
                if let boostField {
                    // Negative and NaN boosts count as 0 (NaN would compare false both ways and break the order).
                    let boost = segment.numbers(boostField, doc).first ?? 1
                    score *= boost.isNaN ? 0 : Float(max(boost, 0))
                }
                let address = DocAddress(segment: UInt32(ordinal), doc: UInt32(doc))
                // Rescored, it scores at most score × its ceiling: below the worst kept hit it cannot place.
                if RescoreWhileCollecting.mayPlace(score, ceiling: isLifted ? liftedCeiling : ceiling, in: top) {
                    top.insert(SearchHit(address: address, score: rescore.rescore(address, score)))
                }
            }
            guard pruning, top.isFull, top.threshold > 0 else {
                doc = iterator.next()
                continue
            }
            // While a lifted document is ahead, no skip may pass it on the others' ceiling.
            let ahead = next + (isLifted ? 1 : 0) < lifted.count
            doc = iterator.nextCompetitive(
                RescoreWhileCollecting.scoreThreshold(top.threshold, ceiling: ahead ? liftedCeiling : ceiling))
        }
    }
}
