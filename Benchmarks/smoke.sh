#!/usr/bin/env bash
# Smoke pass of the benchmark harness (CI calls it as `bash Benchmarks/smoke.sh` from the repo root).
#
# 1. Runs the harness's own unit tests (BenchKit: query parsing, corpus reading, FTS5 semantics, reports).
# 2. Builds searchlight-bench in release and runs every built-in engine on a 2,000-item sample with a small
#    query file (Benchmarks/smoke-queries.tsv, 120 queries drawn from the shared workload), plus the
#    delete-domain and churn scenarios.
# 3. Fails (non-zero) if an engine fails, if an engine prints no report, or if two engines' summed hit
#    counts for `term` queries differ by more than 25% (--check-agreement 0.25). Hits are capped at the
#    limit (20), so most terms fill the page in both engines; a gap beyond 25% means one engine is missing
#    matches wholesale, not a tokenizer nuance.
# 4. Runs searchlight-api-bench on the sample, then its --quality check on the full corpus
#    (../shared/corpus/debian-en.jsonl.gz, 63,666 items, when present): the natural queries of issue 5 must
#    find their package in the top ten ("web server" nginx and apache2, "pdf viewer" evince or okular,
#    "thunderb" thunderbird, "wireshrak" wireshark); a miss fails the smoke pass.
set -euo pipefail
cd "$(dirname "$0")/.."

sample=Fixtures/debian-en-sample.jsonl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -f "$sample" ]; then
  corpus=$sample
elif [ -f ../shared/corpus/debian-en.jsonl.gz ]; then
  echo "smoke: $sample absent; using the first 2,000 items of ../shared/corpus/debian-en.jsonl.gz"
  gzip -dc ../shared/corpus/debian-en.jsonl.gz | head -2000 > "$tmp/sample.jsonl" || true
  corpus=$tmp/sample.jsonl
else
  echo "smoke: no sample corpus ($sample or ../shared/corpus/debian-en.jsonl.gz)" >&2
  exit 1
fi

echo "smoke: BenchKit unit tests"
swift test --package-path Benchmarks

echo "smoke: building searchlight-bench (release)"
swift build -c release --package-path Benchmarks --product searchlight-bench
bin=$(swift build -c release --package-path Benchmarks --show-bin-path)/searchlight-bench

echo "smoke: running on $corpus"
"$bin" --corpus "$corpus" --queries Benchmarks/smoke-queries.tsv --rounds 2 --json \
  --scenario delete-domain,churn --churn-items 200 --churn-batch 50 \
  --check-agreement 0.25 | tee "$tmp/report.jsonl"

engines=$("$bin" --list-engines)
expected=$(echo "$engines" | tr ',' '\n' | grep -c .)
got=$(grep -c '"engine"' "$tmp/report.jsonl" || true)
if [ "$got" -ne "$expected" ]; then
  echo "smoke: expected $expected engine reports ($engines), got $got" >&2
  exit 1
fi
if [ "$expected" -lt 2 ]; then
  echo "smoke: only $engines is built in; the term-hit agreement check needs two engines and was not applied"
fi
echo "smoke: searchlight-api-bench (the public API: read, index in memory and durably, reopen, queries)"
swift build -c release --package-path Benchmarks --product searchlight-api-bench
api_bin=$(swift build -c release --package-path Benchmarks --show-bin-path)/searchlight-api-bench
"$api_bin" --corpus "$corpus" --queries Benchmarks/smoke-queries.tsv --rounds 1 --json > "$tmp/api.json"
cat "$tmp/api.json"
python3 - "$tmp/api.json" <<'PY'
import json, sys
figures = json.load(open(sys.argv[1]))
assert figures["open_items"] == figures["docs"], "the reopened store lost items"
assert figures["user_hits"] > 0, "user queries found nothing"
PY
# An empty corpus is a usage error (exit 2 with a message), not a trap.
: > "$tmp/empty.jsonl"
status=0
"$api_bin" --corpus "$tmp/empty.jsonl" --queries Benchmarks/smoke-queries.tsv --rounds 1 2> "$tmp/empty.err" || status=$?
if [ "$status" -ne 2 ] || ! grep -q "no items" "$tmp/empty.err"; then
  echo "smoke: searchlight-api-bench on an empty corpus exited $status, not 2 with a message:" >&2
  tail -3 "$tmp/empty.err" >&2
  exit 1
fi
# --after-commit on a workload without and2 queries (no as-you-type texts) reports nothing, without a trap.
awk -F"\t" '$1 == "term"' Benchmarks/smoke-queries.tsv | head -5 > "$tmp/term-only.tsv"
"$api_bin" --corpus "$corpus" --queries "$tmp/term-only.tsv" --rounds 1 --build-rounds 1 --no-durable --no-user-empty \
  --after-commit > "$tmp/after-commit.out" 2> "$tmp/after-commit.err" || {
  echo "smoke: searchlight-api-bench --after-commit without and2 queries failed:" >&2
  tail -3 "$tmp/after-commit.err" >&2
  exit 1
}
# Options that cannot be honoured are usage errors (exit 2 before any work), not a trap or a silent no-op.
for bad in "--slowest -1" "--ql-only 9"; do
  status=0
  # shellcheck disable=SC2086
  "$api_bin" --corpus "$corpus" --queries Benchmarks/smoke-queries.tsv $bad 2> "$tmp/bad.err" > "$tmp/bad.out" || status=$?
  if [ "$status" -ne 2 ]; then
    echo "smoke: searchlight-api-bench $bad exited $status, not 2 (usage)" >&2
    exit 1
  fi
done
full=../shared/corpus/debian-en.jsonl.gz
if [ -f "$full" ]; then
  echo "smoke: natural-query quality on the full corpus ($full)"
  "$api_bin" --corpus "$full" --quality
  quality=", quality"
else
  echo "smoke: $full absent; the natural-query quality check (full corpus only) was not run"
  quality=""
fi
echo "smoke: ok ($engines, api$quality)"
