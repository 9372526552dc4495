//! The rules queries: `guandan classify`, `moves`, `beats` and `deal` (what a set of cards reads
//! as, a hand's legal plays, whether one play beats another, a seeded deal's hands).

use crate::input::{Usage, cards_arg, rules_arg};
use guandan_core::card::{CardSet, Rank};
use guandan_core::combo::{Play, beats, choose_reading, classify};
use guandan_core::movegen;
use guandan_core::rules::RuleConfig;
use serde_json::{Value, json};
use std::process::ExitCode;

/// `guandan classify`: every reading of the cards, as a JSON array of [type, rank, cards].
pub fn readings(level: &str, rules: &str, cards: &[String]) -> Result<ExitCode, Usage> {
    let level = Rank::parse_level(level)?;
    let rules = rules_arg(rules)?;
    let set = cards_arg(&cards.join(" "))?;
    println!("{}", Value::Array(wire(classify(set, level, &rules))));
    Ok(ExitCode::SUCCESS)
}

/// `guandan moves`: every distinct legal play of a hand (PASS first when following), as JSON.
pub fn moves(level: &str, hand: &str, follow: Option<&str>, rules: &str) -> Result<ExitCode, Usage> {
    let level = Rank::parse_level(level)?;
    let rules = rules_arg(rules)?;
    let hand = cards_arg(hand)?;
    let mut out = Vec::new();
    let moves = match follow {
        Some(t) => {
            let table = default_reading(cards_arg(t)?, level, &rules)?;
            out.push(json!(["PASS", "PASS", "PASS"]));
            movegen::follows(hand, &table, level, &rules)
        }
        None => movegen::leads(hand, level, &rules),
    };
    out.extend(wire(moves));
    println!("{}", Value::Array(out));
    Ok(ExitCode::SUCCESS)
}

/// `guandan beats`: whether `a` beats `b` (prints true/false, exit 0 / 1).
pub fn compare(level: &str, rules: &str, a: &str, b: &str) -> Result<ExitCode, Usage> {
    let level = Rank::parse_level(level)?;
    let rules = rules_arg(rules)?;
    let (a, b) = (cards_arg(a)?, cards_arg(b)?);
    let table = default_reading(b, level, &rules)?;
    let ra = classify(a, level, &rules);
    if ra.is_empty() {
        return Err(Usage(format!("{} is no combination", a.notation())));
    }
    let wins = ra.iter().any(|p| beats(p, &table, level, &rules));
    println!("{wins}");
    Ok(if wins { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `guandan deal`: the four hands of a seeded first deal.
pub fn deal(seed: u64) -> Result<ExitCode, Usage> {
    for (seat, hand) in guandan_core::deal::deal_for_seed(seed).iter().enumerate() {
        println!("seat {seat}: {}", hand.notation());
    }
    Ok(ExitCode::SUCCESS)
}

fn wire(plays: impl IntoIterator<Item = Play>) -> Vec<Value> {
    plays.into_iter().map(|p| p.to_wire()).collect()
}

fn default_reading(cards: CardSet, level: Rank, rules: &RuleConfig) -> Result<Play, Usage> {
    let readings = classify(cards, level, rules);
    choose_reading(&readings, None, level, rules)
        .ok_or_else(|| Usage(format!("{} is no combination", cards.notation())))
}
