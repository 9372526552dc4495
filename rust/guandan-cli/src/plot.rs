//! Charts as PNG: the arena's "win rate and level gain per opponent", and the stats' win rate over time.
//!
//! Drawn with `plotters` on its bitmap backend. Text uses `ab_glyph` with DejaVu Sans, which the
//! binary embeds from `assets/fonts/` (Bitstream Vera license, see `assets/fonts/`), so charts
//! need no system fonts and look the same on every machine.

use guandan_ai::arena::ArenaReport;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::sync::OnceLock;

/// DejaVu Sans from Debian's fonts-dejavu-core.
static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";

const WIDTH: u32 = 1100;
const HEIGHT: u32 = 560;
const A_COLOR: RGBColor = RGBColor(52, 101, 164);
const B_COLOR: RGBColor = RGBColor(232, 125, 30);
const INK: RGBColor = RGBColor(40, 40, 40);
const GRID: RGBColor = RGBColor(225, 225, 225);

fn register_font() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        plotters::style::register_font(FAMILY, FontStyle::Normal, FONT)
            .map_err(|_| "the embedded chart font is not a valid TrueType font".to_string())
    })
    .clone()
}

/// Draws one arena report.
pub fn arena_chart(report: &ArenaReport, path: &str) -> Result<(), String> {
    arena_chart_many(std::slice::from_ref(report), path)
}

/// Draws several arena reports side by side (one group of bars per A-vs-B pairing): on the left
/// A's deal win rate with its 95% confidence interval, on the right the levels A and B gained per
/// game.
#[allow(dead_code, reason = "for multi-opponent runs; the CLI draws one report so far")]
pub fn arena_chart_many(reports: &[ArenaReport], path: &str) -> Result<(), String> {
    if reports.is_empty() {
        return Err("no arena results to draw".into());
    }
    register_font()?;
    let root = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    draw(&root, reports).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw(root: &DrawingArea<BitMapBackend<'_>, Shift>, reports: &[ArenaReport]) -> DrawResult {
    root.fill(&WHITE)?;
    let games: u32 = reports.iter().map(|r| r.games).sum();
    let first = &reports[0];
    let subtitle = if reports.len() == 1 {
        format!("{} duplicate deals ({} games), {} rules, seed {}", first.deals, first.games, first.rules, first.seed)
    } else {
        format!("{} pairings, {games} games in all, {} rules", reports.len(), first.rules)
    };
    let (title, body) = root.split_vertically(70);
    title.draw(&Text::new("Win rate and level gain per opponent", (20, 12), (FAMILY, 26).into_font().color(&INK)))?;
    title.draw(&Text::new(subtitle, (20, 44), (FAMILY, 16).into_font().color(&INK.mix(0.7))))?;
    let (left, right) = body.split_horizontally(WIDTH / 2);
    win_rate_panel(&left, reports)?;
    gain_panel(&right, reports)?;
    Ok(())
}

fn label(r: &ArenaReport) -> String {
    format!("{} vs {}", r.a, r.b)
}

/// Draws each group's label under the x axis, centred on `i`.
fn x_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    reports: &[ArenaReport],
    y0: f64,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (ox, oy) = area.get_base_pixel();
    for (i, r) in reports.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64, y0));
        let style = TextStyle::from((FAMILY, 16).into_font()).color(&INK).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Top,
        ));
        area.draw(&Text::new(label(r), (px - ox, py - oy + 8), style))?;
    }
    Ok(())
}

fn value_label(text: String, at: (f64, f64)) -> Text<'static, (f64, f64), String> {
    let style = TextStyle::from((FAMILY, 14).into_font()).color(&INK).pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Center,
        plotters::style::text_anchor::VPos::Bottom,
    ));
    Text::new(text, at, style)
}

