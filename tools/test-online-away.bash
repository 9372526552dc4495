# Sourced by tools/test-online for --away-at-rating (not run by itself): one person plays a ranked
# quick match with Auto-play behind tools/fault-relay --cut-at, which never delivers the server's
# `rating` message and refuses the player for 20 s, until the finished room has closed; the
# result must stay, say the room closed while away, and show the rating read from the profile
# (online/rating_catch_up.gd). Uses test-online's addr, godot_server, trust, tmp, pids and fail.

away_at_rating() {
    python3 tools/fault-relay "127.0.0.1:${addr##*:}" --seed 0 --max-seconds 900 --cut-at '{"type":"rating"' --away 20 \
        >"$tmp/relay.out" 2>"$tmp/relay.log" &
    pids+=($!)
    for _ in $(seq 50); do grep -q '^relay listening on' "$tmp/relay.out" 2>/dev/null && break; sleep 0.1; done
    relay=$(sed -n 's/^relay listening on //p' "$tmp/relay.out")
    [[ -n $relay ]] || fail "the cutting relay did not start: $(cat "$tmp/relay.log")"
    rc=0
    timeout 900 tools/godot --headless --path godot-project res://tests_godot/online/e2e_ranked.tscn -- \
        --server "${godot_server%:*}:${relay##*:}" "${trust[@]}" --nick Away --auto-play 1 --missed-rating 1 \
        --out "$tmp/away.json" --timeout 800 >"$tmp/away.log" 2>&1 || rc=$?
    grep -E "SCRIPT ERROR" "$tmp/away.log" && fail "script errors in the client (log: $tmp/away.log)"
    python3 - "$tmp" <<'PY' || fail "away-at-rating: checks failed (files: $tmp)"
import json, sys
tmp = sys.argv[1]
r = json.load(open(f"{tmp}/away.json"))
cuts = [json.loads(l)["fault"] for l in open(f"{tmp}/relay.out") if l.startswith('{"t"')]
problems = []
def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        problems.append(what)
check(len(cuts) == 1 and cuts[0]["kind"] == "cut_at", f"the relay cut the connection at the rating ({cuts})")
check(r["ok"], f"the player saw the match's result ({r.get('error') or 'no error'})")
check(not r.get("rating_heard"), f"the rating itself never reached the client ({r.get('rating_heard')})")
check("away" in r.get("room_closed", []), f"the client said the room closed while away ({r.get('room_closed')})")
check(bool(r.get("rating")) and r.get("rating_on_panel"), f"the result showed the rating read from the profile ({r.get('rating')})")
check(bool(r.get("result_kept")), "the result stayed up and said the room closed while the player was away")
check(r.get("invariant_frames", 0) > 100 and not r.get("invariants"),
      f"the table held its invariants on every frame ({r.get('invariant_frames', 0)} frames; failed: {r.get('invariants', [])[:6]})")
sys.exit(1 if problems else 0)
PY
    ((rc == 0)) || fail "the client exited with $rc (log: $tmp/away.log)"
    echo "test-online: away-at-rating passed"
}
