#!/usr/bin/env bash
# Fuzzes the CSV and line framers with libFuzzer for a bounded time (default 60 s): builds Fuzz/CSVFuzzer.swift
# together with the framer sources, instrumented (-sanitize=fuzzer,address), then runs it from the seed corpus.
# Usage: Fuzz/run-csv-fuzzer.sh [SECONDS]. A crash, a failed check or a run over the memory limit exits non-zero
# and leaves the input in .build/fuzz/ (crash-*, oom-*): replay with .build/fuzz/csv-fuzzer FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build/fuzz
mkdir -p "$out/corpus"
streams=Sources/Switchyard/Streams
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name SwitchyardFuzz \
    "$streams/StreamError.swift" "$streams/Input/ByteWindow.swift" "$streams/Input/UTF8Validation.swift" \
    "$streams/Input/InputFramer.swift" \
    "$streams/CSV/CSVOptions.swift" "$streams/CSV/CSVHeader.swift" "$streams/CSV/CSVRecordView.swift" \
    "$streams/CSV/CSVQuirks.swift" "$streams/CSV/CSVTranscoding.swift" \
    "$streams/CSV/CSVFramer.swift" "$streams/CSV/CSVFramer+Scanning.swift" \
    "$streams/Lines/LineOptions.swift" "$streams/Lines/LineFramer.swift" \
    Fuzz/CSVFuzzer.swift -o "$out/csv-fuzzer"
# New inputs go to the scratch corpus; the committed seeds are read only.
SWIFT_BACKTRACE=enable=no "$out/csv-fuzzer" "$out/corpus" Fuzz/corpus/csv -max_total_time="$seconds" -max_len=2048 \
    -rss_limit_mb=1024 -malloc_limit_mb=256 -print_final_stats=1 -artifact_prefix="$out/"
