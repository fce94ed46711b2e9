//! Saves: versioned JSON files in one storage directory, written atomically, checked on load.
//!
//! Each file is an envelope `{"schema": 1, "kind": "...", "data": {...}}`. Writing goes to a
//! temporary file that is flushed to disk and then renamed over the old one, so a crash leaves
//! either the old or the new file, never half of one. A file that cannot be read, does not
//! parse, has another schema version or fails its checks is moved aside (renamed with a
//! `.bad-<millis>` suffix, never deleted) and reported; the other files are loaded regardless.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The schema version this build writes and reads.
pub const SCHEMA_VERSION: u32 = 1;

/// The files of a storage directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreFile {
    /// The game in progress.
    Game,
    /// The player's settings.
    Settings,
    /// Statistics and the round of five.
    Statistics,
    /// Finished-game records.
    Records,
}

impl StoreFile {
    /// Every file, in load order.
    pub const ALL: [StoreFile; 4] = [
        StoreFile::Settings,
        StoreFile::Statistics,
        StoreFile::Records,
        StoreFile::Game,
    ];

    /// The file name in the storage directory.
    pub fn file_name(self) -> &'static str {
        match self {
            StoreFile::Game => "game.json",
            StoreFile::Settings => "settings.json",
            StoreFile::Statistics => "statistics.json",
            StoreFile::Records => "records.json",
        }
    }

    fn kind(self) -> &'static str {
        match self {
            StoreFile::Game => "game",
            StoreFile::Settings => "settings",
            StoreFile::Statistics => "statistics",
            StoreFile::Records => "records",
        }
    }
}

/// A storage problem. Load problems name the file and where the bad copy was moved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// The storage directory cannot be created or used.
    #[error("cannot use the storage directory {path}: {message}")]
    Directory {
        /// The directory.
        path: String,
        /// What the system said.
        message: String,
    },
    /// A file could not be written.
    #[error("cannot save {file}: {message}")]
    Write {
        /// The file name.
        file: String,
        /// What the system said.
        message: String,
    },
    /// A file was unreadable, malformed or inconsistent; it was moved aside.
    #[error("{file} was damaged ({reason}) and was set aside as {moved_to}")]
    Damaged {
        /// The file name.
        file: String,
        /// What was wrong.
        reason: String,
        /// The name it was moved to (in the same directory).
        moved_to: String,
    },
    /// A file has a schema version this build does not read; it was moved aside.
    #[error(
        "{file} has schema version {found}, this version reads {expected}; it was set aside as {moved_to}"
    )]
    WrongSchema {
        /// The file name.
        file: String,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        expected: u32,
        /// The name it was moved to.
        moved_to: String,
    },
}

impl StorageError {
    /// A stable, machine-readable name for the case.
    pub fn code(&self) -> &'static str {
        match self {
            StorageError::Directory { .. } => "storage_directory",
            StorageError::Write { .. } => "storage_write",
            StorageError::Damaged { .. } => "save_damaged",
            StorageError::WrongSchema { .. } => "save_wrong_schema",
        }
    }
}

#[derive(Serialize)]
struct EnvelopeOut<'a, T> {
    schema: u32,
    kind: &'a str,
    data: &'a T,
}

#[derive(Deserialize)]
struct EnvelopeHeader {
    schema: u32,
    kind: String,
}

#[derive(Deserialize)]
struct EnvelopeIn<T> {
    data: T,
}

