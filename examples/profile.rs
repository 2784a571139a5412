//! Random playouts of one game, for profiling the engine: `cargo run --release --example profile -- games/kalah.mancala 3`
//!
//! `hand:N` instead of a file plays the N-th hand-written engine of `mancala-baseline` (see
//! `mancala_baseline::all`), to compare instructions per ply. The games are played as `mancala bench` plays
//! them (`Playout::run`). `PROFILE_GAMES=N` plays N games instead of a time, for repeatable counts under
//! callgrind: `valgrind --tool=callgrind --toggle-collect='*profile::play*' target/release/examples/profile FILE`
//! counts the playouts alone (not the compiling), to divide by the plies printed.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map(String::as_str).unwrap_or("games/kalah.mancala");
    let secs: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let fixed: Option<u64> = std::env::var("PROFILE_GAMES").ok().and_then(|v| v.parse().ok());
    let until =
        |games: u64, start: std::time::Instant| fixed.map_or(start.elapsed().as_secs_f64() < secs, |n| games < n);
    let mut rng = mancala::playout::Dice::with_seed(1);
    let (name, mut play): (String, Box<dyn FnMut(&mut mancala::playout::Dice) -> u64>) =
        if let Some(n) = path.strip_prefix("hand:").and_then(|n| n.parse::<usize>().ok()) {
            let all = mancala_baseline::all();
            let hand = all[n.min(all.len() - 1)];
            (hand.name.to_string(), Box::new(move |rng| (hand.random_game)(rng) as u64))
        } else {
            let variant = args.get(2).map(String::as_str);
            let src = std::fs::read_to_string(path).expect("readable file");
            let engine: &'static mancala::engine::Engine =
                Box::leak(Box::new(mancala::compile(&src, variant, None).expect("valid rules")));
            let mut playout = mancala::playout::Playout::new(engine);
            (path.to_string(), Box::new(move |rng| playout.run(rng, |_| {}).plies as u64))
        };
    let start = std::time::Instant::now();
    let (plies, games) = play_games(&mut play, &mut rng, |g| until(g, start));
    let dt = start.elapsed().as_secs_f64();
    println!(
        "{name}: {games} games, {:.1} plies/game, {:.2} M plies/s, {plies} plies",
        plies as f64 / games as f64,
        plies as f64 / dt / 1e6
    );
}

/// Plays games while `more` says so; returns the plies and games played. Not inlined, so that callgrind can
/// count it alone.
#[inline(never)]
fn play_games(
    play: &mut dyn FnMut(&mut mancala::playout::Dice) -> u64,
    rng: &mut mancala::playout::Dice,
    more: impl Fn(u64) -> bool,
) -> (u64, u64) {
    let (mut plies, mut games) = (0u64, 0u64);
    while more(games) {
        plies += play(rng);
        games += 1;
    }
    (plies, games)
}
