//! The game's files on disk: the user data folders (records, statistics, crash reports), the
//! record names and extension, atomic writes, and reading, listing and deleting records.
//!
//! A leaf module: plain `std` and [`Fail`], every folder an argument, no Godot class and nothing
//! of the engine, the recorder or the statistics. Those build on it (`replay`, `stats_store`,
//! `engine::crash`), which keeps the crate free of import circles and lets `cargo test` cover
//! what happens on disk. Where Godot's `user://` lies is asked by [`crate::user_dirs`].

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use guandan_core::error::ErrorCode;

use crate::codes::Fail;

/// File extension of saved records.
pub const RECORD_EXT: &str = "jsonl";
/// Records larger than this are refused (a long match is well under 1 MB).
pub const MAX_RECORD_BYTES: u64 = 32 << 20;

/// The game's folders under the user data folder (Godot's `user://`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserDirs {
    root: PathBuf,
}

impl UserDirs {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        UserDirs { root: root.into() }
    }

    /// `user://records`: the saved matches.
    pub fn records(&self) -> PathBuf {
        self.root.join("records")
    }

    /// `user://stats`: the statistics file.
    pub fn stats(&self) -> PathBuf {
        self.root.join("stats")
    }

    /// `user://crash`: the crash reports.
    pub fn crash(&self) -> PathBuf {
        self.root.join("crash")
    }
}

/// A record name is a file name without directories: letters, digits, `_`, `-`, `.`; at most
/// 64 characters; not starting with a dot. A trailing `.jsonl` is accepted and ignored; the
/// stem is returned.
pub fn check_name(name: &str) -> Result<&str, Fail> {
    let stem = name.strip_suffix(&format!(".{RECORD_EXT}")).unwrap_or(name);
    let ok = !stem.is_empty()
        && stem.len() <= 64
        && !stem.starts_with('.')
        && stem.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(stem)
    } else {
        Err(Fail::bad_argument(format!(
            "record name {name:?} must be 1-64 letters, digits, '_', '-' or '.', not starting with '.'"
        )))
    }
}

/// The file of the record `stem` in `dir`. No check: for stems already checked or listed.
pub fn record_path(dir: &Path, stem: &str) -> PathBuf {
    dir.join(format!("{stem}.{RECORD_EXT}"))
}

/// Writes `text` to `dir/file_name` atomically: a temporary file in the same directory,
/// flushed to disk, then renamed over the target — a reader sees the old file or the new one,
/// never a part. On failure the temporary file is removed and the target left as it was.
pub fn write_file_atomic(dir: &Path, file_name: &str, text: &str) -> Result<PathBuf, Fail> {
    let io = |what: &str, e: std::io::Error| Fail::new(ErrorCode::Io, format!("{what}: {e}"));
    std::fs::create_dir_all(dir).map_err(|e| io("cannot create the directory", e))?;
    let target = dir.join(file_name);
    // A leading dot hides it from the listings while it is being written.
    let tmp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp).map_err(|e| io("cannot create the file", e))?;
        f.write_all(text.as_bytes()).map_err(|e| io("cannot write", e))?;
        f.sync_all().map_err(|e| io("cannot flush", e))?;
        std::fs::rename(&tmp, &target).map_err(|e| io("cannot rename", e))
    })();
    if result.is_err() {
        // Best effort: the write already failed and that error is what the caller gets.
        let _ = std::fs::remove_file(&tmp);
    }
    result.map(|()| target)
}

/// Saves record text as `dir/<name>.jsonl` atomically (`name` as in [`check_name`]).
pub fn write_record(dir: &Path, name: &str, text: &str) -> Result<PathBuf, Fail> {
    let stem = check_name(name)?;
    write_file_atomic(dir, &format!("{stem}.{RECORD_EXT}"), text)
}

