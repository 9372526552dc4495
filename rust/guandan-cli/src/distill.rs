//! `guandan distill-labels`: L3 plays arena deals at all four seats and every searched decision
//! is written as labels for the ranker (`guandan_ai::ranker::labels`). Deals are shared out by
//! index over the threads and written in deal order, so the file is the same whatever the
//! threads; an existing file is resumed (its complete deals kept, the rest played).

use crate::input::{Usage, arena_profile, rules_arg};
use guandan_ai::ranker::features;
use guandan_ai::ranker::labels::{self, DecisionLabel, Header};
use guandan_ai::{AiLevel, AiProfile};
use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

#[derive(clap::Args)]
pub struct DistillArgs {
    /// Deals to label in all (those already in --out count).
    #[arg(long)]
    deals: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The label file (JSON lines); appended to when it exists.
    #[arg(long)]
    out: String,
    /// L3's playouts per decision (default: the profile's; today's L3: 400).
    #[arg(long)]
    iterations: Option<u32>,
    #[arg(long, default_value = "competition")]
    rules: String,
    /// The labelling L3: `L3` or an L3 profile .json whose search may use the ranker (a later
    /// generation's teacher). Its search switches are kept in the file's header.
    #[arg(long, default_value = "L3")]
    ai: String,
}

/// The committed ranker generation the teacher's search uses (its profile's 0 = the latest, made
/// concrete so the file still says which after a later generation is committed); 1 when the
/// search uses none.
fn teacher_generation(teacher: &AiProfile) -> u8 {
    let uses_ranker = teacher.search.prior_ranker || teacher.search.rollout_ranker;
    match teacher.ranker_generation {
        _ if !uses_ranker => 1,
        0 => guandan_ai::ranker::agent::DEFAULT,
        n => n,
    }
}

pub fn run(args: DistillArgs) -> Result<ExitCode, Usage> {
    let DistillArgs { deals, seed, threads, out, iterations, rules, ai } = args;
    let teacher = arena_profile(&ai)?;
    if teacher.level != AiLevel::L3 || teacher.weights != AiProfile::default().weights {
        return Err(Usage(format!("--ai {ai}: labels come from an L3 with today's L2 weights")));
    }
    let iterations = iterations.unwrap_or(teacher.iterations);
    if deals == 0 || threads == 0 || iterations == 0 {
        return Err(Usage("--deals, --threads and --iterations must be at least 1".into()));
    }
    let rule_config = rules_arg(&rules)?;
    let header = Header {
        format: labels::FORMAT,
        feature_version: features::VERSION,
        features: features::COUNT,
        seed,
        rules: rule_config.name.clone(),
        iterations,
        search: teacher.search,
        ranker_generation: teacher_generation(&teacher),
    };
    let done = prepare(&out, &header)?;
    if done >= deals {
        eprintln!("{out} already holds {done} deals: nothing to do");
        return Ok(ExitCode::SUCCESS);
    }
    let mut file =
        std::fs::OpenOptions::new().append(true).open(&out).map_err(|e| Usage(format!("cannot open {out}: {e}")))?;
    let profile = AiProfile { iterations, ..teacher };
    let bar = indicatif::ProgressBar::new(u64::from(deals));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} deals, {msg} [{elapsed} < {eta}]")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_position(u64::from(done));
    let start = Instant::now();
    let next = AtomicU32::new(done);
    let (tx, rx) = std::sync::mpsc::channel::<(u32, Vec<DecisionLabel>)>();
    let (mut decisions, mut rows) = (0usize, 0usize);
    let written: Result<(), Usage> = std::thread::scope(|scope| {
        for _ in 0..threads.min((deals - done) as usize) {
            let (tx, next, rules, profile) = (tx.clone(), &next, &rule_config, &profile);
            scope.spawn(move || {
                loop {
                    let deal = next.fetch_add(1, Ordering::Relaxed);
                    if deal >= deals {
                        break;
                    }
                    if tx.send((deal, labels::label_deal(seed, deal, rules, profile))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Finished deals wait here until every deal before them is written.
        let mut waiting: BTreeMap<u32, Vec<DecisionLabel>> = BTreeMap::new();
        let mut to_write = done;
        for (deal, labels) in rx {
            waiting.insert(deal, labels);
            while let Some(ds) = waiting.remove(&to_write) {
                file.write_all(labels::deal_lines(to_write, &ds).as_bytes())
                    .and_then(|()| file.flush())
                    .map_err(|e| Usage(format!("cannot write {out}: {e}")))?;
                decisions += ds.len();
                rows += ds.iter().map(|d| d.candidates.len()).sum::<usize>();
                to_write += 1;
                bar.set_position(u64::from(to_write));
                bar.set_message(format!("{decisions} decisions"));
            }
        }
        Ok(())
    });
    written?;
    bar.finish_and_clear();
    println!(
        "{out}: deals {done}..{deals} labelled (seed {seed}, {iterations} playouts, {} rules): {decisions} decisions, {rows} candidate rows, {:.1} s",
        header.rules,
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Makes `out` hold exactly its complete deals (a header alone when new) and returns how many.
fn prepare(out: &str, header: &Header) -> Result<u32, Usage> {
    let text = match std::fs::read_to_string(out) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::write(out, labels::header_line(header)).map_err(|e| Usage(format!("cannot write {out}: {e}")))?;
            return Ok(0);
        }
        Err(e) => return Err(Usage(format!("cannot read {out}: {e}"))),
    };
    let file = labels::read(&text).map_err(|e| Usage(format!("{out}: {e}")))?;
    match &file.header {
        Some(h) if h == header => {}
        Some(h) => {
            return Err(Usage(format!(
                "{out} was made with seed {}, {} rules, {} playouts, search {}; resume it with the same or write another file",
                h.seed,
                h.rules,
                h.iterations,
                serde_json::to_string(&h.search).unwrap_or_default()
            )));
        }
        None => return Err(Usage(format!("{out} is empty: remove it or name another file"))),
    }
    if file.complete_len < text.len() {
        // A deal cut off by an interruption: drop it, it is played again.
        let f =
            std::fs::OpenOptions::new().write(true).open(out).map_err(|e| Usage(format!("cannot open {out}: {e}")))?;
        f.set_len(file.complete_len as u64).map_err(|e| Usage(format!("cannot truncate {out}: {e}")))?;
    }
    Ok(file.deals)
}
