use super::*;
use guandan_core::rules::RuleConfig;
use guandan_core::sim::random_action;

/// With exact endgames on, a late world's value for a candidate is the solver's (the whole
/// rest of the deal searched), and the decision still does not depend on the thread count.
#[test]
fn exact_endgames_replace_playouts_late_in_a_deal() {
    let (mut m, _) = Match::new(21, RuleConfig::competition()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    while !(m.phase() == Phase::Play && endgame::cards_left(&m) <= 14 && m.hand(m.turn()).len() >= 2) {
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
        assert_eq!(m.deal_no(), 0, "no late position in this deal: pick another seed");
    }
    let me = m.turn();
    let view = m.view(Some(me));
    let search = SearchConfig { endgame_cards: 14, endgame_nodes: 1_000_000, ..SearchConfig::default() };
    let weights = Weights::default();
    let cands = ranked_candidates(&view, &weights);
    let mut differs = 0;
    for w in 0..12u64 {
        let hands = sample_world(&view, &infer(&view, search.infer), &mut ChaCha8Rng::seed_from_u64(w));
        let base = world(&view, hands).unwrap();
        for c in &cands {
            let (exact, _) = evaluate_in(&base, me, c, &weights, &search, None, 0, &Budget::untimed()).unwrap();
            let mut after = base.clone();
            let kind = c.play.map_or(ActionKind::Pass, |p| Match::play_kind(&p));
            let ended =
                after.apply(&after.action(me, kind)).unwrap().iter().any(|e| matches!(e, Event::DealEnded { .. }));
            if !ended {
                let solved = endgame::solve(&after, me, search.endgame_nodes).expect("within the budget");
                assert_eq!(exact, f32::from(solved.value));
            }
            let off = SearchConfig { endgame_cards: 0, ..search };
            differs += usize::from(
                evaluate_in(&base, me, c, &weights, &off, None, 0, &Budget::untimed()).map(|(v, _)| v) != Some(exact),
            );
        }
    }
    assert!(differs > 0, "L2's playouts agreed with the exact value in every world: a weak check");
    let run = |threads| {
        let p = crate::AiProfile {
            iterations: 40,
            threads,
            trace: true,
            search,
            ..crate::AiProfile::level(crate::AiLevel::L3)
        };
        let d = L3::new(&p).decide(&view, &mut ChaCha8Rng::seed_from_u64(5), &Budget::untimed());
        (d.action, d.trace.unwrap().playouts)
    };
    assert_eq!(run(1), run(2));
}

/// A drawn playout picks only among candidates within the temperature of L2's best, more
/// often the closer they are, and at temperature 0 always L2's own choice.
#[test]
fn drawn_playouts_stay_near_l2s_best() {
    let (mut m, _) = Match::new(12, RuleConfig::competition()).unwrap();
    let weights = Weights::default();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut checked = 0;
    while m.deal_no() == 0 && checked < 12 {
        let view = m.light_view(m.turn());
        let cands = ranked_candidates(&view, &weights);
        if m.phase() == Phase::Play && cands.len() >= 3 {
            let kind = |c: &Candidate| c.play.map_or(ActionKind::Pass, |p| Match::play_kind(&p));
            let t = 2.5;
            let near: Vec<ActionKind> = cands.iter().filter(|c| cands[0].score - c.score < t).map(kind).collect();
            let mut roll = Rollout {
                weights: &weights,
                temperature: t,
                rng: ChaCha8Rng::seed_from_u64(checked),
                ranker: None,
                ranker_plies: 0,
            };
            let mut counts = vec![0u32; near.len()];
            for _ in 0..400 {
                let a = roll.choose(&view);
                let i = near.iter().position(|k| *k == a).expect("a draw within the temperature");
                counts[i] += 1;
            }
            // The best is the likeliest; a second candidate that close is drawn too.
            assert!(counts.iter().all(|&c| c <= counts[0]), "{counts:?}");
            if near.len() > 1 && cands[0].score - cands[1].score < t / 2.0 {
                assert!(counts[1] > 0, "{counts:?}");
            }
            let mut greedy = Rollout {
                weights: &weights,
                temperature: 0.0,
                rng: ChaCha8Rng::seed_from_u64(0),
                ranker: None,
                ranker_plies: 0,
            };
            assert_eq!(greedy.choose(&view), l2_decision(&view, &weights, false).action);
            checked += 1;
        }
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
    }
    assert_eq!(checked, 12, "too few positions with a choice: pick another seed");
}

/// Ranker playouts (`rollout_ranker`) play other lines than L2's: some searched mean differs
/// on the same worlds (and the switch off is L2 exactly, as the other tests check).
#[test]
fn ranker_playouts_change_the_playouts() {
    let (mut m, _) = Match::new(61, RuleConfig::competition()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut differ = 0;
    for _ in 0..6 {
        while !(m.phase() == Phase::Play && ranked_candidates(&m.view(Some(m.turn())), &Weights::default()).len() >= 3)
        {
            let a = random_action(&m, &mut rng).unwrap();
            m.apply(&a).unwrap();
        }
        let view = m.view(Some(m.turn()));
        let means = |on: bool| {
            let p = crate::AiProfile {
                iterations: 32,
                search: SearchConfig { rollout_ranker: on, ..SearchConfig::default() },
                ..crate::AiProfile::level(crate::AiLevel::L3)
            };
            let r = L3::new(&p).decide_with_report(&view, &mut ChaCha8Rng::seed_from_u64(3), &Budget::untimed());
            r.searched.iter().map(|s| s.mean).collect::<Vec<_>>()
        };
        differ += usize::from(means(true) != means(false));
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
    }
    assert!(differ >= 3, "{differ} of 6 decisions");
}

/// The oracle diagnostic searches the true hands: every world is the real one, so each
/// searched candidate's mean is exactly its playout in the true position.
#[test]
fn the_oracle_searches_the_true_hands() {
    let (mut m, _) = Match::new(41, RuleConfig::competition()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..30 {
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
    }
    while !(m.phase() == Phase::Play && ranked_candidates(&m.view(Some(m.turn())), &Weights::default()).len() >= 3) {
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
    }
    let me = m.turn();
    let view = m.view(Some(me));
    let profile = crate::AiProfile { iterations: 48, trace: true, ..crate::AiProfile::level(crate::AiLevel::L3) };
    let mut l3 = L3::new(&profile);
    let d = l3.decide_knowing(&view, *m.hands(), &mut ChaCha8Rng::seed_from_u64(1), &Budget::untimed());
    let truth = world(&view, *m.hands()).unwrap();
    let mut searched = 0;
    for c in d.trace.unwrap().candidates.iter().filter(|c| c.search.is_some()) {
        let (v, _) = evaluate_in(&truth, me, c, &l3.weights, &l3.search, None, 0, &Budget::untimed()).unwrap();
        assert_eq!(c.search, Some(v));
        searched += 1;
    }
    assert!(searched >= 3);
}

/// The win bonus is added to the winners' levels and taken from the losers'.
#[test]
fn the_win_bonus_counts_the_deal_itself() {
    let rules = RuleConfig::competition();
    // Seats 0 and 2 first and second: a double down, 3 levels.
    let order = [Seat::ZERO, Seat::TWO, Seat::ONE, Seat::THREE];
    assert_eq!(outcome(&order, &rules, Seat::ZERO, 0.0), 3.0);
    assert_eq!(outcome(&order, &rules, Seat::TWO, 1.0), 4.0);
    assert_eq!(outcome(&order, &rules, Seat::ONE, 1.0), -4.0);
    assert_eq!(outcome(&[Seat::ONE, Seat::ZERO, Seat::TWO, Seat::THREE], &rules, Seat::THREE, 0.5), 1.5);
}

/// The pass and the best bomb join L2's top few when asked; nothing else does.
#[test]
fn the_shortlist_keeps_the_pass_and_the_best_bomb() {
    let rules = RuleConfig::competition();
    let level = guandan_core::card::Rank(2);
    let play = |cards: &str| {
        let set = CardSet::parse(cards).unwrap();
        guandan_core::combo::classify(set, level, &rules).into_iter().next()
    };
    let cand = |play, score| Candidate { play, card: None, score, hand: 0.0, partner: 0.0, threat: 0.0, search: None };
    let all = vec![
        cand(play("S9"), 5.0),
        cand(play("SJ"), 4.0),
        cand(play("SQ"), 3.0),
        cand(None, 2.0),
        cand(play("S7 D7 C7 H7"), 1.0),
        cand(play("S8 D8 C8 H8"), 0.5),
    ];
    let mut short = all.clone();
    shortlist(&mut short, 2, true);
    assert_eq!(short, vec![all[0].clone(), all[1].clone(), all[3].clone(), all[4].clone()]);
    let mut plain = all.clone();
    shortlist(&mut plain, 2, false);
    assert_eq!(plain, all[..2].to_vec());
    // Already in the top few: not added twice.
    let mut wide = all.clone();
    shortlist(&mut wide, 4, true);
    assert_eq!(wide, [&all[..4], &all[4..5]].concat());
}

#[test]
fn the_search_result_does_not_depend_on_threads() {
    let (mut m, _) = Match::new(33, RuleConfig::competition()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..25 {
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
    }
    let view = m.view(Some(m.turn()));
    // Today's search (successive halving over 8), the flat search of v1, and drawn playouts
    // with a win bonus (their draws are seeded by the world, not by the thread).
    let l3 = crate::AiProfile::level(crate::AiLevel::L3);
    let drawn = crate::AiProfile {
        search: SearchConfig { rollout_temperature: 2.5, win_bonus: 0.75, ..l3.search },
        ..l3.clone()
    };
    let ranked = crate::AiProfile { search: SearchConfig { rollout_ranker: true, ..l3.search }, ..l3.clone() };
    let first_plies = crate::AiProfile {
        search: SearchConfig { rollout_ranker: true, rollout_ranker_plies: 4, ..l3.search },
        ..l3.clone()
    };
    let prior = crate::AiProfile { search: SearchConfig { prior_ranker: true, width: 4, ..l3.search }, ..l3.clone() };
    for base in [l3, crate::AiProfile::v1(crate::AiLevel::L3), drawn, ranked, first_plies, prior] {
        let run = |threads| {
            let p = crate::AiProfile { iterations: 40, threads, trace: true, ..base.clone() };
            let d = L3::new(&p).decide(&view, &mut ChaCha8Rng::seed_from_u64(5), &Budget::untimed());
            let t = d.trace.unwrap();
            (d.action, t.candidates.iter().map(|c| c.search).collect::<Vec<_>>(), t.playouts)
        };
        let one = run(1);
        assert!(one.2 > 0, "the position must be searched");
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
    }
}

/// A position of a fresh match where the ranker's best play differs from L2's (there are
/// such positions: the ranker is a correction, not a copy).
fn position_where_the_ranker_overrules_l2(seed: u64) -> PlayerView {
    let (mut m, _) = Match::new(seed, RuleConfig::competition()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ranker = crate::ranker::agent::current().expect("the committed ranker loads");
    let w = Weights::default();
    for _ in 0..2_000 {
        if m.phase() == Phase::Play {
            let view = m.light_view(m.turn());
            let l2 = ranked_candidates(&view, &w);
            let r = ranker.rank(&view, &w, crate::ranker::agent::WIDTH);
            if l2.len() >= 3 && r[0].play != l2[0].play {
                return view;
            }
        }
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
    }
    panic!("no position where the ranker overrules L2 in seed {seed}'s match");
}

/// `rollout_ranker_plies`: a playout's first K choices are the ranker's, the rest L2's.
#[test]
fn ranker_plies_hand_the_playout_back_to_l2() {
    let view = position_where_the_ranker_overrules_l2(17);
    let weights = Weights::default();
    let ranker = crate::ranker::agent::current().unwrap();
    let ranked = ranker.rank(&view, &weights, crate::ranker::agent::WIDTH)[0].play;
    let ranked = ranked.map_or(ActionKind::Pass, |p| Match::play_kind(&p));
    let l2 = l2_decision(&view, &weights, false).action;
    assert_ne!(ranked, l2);
    let mut roll = Rollout {
        weights: &weights,
        temperature: 0.0,
        rng: ChaCha8Rng::seed_from_u64(0),
        ranker: Some(ranker),
        ranker_plies: 2,
    };
    assert_eq!([roll.choose(&view), roll.choose(&view), roll.choose(&view)], [ranked.clone(), ranked, l2]);
}

/// `prior_ranker`: the candidates searched are the ranker's best `width` (a filter), and
/// their prior is the ranker's score; off, L2's best `width` with L2's scores.
#[test]
fn the_ranker_prior_chooses_what_is_searched() {
    let view = position_where_the_ranker_overrules_l2(29);
    let weights = Weights::default();
    let ranker = crate::ranker::agent::current().unwrap();
    let searched = |prior_ranker: bool| {
        let p = crate::AiProfile {
            iterations: 16,
            search: SearchConfig { prior_ranker, width: 1, halving: false, ..SearchConfig::default() },
            ..crate::AiProfile::level(crate::AiLevel::L3)
        };
        // Width 1 plus the pass and the best bomb when `keep_pass_and_bomb`: off by default.
        let r = L3::new(&p).decide_with_report(&view, &mut ChaCha8Rng::seed_from_u64(3), &Budget::untimed());
        r.searched.iter().map(|s| (s.candidate.play, s.candidate.score)).collect::<Vec<_>>()
    };
    let top = |c: &[Candidate]| vec![(c[0].play, c[0].score)];
    assert_eq!(searched(true), top(&ranker.rank(&view, &weights, crate::ranker::agent::WIDTH)));
    assert_eq!(searched(false), top(&ranked_candidates(&view, &weights)));
}

/// The work cap is counted in cards: a full-hand lead gets few worlds, the same profile
/// searches an endgame with its whole `iterations`.
#[test]
fn the_work_cap_bounds_full_hands_not_endgames() {
    let flat = |work| crate::AiProfile {
        iterations: 400,
        trace: true,
        search: SearchConfig { width: 4, prior: 0.15, halving: false, work, ..SearchConfig::V1 },
        ..crate::AiProfile::level(crate::AiLevel::L3)
    };
    let playouts = |p: &crate::AiProfile, m: &Match| {
        let d = L3::new(p).decide(&m.view(Some(m.turn())), &mut ChaCha8Rng::seed_from_u64(2), &Budget::untimed());
        d.trace.expect("searched").playouts
    };
    let (start, _) = Match::new(8, RuleConfig::competition()).unwrap();
    assert_eq!(start.hands().iter().map(|h| h.len()).sum::<usize>(), 108);
    // 4 candidates × 108 cards × 3 worlds.
    assert_eq!(playouts(&flat(4 * 108 * 3), &start), 3);
    assert_eq!(playouts(&flat(0), &start), 100);
    // Late in a deal the same cap no longer binds.
    let mut m = start.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    // A lead with a few cards in hand, late in the deal.
    let endgame = |m: &Match| {
        m.phase() == Phase::Play
            && m.table().is_none()
            && m.hands()[m.turn().index()].len() >= 3
            && m.hands().iter().map(|h| h.len()).sum::<usize>() <= 40
    };
    while !endgame(&m) {
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
        assert_eq!(m.deal_no(), 0, "no late lead in this deal: pick another seed");
    }
    let d = L3::new(&flat(4 * 108 * 3)).decide(
        &m.view(Some(m.turn())),
        &mut ChaCha8Rng::seed_from_u64(2),
        &Budget::untimed(),
    );
    let t = d.trace.expect("searched");
    let n = t.candidates.iter().filter(|c| c.search.is_some()).count() as u32;
    assert!(n >= 2, "an endgame with a choice");
    assert!(t.playouts > 3, "{} playouts", t.playouts);
}

/// The report is the decision `decide` makes, with the trace's means and the worlds each
/// candidate met (all of the first round's, fewer for those halved away).
#[test]
fn the_report_matches_the_decision() {
    let (mut m, _) = Match::new(52, RuleConfig::competition()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut checked = 0;
    while checked < 4 {
        if m.phase() == Phase::Play && ranked_candidates(&m.view(Some(m.turn())), &Weights::default()).len() >= 4 {
            let view = m.view(Some(m.turn()));
            let p = crate::AiProfile { iterations: 60, trace: true, ..crate::AiProfile::level(crate::AiLevel::L3) };
            let d = L3::new(&p).decide(&view, &mut ChaCha8Rng::seed_from_u64(7), &Budget::untimed());
            let r = L3::new(&p).decide_with_report(&view, &mut ChaCha8Rng::seed_from_u64(7), &Budget::untimed());
            assert_eq!(r.decision, d);
            let trace = d.trace.unwrap();
            assert_eq!(r.playouts, trace.playouts);
            assert!(r.searched.len() >= 2);
            let l2 = ranked_candidates(&view, &Weights::default());
            for s in &r.searched {
                let t = trace.candidates.iter().find(|c| c.play == s.candidate.play).unwrap();
                assert_eq!(t.search, Some(s.mean));
                // Today's search takes the ranker's best 4 of L2's candidates, each with
                // L2's score plus the ranker's correction as its prior.
                assert!(l2.iter().any(|c| c.play == s.candidate.play), "one of L2's candidates");
                assert!(s.worlds >= 1 && s.worlds <= r.playouts);
            }
            assert_eq!(r.searched.iter().map(|s| s.worlds).max(), Some(r.playouts));
            checked += 1;
        }
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
    }
}

/// The agent sees only the view: two states that differ only in hidden hands give the same decision.
#[test]
fn decisions_do_not_depend_on_hidden_cards() {
    let (mut m, _) = Match::new(21, RuleConfig::competition()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..30 {
        let a = random_action(&m, &mut rng).unwrap();
        m.apply(&a).unwrap();
    }
    let seat = m.turn();
    let mut setup = m.to_setup();
    let (a, b) = (seat.after(1).index(), seat.after(3).index());
    // Swap one card between two hidden hands (same counts, different cards).
    let ca = setup.hands[a].iter().next().unwrap();
    let cb = setup.hands[b].iter().next().unwrap();
    setup.hands[a] = setup.hands[a].minus(CardSet::EMPTY.with(ca)).with(cb);
    setup.hands[b] = setup.hands[b].minus(CardSet::EMPTY.with(cb)).with(ca);
    let other = Match::from_setup(&setup).unwrap();
    let profile = crate::AiProfile { iterations: 24, ..crate::AiProfile::level(crate::AiLevel::L3) };
    for mk in [profile.clone(), crate::AiProfile::level(crate::AiLevel::L2)] {
        let mut x = crate::make_agent(&mk);
        let d1 = x.decide(&m.view(Some(seat)), &mut ChaCha8Rng::seed_from_u64(9), &Budget::untimed());
        let d2 = x.decide(&other.view(Some(seat)), &mut ChaCha8Rng::seed_from_u64(9), &Budget::untimed());
        assert_eq!(d1.action, d2.action);
    }
}
