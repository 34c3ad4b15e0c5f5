#!/usr/bin/env bash
# The distributed solve against the plain one on this machine: the same
# solve as one plain process and under `mpirun -np 1, 2, 3` (one thread a
# process), each database compared with the plain one's, the rounds
# alternated. Needs a release build with MPI (cargo build --release
# --features mpi) and Open MPI's mpirun.
#
#   tools/benches/mpi_ranks.sh [ROUNDS] [SOLVE ARGS...]
#   tools/benches/mpi_ranks.sh 2 --game topple --board 3x3 --variant s11
#
# Prints, a line a run: wall seconds (the whole command, mpirun's start
# included), CPU seconds of every process (user + system, from
# /usr/bin/time), the largest process's peak memory, and the solve's own
# report of its time.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${TOPITOP:-target/release/topitop}
rounds=${1:-2}
shift || true
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--game topple --board 3x3 --variant s11)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {
    local label=$1 dir=$2
    shift 2
    rm -rf "$dir"
    /usr/bin/time -f "%e %U %S %M" -o "$out/time" "$@" solve "${args[@]}" --threads 1 --out "$dir" \
        > "$out/log" 2>&1 || { cat "$out/log"; exit 1; }
    read -r wall user sys rss < "$out/time"
    printf "%-8s %8.1f s wall %8.1f CPU-s %8.0f MB peak   %s\n" "$label" "$wall" \
        "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1000" | bc)" \
        "$(grep -o 'in [0-9.]* s, [0-9.]* CPU-s' "$out/log")"
}

echo "solve ${args[*]} --threads 1, $rounds rounds, $(date -u '+%Y-%m-%d %H:%M UTC')"
for round in $(seq "$rounds"); do
    echo "round $round"
    run plain "$out/plain" "$bin"
    for np in 1 2 3; do
        run "np $np" "$out/np$np" mpirun --allow-run-as-root --oversubscribe -np "$np" "$bin"
        cmp "$out"/plain/*.db "$out/np$np"/*.db
    done
done
echo "every database equal to the plain solve's (cmp)"
