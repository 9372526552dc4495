//! Rules engine speed: classify, move generation, apply, serialization, random deals and matches.
//! Run: `cargo bench -p guandan-core --bench rules`.

use criterion::{Criterion, criterion_group, criterion_main};
use guandan_core::card::{CardSet, Rank};
use guandan_core::combo::classify;
use guandan_core::game::{ActionKind, Match};
use guandan_core::movegen;
use guandan_core::rules::RuleConfig;
use guandan_core::sim::{random_action, random_match};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let rules = RuleConfig::competition();
    let level = Rank(2);
    let sets: Vec<CardSet> = [
        "S4 D5 S6 H2 H2",
        "S3 D3 S4 D4 H2 H2",
        "S3 S3 H3 H3 C3 C3 D3 H2",
        "S3 S4 S5 S6 H2",
        "S5 D5 S9 D9 H2",
        "S3 S3 H3 H3 C3 C3 D3 D3 H2 H2",
    ]
    .iter()
    .map(|s| CardSet::parse(s).unwrap())
    .collect();
    c.bench_function("classify 5-10 cards with wilds (6 sets)", |b| {
        b.iter(|| {
            for &s in &sets {
                black_box(classify(black_box(s), level, &rules));
            }
        })
    });

    // A full 27-card hand holding both wilds.
    let hand =
        CardSet::parse("H2 H2 S3 D3 S4 S5 C5 S6 D7 S7 C8 S9 D9 ST SJ DJ SQ HQ SK CK SA DA HA SB HR D4 C6").unwrap();
    assert_eq!(hand.len(), 27);
    c.bench_function("all leads of 27 cards with both wilds", |b| {
        b.iter(|| black_box(movegen::leads(black_box(hand), level, &rules)))
    });

    let (m0, _) = Match::new(9, rules.clone()).unwrap();
    let lead = m0.legal_plays()[0];
    let action = m0.action(m0.turn(), ActionKind::Play { cards: lead.cards.ids(), reading: Some(lead.pattern) });
    c.bench_function("apply one play", |b| {
        let mut events = Vec::with_capacity(8);
        b.iter_batched_ref(
            || m0.clone(),
            |m| {
                events.clear();
                m.apply_into(&action, &mut events).unwrap();
            },
            criterion::BatchSize::SmallInput,
        )
    });

    // A mid-deal state with history.
    let mut mid = m0.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..60 {
        let a = random_action(&mid, &mut rng).unwrap();
        mid.apply(&a).unwrap();
    }
    c.bench_function("serialize + deserialize match state", |b| {
        b.iter(|| {
            let json = serde_json::to_vec(black_box(&mid)).unwrap();
            black_box(serde_json::from_slice::<Match>(&json).unwrap())
        })
    });

    c.bench_function("random-play deal", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            let (mut m, _) = Match::new(seed, rules.clone()).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while m.deal_no() == 0 {
                let a = random_action(&m, &mut rng).unwrap();
                m.apply(&a).unwrap();
            }
            black_box(m.seq())
        })
    });

    let mut g = c.benchmark_group("match");
    g.sample_size(20);
    g.bench_function("random-play match (2 to A), with invariant checks", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            black_box(random_match(seed, rules.clone(), 200_000).unwrap())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
