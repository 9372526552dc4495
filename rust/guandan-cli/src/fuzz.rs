//! `guandan fuzz`: seeded fuzzing of the parsers and the engine API (the libFuzzer targets'
//! entry points); a finding's input is saved to a file.

use crate::input::Usage;
use std::process::ExitCode;
use std::time::Instant;

pub fn run(target: &str, iterations: u64, seed: u64) -> Result<ExitCode, Usage> {
    use rand_core::{Rng, SeedableRng};
    type Target = (&'static str, fn(&[u8]));
    let targets: Vec<Target> = match target {
        "engine" => vec![("engine", guandan_core::fuzz::engine)],
        "parsers" => vec![("parsers", guandan_core::fuzz::parsers)],
        "all" => vec![("engine", guandan_core::fuzz::engine), ("parsers", guandan_core::fuzz::parsers)],
        other => return Err(Usage(format!("unknown fuzz target {other:?}: engine, parsers or all"))),
    };
    // Findings are reported here, not as a crash trace.
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let start = Instant::now();
    for i in 0..iterations {
        let n = (rng.next_u32() % 600) as usize;
        let data: Vec<u8> = (0..n).map(|_| rng.next_u32() as u8).collect();
        for (name, f) in &targets {
            if let Err(e) = std::panic::catch_unwind(|| f(&data)) {
                let msg =
                    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
                let path = format!("fuzz-{name}-{seed}-{i}.bin");
                let _ = std::fs::write(&path, &data);
                eprintln!("FINDING in {name} at iteration {i}: {}; input saved to {path}", msg.unwrap_or_default());
                return Ok(ExitCode::from(1));
            }
        }
    }
    println!("{iterations} inputs x {} target(s), no findings ({:.1} s)", targets.len(), start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
