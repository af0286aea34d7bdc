//! `baton window --svg FILE`: the chart as a standalone SVG drawn with plotters: the context
//! after each request as an area, the limit where Claude Code compacts, each compaction
//! marked, and the live context's largest items listed beside it.

use plotters::prelude::*;

use super::Timeline;
use crate::context::window::short_tokens;

const WIDTH: u32 = 1000;
const HEIGHT: u32 = 520;
/// The plot's share of the width; the list of items takes the rest.
const PLOT_WIDTH: u32 = 680;

/// The comment after the opening tag of every chart baton draws: how `baton report` tells its
/// own chart, which it may replace, from a user's file of the same name, which it keeps.
pub const MARK: &str = "<!-- drawn by baton -->";

/// What plotters could not draw.
pub type DrawError = plotters::drawing::DrawingAreaErrorKind<std::io::Error>;

/// The SVG document, or what plotters could not draw.
pub fn render(session: &str, timeline: &Timeline, window: u64, usable: u64, top: usize) -> Result<String, DrawError> {
    let mut svg = String::new();
    draw(&mut svg, session, timeline, window, usable, top)?;
    let opened = svg.find('>').map_or(0, |at| at + 1);
    svg.insert_str(opened, &format!("\n{MARK}"));
    Ok(svg)
}

/// Whether `path` is a regular file holding a chart baton drew (a symlink never is): the mark
/// is looked for in the file's first KiB.
pub fn drawn_by_baton(path: &std::path::Path) -> bool {
    use std::io::Read;
    let regular = path.symlink_metadata().is_ok_and(|m| m.file_type().is_file());
    let mut head = Vec::new();
    regular
        && std::fs::File::open(path).is_ok_and(|file| file.take(1024).read_to_end(&mut head).is_ok())
        && head.windows(MARK.len()).any(|window| window == MARK.as_bytes())
}

fn draw(
    svg: &mut String,
    session: &str,
    timeline: &Timeline,
    window: u64,
    usable: u64,
    top: usize,
) -> Result<(), DrawError> {
    let root = SVGBackend::with_string(svg, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let (plot, side) = root.split_horizontally(PLOT_WIDTH);
    let last = timeline.requests.len().max(2);
    let highest = timeline
        .requests
        .iter()
        .map(|r| r.context_tokens)
        .max()
        .unwrap_or(0)
        .max(window);
    let model = timeline.model.as_deref().unwrap_or("unknown model");
    let mut chart = ChartBuilder::on(&plot)
        .caption(format!("Context of session {session} ({model})"), ("sans-serif", 16))
        .margin(14)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(1..last, 0..highest)?;
    chart
        .configure_mesh()
        .x_desc("request")
        .y_desc("tokens in context")
        .y_label_formatter(&|tokens| short_tokens(*tokens))
        .light_line_style(WHITE)
        .draw()?;
    let sizes = timeline.requests.iter().map(|r| (r.n, r.context_tokens));
    chart
        .draw_series(AreaSeries::new(sizes, 0, BLUE.mix(0.25)).border_style(BLUE))?
        .label("context after each request")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], BLUE.mix(0.25).filled()));
    chart
        .draw_series(LineSeries::new([(1, usable), (last, usable)], RED.stroke_width(1)))?
        .label(format!("Claude Code compacts at {}", short_tokens(usable)))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 14, y)], RED));
    for compaction in &timeline.compactions {
        let at = compaction.before_request.min(last);
        chart.draw_series(LineSeries::new(
            [(at, 0), (at, highest)],
            BLACK.mix(0.6).stroke_width(1),
        ))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .draw()?;
    let style = TextStyle::from(("sans-serif", 13).into_font()).color(&BLACK);
    let live = &timeline.live;
    side.draw_text(
        &format!(
            "Live context {} (baseline {})",
            short_tokens(live.tokens),
            short_tokens(live.baseline)
        ),
        &style,
        (8, 40),
    )?;
    side.draw_text("Largest in it:", &style, (8, 62))?;
    for (row, item) in live.items.iter().take(top).enumerate() {
        let line = format!("{:>6}  {}", short_tokens(item.tokens.max(0) as u64), item.name());
        side.draw_text(&line, &style, (8, 84 + 20 * row as i32))?;
    }
    root.present()?;
    Ok(())
}
