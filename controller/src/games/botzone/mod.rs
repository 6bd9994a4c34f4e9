//! Any game whose judge speaks Botzone's protocol (botzone.org.cn, and its public
//! `ailab-pku/botzone-local`): a game is a folder with a `game.toml`, a judge program and
//! optionally padding bots ([`manifest`]); the judge and the bots speak Botzone's JSON
//! protocols ([`wire`]); one game is played by [`table`].

pub mod manifest;
pub mod table;
pub mod wire;

pub use manifest::{BotLimits, JudgeLimits, Manifest, ManifestError};
