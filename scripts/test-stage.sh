#!/usr/bin/env bash
# Runs one stage of the test command and says how long it took:
#   test: stage NAME ok|FAILED (status N): W s wall, C s CPU (C/W cores)
# CPU is that of every process the stage ran and waited for (bash `times`), so a stage that waits (a
# server's pipeline, sleeps, a browser) shows a low core count and can overlap with others.
# The line is appended to $TEST_STAGE_SUMMARY when set (scripts/test.sh prints them all at the end).
# usage: test-stage.sh NAME COMMAND [ARG...]     exit status: the command's
set -uo pipefail
name=$1; shift
started=$(date +%s.%N)
"$@"
status=$?
# `times` in this shell (a pipe or $(...) would run it in a subshell that has no children): via a file.
times_file=$(mktemp)
times >"$times_file"
cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%.1f", t }' "$times_file")
rm -f "$times_file"
line=$(awk -v s="$started" -v e="$(date +%s.%N)" -v c="$cpu" -v n="$name" -v st="$status" 'BEGIN {
  w = e - s; printf "test: stage %s %s: %.1f s wall, %.1f s CPU (%.2f cores)", n, (st == 0 ? "ok" : "FAILED (status " st ")"), w, c, (w > 0 ? c / w : 0) }')
echo "$line"
if [ -n "${TEST_STAGE_SUMMARY:-}" ]; then echo "$line" >>"$TEST_STAGE_SUMMARY"; fi
exit "$status"
