//! TEMPORARY stub: replaced by the protocol branch.
use std::path::Path;
use std::sync::Arc;

use crate::game::View;

#[derive(thiserror::Error, Debug, Clone)]
pub enum TemplateError {
    #[error("{0}")]
    Other(String),
}

#[derive(thiserror::Error, Debug, Clone, PartialEq)]
pub enum ReplyError {
    #[error("not a number: {0}")]
    NotANumber(String),
}
impl ReplyError {
    pub fn kind(&self) -> &'static str {
        "not_a_number"
    }
}

pub struct TemplateSet;
impl TemplateSet {
    pub fn from_file(_path: &Path) -> Result<TemplateSet, TemplateError> {
        Ok(TemplateSet)
    }
    pub fn name(&self) -> &str {
        "default"
    }
    pub fn render(&self, view: &View) -> Result<Option<String>, TemplateError> {
        let j = |v: &[u8]| {
            v.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let rows = |v: &View| {
            let c: Vec<String> = v.rows.iter().map(|r| r.count.to_string()).collect();
            let w: Vec<String> = v.rows.iter().map(|r| r.cows.to_string()).collect();
            let t: Vec<String> = v.rows.iter().map(|r| r.top.to_string()).collect();
            format!(
                "count {}\ncows {}\ntop {}\n",
                c.join(" "),
                w.join(" "),
                t.join(" ")
            )
        };
        use crate::game::Phase::*;
        Ok(match view.phase {
            Start => None,
            Cards => Some(format!("cards {}\n", j(&view.dealt))),
            Turn => Some(rows(view)),
            Used => Some(format!("used {}\n", j(&view.used))),
            Pickrow => Some(format!("pickrow\n{}", rows(view))),
            Cardgain => Some(format!(
                "cardgain {}\ncowgain {}\n",
                j(&view.gained),
                view.gained_cows
            )),
            Score => Some(format!(
                "score {}\nothers {}\n",
                view.score,
                view.others
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
            Invalid => Some("invalid\n".into()),
        })
    }
    pub fn parse_card(&self, reply: &str) -> Result<i64, ReplyError> {
        reply
            .trim()
            .parse()
            .map_err(|_| ReplyError::NotANumber(reply.into()))
    }
    pub fn parse_row(&self, reply: &str) -> Result<i64, ReplyError> {
        self.parse_card(reply)
    }
}

pub struct TemplateLibrary;
impl TemplateLibrary {
    pub fn load(_dir: Option<&Path>) -> Result<TemplateLibrary, TemplateError> {
        Ok(TemplateLibrary)
    }
    pub fn get(&self, _name: &str) -> Result<Arc<TemplateSet>, TemplateError> {
        Ok(Arc::new(TemplateSet))
    }
    pub fn names(&self) -> Vec<String> {
        vec!["default".into()]
    }
}

pub fn default_set() -> Arc<TemplateSet> {
    Arc::new(TemplateSet)
}
