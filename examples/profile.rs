//! Random playouts of one game for a fixed time, for profiling the engine: `cargo run --release --example profile -- games/kalah.mancala 3`
//!
//! `hand:N` instead of a file plays the N-th hand-written engine of `mancala-baseline` (0: Kalah tight,
//! 1: Kalah plain, 2: Oware tight), to compare instructions per ply under `perf stat` or callgrind.
use rand::{Rng, SeedableRng};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map(String::as_str).unwrap_or("games/kalah.mancala");
    let secs: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let fixed: Option<u64> = std::env::var("PROFILE_GAMES").ok().and_then(|v| v.parse().ok());
    if let Some(n) = path.strip_prefix("hand:").and_then(|n| n.parse::<usize>().ok()) {
        let hand = mancala_baseline::all()[n.min(2)];
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let start = std::time::Instant::now();
        let (mut plies, mut games) = (0u64, 0u64);
        while fixed.map_or(start.elapsed().as_secs_f64() < secs, |n| games < n) {
            plies += (hand.random_game)(&mut rng) as u64;
            games += 1;
        }
        let dt = start.elapsed().as_secs_f64();
        println!("{}: {games} games, {:.2} M plies/s, {plies} plies", hand.name, plies as f64 / dt / 1e6);
        return;
    }
    let variant = args.get(2).map(String::as_str);
    let src = std::fs::read_to_string(path).expect("readable file");
    let engine = mancala::compile(&src, variant, None).expect("valid rules");
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let mut buf = Vec::new();
    let start = std::time::Instant::now();
    let (mut plies, mut games) = (0u64, 0u64);
    // A fixed number of games instead (PROFILE_GAMES=N) gives repeatable counts under callgrind.
    while fixed.map_or(start.elapsed().as_secs_f64() < secs, |n| games < n) {
        for _ in 0..100 {
            let mut st = engine.initial_state();
            while st.result.is_none() {
                buf.clear();
                engine.legal_moves(&st, &mut buf);
                let m = buf[rng.gen_range(0..buf.len())];
                engine.apply_unchecked(&mut st, m);
            }
            plies += st.ply as u64;
            games += 1;
        }
    }
    let dt = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {:.1} plies/game, {:.2} M plies/s, {plies} plies",
        plies as f64 / games as f64,
        plies as f64 / dt / 1e6
    );
}
