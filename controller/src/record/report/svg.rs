//! The report's pictures as inline SVG text: confidence-interval bars, box plots and the
//! colours of the head-to-head heat map. Pure string building, so the page needs no script
//! to show them.

use super::escape;
use super::stats::Distribution;

/// A round upper bound for an axis holding `max`: 10, 20, 50, 100, 200, …
pub fn nice_max(max: f64) -> f64 {
    let mut step = 10.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if max <= step * m {
                return step * m;
            }
        }
        step *= 10.0;
    }
}

/// A small bar from `mean - ci` to `mean + ci` with a dot at the mean, on a 0..`scale` axis.
pub fn ci_bar(mean: f64, ci: Option<f64>, scale: f64) -> String {
    const W: f64 = 160.0;
    let x = |v: f64| (v.max(0.0) / scale * (W - 8.0) + 4.0).min(W - 4.0);
    let bar = match ci {
        Some(ci) => format!(
            "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"8\" y2=\"8\" class=\"ci\"/>",
            x(mean - ci),
            x(mean + ci)
        ),
        None => String::new(),
    };
    format!(
        "<svg class=\"cibar\" width=\"{W}\" height=\"16\" viewBox=\"0 0 {W} 16\" role=\"img\" \
         aria-label=\"mean {mean:.2}\"><line x1=\"4\" x2=\"{}\" y1=\"15\" y2=\"15\" class=\"axis\"/>\
         {bar}<circle cx=\"{:.1}\" cy=\"8\" r=\"3.5\" class=\"mean\"/></svg>",
        W - 4.0,
        x(mean)
    )
}

/// One box plot per player on a shared axis: whiskers from min to max, the box from the
/// first to the third quartile, a line at the median and a dot at the mean.
pub fn box_plots(rows: &[(String, bool, f64, Distribution)]) -> String {
    const LABEL: f64 = 170.0;
    const PLOT: f64 = 560.0;
    const ROW: f64 = 24.0;
    let max = rows.iter().map(|r| r.3.max).max().unwrap_or(0);
    let scale = nice_max(f64::from(max.max(1)));
    let x = |v: f64| LABEL + v / scale * PLOT;
    let height = ROW * rows.len() as f64 + 30.0;
    let mut svg = format!(
        "<svg class=\"boxes\" width=\"{w}\" height=\"{height}\" viewBox=\"0 0 {w} {height}\" \
         role=\"img\" aria-label=\"score distribution per player\">",
        w = LABEL + PLOT + 20.0
    );
    for i in 0..=5 {
        let v = scale * f64::from(i) / 5.0;
        svg.push_str(&format!(
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"0\" y2=\"{1}\" class=\"grid\"/>\
             <text x=\"{0:.1}\" y=\"{2}\" class=\"tick\">{v}</text>",
            x(v),
            height - 18.0,
            height - 4.0
        ));
    }
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
            a = x(f64::from(d.min)),
            b = x(f64::from(d.max)),
            c = x(f64::from(d.q1)),
            w = (x(f64::from(d.q3)) - x(f64::from(d.q1))).max(1.0),
            top = y - 6.0,
            bot = y + 6.0,
            m = x(f64::from(d.median)),
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
    fn axes_round_up_and_bars_stay_inside_their_box() {
        assert_eq!(nice_max(7.0), 10.0);
        assert_eq!(nice_max(23.0), 50.0);
        assert_eq!(nice_max(105.0), 200.0);
        let bar = ci_bar(20.0, Some(30.0), 40.0);
        assert!(
            bar.contains("x1=\"4.0\""),
            "a bar below 0 is cut at 0: {bar}"
        );
        assert!(bar.contains("x2=\"156.0\""), "and at the right edge: {bar}");
        assert!(!ci_bar(5.0, None, 10.0).contains("class=\"ci\""));
        assert!(heat_colour(1.0).starts_with("hsl(120 "));
        assert!(heat_colour(0.0).starts_with("hsl(0 "));
    }
}
