//! The report's pictures as inline SVG text: confidence-interval bars, box plots and the
//! colours of the head-to-head heat map. Pure string building, so the page needs no script
//! to show them.

use super::escape;
use super::stats::Distribution;

/// A scale for a picture: from `lo` to `hi` with a tick every `step`, round numbers that hold
/// the data with little room to spare, so that differences between players show (an axis from
/// 0 would squeeze intervals near 40–50 into dots).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub step: f64,
}

impl Axis {
    /// The tightest scale of about four to eight steps of 1, 2 or 5 × 10ⁿ holding `lo..=hi`.
    pub fn around(lo: f64, hi: f64) -> Axis {
        let (lo, hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        let span = if hi > lo {
            hi - lo
        } else {
            (hi.abs() * 0.2).max(1.0)
        };
        let raw = span / 5.0;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * magnitude)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * magnitude);
        let mut axis_lo = (lo / step).floor() * step;
        let mut axis_hi = (hi / step).ceil() * step;
        if axis_hi <= axis_lo {
            axis_lo -= step;
            axis_hi += step;
        }
        if lo >= 0.0 {
            axis_lo = axis_lo.max(0.0);
        }
        Axis {
            lo: axis_lo,
            hi: axis_hi,
            step,
        }
    }

    /// Where `v` falls between `left` and `left + width`, kept inside.
    pub fn x(&self, v: f64, left: f64, width: f64) -> f64 {
        let t = ((v - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0);
        left + t * width
    }

    /// The values of the ticks, `lo` to `hi`.
    pub fn ticks(&self) -> Vec<f64> {
        let n = ((self.hi - self.lo) / self.step).round() as usize;
        (0..=n).map(|i| self.lo + self.step * i as f64).collect()
    }
}

/// A tick's label: as few decimals as the step needs.
pub fn tick_label(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    format!("{v:.decimals$}")
}

/// The width of an interval bar (and of the axis above the bars).
const CI_WIDTH: f64 = 200.0;

/// The axis drawn in the head of the interval column: ticks with their values.
pub fn ci_axis(axis: &Axis) -> String {
    let mut svg = format!(
        "<svg class=\"ciaxis\" width=\"{CI_WIDTH}\" height=\"20\" viewBox=\"0 0 {CI_WIDTH} 20\" \
         role=\"img\" aria-label=\"mean score, {} to {}\" data-lo=\"{}\" data-hi=\"{}\">\
         <line x1=\"8\" x2=\"{}\" y1=\"19\" y2=\"19\" class=\"axis\"/>",
        tick_label(axis.lo, axis.step),
        tick_label(axis.hi, axis.step),
        axis.lo,
        axis.hi,
        CI_WIDTH - 8.0
    );
    for v in axis.ticks() {
        let x = axis.x(v, 8.0, CI_WIDTH - 16.0);
        svg.push_str(&format!(
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"15\" y2=\"19\" class=\"axis\"/>\
             <text x=\"{x:.1}\" y=\"11\" class=\"tick\">{}</text>",
            tick_label(v, axis.step)
        ));
    }
    svg.push_str("</svg>");
    svg
}

/// A small bar from `mean - ci` to `mean + ci` with a dot at the mean, on `axis` (the one
/// [`ci_axis`] draws above the bars), with faint lines at its ticks.
pub fn ci_bar(mean: f64, ci: Option<f64>, axis: &Axis) -> String {
    let x = |v: f64| axis.x(v, 8.0, CI_WIDTH - 16.0);
    // A mean off the scale (a player far from the field): a mark at the edge it lies beyond.
    let off = if mean > axis.hi {
        Some((CI_WIDTH - 1.0, CI_WIDTH - 9.0))
    } else if mean < axis.lo {
        Some((1.0, 9.0))
    } else {
        None
    };
    if let Some((tip, base)) = off {
        return format!(
            "<svg class=\"cibar\" width=\"{CI_WIDTH}\" height=\"16\" viewBox=\"0 0 {CI_WIDTH} \
             16\" role=\"img\" aria-label=\"mean {mean:.2}, off the scale\">\
             <title>mean {mean:.2}, off the scale</title>\
             <polygon points=\"{tip:.1},8 {base:.1},2 {base:.1},14\" class=\"outlier\"/></svg>"
        );
    }
    let bar = match ci {
        Some(ci) => format!(
            "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"8\" y2=\"8\" class=\"ci\"/>",
            x(mean - ci),
            x(mean + ci)
        ),
        None => String::new(),
    };
    let grid: String = axis
        .ticks()
        .iter()
        .map(|&v| {
            format!(
                "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"0\" y2=\"16\" class=\"grid\"/>",
                x(v)
            )
        })
        .collect();
    format!(
        "<svg class=\"cibar\" width=\"{CI_WIDTH}\" height=\"16\" viewBox=\"0 0 {CI_WIDTH} 16\" \
         role=\"img\" aria-label=\"mean {mean:.2}\">{grid}{bar}\
         <circle cx=\"{:.1}\" cy=\"8\" r=\"3.5\" class=\"mean\"/></svg>",
        x(mean)
    )
}

