//! `guandan train-ranker`: fits the ranker to a label file and writes its weights (the integer
//! format of `guandan_ai::ranker::net`) with a sidecar JSON: the weights' SHA-256, the command,
//! the seeds, the labels' SHA-256 and the training curve.

use crate::input::Usage;
use guandan_ai::ranker::net::Net;
use guandan_ai::ranker::train::{self, TrainConfig};
use guandan_ai::ranker::{Ranker, features, labels};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct TrainRankerArgs {
    /// Labels from `guandan distill-labels`; repeat it to train on several files (a generation's
    /// labels with the earlier ones).
    #[arg(long, required = true)]
    labels: Vec<String>,
    /// The weights file; the sidecar goes beside it with the extension `.json`.
    #[arg(long)]
    out: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = TrainConfig::default().epochs)]
    epochs: u32,
    #[arg(long, default_value_t = TrainConfig::default().learning_rate)]
    learning_rate: f32,
    /// Levels: how sharply the target prefers the search's best candidate.
    #[arg(long, default_value_t = TrainConfig::default().target_temperature)]
    target_temperature: f32,
    /// Pull of the learned correction towards 0 (L2's ranking).
    #[arg(long, default_value_t = TrainConfig::default().correction_l2)]
    correction_l2: f32,
    /// Draws the training curve to this PNG.
    #[arg(long)]
    plot: Option<String>,
}

#[derive(Serialize)]
struct Sidecar<'a> {
    weights: &'a str,
    sha256: String,
    command: String,
    labels: Vec<LabelSource<'a>>,
    decisions: usize,
    rows: usize,
    feature_version: u16,
    features: &'static [&'static str],
    config: &'a TrainConfig,
    curve: &'a [train::Epoch],
    /// The epoch whose weights were written (least held-out loss).
    kept_epoch: u32,
    /// Share of all labelled decisions whose top candidate is the search's, by L2 alone, by the
    /// float net and by the integer net written.
    top1_l2: f64,
    top1_float: f64,
    top1_integer: f64,
}

/// One label file trained on.
#[derive(Serialize)]
struct LabelSource<'a> {
    path: &'a str,
    sha256: String,
    seed: u64,
    deals: u32,
    /// The labelling L3's search switches (a later generation's teacher uses the ranker).
    search: guandan_ai::agent::SearchConfig,
    /// The ranker generation that search used; left out when 1 (or none), as in the label
    /// header, so the first two generations' sidecars are made again unchanged.
    #[serde(skip_serializing_if = "is_first_generation")]
    ranker_generation: u8,
}

fn is_first_generation(g: &u8) -> bool {
    *g == 1
}

pub fn run(args: TrainRankerArgs) -> Result<ExitCode, Usage> {
    let TrainRankerArgs { labels: paths, out, seed, epochs, learning_rate, target_temperature, correction_l2, plot } =
        args;
    let positive = |x: f32| x.is_finite() && x > 0.0;
    let valid = epochs > 0
        && positive(learning_rate)
        && positive(target_temperature)
        && correction_l2.is_finite()
        && correction_l2 >= 0.0;
    if !valid {
        return Err(Usage(
            "--epochs must be at least 1, --learning-rate and --target-temperature above 0, --correction-l2 at least 0"
                .into(),
        ));
    }
    let mut sources = Vec::new();
    let mut decisions = Vec::new();
    let mut deals = 0;
    for path in &paths {
        let text = std::fs::read_to_string(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
        let file = labels::read(&text).map_err(|e| Usage(format!("{path}: {e}")))?;
        let header = file.header.as_ref().ok_or_else(|| Usage(format!("{path} has no header")))?;
        if file.decisions.is_empty() {
            return Err(Usage(format!("{path} holds no complete deal with a searched decision")));
        }
        sources.push(LabelSource {
            path,
            sha256: hex::encode(Sha256::digest(text.as_bytes())),
            seed: header.seed,
            deals: file.deals,
            search: header.search,
            ranker_generation: header.ranker_generation,
        });
        deals += file.deals;
        decisions.extend(file.decisions);
    }
    let cfg = TrainConfig { seed, epochs, learning_rate, target_temperature, correction_l2, ..TrainConfig::default() };
    let train::Trained { layers, curve, kept_epoch } = train::train(&decisions, &cfg);
    for e in &curve {
        let held = match (e.holdout_loss, e.holdout_top1, e.l2_top1) {
            (Some(l), Some(t), Some(l2)) => {
                format!(", held out {l:.4} (top-1 {:.1}%, L2 {:.1}%)", t * 100.0, l2 * 100.0)
            }
            _ => String::new(),
        };
        eprintln!("epoch {:>3}: train loss {:.4}{held}", e.epoch, e.train_loss);
    }
    let net = Net::from_float(&layers, features::VERSION);
    let bytes = net.to_bytes();
    let ranker = Ranker::from_bytes(&bytes).map_err(|e| Usage(format!("the trained net does not read back: {e}")))?;
    std::fs::write(&out, &bytes).map_err(|e| Usage(format!("cannot write {out}: {e}")))?;
    let top1_l2 = train::top1(&decisions, &cfg, |_| 0.0);
    let top1_float = train::top1(&decisions, &cfg, |f| train::float_correction(&layers, f));
    let top1_integer = train::top1(&decisions, &cfg, |f| ranker.net().forward(f));
    let sidecar_path = std::path::Path::new(&out).with_extension("json");
    let sidecar = Sidecar {
        weights: &out,
        sha256: hex::encode(Sha256::digest(&bytes)),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        labels: sources,
        decisions: decisions.len(),
        rows: decisions.iter().map(|d| d.candidates.len()).sum(),
        feature_version: features::VERSION,
        features: &features::NAMES,
        config: &cfg,
        curve: &curve,
        kept_epoch,
        top1_l2,
        top1_float,
        top1_integer,
    };
    let json = serde_json::to_string_pretty(&sidecar).map_err(|e| Usage(e.to_string()))?;
    std::fs::write(&sidecar_path, json + "\n")
        .map_err(|e| Usage(format!("cannot write {}: {e}", sidecar_path.display())))?;
    if let Some(png) = plot {
        crate::plot::training_curve(&curve, &png).map_err(|e| Usage(format!("cannot draw {png}: {e}")))?;
    }
    println!(
        "{out}: sha256 {}; {} decisions ({} deals); epoch {kept_epoch} kept; top-1 agreement with the search: L2 {:.1}%, ranker {:.1}% (float {:.1}%)",
        sidecar.sha256,
        sidecar.decisions,
        deals,
        top1_l2 * 100.0,
        top1_integer * 100.0,
        top1_float * 100.0
    );
    Ok(ExitCode::SUCCESS)
}