/// Reads a record file: at most [`MAX_RECORD_BYTES`], UTF-8 text. The file is never changed.
pub fn read_record_file(path: &Path) -> Result<String, Fail> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Fail::new(ErrorCode::NotFound, "no such record"),
        _ => Fail::new(ErrorCode::Io, format!("cannot read the record: {e}")),
    })?;
    if meta.len() > MAX_RECORD_BYTES {
        return Err(Fail::new(ErrorCode::Io, format!("record is {} bytes, more than {MAX_RECORD_BYTES}", meta.len())));
    }
    let bytes = std::fs::read(path).map_err(|e| Fail::new(ErrorCode::Io, format!("cannot read the record: {e}")))?;
    String::from_utf8(bytes).map_err(|_| Fail::new(ErrorCode::LogMalformed, "record is not UTF-8 text"))
}

/// Reads the record `name` (as in [`check_name`]) from `dir`.
pub fn read_record(dir: &Path, name: &str) -> Result<String, Fail> {
    read_record_file(&record_path(dir, check_name(name)?))
}

/// Deletes the record `name` (as in [`check_name`]) from `dir`.
pub fn delete_record(dir: &Path, name: &str) -> Result<(), Fail> {
    let stem = check_name(name)?;
    let path = record_path(dir, stem);
    std::fs::remove_file(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Fail::new(ErrorCode::NotFound, "no such record"),
        _ => Fail::new(ErrorCode::Io, format!("cannot delete: {e}")),
    })?;
    // Its review goes with it (there may be none).
    let _ = std::fs::remove_file(guandan_ai::review::cache_path(&path));
    Ok(())
}

/// The record files in `dir` with their stems; files being written (a leading dot) and other
/// extensions are left out. A missing folder has none.
fn record_entries(dir: &Path) -> impl Iterator<Item = (String, std::fs::DirEntry)> {
    std::fs::read_dir(dir).into_iter().flatten().filter_map(Result::ok).filter_map(|e| {
        let name = e.file_name().into_string().ok()?;
        if name.starts_with('.') {
            return None;
        }
        let stem = name.strip_suffix(&format!(".{RECORD_EXT}"))?.to_string();
        Some((stem, e))
    })
}

/// The record files in `dir` (stem -> size in bytes), in name order.
pub fn record_files(dir: &Path) -> BTreeMap<String, u64> {
    record_entries(dir).filter_map(|(stem, e)| Some((stem, e.metadata().ok()?.len()))).collect()
}

