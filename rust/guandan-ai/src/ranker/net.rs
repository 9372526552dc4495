//! The ranker's network: a small ReLU MLP run in integer arithmetic, so a view gives the same
//! choice on every CPU, with a float reference that checks it; and its weights file.
//!
//! Fixed point. Inputs and hidden activations are Q8 (`i16`, value × 2^8). Layer `l` stores its
//! weights as `i16` in Q`s_l` (value × 2^s_l, `s_l` chosen per layer when quantizing) and its
//! biases as `i32` in Q(8 + s_l), the scale of the products. A neuron's sum is accumulated in
//! `i32`: the file is refused unless Σ|w| × 2^15 + |b| + 2^s_l fits in an `i32` for every row,
//! so no input can overflow it. A hidden neuron is ReLU'd, rounded back to Q8 (shift right by
//! `s_l`, half up) and saturated at `i16::MAX`; the last layer's single sum is the output, read
//! as sum / 2^(8 + s_l).
//!
//! File (little-endian): `b"GDRK"`, format version `u16` (1), feature version `u16`
//! ([`super::features::VERSION`]), activation shift `u16` (8), layer count `u16`; per layer
//! inputs `u16`, outputs `u16`, weight shift `u16`; then per layer its weights (`i16`, row by
//! row: output-major) and its biases (`i32`). Nothing may follow.

use thiserror::Error;

pub const MAGIC: [u8; 4] = *b"GDRK";
pub const FORMAT_VERSION: u16 = 1;
/// Shift of inputs and hidden activations (Q8).
pub const ACT_SHIFT: u32 = 8;
/// Largest weight shift a file may name (finer scales buy nothing at i16).
pub const MAX_WEIGHT_SHIFT: u32 = 24;
const MAX_LAYERS: usize = 8;
const MAX_WIDTH: usize = 1024;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum NetError {
    #[error("weights file truncated: {what} needs {need} bytes at offset {at}, the file has {len}")]
    Truncated { what: &'static str, at: usize, need: usize, len: usize },
    #[error("not a ranker weights file (magic {0:?}, expected \"GDRK\")")]
    BadMagic([u8; 4]),
    #[error("weights file format version {0} is not supported (this build reads {FORMAT_VERSION})")]
    Version(u16),
    #[error("weights trained on feature version {file}, this build computes version {expected}")]
    FeatureVersion { file: u16, expected: u16 },
    #[error("weights file: {0}")]
    Shape(String),
    #[error("weights file has {0} bytes after its last layer")]
    Trailing(usize),
    #[error("layer {layer} row {row} could overflow a 32-bit sum (weights or bias too large)")]
    Overflow { layer: usize, row: usize },
}

/// One dense layer, weights output-major (`weights[o * inputs + i]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    pub inputs: usize,
    pub outputs: usize,
    pub shift: u32,
    pub weights: Vec<i16>,
    pub bias: Vec<i32>,
}

/// A float layer (the trainer's, and the source of a quantized one).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatLayer {
    pub inputs: usize,
    pub outputs: usize,
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    pub feature_version: u16,
    pub layers: Vec<Layer>,
}

/// The largest |sum| a row can reach: every input at ±2^15, plus the bias and the rounding half.
fn row_bound(w: &[i16], b: i32, shift: u32) -> i64 {
    w.iter().map(|&x| i64::from(x).abs()).sum::<i64>() * 32768 + i64::from(b).abs() + (1i64 << shift)
}

