#!/usr/bin/env bash
# tools/play without a window, run the way a user runs it (issue 24, item 7: it once printed
# "SCRIPT ERROR: Compile Error: Identifier not found: Online", played nothing and exited 0):
#   1. `tools/play --headless --seed 3 --level 1` plays a whole match: exit 0, every deal and the
#      result printed, no script error;
#   2. with no display at all (DISPLAY and WAYLAND_DISPLAY unset) plain `tools/play` does the same;
#   3. a Godot that reports a script error and still exits 0 (a stand-in, GODOT_BIN) makes
#      `tools/play --headless` exit non-zero;
#   4. `tools/play --online` says it is building the server before cargo starts, and lets cargo
#      show its progress (a stand-in cargo on PATH answers for guandan-server only, and stops
#      there: nothing is compiled, no window opens).
# Run by tools/test; needs Godot (tools/install-godot) and builds the extension like tools/play.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

fail() { echo "test_play: FAILED: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_match() { # name, log, exit code
    local name=$1 log=$2 rc=$3
    ((rc == 0)) || fail "$name exited with $rc (log: $log)"
    ! grep -q "SCRIPT ERROR" "$log" || fail "$name logged a script error (log: $log)"
    grep -qE '^Deal 1 at 2 \(first deal\)$' "$log" || fail "$name printed no first deal (log: $log)"
    grep -qE '^Match over after [0-9]+ deals, [0-9]+ actions, [0-9]+ plays: team [01] .* wins' "$log" ||
        fail "$name printed no match result (log: $log)"
    grep -qE '^state hash [0-9a-f]{64};' "$log" || fail "$name printed no state hash (log: $log)"
}

# 1. --headless
rc=0
tools/play --headless --seed 3 --level 1 >"$tmp/headless.log" 2>&1 || rc=$?
check_match "tools/play --headless" "$tmp/headless.log" "$rc"
cp "$tmp/headless.log" out/test-play-headless.log 2>/dev/null || true

# 2. no display: the same match, so the same result line and hash.
rc=0
env -u DISPLAY -u WAYLAND_DISPLAY tools/play --seed 3 --level 1 >"$tmp/nodisplay.log" 2>&1 || rc=$?
check_match "tools/play (no display)" "$tmp/nodisplay.log" "$rc"
[[ "$(grep -E '^Match over' "$tmp/headless.log")" == "$(grep -E '^Match over' "$tmp/nodisplay.log")" ]] ||
    fail "the same seed gave another match without a display"

# 3. A script error with exit code 0 must fail the run. The stand-in answers --version and the
# import through the real Godot, and plays the broken run of the issue.
real=$(pwd)/tools/godot
cat >"$tmp/godot" <<STANDIN
#!/usr/bin/env bash
for a in "\$@"; do
    if [[ \$a == res://tools/headless_play.tscn ]]; then
        echo "SCRIPT ERROR: Compile Error: Identifier not found: Online"
        echo "          at: GDScript::reload (res://bridge/match_controller.gd:119)"
        exit 0
    fi
done
GODOT_BIN= exec "$real" "\$@"
STANDIN
chmod +x "$tmp/godot"
rc=0
GODOT_BIN=$tmp/godot tools/play --headless --seed 3 >"$tmp/broken.log" 2>&1 || rc=$?
((rc != 0)) || fail "tools/play exited 0 after a script error (log: $tmp/broken.log)"
grep -q "godot: FAILED: the run logged errors" "$tmp/broken.log" || fail "the failure was not explained"
# 4. --online on a free port: the message first, then cargo without -q (its progress shown).
real_cargo=$(command -v cargo)
mkdir -p "$tmp/bin"
cat >"$tmp/bin/cargo" <<STANDIN
#!/usr/bin/env bash
if [[ " \$* " == *" guandan-server "* ]]; then
    echo "\$*" >"$tmp/server-build-args"
    echo "stand-in cargo: not building the server" >&2
    exit 3
fi
exec "$real_cargo" "\$@"
STANDIN
chmod +x "$tmp/bin/cargo"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rc=0
DISPLAY=${DISPLAY:-:99} PATH="$tmp/bin:$PATH" tools/play --online --port "$port" >"$tmp/online.log" 2>&1 || rc=$?
((rc == 3)) || fail "tools/play --online did not stop at the stand-in build (exit $rc, log: $tmp/online.log)"
grep -qE '^play: (compiling|building) guandan-server' "$tmp/online.log" || fail "no word about building the server"
[[ $(grep -nE '^play: (compiling|building) guandan-server' "$tmp/online.log" | cut -d: -f1) -lt \
    $(grep -n 'stand-in cargo' "$tmp/online.log" | cut -d: -f1) ]] || fail "the message came after the build"
[[ -f $tmp/server-build-args ]] || fail "cargo was not asked to build guandan-server"
! grep -qE '(^| )(-q|--quiet)( |$)' "$tmp/server-build-args" || fail "the server build is quiet: $(cat "$tmp/server-build-args")"
echo "test_play: ok (headless, no display, a script error fails the run, --online says it builds the server)"
