//! Scratch paths for tests: unique per call and removed when dropped, so a test run (passed or
//! failed) leaves nothing behind in the temporary directory.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Calls so far in this process: part of each path, so parallel tests never share one.
static CALLS: AtomicU64 = AtomicU64::new(0);

/// A path under the temporary directory that nothing else uses; the file or directory made
/// there is removed on drop. The path itself is not created: tests decide what it becomes.
#[derive(Debug)]
pub(crate) struct ScratchPath(PathBuf);

impl ScratchPath {
    /// A fresh path whose name starts with `acesup-{name}`.
    pub(crate) fn new(name: &str) -> ScratchPath {
        let call = CALLS.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("acesup-{name}-{}-{call}", std::process::id()));
        remove(&path);
        ScratchPath(path)
    }
}

fn remove(path: &Path) {
    if path.is_dir() {
        let _ = std::fs::remove_dir_all(path);
    } else {
        let _ = std::fs::remove_file(path);
    }
}

impl Deref for ScratchPath {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchPath {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl From<&ScratchPath> for PathBuf {
    fn from(scratch: &ScratchPath) -> PathBuf {
        scratch.0.clone()
    }
}

impl Drop for ScratchPath {
    fn drop(&mut self) {
        remove(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_unique_and_removed_on_drop() {
        let first = ScratchPath::new("scratch");
        let second = ScratchPath::new("scratch");
        assert_ne!(first.to_path_buf(), second.to_path_buf());
        std::fs::create_dir_all(first.join("inner")).unwrap();
        std::fs::write(&*second, "x").unwrap();
        let (dir, file) = (first.to_path_buf(), second.to_path_buf());
        drop(first);
        drop(second);
        assert!(!dir.exists());
        assert!(!file.exists());
    }
}