impl Layer {
    /// Quantizes a float layer at the finest shift whose weights fit `i16` and whose rows cannot
    /// overflow.
    pub fn quantize(f: &FloatLayer) -> Layer {
        let q = |s: u32| {
            let scale = (1u64 << s) as f64;
            let w: Vec<i16> = f.weights.iter().map(|&x| (x as f64 * scale).round() as i16).collect();
            let bscale = (1u64 << (s + ACT_SHIFT)) as f64;
            let b: Vec<i32> = f.bias.iter().map(|&x| (x as f64 * bscale).round() as i32).collect();
            Layer { inputs: f.inputs, outputs: f.outputs, shift: s, weights: w, bias: b }
        };
        let fits = |s: u32| {
            let scale = (1u64 << s) as f64;
            let bscale = (1u64 << (s + ACT_SHIFT)) as f64;
            f.weights.iter().all(|&x| (x as f64 * scale).round().abs() <= 32767.0)
                && f.bias.iter().all(|&x| (x as f64 * bscale).round().abs() <= i32::MAX as f64 / 2.0)
                && q(s).check_bound().is_ok()
        };
        let shift = (0..=MAX_WEIGHT_SHIFT).rev().find(|&s| fits(s)).unwrap_or(0);
        q(shift)
    }

    fn check_bound(&self) -> Result<(), usize> {
        for o in 0..self.outputs {
            let row = &self.weights[o * self.inputs..(o + 1) * self.inputs];
            if row_bound(row, self.bias[o], self.shift) > i64::from(i32::MAX) {
                return Err(o);
            }
        }
        Ok(())
    }

    /// The float values this layer stands for.
    pub fn dequantize(&self) -> FloatLayer {
        let ws = (1u64 << self.shift) as f32;
        let bs = (1u64 << (self.shift + ACT_SHIFT)) as f32;
        FloatLayer {
            inputs: self.inputs,
            outputs: self.outputs,
            weights: self.weights.iter().map(|&w| w as f32 / ws).collect(),
            bias: self.bias.iter().map(|&b| b as f32 / bs).collect(),
        }
    }

    /// The i32 sums of one input vector (Q8).
    fn sums(&self, x: &[i16], out: &mut Vec<i32>) {
        out.clear();
        for o in 0..self.outputs {
            let row = &self.weights[o * self.inputs..(o + 1) * self.inputs];
            // Cannot overflow: the row bound was checked when the layer was read.
            let dot: i32 = row.iter().zip(x).map(|(&w, &v)| i32::from(w) * i32::from(v)).sum();
            out.push(dot + self.bias[o]);
        }
    }
}

impl Net {
    pub fn from_float(layers: &[FloatLayer], feature_version: u16) -> Net {
        Net { feature_version, layers: layers.iter().map(Layer::quantize).collect() }
    }

    pub fn inputs(&self) -> usize {
        self.layers.first().map_or(0, |l| l.inputs)
    }

    pub fn outputs(&self) -> usize {
        self.layers.last().map_or(0, |l| l.outputs)
    }

    /// The integer forward pass: the first output's sum and the shift it is in (value = sum /
    /// 2^shift). `x` must have `inputs()` values.
    pub fn forward_raw(&self, x: &[i16]) -> (i32, u32) {
        let mut act: Vec<i16> = x.to_vec();
        let mut sums = Vec::new();
        let last = self.layers.len() - 1;
        for (l, layer) in self.layers.iter().enumerate() {
            layer.sums(&act, &mut sums);
            if l == last {
                break;
            }
            let half = (1i32 << layer.shift) >> 1;
            act = sums.iter().map(|&s| ((s.max(0) + half) >> layer.shift).min(i16::MAX as i32) as i16).collect();
        }
        (sums[0], self.layers[last].shift + ACT_SHIFT)
    }

    /// The integer forward pass as a value (an exact power-of-two division of an integer, so the
    /// same on every CPU).
    pub fn forward(&self, x: &[i16]) -> f32 {
        let (sum, shift) = self.forward_raw(x);
        (f64::from(sum) / (1u64 << shift) as f64) as f32
    }