fn win_rate_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, reports: &[ArenaReport]) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let n = reports.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption("A's deal win rate (95% CI)", (FAMILY, 18).into_font().color(&INK))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(52)
        .build_cartesian_2d(-0.5..n - 0.5, 0.0..110.0)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_label_formatter(&|_| String::new())
        .y_labels(12)
        .y_label_formatter(&|v| if *v <= 100.0 { format!("{v:.0}%") } else { String::new() })
        .y_label_style((FAMILY, 14).into_font().color(&INK))
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .axis_style(INK)
        .draw()?;
    // Even odds.
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(-0.5, 50.0), (n - 0.5, 50.0)],
        ShapeStyle::from(INK.mix(0.5)).stroke_width(1),
    )))?;
    let half = 0.25;
    for (i, r) in reports.iter().enumerate() {
        let x = i as f64;
        let rate = r.a_deal_win_rate * 100.0;
        let [lo, hi] = r.a_deal_win_rate_ci95.map(|v| v * 100.0);
        chart.draw_series(std::iter::once(Rectangle::new([(x - half, 0.0), (x + half, rate)], A_COLOR.filled())))?;
        // The confidence interval: a vertical whisker with caps.
        let whisker = ShapeStyle::from(INK).stroke_width(2);
        chart.draw_series([
            PathElement::new(vec![(x, lo), (x, hi)], whisker),
            PathElement::new(vec![(x - 0.08, lo), (x + 0.08, lo)], whisker),
            PathElement::new(vec![(x - 0.08, hi), (x + 0.08, hi)], whisker),
        ])?;
        chart.draw_series(std::iter::once(value_label(
            format!("{rate:.1}% ({lo:.1}-{hi:.1})"),
            (x, hi.max(rate) + 1.5),
        )))?;
    }
    x_labels(area, &chart, reports, 0.0)?;
    Ok(())
}

fn gain_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, reports: &[ArenaReport]) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let n = reports.len() as f64;
    let top = reports.iter().map(|r| r.a_level_gain_per_deal.max(r.b_level_gain_per_deal)).fold(0.0f64, f64::max);
    // Room above the tallest bar for its value and the legend.
    let y_max = ((top * 1.35 * 4.0).ceil() / 4.0).max(0.5);
    let mut chart = ChartBuilder::on(area)
        .caption("Levels gained per game", (FAMILY, 18).into_font().color(&INK))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(52)
        .build_cartesian_2d(-0.5..n - 0.5, 0.0..y_max)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_label_formatter(&|_| String::new())
        .y_labels(8)
        .y_label_formatter(&|v| format!("{v:.2}"))
        .y_label_style((FAMILY, 14).into_font().color(&INK))
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .axis_style(INK)
        .draw()?;
    // Two bars per group, each 0.26 wide, centred 0.15 either side of the group.
    let (offset, half) = (0.15, 0.13);
    for (i, r) in reports.iter().enumerate() {
        let x = i as f64;
        let bars = [(x - offset, r.a_level_gain_per_deal, A_COLOR), (x + offset, r.b_level_gain_per_deal, B_COLOR)];
        for (cx, v, color) in bars {
            chart.draw_series(std::iter::once(Rectangle::new([(cx - half, 0.0), (cx + half, v)], color.filled())))?;
            chart.draw_series(std::iter::once(value_label(format!("{v:.3}"), (cx, v + y_max * 0.01))))?;
        }
    }
    // Legend entries (drawn as invisible series so the legend box lists them).
    let a_name = legend_name("A", reports.iter().map(|r| r.a.as_str()));
    let b_name = legend_name("B", reports.iter().map(|r| r.b.as_str()));
    chart
        .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())?
        .label(a_name)
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], A_COLOR.filled()));
    chart
        .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())?
        .label(b_name)
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], B_COLOR.filled()));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FAMILY, 14).into_font().color(&INK))
        .background_style(WHITE.mix(0.9))
        .border_style(GRID)
        .draw()?;
    x_labels(area, &chart, reports, 0.0)?;
    Ok(())
}

/// "A (L2)" when every pairing has the same A, else just "A".
fn legend_name<'a>(side: &str, mut names: impl Iterator<Item = &'a str>) -> String {
    let first = names.next().unwrap_or("");
    if names.all(|n| n == first) { format!("{side} ({first})") } else { side.to_string() }
}

