//! `analyze --report`: the analysis as one HTML page, its charts drawn as SVG by plotters, its tables as
//! HTML. The page stands alone (no script, no file beside it), so it can be mailed or served as it is.

use std::fmt::Write as _;

use plotters::prelude::*;

use super::Analysis;

/// The page.
pub fn html(a: &Analysis) -> String {
    let name = super::title(a);
    let mut page = String::new();
    let _ = write!(
        page,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}: analysis</title>\n\
         <style>body{{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}}\
         table{{border-collapse:collapse;margin:1rem 0}}td,th{{padding:.2rem .6rem;text-align:left;\
         border-bottom:1px solid #ddd}}td.n{{text-align:right;font-variant-numeric:tabular-nums}}\
         .bar{{background:#4a7ab5;height:.8rem;display:inline-block}}.never{{color:#b33}}</style></head><body>\n\
         <h1>{title}</h1>\n<p>{players} player{s}, seed {seed}. Made by <code>mancala analyze</code>.</p>\n",
        title = escape(&name),
        players = a.players,
        s = if a.players == 1 { "" } else { "s" },
        seed = a.seed,
    );
    page.push_str("<h2>Who wins</h2>\n");
    page.push_str(&win_chart(a));
    page.push_str(&matchup_table(a));
    page.push_str("<h2>How long games last (random play)</h2>\n");
    page.push_str(&length_chart(a));
    let l = &a.lengths;
    let _ = writeln!(
        page,
        "<p>Mean {:.1} plies, median {}, 10% of games under {}, 90% under {}, longest {}.</p>",
        l.mean, l.median, l.p10, l.p90, l.max
    );
    page.push_str("<h2>Rules fired (random play)</h2>\n");
    page.push_str(&rules_table(a));
    page.push_str("<h2>Opening plies</h2>\n");
    page.push_str(&openings_table(a));
    page.push_str("</body></html>\n");
    page
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The first player's win rate for each kind of play, with its 95% interval as an error bar.
fn win_chart(a: &Analysis) -> String {
    let mut svg = String::new();
    let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
        let root = SVGBackend::with_string(&mut svg, (640, 300)).into_drawing_area();
        root.fill(&WHITE)?;
        // Segments 0..=last, one per kind of play.
        let last = (a.matchups.len() as u32).max(1) - 1;
        let mut chart = ChartBuilder::on(&root)
            .caption("First player's win rate (95% interval)", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d((0..last).into_segmented(), 0.0..1.0)?;
        let names: Vec<String> = a.matchups.iter().map(|m| m.players.clone()).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(names.len().max(1))
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .draw()?;
        let bar = RGBColor(74, 122, 181);
        chart.draw_series(a.matchups.iter().enumerate().map(|(i, m)| {
            let i = i as u32;
            let mut r = Rectangle::new(
                [(SegmentValue::Exact(i), 0.0), (SegmentValue::Exact(i + 1), m.first_player_win_rate)],
                bar.filled(),
            );
            r.set_margin(0, 0, 20, 20);
            r
        }))?;
        chart.draw_series(a.matchups.iter().enumerate().map(|(i, m)| {
            let [lo, hi] = m.first_player_interval;
            ErrorBar::new_vertical(SegmentValue::CenterOf(i as u32), lo, m.first_player_win_rate, hi, BLACK, 12)
        }))?;
        if a.players == 2 {
            // Even chances, for the eye.
            chart.draw_series(LineSeries::new(
                [(SegmentValue::Exact(0), 0.5), (SegmentValue::Last, 0.5)],
                BLACK.mix(0.4).stroke_width(1),
            ))?;
        }
        root.present()?;
        Ok(())
    })();
    figure(svg, drawn.is_ok())
}

/// How many random games lasted each number of plies.
fn length_chart(a: &Analysis) -> String {
    let mut svg = String::new();
    let drawn = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
        let root = SVGBackend::with_string(&mut svg, (640, 300)).into_drawing_area();
        root.fill(&WHITE)?;
        let hist = &a.lengths.histogram;
        let max_x = hist.last().map_or(1, |[n, _]| *n as u32 + 1);
        let max_y = hist.iter().map(|[_, g]| *g).max().unwrap_or(1);
        let mut chart = ChartBuilder::on(&root)
            .caption("Game length, random play", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(35)
            .y_label_area_size(50)
            .build_cartesian_2d((0u32..max_x).into_segmented(), 0u64..max_y + max_y / 10 + 1)?;
        chart.configure_mesh().disable_x_mesh().x_desc("plies").y_desc("games").draw()?;
        chart.draw_series(
            Histogram::vertical(&chart)
                .style(RGBColor(74, 122, 181).filled())
                .margin(0)
                .data(hist.iter().map(|[n, g]| (*n as u32, *g))),
        )?;
        root.present()?;
        Ok(())
    })();
    figure(svg, drawn.is_ok())
}

fn figure(svg: String, drawn: bool) -> String {
    if drawn {
        format!("<figure>{svg}</figure>\n")
    } else {
        "<p>(the chart could not be drawn)</p>\n".to_string()
    }
}

fn matchup_table(a: &Analysis) -> String {
    let mut t = String::from("<table><tr><th>players</th><th>games</th><th>first player</th><th>95% interval</th>");
    t.push_str(if a.players == 1 { "<th>lost</th>" } else { "<th>draws</th>" });
    t.push_str("<th>each seat</th><th>mean plies</th></tr>\n");
    for m in &a.matchups {
        let seats: Vec<String> = m.win_rates.iter().map(|r| format!("{:.1}%", 100.0 * r)).collect();
        let _ = writeln!(
            t,
            "<tr><td>{}</td><td class=n>{}</td><td class=n>{:.1}%</td><td class=n>{:.1}–{:.1}%</td>\
             <td class=n>{:.1}%</td><td>{}</td><td class=n>{:.1}</td></tr>",
            escape(&m.players),
            m.games,
            100.0 * m.first_player_win_rate,
            100.0 * m.first_player_interval[0],
            100.0 * m.first_player_interval[1],
            100.0 * m.draw_rate,
            seats.join(" / "),
            m.mean_plies
        );
    }
    t.push_str("</table>\n");
    t
}

fn rules_table(a: &Analysis) -> String {
    let games = a.matchups.first().map_or(1, |m| m.games.max(1)) as f64;
    let most = a.rules.iter().map(|r| r.fired).max().unwrap_or(1).max(1) as f64;
    let mut t = String::from("<table><tr><th>line</th><th>rule</th><th>per game</th><th></th></tr>\n");
    for r in &a.rules {
        let cell = if r.fired == 0 {
            "<td class=never>never</td><td></td>".to_string()
        } else {
            format!(
                "<td class=n>{:.2}</td><td><span class=bar style=\"width:{:.1}rem\"></span></td>",
                r.fired as f64 / games,
                12.0 * r.fired as f64 / most
            )
        };
        let _ = writeln!(t, "<tr><td class=n>{}</td><td><code>{}</code></td>{cell}</tr>", r.line, escape(&r.text));
    }
    t.push_str("</table>\n");
    t
}

fn openings_table(a: &Analysis) -> String {
    let o = &a.openings;
    let mut t = String::new();
    if o.method == "solve" {
        t.push_str("<p>Solved: the first player's final margin under perfect play after each opening ply.</p>\n");
        t.push_str("<table><tr><th>ply</th><th>result</th><th>margin</th></tr>\n");
        for m in &o.moves {
            let _ = writeln!(
                t,
                "<tr><td><code>{}</code></td><td>{}</td><td class=n>{:+}</td></tr>",
                escape(&m.ply),
                m.result.unwrap_or(""),
                m.value.unwrap_or(0)
            );
        }
    } else {
        match o.winnable {
            Some(true) => t.push_str("<p>Solved: a line wins from the start.</p>\n"),
            Some(false) => t.push_str("<p>Solved: no line wins from the start.</p>\n"),
            None => {}
        }
        t.push_str("<p>The first player's score over random games after each opening ply (a draw counts half).</p>\n");
        t.push_str("<table><tr><th>ply</th><th>score</th><th></th></tr>\n");
        for m in &o.moves {
            let r = m.win_rate.unwrap_or(0.0);
            let _ = writeln!(
                t,
                "<tr><td><code>{}</code></td><td class=n>{:.3}</td><td><span class=bar style=\"width:{:.1}rem\">\
                 </span></td></tr>",
                escape(&m.ply),
                r,
                12.0 * r
            );
        }
    }
    t.push_str("</table>\n");
    t
}
