use rand::{Rng, SeedableRng};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let f = &args[0];
    let variant = args.get(1).map(String::as_str);
    let src = std::fs::read_to_string(f).unwrap();
    let file = match mancala::syntax::parse(&src) {
        Ok(a) => a,
        Err(e) => { print!("{}", mancala::diag::render(f, &src, &[e.into()], mancala::diag::Style::Plain)); return; }
    };
    let d = mancala::check::check(&file);
    print!("{}", mancala::diag::render(f, &src, &d, mancala::diag::Style::Plain));
    let eng = match mancala::compile(&src, variant, None) { Ok(e) => e, Err(d) => { print!("{}", mancala::diag::render(f, &src, &d, mancala::diag::Style::Plain)); return; } };
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let mut buf = Vec::new();
    let t = std::time::Instant::now();
    let mut plies = 0u64; let games = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(100);
    let mut wins = vec![0; 9];
    for _ in 0..games {
        let mut st = eng.initial_state();
        let mut steps = 0;
        while st.result.is_none() {
            buf.clear(); eng.legal_moves(&st, &mut buf);
            if buf.is_empty() { println!("no moves but no result! {:?}", st.stage); break; }
            let m = buf[rng.gen_range(0..buf.len())];
            eng.apply_unchecked(&mut st, m);
            steps += 1;
            if steps > 1_000_000 { println!("runaway"); break; }
        }
        plies += st.ply as u64;
        if let Some(o) = &st.result { if o.winners == 0 { wins[8] += 1 } else { for w in o.winner_list() { wins[w as usize] += 1 } } }
        let total: u32 = st.counts.iter().map(|&c| c as u32).sum();
        if total != eng.rules.total_pieces { println!("NOT CONSERVED {} vs {}", total, eng.rules.total_pieces); }
    }
    let dt = t.elapsed().as_secs_f64();
    println!("{} games, {:.1} plies/game, {:.2} M plies/s, wins {:?}", games, plies as f64 / games as f64, plies as f64 / dt / 1e6, wins);
}
