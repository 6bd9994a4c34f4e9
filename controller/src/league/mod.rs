//! `take6 league`: a hill that lives across runs (issue 38). Its games are kept across runs;
//! each batch's tables are chosen ([`choose`]) from the ranking fitted to the batches before it
//! ([`crate::record::fit`]), and it stops when the ranking is settled ([`settle`]).

pub mod choose;
pub mod settle;
