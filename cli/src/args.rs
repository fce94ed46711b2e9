//! A small command-line reader: `--flag`, `--option value` and positional words, with typed
//! errors for anything unknown or malformed. Each subcommand declares what it accepts.

use std::collections::BTreeMap;
use std::str::FromStr;

use acesup_core::Variant;

/// A problem with the command line; printed to the user, exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    /// An option this subcommand does not know.
    #[error("unknown option {0} (see --help)")]
    UnknownOption(String),
    /// An option given without its value.
    #[error("{0} needs a value")]
    MissingValue(String),
    /// A value that does not parse.
    #[error("{option}: {message}")]
    BadValue {
        /// The option.
        option: String,
        /// What was wrong.
        message: String,
    },
    /// A word that is not an option where none is expected.
    #[error("unexpected argument {0} (see --help)")]
    Unexpected(String),
}

/// The parsed options of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    values: BTreeMap<String, String>,
    flags: Vec<String>,
    /// Words that are not options, in order.
    pub positional: Vec<String>,
}

impl Args {
    /// Reads `words`; `with_value` lists options that take a value, `switches` those that don't.
    pub fn parse(
        words: &[String],
        with_value: &[&str],
        switches: &[&str],
    ) -> Result<Args, UsageError> {
        let mut args = Args::default();
        let mut iter = words.iter();
        while let Some(word) = iter.next() {
            if let Some(name) = word.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((name, value)) => (name, Some(value.to_owned())),
                    None => (name, None),
                };
                if with_value.contains(&name) {
                    let value = match inline {
                        Some(value) => value,
                        None => iter
                            .next()
                            .cloned()
                            .ok_or_else(|| UsageError::MissingValue(format!("--{name}")))?,
                    };
                    args.values.insert(name.to_owned(), value);
                } else if switches.contains(&name) && inline.is_none() {
                    args.flags.push(name.to_owned());
                } else {
                    return Err(UsageError::UnknownOption(word.clone()));
                }
            } else {
                args.positional.push(word.clone());
            }
        }
        Ok(args)
    }

    /// Whether a switch was given.
    pub fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|flag| flag == name)
    }

    /// The raw text of an option.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// An option parsed with `FromStr`, if given.
    pub fn parsed<T: FromStr>(&self, name: &str) -> Result<Option<T>, UsageError>
    where
        T::Err: std::fmt::Display,
    {
        self.value(name)
            .map(|text| {
                text.parse::<T>().map_err(|error| UsageError::BadValue {
                    option: format!("--{name}"),
                    message: error.to_string(),
                })
            })
            .transpose()
    }

    /// The `--variant` option, if given (`standard`, `aces-only` or `free-cell`).
    pub fn variant(&self) -> Result<Option<Variant>, UsageError> {
        self.value("variant")
            .map(|code| {
                Variant::from_code(code).ok_or_else(|| UsageError::BadValue {
                    option: "--variant".to_owned(),
                    message: format!("\"{code}\" is not standard, aces-only or free-cell"),
                })
            })
            .transpose()
    }

    /// Reads a subcommand's words that take no positional argument. `--help` prints `help`
    /// and gives `None`: the subcommand has nothing more to do.
    pub fn for_command(
        words: &[String],
        with_value: &[&str],
        switches: &[&str],
        help: &str,
    ) -> Result<Option<Args>, UsageError> {
        if words.iter().any(|word| word == "--help" || word == "-h") {
            println!("{help}");
            return Ok(None);
        }
        let args = Args::parse(words, with_value, switches)?;
        args.no_positional()?;
        Ok(Some(args))
    }

    /// Fails if any positional word was given.
    pub fn no_positional(&self) -> Result<(), UsageError> {
        match self.positional.first() {
            Some(word) => Err(UsageError::Unexpected(word.clone())),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn reads_values_switches_and_positionals() {
        let args = Args::parse(
            &words("--deal 7 --json --variant=free-cell x"),
            &["deal", "variant"],
            &["json"],
        )
        .unwrap();
        assert_eq!(args.parsed::<u64>("deal").unwrap(), Some(7));
        assert_eq!(args.value("variant"), Some("free-cell"));
        assert!(args.flag("json"));
        assert_eq!(args.positional, ["x"]);
    }

    #[test]
    fn refuses_unknown_missing_and_malformed() {
        assert!(matches!(
            Args::parse(&words("--nope"), &[], &[]),
            Err(UsageError::UnknownOption(_))
        ));
        assert!(matches!(
            Args::parse(&words("--deal"), &["deal"], &[]),
            Err(UsageError::MissingValue(_))
        ));
        let args = Args::parse(&words("--deal x"), &["deal"], &[]).unwrap();
        assert!(matches!(
            args.parsed::<u64>("deal"),
            Err(UsageError::BadValue { .. })
        ));
        assert!(matches!(
            Args::parse(&words("--json=1"), &[], &["json"]),
            Err(UsageError::UnknownOption(_))
        ));
    }
}
