//! `connect4` and `kalah`: the two other games' solvers, perfts, terminal games and level
//! matches (src/games); the terminal games share the number prompt and the `--first` choice.

use super::{bad_input, EXIT_BAD_INPUT};
use clap::Subcommand;
use springer::say;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `springer connect4`'s subcommands.
#[derive(Subcommand)]
pub enum Connect4Command {
    /// Solve each line `<moves> [<expected>]` (1-based column digits from the empty board) of
    /// FILE or stdin: prints `<moves> <score> <nodes> <us>` per line and a summary; exit code 1
    /// if an expected score differs, 2 if a line was malformed.
    Solve {
        /// Only win / draw / loss (1, 0, -1).
        #[arg(long)]
        weak: bool,
        /// Threads searching each position (sharing one table).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// The main table's size in MB (rounded down to a power of two; positions with fewer
        /// than 24 empty cells go to a 4 MB table beside it).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
        /// The positions (default: stdin).
        file: Option<PathBuf>,
    },
    /// A game in the terminal against the program: levels 1-7 search 2 x level - 1 plies, 8
    /// plays perfectly (exactly solved from 12 stones on).
    Play {
        /// 1-7: search 2 x level - 1 plies; 8: perfect play.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=8))]
        level: u8,
        /// Who moves first: human or computer.
        #[arg(long, default_value = "human")]
        first: String,
    },
    /// Games between two levels from the empty board, each side first in turn: wins, draws,
    /// losses and the score of the first level (`--first-only`: the first level always starts).
    Match {
        /// The two levels (1-8).
        #[arg(long, num_args = 2, value_parser = clap::value_parser!(u8).range(1..=8))]
        levels: Vec<u8>,
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// The first level moves first in every game.
        #[arg(long)]
        first_only: bool,
        /// Seed of the players' random choices among equal moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The board, rules and position that `kalah solve` and `kalah perft` start from.
#[derive(clap::Args)]
pub struct KalahBoardArgs {
    /// Houses a side.
    #[arg(long, default_value_t = 6)]
    houses: usize,
    /// Seeds a house at the start.
    #[arg(long, default_value_t = 4)]
    seeds: u8,
    /// seed, standard or empty-capture.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Pits in sowing order from the side to move (its houses, its store, the opponent's
    /// houses, the opponent's store), comma-separated; default: the start position.
    #[arg(long)]
    position: Option<String>,
}

impl KalahBoardArgs {
    /// The rules and the board these arguments name, or the message for bad ones.
    fn setup(&self) -> Result<(springer::games::kalah::Rules, springer::games::kalah::Board), String> {
        kalah_setup(&self.rules, self.houses, self.seeds, self.position.as_deref())
    }
}

/// `springer kalah`'s subcommands.
#[derive(Subcommand)]
pub enum KalahCommand {
    /// Prints `value V` for the side to move under perfect play (the final margin, e.g.
    /// `value +10`; `value win` or `value loss` under seed rules), then nodes and time.
    Solve {
        #[command(flatten)]
        board: KalahBoardArgs,
        /// Builds endgame databases of every position with up to this many seeds in the houses
        /// first (standard and empty-capture rules; 0 = none); its size and build time are
        /// printed.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=40))]
        endgame: u32,
        /// The table's size in MB (rounded down to a power of two, at least 1).
        #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
        /// Threads searching (sharing one table) and building the databases; default: every
        /// core.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
    },
    /// Counts the move sequences of 1 to DEPTH moves (a move that earns another is a ply of its
    /// own; finished games stop counting): a perft for Kalah.
    Perft {
        /// Moves deep.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        #[command(flatten)]
        board: KalahBoardArgs,
    },
    /// A game in the terminal against the program (the founding program's six levels, then 7:
    /// perfect once few enough seeds are left).
    Play {
        /// 1-6: search depth in moves; 7: perfect play.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=7))]
        level: u8,
        /// seed, standard or empty-capture.
        #[arg(long, default_value = "seed")]
        rules: String,
        /// Who moves first: human or computer.
        #[arg(long, default_value = "human")]
        first: String,
        /// Houses a side.
        #[arg(long, default_value_t = 6)]
        houses: usize,
        /// Seeds a house at the start.
        #[arg(long, default_value_t = 6)]
        seeds: u8,
    },
    /// Games between two levels from the start position, each side first in turn: wins, draws,
    /// losses and the score of the first level.
    Match {
        /// The two levels (1-7).
        #[arg(long, num_args = 2, value_parser = clap::value_parser!(u8).range(1..=7))]
        levels: Vec<u8>,
        #[arg(long, default_value_t = 100)]
        games: u32,
        #[arg(long, default_value = "seed")]
        rules: String,
        #[arg(long, default_value_t = 6)]
        houses: usize,
        #[arg(long, default_value_t = 6)]
        seeds: u8,
        /// Seed of the players' random choices among equal moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// `springer connect4 …`: runs the subcommand.
pub fn run_connect4(command: Connect4Command) -> ExitCode {
    match command {
        Connect4Command::Solve { weak, threads, hash, file } => {
            run_connect4_solve(weak, (usize::from(threads), hash as usize), file.as_deref())
        }
        Connect4Command::Play { level, first } => run_connect4_play(level, &first),
        Connect4Command::Match { levels, games, first_only, seed } => {
            run_connect4_match(&levels, games, first_only, seed)
        }
    }
}

/// `springer kalah …`: runs the subcommand.
pub fn run_kalah(command: KalahCommand) -> ExitCode {
    match command {
        KalahCommand::Solve { board, endgame, hash, threads } => {
            let threads =
                threads.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from);
            run_kalah_solve(&board, (endgame, hash as usize, threads))
        }
        KalahCommand::Perft { depth, board } => run_kalah_perft(depth, &board),
        KalahCommand::Play { level, rules, first, houses, seeds } => {
            run_kalah_play(level, &rules, &first, houses, seeds)
        }
        KalahCommand::Match { levels, games, rules, houses, seeds, seed } => {
            run_kalah_match(&levels, games, &rules, houses, seeds, seed)
        }
    }
}

fn run_connect4_solve(weak: bool, threads_and_mb: (usize, usize), file: Option<&std::path::Path>) -> ExitCode {
    use springer::games::connect4::solver::solve_lines;
    let mut out = std::io::stdout().lock();
    let summary = match file {
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => solve_lines(std::io::BufReader::new(f), weak, threads_and_mb, &mut out),
            Err(e) => return bad_input(format!("cannot read {}: {e}", path.display())),
        },
        None => solve_lines(std::io::stdin().lock(), weak, threads_and_mb, &mut out),
    };
    match summary {
        Ok(summary) if summary.mismatches > 0 => ExitCode::FAILURE,
        Ok(summary) if summary.bad_lines > 0 => ExitCode::from(EXIT_BAD_INPUT),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => springer::output::closed(e),
        Err(e) => bad_input(format!("connect4 solve: {e}")),
    }
}

/// `springer kalah perft`: the counts at 1 to `depth` moves, each with its time.
fn run_kalah_perft(depth: u32, args: &KalahBoardArgs) -> ExitCode {
    let (rules, board) = match args.setup() {
        Ok(setup) => setup,
        Err(e) => return bad_input(e),
    };
    for plies in 1..=depth {
        let start = Instant::now();
        let count = springer::games::kalah::perft(&board, rules, plies);
        say!("perft {plies} {count} ({:.3} s)", start.elapsed().as_secs_f64());
    }
    ExitCode::SUCCESS
}

/// `resources`: the endgame databases' seeds (0 = none), the table's MB and the threads.
fn run_kalah_solve(args: &KalahBoardArgs, resources: (u32, usize, usize)) -> ExitCode {
    let (endgame, hash_mb, threads) = resources;
    use springer::games::kalah::{endgame::EndgameTable, solver::Solver, Rules};
    let (rules, board) = match args.setup() {
        Ok(setup) => setup,
        Err(e) => return bad_input(e),
    };
    let mut solver = Solver::with_table_mb(rules, hash_mb).with_threads(threads);
    if endgame > 0 {
        let start = Instant::now();
        let build = || EndgameTable::build(rules, board.houses(), endgame);
        let built = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(build),
            Err(_) => build(),
        };
        let Some(table) = built else {
            return bad_input("kalah solve: --endgame needs standard or empty-capture rules");
        };
        say!(
            "endgame databases: up to {endgame} seeds, {} positions ({:.1} MB), built in {:.3} s",
            table.positions(),
            table.positions() as f64 / 1e6,
            start.elapsed().as_secs_f64()
        );
        solver = solver.with_endgame(std::sync::Arc::new(table));
    }
    let start = Instant::now();
    let value = solver.solve_reporting(&board, &mut |bounds| {
        say!(
            "bounds {:+} to {:+} after {} nodes, {:.3} s",
            bounds.lower,
            bounds.upper,
            bounds.nodes,
            start.elapsed().as_secs_f64()
        );
    });
    let text = match (rules, value) {
        (Rules::Seed, v) if v > 0 => "win".to_string(),
        (Rules::Seed, _) => "loss".to_string(),
        (_, v) => format!("{v:+}"),
    };
    say!("value {text}");
    say!("nodes {}", solver.nodes);
    say!("time {:.3} s", start.elapsed().as_secs_f64());
    ExitCode::SUCCESS
}

/// The side the human plays in a terminal game (0: the first to move) for `--first`, or the
/// message for a bad value.
fn human_side(first: &str) -> Result<usize, String> {
    match first {
        "human" => Ok(0),
        "computer" => Ok(1),
        other => Err(format!("--first must be human or computer, not '{other}'")),
    }
}

/// A seed from the clock, so that the program's choices among equal moves differ from game to game.
fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
}

