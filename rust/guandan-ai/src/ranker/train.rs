//! Fits the ranker's correction to L3's search: for each labelled decision the model's choice is
//! softmax((L2 score + correction) / `model_temperature`) over its candidates, the target is
//! softmax((search mean + `prior` × L2 score) / `target_temperature`) — L3's own blend — and the
//! loss is their cross-entropy plus `correction_l2` × the mean squared correction (stay near L2
//! unless the search says otherwise). Adam in f32, one thread, a fixed order of decisions drawn
//! from a seeded ChaCha generator: the same labels and seed give the same weights bit for bit.

use super::features::{self, COUNT};
use super::labels::DecisionLabel;
use super::net::{FloatLayer, forward_float};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrainConfig {
    pub seed: u64,
    pub epochs: u32,
    pub hidden: [usize; 2],
    pub learning_rate: f32,
    /// Decisions per Adam step.
    pub batch: usize,
    /// Levels: how sharply the target prefers the search's best.
    pub target_temperature: f32,
    /// L2's share in the target's blend (L3 plays by mean + 0.15 × L2 score).
    pub prior: f32,
    /// L2-score units per unit of the model's logits; 0 = fitted before training: the value of
    /// [`TEMPERATURES`] under which L2 alone (no correction) best matches the training targets,
    /// so the correction learns only what L2's ranking misses.
    pub model_temperature: f32,
    /// Pull of the correction towards 0 (towards L2's own ranking).
    pub correction_l2: f32,
    /// Decisions of every `holdout_every`-th deal are held out for the curve (0 = none).
    pub holdout_every: u32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            seed: 1,
            epochs: 30,
            hidden: [64, 32],
            learning_rate: 1e-3,
            batch: 16,
            target_temperature: 0.25,
            prior: 0.15,
            model_temperature: 0.0,
            correction_l2: 1e-3,
            holdout_every: 10,
        }
    }
}

/// One epoch of the curve: mean loss on the training and held-out decisions, and how often the
/// held-out decisions' top candidate is the target's (search's) top — by the model, and by L2
/// alone for reference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Epoch {
    pub epoch: u32,
    pub train_loss: f64,
    pub holdout_loss: Option<f64>,
    pub holdout_top1: Option<f64>,
    pub l2_top1: Option<f64>,
    /// The model temperature used (fitted when the configuration says 0).
    pub model_temperature: f32,
}

/// The model temperatures tried when fitting it to L2 alone.
pub const TEMPERATURES: [f32; 10] = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0];

/// A decision ready for training: inputs as floats, L2 scores and the target distribution.
struct Example {
    x: Vec<[f32; COUNT]>,
    l2: Vec<f32>,
    target: Vec<f32>,
}

fn softmax(z: &[f32]) -> Vec<f32> {
    let m = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f32> = z.iter().map(|&v| (v - m).exp()).collect();
    let s: f32 = e.iter().sum();
    e.iter().map(|v| v / s).collect()
}

fn argmax(v: &[f32]) -> usize {
    let mut best = 0;
    for (i, &x) in v.iter().enumerate() {
        if x > v[best] {
            best = i;
        }
    }
    best
}

fn example(d: &DecisionLabel, cfg: &TrainConfig) -> Example {
    let x = d.candidates.iter().map(|c| std::array::from_fn(|i| features::dequantize(c.f[i]))).collect();
    let l2: Vec<f32> = d.candidates.iter().map(|c| c.l2).collect();
    let blend: Vec<f32> = d.candidates.iter().map(|c| (c.mean + cfg.prior * c.l2) / cfg.target_temperature).collect();
    Example { x, l2, target: softmax(&blend) }
}

/// The MLP's parameters with Adam's moments, one flat vector per tensor.
struct Model {
    layers: Vec<FloatLayer>,
    m: Vec<(Vec<f32>, Vec<f32>)>,
    v: Vec<(Vec<f32>, Vec<f32>)>,
    step: i32,
}

