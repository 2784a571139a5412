//! The `mancala` command: check rule files, list their variants, simulate and benchmark random games.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
