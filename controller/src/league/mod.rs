//! `take6 league`: a hill that lives across runs. Its games are kept across runs;
//! each batch's tables are chosen ([`choose`]) from the ranking fitted to the batches before it
//! ([`crate::record::fit`]), and it stops when the ranking is settled ([`settle`]).

pub mod choose;
pub mod manifest;
pub mod outputs;
pub mod plan;
pub mod run;
pub mod settle;
pub mod verify;

/// The folder name of a game's default league (`results/league/<name>`): a game folder's path
/// reduced to its last component.
pub fn folder_name(game: &str) -> String {
    std::path::Path::new(game)
        .file_name()
        .map_or_else(|| game.to_string(), |n| n.to_string_lossy().into_owned())
}
