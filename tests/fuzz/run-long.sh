#!/bin/bash
# Runs each libFuzzer target for a long while (default 600 s each, all at once, one process
# each) on the seed corpus, and prints what each did: runs, coverage, corpus size and crashes.
# Not part of CI (ctest --preset fuzz runs them 20 s each). Usage: tests/fuzz/run-long.sh [SECONDS]
set -euo pipefail
seconds=${1:-600}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz >/dev/null
export GPUWB_RESOURCE_DIR="$root/resources"
out=$(mktemp -d)
targets="project_open brief_parse brief_evaluate evidence_vllm evidence_guidellm evidence_llmperf evidence_genaiperf evidence_csv"
for target in $targets; do
  corpus="$root/build-fuzz/tests/fuzz/corpus-$target"
  mkdir -p "$corpus"
  case "$target" in
    project_open) seeds=project ;;
    brief_*) seeds=brief ;;
    evidence_*) seeds="evidence-${target#evidence_}" ;;
  esac
  (cd "$out" && "$root/build-fuzz/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=25 \
     -print_final_stats=1 "$corpus" "$root/tests/fuzz/corpus/$seeds" >"$out/$target.log" 2>&1; echo $? >"$out/$target.rc") &
done
wait
status=0
for target in $targets; do
  rc=$(cat "$out/$target.rc")
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$target.log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -o 'cov: [0-9]*' "$out/$target.log" | tail -1 || true)
  crashes=$(ls "$out" | grep -c -E '^(crash|oom|timeout|leak)-' || true)
  echo "fuzz_$target: ${seconds} s, exit $rc, $runs runs, $cov, crashes/ooms/timeouts in $out: $crashes"
  [ "$rc" = 0 ] || status=1
done
exit $status
