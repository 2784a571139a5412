fn main() {
    for f in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&f).unwrap();
        match mancala::syntax::parse(&src) {
            Ok(ast) => println!("{f}: ok, {} items", ast.items.len()),
            Err(e) => print!("{}", mancala::diag::render(&f, &src, &[e.into()], mancala::diag::Style::Plain)),
        }
    }
}
