//! Guandan AI agents and move advice (grows with the AI issue).

pub use guandan_core;