/// The names of the records in `dir`, sorted.
pub fn list_records(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = record_entries(dir).map(|(stem, _)| stem).collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder under the system's temp folder, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(tag: &str) -> Self {
            let d = std::env::temp_dir().join(format!("guandan-store-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            TempDir(d)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    #[test]
    fn names_are_plain_file_names() {
        assert_eq!(check_name("match-1").unwrap(), "match-1");
        assert_eq!(check_name("a.b_c.jsonl").unwrap(), "a.b_c");
        for bad in ["", ".hidden", "../x", "a/b", "a\\b", "é", ".jsonl", &"x".repeat(65)] {
            assert_eq!(check_name(bad).unwrap_err().code, ErrorCode::BadArgument, "{bad:?}");
        }
    }

    #[test]
    fn the_folders_sit_under_the_user_folder() {
        let dirs = UserDirs::new("/u");
        assert_eq!(dirs.records(), Path::new("/u/records"));
        assert_eq!(dirs.stats(), Path::new("/u/stats"));
        assert_eq!(dirs.crash(), Path::new("/u/crash"));
    }

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporary_files() {
        let tmp = TempDir::new("atomic");
        // The folder is made on the first write.
        let dir = tmp.0.join("records");
        let path = write_record(&dir, "m", "hello\n").unwrap();
        assert_eq!(path, dir.join("m.jsonl"));
        assert_eq!(read_record(&dir, "m").unwrap(), "hello\n");
        write_record(&dir, "m.jsonl", "again\n").unwrap();
        assert_eq!(read_record(&dir, "m").unwrap(), "again\n");
        assert_eq!(entries(&dir), ["m.jsonl"]);
    }

    #[test]
    fn a_failed_write_keeps_what_was_there_and_no_temporary_file() {
        let tmp = TempDir::new("failed");
        std::fs::write(tmp.0.join("keep.json"), "old").unwrap();
        // A folder where the file should go: the rename over it fails.
        std::fs::create_dir(tmp.0.join("taken.json")).unwrap();
        let err = write_file_atomic(&tmp.0, "taken.json", "new").unwrap_err();
        assert_eq!(err.code, ErrorCode::Io);
        assert!(err.message.contains("rename"), "{}", err.message);
        assert_eq!(entries(&tmp.0), ["keep.json", "taken.json"]);
        assert!(tmp.0.join("taken.json").is_dir());
        assert_eq!(std::fs::read_to_string(tmp.0.join("keep.json")).unwrap(), "old");
        // A bad name writes nothing at all.
        assert_eq!(write_record(&tmp.0, "../escape", "x").unwrap_err().code, ErrorCode::BadArgument);
        assert_eq!(entries(&tmp.0), ["keep.json", "taken.json"]);
    }

    #[test]
    fn bad_oversized_and_garbled_records_are_refused_and_left_alone() {
        let tmp = TempDir::new("refused");
        let dir = &tmp.0;
        assert_eq!(read_record(dir, "none").unwrap_err().code, ErrorCode::NotFound);
        assert_eq!(read_record(dir, "../none").unwrap_err().code, ErrorCode::BadArgument);

        // Sparse: one byte over the limit costs no disk.
        let big = std::fs::File::create(record_path(dir, "big")).unwrap();
        big.set_len(MAX_RECORD_BYTES + 1).unwrap();
        drop(big);
        let err = read_record(dir, "big").unwrap_err();
        assert_eq!(err.code, ErrorCode::Io);
        assert!(err.message.contains("more than"), "{}", err.message);

        std::fs::write(record_path(dir, "garbled"), b"{\"version\":1,\xff\xfe}\n").unwrap();
        assert_eq!(read_record(dir, "garbled").unwrap_err().code, ErrorCode::LogMalformed);

        // Refusing changes nothing on disk.
        assert_eq!(std::fs::metadata(record_path(dir, "big")).unwrap().len(), MAX_RECORD_BYTES + 1);
        assert_eq!(std::fs::read(record_path(dir, "garbled")).unwrap(), b"{\"version\":1,\xff\xfe}\n");
        assert_eq!(entries(dir), ["big.jsonl", "garbled.jsonl"]);
    }

    #[test]
    fn listing_is_sorted_and_skips_hidden_and_other_files() {
        let tmp = TempDir::new("list");
        let dir = &tmp.0;
        assert!(list_records(&dir.join("missing")).is_empty());
        for (name, text) in [("match_2.jsonl", "bb"), ("match_10.jsonl", "c"), ("a.jsonl", "aaa")] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        // A write in progress, another kind of file, a name without the extension.
        for other in [".match_3.jsonl.42.tmp", "notes.txt", "jsonl"] {
            std::fs::write(dir.join(other), "x").unwrap();
        }
        // Byte order of the names (the game's start with a zero-padded date and time: time order).
        assert_eq!(list_records(dir), ["a", "match_10", "match_2"]);
        let files: Vec<_> = record_files(dir).into_iter().collect();
        assert_eq!(files, [("a".to_string(), 3), ("match_10".to_string(), 1), ("match_2".to_string(), 2)]);
    }

    #[test]
    fn deleting_takes_only_the_named_record() {
        let tmp = TempDir::new("delete");
        let dir = &tmp.0;
        write_record(dir, "a", "1").unwrap();
        write_record(dir, "b", "2").unwrap();
        // Each with its kept review: not a record of its own, and it goes with its record.
        std::fs::write(dir.join("a.jsonl.review.json"), "{}").unwrap();
        std::fs::write(dir.join("b.jsonl.review.json"), "{}").unwrap();
        assert_eq!(list_records(dir), ["a", "b"]);
        delete_record(dir, "a").unwrap();
        assert_eq!(list_records(dir), ["b"]);
        assert_eq!(entries(dir), ["b.jsonl", "b.jsonl.review.json"]);
        assert_eq!(delete_record(dir, "a").unwrap_err().code, ErrorCode::NotFound);
        assert_eq!(delete_record(dir, "../b").unwrap_err().code, ErrorCode::BadArgument);
        assert_eq!(list_records(dir), ["b"]);
    }
}
