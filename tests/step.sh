#!/bin/sh
# SPDX-License-Identifier: MIT
# step.sh - the steps of make test, each reporting as it goes: a line when
# it starts and one when it ends, with its CPU time (user + system, of the
# commands it ran) and its wall time.
#
#   sh tests/step.sh run NAME LOG CMD...   run CMD, its output into LOG (with
#                                           a last line "exit status N"),
#                                           between the two lines
#   sh tests/step.sh cpu FILE CMD...       run CMD (a compiler), appending its CPU
#                                           seconds to FILE; exit with its status
#   sh tests/step.sh built NAME FILE       the line of a finished build: the
#                                           CPU seconds its compilers took (FILE)
#   sh tests/step.sh total CMD...          run CMD (the steps), then print the
#                                           CPU and wall time of all of it
#
# CPU times come from the shell's `times` (the children it waited for).

# cpu_now: $cpu gets the children's user + system seconds so far, from
# `times`' second line (called in this shell: a command substitution's
# subshell has no children of its own).
times_file=${TMPDIR:-/tmp}/seastar-step.$$
cpu_now() {
    times > "$times_file"
    cpu=$(sed -n 2p "$times_file" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.2f", t }')
    rm -f "$times_file"
}

what=$1; shift
case $what in
run)
    name=$1; log=$2; shift 2
    printf '  run     %s\n' "$name"
    t0=$(date +%s)
    "$@" > "$log.tmp" 2>&1
    st=$?
    echo "exit status $st" >> "$log.tmp"
    mv "$log.tmp" "$log"
    cpu_now
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    printf '  done    %-9s %7s s CPU %5s s  %s\n' "$name" "$cpu" "$(( $(date +%s) - t0 ))" "${line:-exit status $st}"
    ;;
cpu)
    file=$1; shift
    "$@"
    st=$?
    cpu_now
    echo "$cpu" >> "$file" # (one line a compile: parallel compiles append)
    exit $st
    ;;
built)
    name=$1; file=$2
    printf '  build   %-9s %7s s CPU (compiling)\n' "$name" \
        "$(awk '{ t += $1 } END { printf "%.2f", t }' "$file" 2>/dev/null || echo 0)"
    rm -f "$file"
    ;;
total)
    t0=$(date +%s)
    "$@"
    st=$?
    cpu_now
    printf '  total   %-9s %7s s CPU %5s s\n' "" "$cpu" "$(( $(date +%s) - t0 ))"
    exit $st
    ;;
*)
    echo "step.sh: unknown step '$what'" >&2
    exit 2
    ;;
esac