/// One storage directory.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// Uses (and creates if needed) a storage directory.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Store, StorageError> {
        let dir = dir.into();
        let directory_error = |error: std::io::Error| StorageError::Directory {
            path: dir.display().to_string(),
            message: error.to_string(),
        };
        fs::create_dir_all(&dir).map_err(directory_error)?;
        if !fs::metadata(&dir).map_err(directory_error)?.is_dir() {
            return Err(StorageError::Directory {
                path: dir.display().to_string(),
                message: "not a directory".to_owned(),
            });
        }
        Ok(Store { dir })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, file: StoreFile) -> PathBuf {
        self.dir.join(file.file_name())
    }

    /// Writes `data` to `file` atomically (temporary file, fsync, rename, fsync directory).
    pub fn save<T: Serialize>(&self, file: StoreFile, data: &T) -> Result<(), StorageError> {
        let write_error = |message: String| StorageError::Write {
            file: file.file_name().to_owned(),
            message,
        };
        let envelope = EnvelopeOut {
            schema: SCHEMA_VERSION,
            kind: file.kind(),
            data,
        };
        let bytes = serde_json::to_vec_pretty(&envelope).map_err(|e| write_error(e.to_string()))?;
        let target = self.path(file);
        let temporary = self.dir.join(format!(".{}.tmp", file.file_name()));
        let write = || -> std::io::Result<()> {
            let mut out = fs::File::create(&temporary)?;
            out.write_all(&bytes)?;
            out.sync_all()?;
            drop(out);
            fs::rename(&temporary, &target)?;
            // Make the rename itself durable; not every platform can open a directory.
            if let Ok(dir) = fs::File::open(&self.dir) {
                let _ = dir.sync_all();
            }
            Ok(())
        };
        write().map_err(|error| {
            let _ = fs::remove_file(&temporary);
            write_error(error.to_string())
        })
    }

    /// Reads `file`. `Ok(None)` when it does not exist. A file that is unreadable, malformed,
    /// of another schema or refused by `check` is moved aside and reported as an error.
    pub fn load<T: DeserializeOwned>(
        &self,
        file: StoreFile,
        check: impl FnOnce(&T) -> Result<(), String>,
    ) -> Result<Option<T>, StorageError> {
        let path = self.path(file);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(self.set_aside(file, error.to_string())),
        };
        let header: EnvelopeHeader = serde_json::from_slice(&bytes)
            .map_err(|error| self.set_aside(file, format!("not a save file: {error}")))?;
        if header.kind != file.kind() {
            return Err(self.set_aside(file, format!("it holds {} data", header.kind)));
        }
        if header.schema != SCHEMA_VERSION {
            let moved_to = self.move_aside(file);
            return Err(StorageError::WrongSchema {
                file: file.file_name().to_owned(),
                found: header.schema,
                expected: SCHEMA_VERSION,
                moved_to,
            });
        }
        let envelope: EnvelopeIn<T> = serde_json::from_slice(&bytes)
            .map_err(|error| self.set_aside(file, error.to_string()))?;
        check(&envelope.data).map_err(|reason| self.set_aside(file, reason))?;
        Ok(Some(envelope.data))
    }

    /// Moves a file aside and returns the Damaged error that reports it.
    pub fn set_aside(&self, file: StoreFile, reason: String) -> StorageError {
        let moved_to = self.move_aside(file);
        StorageError::Damaged {
            file: file.file_name().to_owned(),
            reason,
            moved_to,
        }
    }

    fn move_aside(&self, file: StoreFile) -> String {
        let millis = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let name = format!("{}.bad-{millis}", file.file_name());
        let path = self.path(file);
        match fs::rename(&path, self.dir.join(&name)) {
            Ok(()) => name,
            Err(error) => format!("(not moved: {error})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::ScratchPath;

    fn temp_dir(name: &str) -> ScratchPath {
        ScratchPath::new(&format!("save-test-{name}"))
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        value: u32,
    }

    #[test]
    fn saves_and_loads_with_an_envelope() {
        let dir = temp_dir("roundtrip");
        let store = Store::open(&dir).unwrap();
        assert_eq!(
            store.load::<Sample>(StoreFile::Settings, |_| Ok(())),
            Ok(None)
        );
        store
            .save(StoreFile::Settings, &Sample { value: 7 })
            .unwrap();
        let text = fs::read_to_string(store.dir().join("settings.json")).unwrap();
        assert!(text.contains("\"schema\": 1"));
        assert_eq!(
            store.load::<Sample>(StoreFile::Settings, |_| Ok(())),
            Ok(Some(Sample { value: 7 }))
        );
        assert!(!store.dir().join(".settings.json.tmp").exists());
    }

    #[test]
    fn a_damaged_file_is_moved_aside_and_the_others_survive() {
        let dir = temp_dir("damaged");
        let store = Store::open(&dir).unwrap();
        store
            .save(StoreFile::Statistics, &Sample { value: 1 })
            .unwrap();
        store.save(StoreFile::Game, &Sample { value: 2 }).unwrap();
        let game = store.dir().join("game.json");
        let text = fs::read_to_string(&game).unwrap();
        fs::write(&game, &text[..text.len() / 2]).unwrap();
        let error = store
            .load::<Sample>(StoreFile::Game, |_| Ok(()))
            .unwrap_err();
        assert_eq!(error.code(), "save_damaged");
        assert!(!game.exists());
        let set_aside: Vec<_> = fs::read_dir(store.dir())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("game.json.bad-")
            })
            .collect();
        assert_eq!(set_aside.len(), 1);
        assert_eq!(
            store.load::<Sample>(StoreFile::Statistics, |_| Ok(())),
            Ok(Some(Sample { value: 1 }))
        );
    }

    #[test]
    fn wrong_schema_wrong_kind_and_failed_checks_are_refused() {
        let dir = temp_dir("schema");
        let store = Store::open(&dir).unwrap();
        let path = store.dir().join("settings.json");
        fs::write(
            &path,
            r#"{"schema": 99, "kind": "settings", "data": {"value": 1}}"#,
        )
        .unwrap();
        let error = store
            .load::<Sample>(StoreFile::Settings, |_| Ok(()))
            .unwrap_err();
        assert!(matches!(
            error,
            StorageError::WrongSchema {
                found: 99,
                expected: 1,
                ..
            }
        ));

        fs::write(
            &path,
            r#"{"schema": 1, "kind": "game", "data": {"value": 1}}"#,
        )
        .unwrap();
        assert!(
            store
                .load::<Sample>(StoreFile::Settings, |_| Ok(()))
                .is_err()
        );

        store
            .save(StoreFile::Settings, &Sample { value: 3 })
            .unwrap();
        let error = store
            .load::<Sample>(StoreFile::Settings, |s| {
                Err(format!("value {} is odd", s.value))
            })
            .unwrap_err();
        assert!(error.to_string().contains("value 3 is odd"), "{error}");

        for garbage in ["", "null", "[]", "{\"schema\":\"x\"}", "\u{0}\u{1}"] {
            fs::write(&path, garbage).unwrap();
            assert!(
                store
                    .load::<Sample>(StoreFile::Settings, |_| Ok(()))
                    .is_err(),
                "{garbage:?}"
            );
        }
    }

    #[test]
    fn a_storage_path_that_is_a_file_is_refused() {
        let dir = temp_dir("file-not-dir");
        fs::create_dir_all(dir.parent().unwrap()).unwrap();
        fs::write(&dir, "x").unwrap();
        assert!(matches!(
            Store::open(&dir),
            Err(StorageError::Directory { .. })
        ));
    }
}
