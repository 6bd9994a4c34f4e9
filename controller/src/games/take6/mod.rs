//! Take 6! (6 nimmt!): everything that knows the game. [`game`] holds the rules as pure
//! functions and plain data, [`protocol`] the words on the wire (template sets, reply
//! patterns), [`check`] the independent rules checker `take6 verify` runs, [`replay`] a game
//! turn by turn for people. Its table (one game with bots, built-ins and a person) is still
//! [`crate::table`], its built-ins [`crate::player::Builtin`] and its keyboard screen
//! [`crate::player::human`].

pub mod check;
pub mod game;
pub mod protocol;
pub mod replay;
