//! Games other than Take 6!, each as a pure rules module (plain data, no I/O, no async) plus
//! its wire format and built-in players. The tournament machinery does not use them yet.

pub mod kingdomino;
