// The engine: analyzer, term dictionary, postings, scoring, segments.
