# Sourced by tools/test-online for --shots (not run by itself): screenshots of the online screens
# under Xvfb against the run's server, in English and Chinese at 1280x720, 1024x768 and 2340x1080,
# into out/screenshots/online/ (named online_<locale>_<W>x<H>_<shot>.png, the names tools/montage
# pairs): tests/godot/online/online_tour.gd (the home, Settings with the server address, the
# lobby, the table mid-deal, the surrender vote, hosting, the reconnect overlay, the spectator, the
# quick-match wait, its table, the rating after it, the home with that rating, the leaderboard and
# the profile) and e2e_account.gd (the Account screen of a guest and of a claimed account with its
# transfer code). Each run is a real client and fails the whole step on a missing shot or a script
# error. Uses test-online's godot_server, trust, tmp and fail.

# The sizes and how many shots each language and size gives (the tour's 14 and the account's 2).
ONLINE_SHOT_SIZES=(1280x720 1024x768 2340x1080)
ONLINE_SHOTS_EACH=16
# --shots=ci: one language per size (the pairs below), both languages covered.
ONLINE_SHOT_PAIRS=()
for res in "${ONLINE_SHOT_SIZES[@]}"; do
    if [[ -n ${ONLINE_SHOTS_CI:-} ]]; then
        case $res in 1280x720) ONLINE_SHOT_PAIRS+=("en $res") ;; *) ONLINE_SHOT_PAIRS+=("zh_CN $res") ;; esac
    else
        ONLINE_SHOT_PAIRS+=("en $res" "zh_CN $res")
    fi
done

online_shots() {
    local dir=$PWD/out/screenshots/online pair res locale scene cmd n
    rm -rf "$dir" && mkdir -p "$dir"
    for pair in "${ONLINE_SHOT_PAIRS[@]}"; do
        read -r locale res <<<"$pair"
        echo "test-online: screenshots $locale $res" >&2
        for scene in online_tour e2e_account; do
            cmd=(timeout 300 tools/godot --path godot-project --resolution "$res" --audio-driver Dummy
                "res://tests_godot/online/$scene.tscn" -- --server "$godot_server" "${trust[@]}" --out "$dir" --locale "$locale")
            if [[ -z "${DISPLAY:-}" ]]; then cmd=(xvfb-run -a -s "-screen 0 ${res}x24" "${cmd[@]}"); fi
            "${cmd[@]}" >>"$tmp/tour.log" 2>&1 || { tail -n 40 "$tmp/tour.log" >&2; fail "$scene $locale $res"; }
        done
    done
    grep -E "SCRIPT ERROR" "$tmp/tour.log" && fail "script errors in the tour (log: $tmp/tour.log)"
    n=$(find "$dir" -name '*.png' | wc -l)
    ((n == ${#ONLINE_SHOT_PAIRS[@]} * ONLINE_SHOTS_EACH)) ||
        fail "expected $((${#ONLINE_SHOT_PAIRS[@]} * ONLINE_SHOTS_EACH)) screenshots, got $n in $dir"
    find "$dir" -name '*.png' | sort
}