/// Asks with `prompt` until a line holds a number that `valid` accepts (saying `'line'
/// {refusal}` otherwise); `None` at the end of input.
fn ask_number(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    prompt: &str,
    refusal: &str,
    valid: impl Fn(usize) -> bool,
) -> Option<usize> {
    loop {
        springer::output::prompt(prompt);
        let Some(Ok(line)) = lines.next() else {
            say!();
            return None;
        };
        match line.trim().parse::<usize>() {
            Ok(n) if valid(n) => return Some(n),
            _ => say!("'{}' {refusal}", line.trim()),
        }
    }
}

fn run_connect4_play(level: u8, first: &str) -> ExitCode {
    use springer::games::connect4::{play::Player, Position, CELLS, WIDTH};
    use std::io::BufRead;
    let human = match human_side(first) {
        Ok(side) => side,
        Err(e) => return bad_input(e),
    };
    let seed = clock_seed();
    let mut computer = Player::new(level, seed);
    let stones = if human == 0 { ['X', 'O'] } else { ['O', 'X'] };
    say!("Connect Four, level {level}. You play {}, Springer {}; X moves first.", stones[0], stones[1]);
    let mut pos = Position::empty();
    let mut lines = std::io::stdin().lock().lines();
    let verdict = loop {
        say!("{pos}\n{}", (1..=WIDTH).map(|c| c.to_string()).collect::<Vec<_>>().join(" "));
        if pos.moves() == CELLS {
            break "A draw.";
        }
        let human_to_move = pos.moves() % 2 == human;
        let col = if human_to_move {
            let prompt = format!("Your move (column 1-{WIDTH}): ");
            let refusal = format!("is not a column with room: type 1 to {WIDTH}.");
            match ask_number(&mut lines, &prompt, &refusal, |c| (1..=WIDTH).contains(&c) && pos.can_play(c - 1)) {
                Some(c) => c - 1,
                None => return ExitCode::SUCCESS,
            }
        } else {
            let Some(col) = computer.choose(&pos) else { break "A draw." };
            say!("Springer drops into column {}.", col + 1);
            col
        };
        if pos.is_winning_move(col) {
            pos.play(col);
            say!("{pos}");
            break if human_to_move { "You win." } else { "Springer wins." };
        }
        pos.play(col);
    };
    say!("{verdict}");
    ExitCode::SUCCESS
}

