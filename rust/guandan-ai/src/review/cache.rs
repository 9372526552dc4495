//! The review cache: a review kept beside its record (`<record>.review.json`), so a deal is
//! reviewed once. A versioned JSON object holding the review, the replayed record's state hash
//! and the budget it was made with. Loading checks all three: a cache of another version, of
//! another record (the record was replaced or changed) or not readable is refused with a code
//! and a message, and the caller reviews again; a cache of another seat or budget is simply not
//! the review asked for. The record itself is never written.

use super::{Review, ReviewConfig};
use guandan_core::error::ErrorCode;
use guandan_core::game::Seat;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The cache format's version (raise it when `Review` changes shape).
pub const REVIEW_CACHE_VERSION: u32 = 1;

/// The file's contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewCache {
    pub version: u32,
    /// The record's final state hash (`Review::record_hash`): which record this is of.
    pub record_hash: String,
    /// The budget the review was made with.
    pub budget: ReviewConfig,
    pub review: Review,
}

/// Why a cache was not used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CacheError {
    #[error("review cache {path}: not a review cache ({message})")]
    Malformed { path: String, message: String },
    #[error("review cache {path}: version {found}, this build reads version {REVIEW_CACHE_VERSION}")]
    Version { path: String, found: u64 },
    #[error("review cache {path}: made for another record (hash {found}, the record's is {expected})")]
    Hash { path: String, found: String, expected: String },
    #[error("review cache {path}: {message}")]
    Io { path: String, message: String },
}

impl CacheError {
    /// The record's codes: the cache is a record of its own beside the replay.
    pub fn code(&self) -> ErrorCode {
        match self {
            CacheError::Malformed { .. } => ErrorCode::LogMalformed,
            CacheError::Version { .. } => ErrorCode::LogVersion,
            CacheError::Hash { .. } => ErrorCode::LogHash,
            CacheError::Io { .. } => ErrorCode::Io,
        }
    }
}

/// Where the review of `record` is kept: beside it, `<record>.review.json`.
pub fn cache_path(record: &Path) -> PathBuf {
    let mut name = record.as_os_str().to_owned();
    name.push(".review.json");
    PathBuf::from(name)
}

/// The cached review of `seat` with budget `cfg` of the record whose state hash is
/// `record_hash`: `Ok(None)` when there is no cache or it holds another seat's or budget's
/// review; an error when the file is there but cannot be used (unreadable, another version,
/// another record).
pub fn load_cached(
    path: &Path,
    record_hash: &str,
    seat: Seat,
    cfg: &ReviewConfig,
) -> Result<Option<Review>, CacheError> {
    let shown = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CacheError::Io { path: shown, message: e.to_string() }),
    };
    let malformed = |message: String| CacheError::Malformed { path: shown.clone(), message };
    // The version first, so a newer format is named as such rather than as garbage.
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| malformed(e.to_string()))?;
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(REVIEW_CACHE_VERSION) => {}
        Some(found) => return Err(CacheError::Version { path: shown, found }),
        None => return Err(malformed("no version".into())),
    }
    let cache: ReviewCache = serde_json::from_value(value).map_err(|e| malformed(e.to_string()))?;
    if cache.record_hash != record_hash || cache.review.record_hash != record_hash {
        return Err(CacheError::Hash { path: shown, found: cache.record_hash, expected: record_hash.to_string() });
    }
    if cache.review.config != cache.budget {
        return Err(malformed("the review's budget is not the cache's".into()));
    }
    Ok((cache.review.seat == seat && cache.budget == *cfg).then_some(cache.review))
}

