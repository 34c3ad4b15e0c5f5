# What both CI tiers share: the system packages, the environment, and a
# stage clock. Sourced by .ci/run and .ci/long from the repository root.

# bindgen needs libclang; CI requires fresh bindings so that the test
# comparing them with the committed copy really runs. The GamesmanClassic
# export compresses with the system's zlib, as GamesmanClassic does. The
# HTML reports are checked in headless Chromium, as a person would open
# them, and the browser page of `serve` is driven in it through
# chromedriver. The distributed solve (the `mpi` feature) is built and run
# on Open MPI.
packages="libclang-dev zlib1g-dev chromium chromium-driver libopenmpi-dev openmpi-bin"
# shellcheck disable=SC2086 # one word a package
if ! dpkg -s $packages >/dev/null 2>&1; then
    # Installing them needs root (as CI runs); say so rather than let
    # apt-get fail on a lock file.
    if [ "$(id -u)" -ne 0 ]; then
        echo "CI needs these Debian packages: $packages" >&2
        echo "install them as root first (sudo apt-get install -y $packages), then run this again" >&2
        exit 1
    fi
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null
fi
export TOPITOP_REQUIRE_BINDGEN=1
export TOPITOP_REQUIRE_CHROMIUM=1
# A one-off build never reads incremental state back; at opt-level 3 it is
# gigabytes of disk.
export CARGO_INCREMENTAL=0

ci_start=$(date +%s)
stage_start=$ci_start
stage_name=""
# Prints the time the previous stage took, then the next stage's title, so
# that the log says where the minutes went.
stage() {
    local now
    now=$(date +%s)
    if [ -n "$stage_name" ]; then
        echo "-- $stage_name: $((now - stage_start)) s (total $((now - ci_start)) s)"
    fi
    stage_name=$1
    stage_start=$now
    [ -z "$1" ] || echo "== $1"
}

# Runs a command, then prints its wall time and peak memory under a label.
timed() {
    local label=$1
    shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "$label: %e s wall, %M KB peak" "$@"
    else
        "$@"
    fi
}

# How much of the disk is in use, so that a full disk is seen coming in the
# log rather than met as a compiler error.
disk() {
    echo "-- disk: target $(du -sh target 2>/dev/null | cut -f1), free $(df -h --output=avail . | tail -1 | tr -d ' ')"
}
