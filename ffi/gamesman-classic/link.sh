#!/usr/bin/env bash
# Builds a GamesmanClassic checkout with this project's Topitop module.
#
#   ffi/gamesman-classic/link.sh GC_CHECKOUT [--export OPTION]...
#
# GC_CHECKOUT is a clone of GamesCrafters/GamesmanClassic that you already
# have. The script
#   1. configures it once (autoconf, then ./configure --disable-graphics with
#      CFLAGS=-O2) unless src/Makefile exists,
#   2. builds its own C Topitop module and keeps it as bin/mtopitop-c,
#   3. builds this project's module (target/release/libtopitop_gamesman.a),
#   4. links GamesmanClassic's core with it into bin/mtopitop, the name the
#      core's tools and web bridge run,
#   5. with --export OPTION (repeatable), writes the solved tier databases of
#      that option into GC_CHECKOUT/data with `topitop export --format
#      gamesman-classic`, solving our database first if it is missing, so
#      that `bin/mtopitop --option N --interact` answers at once.
# It needs gcc, make, autoconf and the zlib and GMP headers (Debian:
# apt-get install build-essential autoconf zlib1g-dev libgmp-dev).
set -euo pipefail

usage() {
    echo "usage: $0 GC_CHECKOUT [--export OPTION]..." >&2
    exit 2
}

[ $# -ge 1 ] || usage
gc=$1
shift
exports=()
while [ $# -gt 0 ]; do
    case $1 in
        --export)
            [ $# -ge 2 ] || usage
            case $2 in [0-7]) ;; *) echo "--export takes an option number 0-7" >&2; exit 2 ;; esac
            exports+=("$2")
            shift 2
            ;;
        *) usage ;;
    esac
done
[ -f "$gc/src/mtopitop.c" ] || {
    echo "$gc is not a GamesmanClassic checkout (no src/mtopitop.c)" >&2
    exit 2
}
gc=$(cd "$gc" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)

missing=()
for tool in gcc make autoconf; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
for header in zlib.h gmp.h; do
    echo "#include <$header>" | gcc -E - >/dev/null 2>&1 || missing+=("$header")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "missing: ${missing[*]} (Debian: apt-get install build-essential autoconf zlib1g-dev libgmp-dev)" >&2
    exit 2
fi

echo "== configuring $gc (once)"
if [ ! -f "$gc/src/Makefile" ]; then
    (cd "$gc" && { [ -x configure ] || autoconf; } && CFLAGS=-O2 ./configure --disable-graphics)
fi

echo "== building GamesmanClassic's own Topitop module: bin/mtopitop-c"
# Relinked every time (the objects are kept), so that a bin/mtopitop that is
# already ours is never taken for the original.
rm -f "$gc/bin/mtopitop"
make -C "$gc/src" ../bin/mtopitop
mv "$gc/bin/mtopitop" "$gc/bin/mtopitop-c"

echo "== building this project's module"
cargo build --release --manifest-path "$here/Cargo.toml" -p topitop-gamesman
archive="$here/target/release/libtopitop_gamesman.a"

echo "== linking bin/mtopitop with it"
# The core and the archive call each other, hence the group; -lz -lm -lgmp
# are GamesmanClassic's own LDFLAGS, the rest what Rust's std needs.
(cd "$gc/src" && gcc -o ../bin/mtopitop \
    -Wl,--start-group "$archive" gamesman.a gamesdb.a -Wl,--end-group \
    -lz -lm -lgmp -lgcc_s -lutil -lrt -lpthread -ldl -lc)

for option in "${exports[@]}"; do
    echo "== exporting option $option into $gc/data"
    if [ ! -f "$here/data/topitop_v1_$option.db" ]; then
        cargo run --release --manifest-path "$here/Cargo.toml" -p topitop -- \
            solve --variant "$option" --out "$here/data"
    fi
    mkdir -p "$gc/data"
    cargo run --release --manifest-path "$here/Cargo.toml" -p topitop -- \
        export --format gamesman-classic --variant "$option" --dir "$here/data" -o "$gc/data"
done

echo "done: $gc/bin/mtopitop (this module), $gc/bin/mtopitop-c (the C module)"
