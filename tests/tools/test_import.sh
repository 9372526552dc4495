#!/usr/bin/env bash
# tools/godot-import imports only when something changed (issue 24, "first start": every launch
# of tools/play used to spend 45-70 s importing an unchanged project):
#   1. a second import of an unchanged project runs no Godot (its log is not rewritten);
#   2. a changed file makes it import again, and so does its removal;
#   3. --force imports whatever the stamp says.
# Run by tools/test; needs Godot (tools/install-godot).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

fail() { echo "test_import: FAILED: $*" >&2; exit 1; }
log=out/godot-import.log
probe=godot-project/import_probe.txt
trap 'rm -f "$probe"' EXIT
rm -f "$probe"

ran_since() { # whether Godot wrote the log since the marker file $1
    [[ $log -nt $1 ]]
}

tools/godot-import
marker=$(mktemp)
trap 'rm -f "$probe" "$marker"' EXIT
sleep 1 # file times have a 1 s resolution on some file systems
touch "$marker"
start=$SECONDS
tools/godot-import
! ran_since "$marker" || fail "an unchanged project was imported again"
((SECONDS - start <= 5)) || fail "the unchanged check took $((SECONDS - start)) s"

sleep 1
touch "$marker"
echo "probe" >"$probe"
tools/godot-import
ran_since "$marker" || fail "a new file in the project did not import again"

sleep 1
touch "$marker"
rm -f "$probe"
tools/godot-import
ran_since "$marker" || fail "a removed file did not import again"

sleep 1
touch "$marker"
tools/godot-import --force
ran_since "$marker" || fail "--force did not import"
echo "test_import: ok (unchanged: no import; changed: import)"