/// One box plot per player on a shared axis over the scores' range: whiskers from min to max,
/// the box from the first to the third quartile, a line at the median and a dot at the mean.
pub fn box_plots(rows: &[(String, bool, f64, Distribution)]) -> String {
    const LABEL: f64 = 170.0;
    const PLOT: f64 = 560.0;
    const ROW: f64 = 24.0;
    let lo = rows.iter().map(|r| r.3.min).min().unwrap_or_default();
    let hi = rows.iter().map(|r| r.3.max).max().unwrap_or_default();
    let axis = Axis::around(lo.get(), hi.get());
    let x = |v: f64| axis.x(v, LABEL, PLOT);
    let height = ROW * rows.len() as f64 + 44.0;
    let mut svg = format!(
        "<svg class=\"boxes\" width=\"{w}\" height=\"{height}\" viewBox=\"0 0 {w} {height}\" \
         role=\"img\" aria-label=\"score distribution per player\" data-lo=\"{}\" \
         data-hi=\"{}\">",
        axis.lo,
        axis.hi,
        w = LABEL + PLOT + 20.0
    );
    for v in axis.ticks() {
        svg.push_str(&format!(
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"0\" y2=\"{1}\" class=\"grid\"/>\
             <text x=\"{0:.1}\" y=\"{2}\" class=\"tick\">{3}</text>",
            x(v),
            height - 32.0,
            height - 18.0,
            tick_label(v, axis.step)
        ));
    }
    svg.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{}\" class=\"tick\">score per game</text>",
        LABEL + PLOT / 2.0,
        height - 3.0
    ));
    for (i, (name, builtin, mean, d)) in rows.iter().enumerate() {
        let y = ROW * i as f64 + ROW / 2.0;
        let class = if *builtin { "builtin" } else { "bot" };
        svg.push_str(&format!(
            "<g class=\"{class}\"><title>{name}: min {min}, quartiles {q1} {med} {q3}, max {max}, mean {mean:.2} ({games} games)</title>\
             <text x=\"{lx}\" y=\"{ty:.1}\" class=\"label\">{name}</text>\
             <line x1=\"{a:.1}\" x2=\"{b:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" class=\"whisker\"/>\
             <rect x=\"{c:.1}\" y=\"{top:.1}\" width=\"{w:.1}\" height=\"12\" class=\"box\"/>\
             <line x1=\"{m:.1}\" x2=\"{m:.1}\" y1=\"{top:.1}\" y2=\"{bot:.1}\" class=\"median\"/>\
             <circle cx=\"{mx:.1}\" cy=\"{y:.1}\" r=\"2.5\" class=\"mean\"/></g>",
            name = escape(name),
            min = d.min,
            q1 = d.q1,
            med = d.median,
            q3 = d.q3,
            max = d.max,
            games = d.games,
            lx = LABEL - 8.0,
            ty = y + 4.0,
            a = x(d.min.get()),
            b = x(d.max.get()),
            c = x(d.q1.get()),
            w = (x(d.q3.get()) - x(d.q1.get())).max(1.0),
            top = y - 6.0,
            bot = y + 6.0,
            m = x(d.median.get()),
            mx = x(*mean),
        ));
    }
    svg.push_str("</svg>");
    svg
}

/// The background of a heat-map cell for a share of points in 0..=1: green when the row's
/// player did better, red when worse, pale near one half.
pub fn heat_colour(share: f64) -> String {
    let hue = (share.clamp(0.0, 1.0) * 120.0).round();
    let strength = ((share - 0.5).abs() * 2.0 * 45.0 + 45.0).round();
    format!("hsl({hue} {strength}% 80%)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_hold_the_data_tightly_and_bars_stay_inside_their_box() {
        let a = Axis::around(41.3, 49.1);
        assert_eq!((a.lo, a.hi, a.step), (40.0, 50.0, 2.0));
        let a = Axis::around(8.6, 23.0);
        assert_eq!((a.lo, a.hi, a.step), (5.0, 25.0, 5.0));
        let a = Axis::around(5.0, 5.0);
        assert!(a.lo < 5.0 && a.hi > 5.0, "{a:?}");
        assert!(Axis::around(0.0, 0.3).lo >= 0.0);
        assert_eq!(tick_label(0.25, 0.05), "0.25");
        assert_eq!(tick_label(40.0, 2.0), "40");
        let axis = Axis::around(10.0, 30.0);
        let bar = ci_bar(20.0, Some(30.0), &axis);
        assert!(
            bar.contains("x1=\"8.0\" x2=\"192.0\" y1=\"8\""),
            "cut at both ends: {bar}"
        );
        assert!(!ci_bar(5.0, None, &axis).contains("class=\"ci\""));
        assert!(ci_axis(&axis).contains(">30</text>"));
        assert!(heat_colour(1.0).starts_with("hsl(120 "));
        assert!(heat_colour(0.0).starts_with("hsl(0 "));
    }
}