    /// The float reference: the same weights, exact arithmetic in f32 (no rounding of
    /// activations), for checking the integer pass.
    pub fn forward_f32(&self, x: &[f32]) -> f32 {
        let layers: Vec<FloatLayer> = self.layers.iter().map(Layer::dequantize).collect();
        forward_float(&layers, x)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&MAGIC);
        for v in [FORMAT_VERSION, self.feature_version, ACT_SHIFT as u16, self.layers.len() as u16] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for l in &self.layers {
            for v in [l.inputs as u16, l.outputs as u16, l.shift as u16] {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        for l in &self.layers {
            l.weights.iter().for_each(|w| b.extend_from_slice(&w.to_le_bytes()));
            l.bias.iter().for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
        }
        b
    }

    /// Reads a weights file; any malformed input is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        let mut r = Reader { bytes, at: 0 };
        let magic: [u8; 4] = r.take("the magic", 4)?.try_into().unwrap_or_default();
        if magic != MAGIC {
            return Err(NetError::BadMagic(magic));
        }
        let version = r.u16("the format version")?;
        if version != FORMAT_VERSION {
            return Err(NetError::Version(version));
        }
        let feature_version = r.u16("the feature version")?;
        let act = r.u16("the activation shift")?;
        if u32::from(act) != ACT_SHIFT {
            return Err(NetError::Shape(format!("activation shift {act}, expected {ACT_SHIFT}")));
        }
        let count = r.u16("the layer count")? as usize;
        if !(1..=MAX_LAYERS).contains(&count) {
            return Err(NetError::Shape(format!("{count} layers (1 to {MAX_LAYERS} allowed)")));
        }
        let mut shapes = Vec::with_capacity(count);
        for l in 0..count {
            let (i, o, s) = (r.u16("a layer's inputs")?, r.u16("a layer's outputs")?, r.u16("a layer's shift")?);
            let (i, o, s) = (i as usize, o as usize, u32::from(s));
            if !(1..=MAX_WIDTH).contains(&i) || !(1..=MAX_WIDTH).contains(&o) || s > MAX_WEIGHT_SHIFT {
                return Err(NetError::Shape(format!("layer {l}: {i} inputs, {o} outputs, shift {s}")));
            }
            if let Some(&(_, prev, _)) = shapes.last()
                && prev != i
            {
                return Err(NetError::Shape(format!("layer {l} takes {i} inputs, the layer before gives {prev}")));
            }
            shapes.push((i, o, s));
        }
        let mut layers = Vec::with_capacity(count);
        for (l, &(inputs, outputs, shift)) in shapes.iter().enumerate() {
            let w = r.take("a layer's weights", inputs * outputs * 2)?;
            let weights = w.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            let b = r.take("a layer's biases", outputs * 4)?;
            let bias = b.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            let layer = Layer { inputs, outputs, shift, weights, bias };
            layer.check_bound().map_err(|row| NetError::Overflow { layer: l, row })?;
            layers.push(layer);
        }
        if r.at != bytes.len() {
            return Err(NetError::Trailing(bytes.len() - r.at));
        }
        Ok(Net { feature_version, layers })
    }
}

