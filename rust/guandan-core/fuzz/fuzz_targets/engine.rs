#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| guandan_core::fuzz::engine(data));