fn uniform(rng: &mut ChaCha8Rng, scale: f32) -> f32 {
    ((rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0) * scale
}

impl Model {
    /// He-uniform hidden layers; the output layer starts at zero, so the correction does too.
    fn new(hidden: [usize; 2], rng: &mut ChaCha8Rng) -> Model {
        let dims = [(COUNT, hidden[0]), (hidden[0], hidden[1]), (hidden[1], 1)];
        let layers: Vec<FloatLayer> = dims
            .iter()
            .enumerate()
            .map(|(l, &(i, o))| {
                let scale = if l + 1 == dims.len() { 0.0 } else { (6.0 / i as f32).sqrt() };
                FloatLayer {
                    inputs: i,
                    outputs: o,
                    weights: (0..i * o).map(|_| uniform(rng, scale)).collect(),
                    bias: vec![0.0; o],
                }
            })
            .collect();
        let zeros = |l: &FloatLayer| (vec![0.0; l.weights.len()], vec![0.0; l.bias.len()]);
        Model { m: layers.iter().map(zeros).collect(), v: layers.iter().map(zeros).collect(), layers, step: 0 }
    }

    /// Output and the activations of every layer (post-ReLU for hidden ones).
    fn forward(&self, x: &[f32; COUNT]) -> Vec<Vec<f32>> {
        let mut acts = vec![x.to_vec()];
        for (l, layer) in self.layers.iter().enumerate() {
            let input = &acts[l];
            let out: Vec<f32> = (0..layer.outputs)
                .map(|o| {
                    let row = &layer.weights[o * layer.inputs..(o + 1) * layer.inputs];
                    let s = row.iter().zip(input).map(|(w, v)| w * v).sum::<f32>() + layer.bias[o];
                    if l + 1 < self.layers.len() { s.max(0.0) } else { s }
                })
                .collect();
            acts.push(out);
        }
        acts
    }

    /// Adds d(loss)/d(params) for one candidate whose output's gradient is `g` to `grads`.
    fn backward(&self, acts: &[Vec<f32>], g: f32, grads: &mut [(Vec<f32>, Vec<f32>)]) {
        let mut delta = vec![g];
        for l in (0..self.layers.len()).rev() {
            let layer = &self.layers[l];
            let input = &acts[l];
            let (gw, gb) = &mut grads[l];
            let mut back = vec![0.0f32; layer.inputs];
            for (o, &d) in delta.iter().enumerate() {
                if d == 0.0 {
                    continue;
                }
                gb[o] += d;
                let row = o * layer.inputs;
                for i in 0..layer.inputs {
                    gw[row + i] += d * input[i];
                    back[i] += d * layer.weights[row + i];
                }
            }
            if l > 0 {
                // Through the ReLU of the layer below.
                for (b, &a) in back.iter_mut().zip(input) {
                    if a <= 0.0 {
                        *b = 0.0;
                    }
                }
            }
            delta = back;
        }
    }

    fn adam(&mut self, grads: &[(Vec<f32>, Vec<f32>)], lr: f32, scale: f32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.step += 1;
        let c1 = 1.0 - b1.powi(self.step);
        let c2 = 1.0 - b2.powi(self.step);
        let params = self.layers.iter_mut().zip(grads).zip(self.m.iter_mut().zip(self.v.iter_mut()));
        for ((layer, (gw, gb)), ((mw, mb), (vw, vb))) in params {
            for (p, g, m, v) in [(&mut layer.weights, gw, mw, vw), (&mut layer.bias, gb, mb, vb)] {
                for i in 0..p.len() {
                    let gi = g[i] * scale;
                    m[i] = b1 * m[i] + (1.0 - b1) * gi;
                    v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
                    p[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                }
            }
        }
    }

    /// The loss of one decision; with `grads`, its gradient added there.
    fn decision(&self, e: &Example, cfg: &TrainConfig, grads: Option<&mut [(Vec<f32>, Vec<f32>)]>) -> (f32, Vec<f32>) {
        let acts: Vec<Vec<Vec<f32>>> = e.x.iter().map(|x| self.forward(x)).collect();
        let corr: Vec<f32> = acts.iter().map(|a| a[a.len() - 1][0]).collect();
        let z: Vec<f32> = e.l2.iter().zip(&corr).map(|(l2, c)| (l2 + c) / cfg.model_temperature).collect();
        let p = softmax(&z);
        let n = e.x.len() as f32;
        let mut loss = 0.0;
        for k in 0..p.len() {
            loss -= e.target[k] * p[k].max(1e-30).ln();
            loss += cfg.correction_l2 * corr[k] * corr[k] / n;
        }
        if let Some(grads) = grads {
            for k in 0..p.len() {
                let g = (p[k] - e.target[k]) / cfg.model_temperature + 2.0 * cfg.correction_l2 * corr[k] / n;
                self.backward(&acts[k], g, grads);
            }
        }
        (loss, z)
    }
}

/// The temperature of [`TEMPERATURES`] with the least training loss for L2 alone (`model`'s
/// correction is 0 before training), or the configured one.
fn fit_temperature(model: &Model, train: &[Example], cfg: &TrainConfig) -> f32 {
    if cfg.model_temperature > 0.0 {
        return cfg.model_temperature;
    }
    let loss = |t: f32| {
        let c = TrainConfig { model_temperature: t, ..cfg.clone() };
        train.iter().map(|e| f64::from(model.decision(e, &c, None).0)).sum::<f64>()
    };
    let mut best = (TEMPERATURES[0], f64::INFINITY);
    for t in TEMPERATURES {
        let l = loss(t);
        if l < best.1 {
            best = (t, l);
        }
    }
    best.0
}

/// Trains on `decisions` (those of every `holdout_every`-th deal held out); the float layers
/// and the curve. With held-out decisions the layers returned are those of the epoch with the
/// least held-out loss (early stopping; the curve says which), else the last epoch's.
pub fn train(decisions: &[DecisionLabel], cfg: &TrainConfig) -> Trained {
    let held = |d: &DecisionLabel| cfg.holdout_every > 0 && d.deal % cfg.holdout_every == cfg.holdout_every - 1;
    let usable = |d: &&DecisionLabel| d.candidates.len() >= 2;
    let train: Vec<Example> = decisions.iter().filter(usable).filter(|d| !held(d)).map(|d| example(d, cfg)).collect();
    let holdout: Vec<Example> = decisions.iter().filter(usable).filter(|d| held(d)).map(|d| example(d, cfg)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut model = Model::new(cfg.hidden, &mut rng);
    let cfg = &TrainConfig { model_temperature: fit_temperature(&model, &train, cfg), ..cfg.clone() };
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut curve = Vec::new();
    let zero_grads = |m: &Model| -> Vec<(Vec<f32>, Vec<f32>)> {
        m.layers.iter().map(|l| (vec![0.0; l.weights.len()], vec![0.0; l.bias.len()])).collect()
    };
    let measure = |model: &Model, epoch: u32, train_loss: f64| {
        let mean = |sum: f64, n: usize| if n == 0 { 0.0 } else { sum / n as f64 };
        let (mut hl, mut hit, mut l2hit) = (0.0f64, 0usize, 0usize);
        for e in &holdout {
            let (loss, z) = model.decision(e, cfg, None);
            hl += f64::from(loss);
            let best = argmax(&e.target);
            hit += usize::from(argmax(&z) == best);
            l2hit += usize::from(argmax(&e.l2) == best);
        }
        let some = |v: f64| (!holdout.is_empty()).then_some(v);
        Epoch {
            epoch,
            train_loss: mean(train_loss, train.len()),
            holdout_loss: some(mean(hl, holdout.len())),
            holdout_top1: some(mean(hit as f64, holdout.len())),
            l2_top1: some(mean(l2hit as f64, holdout.len())),
            model_temperature: cfg.model_temperature,
        }
    };
    // Epoch 0: L2 alone (the correction starts at 0), the baseline the curve is read against.
    let start: f64 = train.iter().map(|e| f64::from(model.decision(e, cfg, None).0)).sum();
    curve.push(measure(&model, 0, start));
    let mut best: Option<(f64, u32, Vec<FloatLayer>)> = None;
    for epoch in 1..=cfg.epochs {
        // Fisher–Yates with the seeded generator: the epoch's order.
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut total = 0.0f64;
        for batch in order.chunks(cfg.batch.max(1)) {
            let mut grads = zero_grads(&model);
            for &i in batch {
                total += f64::from(model.decision(&train[i], cfg, Some(&mut grads)).0);
            }
            model.adam(&grads, cfg.learning_rate, 1.0 / batch.len() as f32);
        }
        let e = measure(&model, epoch, total);
        // Early stopping: keep the epoch that did best on the held-out deals.
        if let Some(l) = e.holdout_loss
            && best.as_ref().is_none_or(|(b, _, _)| l < *b)
        {
            best = Some((l, epoch, model.layers.clone()));
        }
        curve.push(e);
    }
    let (kept_epoch, layers) = best.map_or((cfg.epochs, model.layers), |(_, e, layers)| (e, layers));
    Trained { layers, curve, kept_epoch }
}

/// What training gives: the float layers kept, the curve (epoch 0 is L2 alone) and which
/// epoch's layers were kept.
pub struct Trained {
    pub layers: Vec<FloatLayer>,
    pub curve: Vec<Epoch>,
    pub kept_epoch: u32,
}

/// Share of decisions whose top candidate by L2 + `correction` is the target's top: a check of
/// a quantized ranker on labels.
pub fn top1(decisions: &[DecisionLabel], cfg: &TrainConfig, correction: impl Fn(&[i16]) -> f32) -> f64 {
    let usable: Vec<&DecisionLabel> = decisions.iter().filter(|d| d.candidates.len() >= 2).collect();
    let hits = usable
        .iter()
        .filter(|d| {
            let e = example(d, cfg);
            let s: Vec<f32> = d.candidates.iter().map(|c| c.l2 + correction(&c.f)).collect();
            argmax(&s) == argmax(&e.target)
        })
        .count();
    hits as f64 / usable.len().max(1) as f64
}

/// The float net's output for a stored feature vector (the trainer's view of a candidate).
pub fn float_correction(layers: &[FloatLayer], f: &[i16]) -> f32 {
    let x: Vec<f32> = f.iter().map(|&q| features::dequantize(q)).collect();
    forward_float(layers, &x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranker::labels::CandidateLabel;
    use guandan_core::seat::Seat;

    /// A learnable toy: the search prefers the candidate whose feature 20 is set, which L2's
    /// score does not see. Training must learn it (loss falls, held-out top-1 rises), and twice
    /// gives the same weights bit for bit.
    #[test]
    fn training_learns_and_is_reproducible() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let decisions: Vec<DecisionLabel> = (0..400)
            .map(|n| {
                let good = (rng.next_u32() % 4) as usize;
                let candidates = (0..4)
                    .map(|k| {
                        let mut f = vec![0i16; COUNT];
                        f[20] = if k == good { 256 } else { 0 };
                        f[3] = (rng.next_u32() % 512) as i16 - 256;
                        let l2 = uniform(&mut rng, 1.0);
                        CandidateLabel { f, l2, mean: if k == good { 1.0 } else { -0.5 }, worlds: 8, chosen: k == good }
                    })
                    .collect();
                DecisionLabel { deal: n / 10, seat: Seat::ZERO, seq: n as u64, candidates }
            })
            .collect();
        let cfg = TrainConfig { epochs: 12, ..TrainConfig::default() };
        let Trained { layers: a, curve, .. } = train(&decisions, &cfg);
        let b = train(&decisions, &cfg).layers;
        assert_eq!(a, b);
        assert_eq!(curve[0].epoch, 0, "the baseline first");
        let first = &curve[0];
        let last = curve.last().unwrap();
        assert!(last.train_loss < first.train_loss * 0.5, "{curve:?}");
        assert!(last.holdout_top1.unwrap() > 0.9 && first.l2_top1.unwrap() < 0.5, "{curve:?}");
    }
}