fn run_connect4_match(levels: &[u8], games: u32, first_only: bool, seed: u64) -> ExitCode {
    use springer::games::connect4::{
        play::{play_game, Player},
        Position,
    };
    let [a, b] = [levels[0], levels[1]];
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let start = Instant::now();
    for game in 0..games {
        let a_first = first_only || game % 2 == 0;
        let seed_a = seed.wrapping_mul(1_000_003).wrapping_add(2 * u64::from(game));
        let (first, second) = if a_first { (a, b) } else { (b, a) };
        let mut players = [Player::new(first, seed_a), Player::new(second, seed_a + 1)];
        let result = play_game(Position::empty(), &mut players);
        match if a_first { result } else { -result } {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
    }
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games.max(1));
    say!(
        "level {a} vs level {b}, Connect Four, {games} games: W/D/L {wins}/{draws}/{losses}, score {:.1} %, {:.1} s",
        100.0 * score,
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// Rules and a board from the command line (`position` if given, else the start), or the
/// message for bad ones.
fn kalah_setup(
    rules: &str,
    houses: usize,
    seeds: u8,
    position: Option<&str>,
) -> Result<(springer::games::kalah::Rules, springer::games::kalah::Board), String> {
    use springer::games::kalah::Board;
    let rules = rules.parse()?;
    let board = match position {
        Some(text) => Board::parse(text, houses)?,
        None => Board::start(houses, seeds)?,
    };
    Ok((rules, board))
}

fn run_kalah_play(level: u8, rules: &str, first: &str, houses: usize, seeds: u8) -> ExitCode {
    use springer::games::kalah::play::Player;
    use std::io::BufRead;
    let (rules, mut board) = match kalah_setup(rules, houses, seeds, None) {
        Ok(setup) => setup,
        Err(e) => return bad_input(e),
    };
    let human = match human_side(first) {
        Ok(side) => side,
        Err(e) => return bad_input(e),
    };
    let seed = clock_seed();
    let mut computer = Player::new(level, rules, seed);
    let names = if human == 0 { ["you", "Springer"] } else { ["Springer", "you"] };
    say!("Kalah({houses},{seeds}), {rules:?} rules, level {level}. Player 1: {}, player 2: {}.", names[0], names[1]);
    let mut lines = std::io::stdin().lock().lines();
    // Who won; a side left without a move at the start of its turn loses.
    let winner;
    loop {
        say!("{board}");
        let mover = board.side();
        let house = if mover == human {
            if !(0..houses).any(|h| board.is_legal(h)) {
                say!("You cannot move.");
                winner = Some(1 - human);
                break;
            }
            let prompt = format!("Your move (house 1-{houses}): ");
            let refusal = format!("is not a house with seeds: type 1 to {houses}.");
            match ask_number(&mut lines, &prompt, &refusal, |h| (1..=houses).contains(&h) && board.is_legal(h - 1)) {
                Some(h) => h - 1,
                None => return ExitCode::SUCCESS,
            }
        } else {
            let Some(house) = computer.choose(&board) else {
                say!("Springer cannot move.");
                winner = Some(human);
                break;
            };
            say!("Springer sows house {}.", house + 1);
            house
        };
        let sown = board.sow(house, rules);
        board = sown.board;
        if sown.over {
            winner = board.winner(rules, mover);
            break;
        }
        if sown.again {
            say!("Another move for {}.", names[mover]);
        }
    }
    say!("{board}");
    let (yours, mine) = (board.store_seeds(human), board.store_seeds(1 - human));
    let verdict = match winner {
        Some(side) if side == human => "You win.",
        Some(_) => "Springer wins.",
        None => "A draw.",
    };
    say!("Stores: you {yours}, Springer {mine}. {verdict}");
    ExitCode::SUCCESS
}

fn run_kalah_match(levels: &[u8], games: u32, rules: &str, houses: usize, seeds: u8, seed: u64) -> ExitCode {
    use springer::games::kalah::play::{play_game, Player};
    let (rules, board) = match kalah_setup(rules, houses, seeds, None) {
        Ok(setup) => setup,
        Err(e) => return bad_input(e),
    };
    let [a, b] = [levels[0], levels[1]];
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    // The first level's wins when it started and when it moved second.
    let mut wins_by_turn = [0u32; 2];
    let start = Instant::now();
    for game in 0..games {
        let a_first = game % 2 == 0;
        let seed_a = seed.wrapping_mul(1_000_003).wrapping_add(2 * u64::from(game));
        let (first, second) = if a_first { (a, b) } else { (b, a) };
        let mut players = [Player::new(first, rules, seed_a), Player::new(second, rules, seed_a + 1)];
        let result = play_game(board, rules, &mut players);
        let for_a = if a_first { result } else { -result };
        match for_a.signum() {
            1 => {
                wins += 1;
                wins_by_turn[usize::from(!a_first)] += 1;
            }
            0 => draws += 1,
            _ => losses += 1,
        }
    }
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games.max(1));
    let [first_games, second_games] = [games.div_ceil(2), games / 2];
    say!("level {a} vs level {b}, Kalah({houses},{seeds}) {rules:?}, {games} games: W/D/L {wins}/{draws}/{losses}, score {:.1} %, {:.1} s",
        100.0 * score, start.elapsed().as_secs_f64());
    say!(
        "level {a} won {} of {first_games} games as first player, {} of {second_games} as second",
        wins_by_turn[0],
        wins_by_turn[1]
    );
    ExitCode::SUCCESS
}
