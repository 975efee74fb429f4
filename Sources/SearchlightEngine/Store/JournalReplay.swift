/// Replays journaled batches into a writer, committing as it goes so that batches that each fitted a segment but
/// together pass `IndexWriter.segmentLimits` all survive: one commit of them all would throw `segmentTooLarge`
/// and lose the store (acknowledged batches included).
///
/// Batches are gathered into one buffer while they fit; a batch the buffer cannot take commits the batches
/// before it (one by one if even they do not seal together) and starts a fresh buffer. A batch refused on its own
/// is one the container refused too (sealing it failed after it was journaled; its caller was told nothing was
/// applied): it is skipped, client state included. Any other error is thrown.
struct JournalReplay {
    let writer: IndexWriter
    /// The client states with every batch applied so far.
    private(set) var states: [ExactIdentifier: [UInt8]]
    /// The client states as of the last commit (what a rollback goes back to).
    private var committedStates: [ExactIdentifier: [UInt8]]
    /// The batches applied since the last commit (applied again when they must be committed without a later one).
    private var pending: [DecodedBatch] = []
    /// Batches skipped because they do not fit a segment on their own.
    private(set) var refusedBatches = 0

    init(writer: IndexWriter, states: [ExactIdentifier: [UInt8]]) {
        self.writer = writer
        self.states = states
        committedStates = states
    }

    /// Applies `batch` after the batches before it, committing those first when the buffer cannot take it.
    mutating func apply(_ batch: DecodedBatch) throws(EngineError) {
        do {
            try batch.apply(to: writer, clientStates: &states)
            pending.append(batch)
            return
        } catch {
            guard error == .segmentTooLarge else { throw error }
        }
        // Without this batch the buffer held what it took before (each of those batches fitted in order).
        let earlier = pending
        rollBack()
        for batch in earlier { try batch.apply(to: writer, clientStates: &states) }
        pending = earlier
        try commit()
        do {
            try batch.apply(to: writer, clientStates: &states)
            pending = [batch]
        } catch {
            guard error == .segmentTooLarge else { throw error }
            rollBack()
            refusedBatches += 1
        }
    }

    /// Commits the batches applied since the last commit; when they do not seal together, commits them one by one.
    mutating func commit() throws(EngineError) {
        do {
            try writer.commit()
            committedStates = states
            pending = []
            return
        } catch {
            guard error == .segmentTooLarge else { throw error }
        }
        let batches = pending
        rollBack()
        for batch in batches {
            do {
                try batch.apply(to: writer, clientStates: &states)
                try writer.commit()
                committedStates = states
            } catch {
                guard error == .segmentTooLarge else { throw error }
                rollBack()
                refusedBatches += 1
            }
        }
    }

    /// Discards everything since the last commit, client states included.
    private mutating func rollBack() {
        writer.rollback()
        states = committedStates
        pending = []
    }
}
