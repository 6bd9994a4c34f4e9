//! A compare's `report.html`: the verdict, the estimate with its interval, and the ratio's
//! path over the pairs between its two bounds (an inline SVG).

use std::fmt::Write as _;
use std::path::Path;

use super::Reading;
use super::manifest::CompareManifest;
use crate::series::SeriesError;
use crate::untrusted::html;

/// The page's file name in the compare's folder.
pub const REPORT: &str = "report.html";

/// Writes `report.html` into `dir`.
pub fn write(dir: &Path, m: &CompareManifest, reading: &Reading) -> Result<(), SeriesError> {
    crate::series::dir::replace_file(&dir.join(REPORT), page(m, reading).as_bytes(), false)
}

/// The page.
pub fn page(m: &CompareManifest, reading: &Reading) -> String {
    let t = &m.test;
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>take6 compare</title><style>body{font-family:sans-serif;margin:2em}\
         td,th{padding:0 1em 0 0;text-align:left}</style></head><body>\n",
    );
    let _ = write!(
        out,
        "<h1>{} against {}: {}</h1>\n<table>\
         <tr><th>estimate</th><td>{:+.2} {} (95 % interval {:.2} to {:.2})</td></tr>\
         <tr><th>margin</th><td>{} {}</td></tr>\
         <tr><th>pairs counted</th><td>{} ({} games played, {} void pairs)</td></tr>\
         <tr><th>LLR</th><td>{:.2}, bounds {:.2} and {:.2} (alpha {}, beta {})</td></tr>\
         <tr><th>seed</th><td>{}</td></tr></table>\n",
        html(&m.new.name),
        html(&m.old.name),
        html(&t.verdict),
        t.estimate,
        m.unit.word(),
        t.low,
        t.high,
        m.margin,
        m.unit.word(),
        t.pairs,
        m.games_played,
        t.void_pairs,
        t.llr,
        t.lower,
        t.upper,
        m.alpha,
        m.beta,
        m.seed
    );
    out.push_str("<h2>The log-likelihood ratio after each pair</h2>\n");
    out.push_str(&path_svg(&reading.path, t.lower, t.upper));
    out.push_str("\n</body></html>\n");
    out
}

/// The ratio's path (x: pairs, y: LLR) with its two bounds as lines.
pub fn path_svg(path: &[f64], lower: f64, upper: f64) -> String {
    const W: f64 = 640.0;
    const H: f64 = 240.0;
    let lo = path.iter().copied().fold(lower, f64::min) * 1.1;
    let hi = path.iter().copied().fold(upper, f64::max) * 1.1;
    let y = |v: f64| H - (v - lo) / (hi - lo) * H;
    let x = |i: usize| W * (i + 1) as f64 / path.len().max(1) as f64;
    let mut svg = format!(
        "<svg id=\"llr\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" \
         viewBox=\"0 0 {W} {H}\">"
    );
    for (v, label) in [(upper, "better"), (lower, "not better"), (0.0, "")] {
        let _ = write!(
            svg,
            "<line x1=\"0\" x2=\"{W}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#999\" \
             stroke-dasharray=\"4\"/><text x=\"4\" y=\"{1:.1}\" font-size=\"11\">{label}</text>",
            y(v),
            y(v) - 3.0
        );
    }
    let points: Vec<String> = std::iter::once(format!("0,{:.1}", y(0.0)))
        .chain(
            path.iter()
                .enumerate()
                .map(|(i, v)| format!("{:.1},{:.1}", x(i), y(*v))),
        )
        .collect();
    let _ = write!(
        svg,
        "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{}\"/></svg>",
        points.join(" ")
    );
    svg
}
