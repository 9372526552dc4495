//! `guandan arena --plot FILE.png` draws a real PNG.

use std::path::PathBuf;
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guandan-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn arena_plot_writes_a_png() {
    let dir = temp_dir("arena-plot");
    let png = dir.join("arena.png");
    let out = Command::new(env!("CARGO_BIN_EXE_guandan"))
        .args(["arena", "--a", "L2", "--b", "L1", "--deals", "4", "--seed", "7", "--threads", "2", "--plot"])
        .arg(&png)
        .output()
        .expect("run guandan");
    assert!(out.status.success(), "arena failed: {}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&png).expect("the chart exists");
    assert!(bytes.len() > 1000, "suspiciously small PNG: {} bytes", bytes.len());
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    // IHDR: width and height, big-endian, right after the chunk header.
    assert_eq!(&bytes[12..16], b"IHDR");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert!(width >= 400 && height >= 300, "{width}x{height}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_plot_into_a_missing_directory_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_guandan"))
        .args(["arena", "--a", "L1", "--b", "L1", "--deals", "1", "--plot", "/nonexistent-dir/x/arena.png"])
        .output()
        .expect("run guandan");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot draw"));
}