/// Keeps `review` at `path`, written whole or not at all (a temporary file renamed over it).
pub fn save_cached(path: &Path, review: &Review) -> Result<(), CacheError> {
    let io = |e: std::io::Error| CacheError::Io { path: path.display().to_string(), message: e.to_string() };
    let cache = ReviewCache {
        version: REVIEW_CACHE_VERSION,
        record_hash: review.record_hash.clone(),
        budget: review.config,
        review: review.clone(),
    };
    let text = serde_json::to_string(&cache).map_err(|e| io(std::io::Error::other(e)))?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::{parse_record, review, reviewer};

    fn reviewed(name: &str) -> (Review, PathBuf) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/replay-corpus");
        let log = parse_record(&std::fs::read_to_string(dir.join("good_unfinished_match.jsonl")).unwrap()).unwrap();
        let cfg = ReviewConfig { worlds: 2, ..ReviewConfig::default() };
        let r = review(&log, Seat::ONE, &cfg, &reviewer(1), |_, _| {}).unwrap();
        let tmp = std::env::temp_dir().join(format!("guandan-review-cache-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        (r, tmp)
    }

    #[test]
    fn a_saved_review_loads_back_for_its_record_seat_and_budget_only() {
        let (r, dir) = reviewed("saved");
        let path = cache_path(&dir.join("m.jsonl"));
        assert!(path.to_string_lossy().ends_with("m.jsonl.review.json"));
        assert_eq!(load_cached(&path, &r.record_hash, Seat::ONE, &r.config), Ok(None), "no cache yet");
        save_cached(&path, &r).unwrap();
        assert_eq!(load_cached(&path, &r.record_hash, Seat::ONE, &r.config), Ok(Some(r.clone())));
        // Another seat or budget: not this review, no error.
        assert_eq!(load_cached(&path, &r.record_hash, Seat::TWO, &r.config), Ok(None));
        let more = ReviewConfig { worlds: 3, ..r.config };
        assert_eq!(load_cached(&path, &r.record_hash, Seat::ONE, &more), Ok(None));
        // Another record: refused with the hash code, the file left as it was.
        let before = std::fs::read_to_string(&path).unwrap();
        let e = load_cached(&path, "0123", Seat::ONE, &r.config).unwrap_err();
        assert_eq!(e.code(), ErrorCode::LogHash);
        assert!(e.to_string().contains("another record"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_cache_of_another_version_or_malformed_is_refused_with_its_code() {
        let (r, dir) = reviewed("refused");
        let path = dir.join("bad.review.json");
        let good = serde_json::to_value(ReviewCache {
            version: REVIEW_CACHE_VERSION,
            record_hash: r.record_hash.clone(),
            budget: r.config,
            review: r.clone(),
        })
        .unwrap();
        let load = |text: String| {
            std::fs::write(&path, text).unwrap();
            load_cached(&path, &r.record_hash, Seat::ONE, &r.config)
        };
        assert_eq!(load(good.to_string()), Ok(Some(r.clone())));
        let mut newer = good.clone();
        newer["version"] = 2.into();
        assert_eq!(load(newer.to_string()).unwrap_err().code(), ErrorCode::LogVersion);
        let mut unversioned = good.clone();
        unversioned.as_object_mut().unwrap().remove("version");
        assert_eq!(load(unversioned.to_string()).unwrap_err().code(), ErrorCode::LogMalformed);
        let mut holed = good.clone();
        holed["review"]["deals"] = "none".into();
        assert_eq!(load(holed.to_string()).unwrap_err().code(), ErrorCode::LogMalformed);
        let mut swapped = good.clone();
        swapped["review"]["record_hash"] = "ff".into();
        assert_eq!(load(swapped.to_string()).unwrap_err().code(), ErrorCode::LogHash);
        let text = good.to_string();
        let e = load(text[..text.len() / 2].to_string()).unwrap_err();
        assert_eq!(e.code(), ErrorCode::LogMalformed);
        assert!(e.to_string().starts_with("review cache "), "{e}");
        let dir_as_file = load_cached(&dir, &r.record_hash, Seat::ONE, &r.config).unwrap_err();
        assert_eq!(dir_as_file.code(), ErrorCode::Io);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