/// `guandan stats --plot`: each player's match win rate after each record, as lines.
pub fn win_rate_history(path: &str, series: &[(String, Vec<f64>)]) -> Result<(), String> {
    let longest = series.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
    if longest == 0 {
        return Err("no records to draw".into());
    }
    register_font()?;
    let root = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    draw_history(&root, series, longest).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

fn draw_history(root: &DrawingArea<BitMapBackend<'_>, Shift>, series: &[(String, Vec<f64>)], n: usize) -> DrawResult {
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(root)
        .caption("Match win rate over the records", (FAMILY, 24).into_font().color(&INK))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(1f64..(n.max(2) as f64), 0f64..100f64)?;
    chart
        .configure_mesh()
        .light_line_style(GRID)
        .x_labels(n.clamp(2, 20))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("records")
        .y_desc("% of matches won")
        .label_style((FAMILY, 14).into_font().color(&INK))
        .draw()?;
    for (i, (name, rates)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let start = n - rates.len() + 1;
        let points = rates.iter().enumerate().map(|(k, r)| ((start + k) as f64, r * 100.0));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(3)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(GRID)
        .label_font((FAMILY, 14).into_font().color(&INK))
        .draw()?;
    Ok(())
}

/// `guandan train-ranker --plot`: the training and held-out loss per epoch.
pub fn training_curve(curve: &[guandan_ai::ranker::train::Epoch], path: &str) -> Result<(), String> {
    if curve.is_empty() {
        return Err("no epochs to draw".into());
    }
    register_font()?;
    let root = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    let train: Vec<(f64, f64)> = curve.iter().map(|e| (f64::from(e.epoch), e.train_loss)).collect();
    let held: Vec<(f64, f64)> = curve.iter().filter_map(|e| Some((f64::from(e.epoch), e.holdout_loss?))).collect();
    draw_curve(&root, &train, &held).map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// Epoch 0 is L2 alone, before training.
fn draw_curve(root: &DrawingArea<BitMapBackend<'_>, Shift>, train: &[(f64, f64)], held: &[(f64, f64)]) -> DrawResult {
    root.fill(&WHITE)?;
    let last = train.iter().map(|p| p.0).fold(1.0, f64::max);
    let all = train.iter().chain(held).map(|p| p.1);
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo) * 0.1).max(1e-3);
    let mut chart = ChartBuilder::on(root)
        .caption("Ranker training: cross-entropy to the search's choice", (FAMILY, 24).into_font().color(&INK))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..last, (lo - pad)..(hi + pad))?;
    chart
        .configure_mesh()
        .light_line_style(GRID)
        .x_labels((last as usize + 1).clamp(2, 20))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("epoch (0: L2 alone)")
        .y_desc("loss per decision")
        .label_style((FAMILY, 14).into_font().color(&INK))
        .draw()?;
    for (name, values, color) in [("training", train, A_COLOR), ("held out", held, B_COLOR)] {
        if values.is_empty() {
            continue;
        }
        chart
            .draw_series(LineSeries::new(values.iter().copied(), color.stroke_width(2)))?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(3)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(GRID)
        .label_font((FAMILY, 14).into_font().color(&INK))
        .draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(a: &str, b: &str, rate: f64, ci: [f64; 2], ga: f64, gb: f64) -> ArenaReport {
        ArenaReport {
            a: a.into(),
            b: b.into(),
            deals: 100,
            games: 200,
            a_deal_win_rate: rate,
            a_deal_win_rate_ci95: ci,
            a_level_gain_per_deal: ga,
            b_level_gain_per_deal: gb,
            a_decision_ms_p50: 0.0,
            a_decision_ms_p99: 0.0,
            b_decision_ms_p50: 0.0,
            b_decision_ms_p99: 0.0,
            a_decisions: 0,
            b_decisions: 0,
            a_fallbacks: 0,
            pairs_a_both: 0,
            pairs_b_both: 0,
            pairs_split: 100,
            a_level_margin_per_deal: 0.0,
            a_level_margin_ci95: [0.0, 0.0],
            matches: None,
            a_match_win_rate: None,
            a_match_win_rate_ci95: None,
            seed: 1,
            rules: "competition".into(),
        }
    }

    #[test]
    fn several_reports_draw_side_by_side() {
        let dir = std::env::temp_dir().join(format!("guandan-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("many.png");
        let reports = [
            report("L3", "L1", 0.91, [0.86, 0.94], 2.1, 0.1),
            report("L3", "L2", 0.62, [0.55, 0.68], 1.2, 0.6),
            report("L3", "L3", 0.5, [0.43, 0.57], 0.9, 0.9),
        ];
        arena_chart_many(&reports, path.to_str().unwrap()).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        if std::env::var_os("GUANDAN_KEEP_PLOT").is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        assert!(arena_chart_many(&[], "/nonexistent/x.png").is_err());
    }
}