/// A float MLP's forward pass (ReLU between layers, none after the last); the first output.
pub fn forward_float(layers: &[FloatLayer], x: &[f32]) -> f32 {
    let mut act = x.to_vec();
    for (l, layer) in layers.iter().enumerate() {
        let mut next = Vec::with_capacity(layer.outputs);
        for o in 0..layer.outputs {
            let row = &layer.weights[o * layer.inputs..(o + 1) * layer.inputs];
            let s: f32 = row.iter().zip(&act).map(|(w, v)| w * v).sum::<f32>() + layer.bias[o];
            next.push(if l + 1 < layers.len() { s.max(0.0) } else { s });
        }
        act = next;
    }
    act[0]
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, what: &'static str, n: usize) -> Result<&'a [u8], NetError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(NetError::Truncated { what, at: self.at, need: n, len: self.bytes.len() });
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, NetError> {
        let b = self.take(what, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    fn uniform(rng: &mut ChaCha8Rng, scale: f32) -> f32 {
        ((rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0) * scale
    }

    /// A seeded 80→64→32→1 float net with weights of He scale.
    fn random_net(seed: u64) -> Vec<FloatLayer> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        [(80, 64), (64, 32), (32, 1)]
            .into_iter()
            .map(|(i, o)| {
                let scale = (6.0 / i as f32).sqrt();
                FloatLayer {
                    inputs: i,
                    outputs: o,
                    weights: (0..i * o).map(|_| uniform(&mut rng, scale)).collect(),
                    bias: (0..o).map(|_| uniform(&mut rng, 0.1)).collect(),
                }
            })
            .collect()
    }

    fn random_input(rng: &mut ChaCha8Rng) -> Vec<i16> {
        // Most features are 0/1 flags or shares; some a few units.
        (0..80).map(|_| crate::ranker::features::quantize(uniform(rng, 2.0))).collect()
    }

    /// The integer pass agrees with the float reference on random inputs: within 0.02 (plus
    /// 0.5% of the value) for this net, whose outputs spread over several units.
    #[test]
    fn integer_and_float_passes_agree() {
        let net = Net::from_float(&random_net(7), 1);
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut spread = 0.0f32;
        for _ in 0..2000 {
            let x = random_input(&mut rng);
            let xf: Vec<f32> = x.iter().map(|&q| crate::ranker::features::dequantize(q)).collect();
            let (i, f) = (net.forward(&x), net.forward_f32(&xf));
            assert!((i - f).abs() <= 0.02 + 0.005 * f.abs(), "integer {i} float {f}");
            spread = spread.max(f.abs());
        }
        assert!(spread > 1.0, "outputs too small to test anything: {spread}");
    }

    /// A fixed net (seeded) and a fixed input give fixed integer outputs: any change to the
    /// arithmetic or the file format shows here.
    #[test]
    fn golden_outputs() {
        let net = Net::from_float(&random_net(1), 1);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), 12 + 3 * 6 + (80 * 64 + 64 * 32 + 32) * 2 + (64 + 32 + 1) * 4);
        let back = Net::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(net.layers.iter().map(|l| l.shift).collect::<Vec<_>>(), GOLDEN_SHIFTS);
        let x: Vec<i16> = (0..80).map(|i| ((i * 37) % 512) as i16 - 256).collect();
        let y: Vec<i16> = (0..80).map(|i| if i % 3 == 0 { 256 } else { (i as i16) * 3 }).collect();
        assert_eq!([back.forward_raw(&x), back.forward_raw(&y)], GOLDEN_OUTPUTS);
    }
    const GOLDEN_SHIFTS: [u32; 3] = [12, 12, 13];
    const GOLDEN_OUTPUTS: [(i32, u32); 2] = [(-5_987_976, 21), (-2_700_451, 21)];

    #[test]
    fn malformed_files_are_errors() {
        let good = Net::from_float(&random_net(2), 1).to_bytes();
        assert!(Net::from_bytes(&good).is_ok());
        // Every truncation is an error (never a panic).
        for n in 0..good.len() {
            assert!(Net::from_bytes(&good[..n]).is_err(), "truncated to {n} bytes");
        }
        assert!(matches!(Net::from_bytes(&good[..10]), Err(NetError::Truncated { .. })));
        let mut bad = good.clone();
        bad[0] = b'X';
        assert_eq!(Net::from_bytes(&bad), Err(NetError::BadMagic(*b"XDRK")));
        let mut bad = good.clone();
        bad[4] = 9;
        assert_eq!(Net::from_bytes(&bad), Err(NetError::Version(9)));
        let mut long = good.clone();
        long.push(0);
        assert_eq!(Net::from_bytes(&long), Err(NetError::Trailing(1)));
        // A second layer that does not take the first's outputs.
        let mut bad = good.clone();
        bad[12 + 6] = 63;
        assert!(matches!(Net::from_bytes(&bad), Err(NetError::Shape(_))));
        // Weights so large a sum could overflow.
        let mut bad = good.clone();
        let first_weight = 12 + 3 * 6;
        for k in 0..80 {
            bad[first_weight + 2 * k..first_weight + 2 * k + 2].copy_from_slice(&i16::MAX.to_le_bytes());
        }
        assert_eq!(Net::from_bytes(&bad), Err(NetError::Overflow { layer: 0, row: 0 }));
        assert!(Net::from_bytes(b"").is_err());
        assert!(Net::from_bytes(b"GDRK\x01\x00\x01\x00\x08\x00\xff\xff").is_err());
    }
}
