//! Take 6! (6 nimmt!): everything that knows the game. [`game`] holds the rules as pure
//! functions and plain data, [`protocol`] the words on the wire (template sets, reply
//! patterns), [`check`] the independent rules checker `take6 verify` runs, [`replay`] a game
//! turn by turn for people, [`table`] one game with bots, built-ins and a person (and games of
//! built-ins only, synchronously), [`builtin`] its built-in players (their [`builtin::Strategy`]
//! also names Kingdomino's), [`human`] a person at the keyboard (`take6 play`).

pub mod builtin;
pub mod check;
pub mod game;
pub mod human;
pub mod protocol;
pub mod replay;
pub mod table;
