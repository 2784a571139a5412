//! Board drawings: every board the checker accepts draws, and the shipped games' boards, with colour on
//! and off, as a person sees them.

use mancala::board::{render_view, visible_width, View};
use mancala::engine::Engine;

/// A small game on `board`, with plain seeds or a colour per player.
fn game(board: &str, players: u8, coloured: bool) -> Engine {
    game_with(board, players, coloured, 3)
}

/// A small game on `board` with `seeds` plain seeds in each pit (a colour of each of three players where
/// coloured).
fn game_with(board: &str, players: u8, coloured: bool, seeds: u32) -> Engine {
    let pieces = if coloured {
        "pieces per player { red \"R\" blue \"B\" green \"G\" yellow \"Y\" white \"W\" black \"K\" cyan \"C\" pink \"P\" }"
    } else {
        "pieces seeds"
    };
    let source = format!(
        "game \"Tiny\"\nplayers {players}\nboard {board}\n{pieces}\nsetup {{\n  every pit: {own}\n}}\n\
         turn {{\n  sow {{\n    from pits where count > 0\n    direction cw\n  }}\n}}\n\
         end {{\n  when stuck\n}}\nscore count(pits)\nwinner most score\n",
        own = if coloured { "1 red + 1 blue + 1 pink".to_string() } else { seeds.to_string() }
    );
    match mancala::compile(&source, None, None) {
        Ok(engine) => engine,
        Err(diags) => {
            panic!("{board}: {}", mancala::diag::render("tiny", &source, &diags, mancala::diag::Style::Plain))
        }
    }
}

/// Draws the start of `engine` and checks that every pit label shows.
fn draws(engine: &Engine, colour: bool) -> String {
    let st = engine.initial_state();
    let view = View { colour, marks: vec![0], ..View::default() };
    let text = render_view(engine, &st, &view);
    for place in &engine.rules.places[..engine.rules.n_pits] {
        assert!(text.contains(&place.label), "pit {} is missing from\n{text}", place.label);
    }
    text
}

#[test]
fn the_smallest_and_largest_board_of_every_shape_draws() {
    for board in ["ring 1", "ring 2", "ring 3", "ring 4", "ring 5", "ring 6", "ring 64"] {
        for (players, coloured) in [(1, false), (2, false), (8, true)] {
            let engine = game(board, players, coloured);
            let plain = draws(&engine, false);
            let colour = draws(&engine, true);
            let widths = |t: &str| t.lines().map(visible_width).collect::<Vec<_>>();
            assert_eq!(widths(&plain), widths(&colour), "{board}: colour changes the layout");
        }
    }
    // 128 pits: one seed in each, as a game holds at most 255.
    let engine = game_with("rows 4 of 32", 2, false, 1);
    let text = draws(&engine, false);
    assert!(text.contains("o32") && text.contains("I32"), "{text}");
    for board in ["rows 1 of 1", "rows 1 of 64", "rows 1 of 64 with store"] {
        let engine = game(board, 1, false);
        draws(&engine, false);
        draws(&engine, true);
    }
    for board in [
        "two_rows 1",
        "two_rows 1 with stores",
        "two_rows 26",
        "two_rows 26 with stores",
        "rows 3 of 2",
        "rows 3 of 20",
        "rows 4 of 1",
    ] {
        let engine = game(board, 2, false);
        draws(&engine, false);
        draws(&engine, true);
    }
}

#[test]
fn four_rows_wider_than_the_terminal_are_drawn_in_bands_of_whole_columns() {
    let engine = game_with("rows 4 of 32", 2, false, 1);
    for width in [60, 80, 100, 200] {
        let view = View { width, ..View::default() };
        let text = render_view(&engine, &engine.initial_state(), &view);
        assert!(text.lines().all(|l| visible_width(l) <= width), "{width} columns:\n{text}");
        // Each band keeps its columns: the far outer pit over the near one, O32 above o1 in the first.
        let first = text.lines().next().unwrap_or_default();
        assert!(first.trim_start().starts_with("O32"), "{text}");
    }
    let wide = View { width: 200, ..View::default() };
    let one_band = render_view(&engine, &engine.initial_state(), &wide);
    assert_eq!(one_band.lines().filter(|l| l.contains("o1 ")).count(), 1, "{one_band}");
}

#[test]
fn a_ring_keeps_to_the_terminal_when_it_can() {
    let engine = game("ring 64", 2, false);
    let view = View { width: 100, ..View::default() };
    let text = render_view(&engine, &engine.initial_state(), &view);
    assert!(text.lines().all(|l| visible_width(l) <= 100), "{text}");
}

fn shipped() -> impl Iterator<Item = (&'static str, &'static str)> {
    mancala::shipped::GAMES.iter().map(|g| (g.name, g.text))
}

#[test]
fn shipped_boards() {
    for (stem, source) in shipped() {
        let engine = mancala::compile(source, None, None).expect("compiles");
        let st = engine.initial_state();
        let players = engine.rules.players;
        let mut out = String::new();
        for colour in [false, true] {
            for viewer in 0..players.min(2) {
                let names = (0..players)
                    .map(|p| match p {
                        _ if p == viewer => "you".to_string(),
                        _ if players == 2 => "computer".into(),
                        _ => format!("computer {}", p + 1),
                    })
                    .collect();
                let view = View { colour, viewer: Some(viewer), names, marks: vec![0], width: 80 };
                out.push_str(&format!("--- colour {colour}, seen by seat {}\n", viewer + 1));
                out.push_str(&render_view(&engine, &st, &view));
            }
        }
        insta::assert_snapshot!(format!("board-{stem}"), out);
    }
}
