//! The figures of docs/tournament.md's "League" section (issue 38): simulated leagues of bots of
//! known strengths, played by a pure model of a game (no processes), ranked by the real fit
//! (`take6::record::fit`), chosen by the real chooser (`take6::league::choose`) or the real
//! balanced schedule (`take6::schedule::balanced`), stopped by the real rules.
//!
//! A game: every seat scores `strength + deal + noise` (rounded, at least 0; lower is better,
//! as Take 6's cows), the deal N(0, 4²) shared by the table, the noise N(0, 6²) per seat.
//!
//! Last, real Take 6: the five built-ins played through the game's fast path, against a
//! 100,000-game reference.
//!
//! Run: `cargo run --release --example league_sim -- [LEAGUES]` (default 200), or
//! `scripts/league-figures`.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use take6::league::{choose, settle};
use take6::record::Direction;
use take6::record::fit::{FitSums, Fitted, Model};
use take6::record::interner::Interner;
use take6::schedule::balanced::Balancer;
use take6::seed::Seed;

const ALPHA: f64 = 0.05;
const DEAL_SD: f64 = 4.0;
const NOISE_SD: f64 = 6.0;
const CAP: u64 = 30_000;

/// The league as built, and today's balanced schedule with `--until-separated`: the two ways
/// every comparison below plays.
const LEAGUE: (&str, Alloc, Rule) = (
    "league (chooser + sequence rule)",
    Alloc::League,
    Rule::Sequence,
);
const TODAY: (&str, Alloc, Rule) = (
    "balanced + --until-separated (95 %, per game)",
    Alloc::Balanced,
    Rule::Fixed95,
);

#[derive(Clone, Copy, PartialEq)]
enum Alloc {
    /// The league's chooser.
    League,
    /// The balanced schedule (or one table when the field fits).
    Balanced,
}

#[derive(Clone, Copy, PartialEq)]
enum Rule {
    /// Today's --until-separated: each adjacent pair at 95 %, looked at after every game.
    Fixed95,
    /// The league's rule: the confidence sequence at alpha / K, after every batch.
    Sequence,
    /// No stopping: a fixed number of games.
    Budget(u64),
}

/// A league in play.
struct Sim {
    truth: Vec<f64>,
    players: usize,
    top: usize,
    batch: usize,
    min_games: u64,
    names: Interner,
    ids: Vec<u32>,
    fit: FitSums,
    games: Vec<u64>,
    played: u64,
    rng: ChaCha8Rng,
    balancer: Option<Balancer>,
    key: u64,
    cap: u64,
    /// Real Take 6 games of built-ins (each entrant a strategy) instead of the model.
    real: Option<Real>,
}

/// Take 6 played for real by built-ins through the game's synchronous fast path.
struct Real {
    kinds: Vec<take6::table::BuiltinKind>,
    table: Box<dyn take6::game::FastTable>,
    record: take6::record::GameRecord,
    seats: Vec<take6::table::BuiltinKind>,
}

impl Real {
    fn new(kinds: &[take6::table::BuiltinKind]) -> Real {
        let game = take6::games::default_game();
        let table = game
            .0
            .fast_builtins()
            .expect("Take 6 has a fast path")
            .table();
        let record = table.blank_record();
        Real {
            kinds: kinds.to_vec(),
            table,
            record,
            seats: Vec::new(),
        }
    }

    /// Cows of each seat of `table` (entrant indices) in game `n` dealt from `seed`.
    fn play(&mut self, n: u64, seed: u64, table: &[usize]) -> Vec<u32> {
        self.seats.clear();
        self.seats.extend(table.iter().map(|&i| self.kinds[i]));
        let game = take6::game::FastGame {
            game: n,
            seed,
            subset: 0,
            rotation: 0,
            rounds: 1,
            seats: &self.seats,
        };
        self.table.play_into(&game, false, &mut self.record);
        self.record
            .total_scores()
            .iter()
            .map(|s| s.get() as u32)
            .collect()
    }
}

impl Sim {
    fn new(truth: &[f64], players: usize, top: usize, seed: u64) -> Sim {
        let mut names = Interner::default();
        let ids = (0..truth.len())
            .map(|i| names.id(&format!("b{i:02}")))
            .collect();
        Sim {
            truth: truth.to_vec(),
            players,
            top,
            batch: truth.len().div_ceil(players).max(4),
            min_games: 10,
            names,
            ids,
            fit: FitSums::new(Model::Points, Direction::Lower),
            games: vec![0; truth.len()],
            played: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            balancer: None,
            key: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            cap: CAP,
            real: None,
        }
    }

    /// A bot joins (a new folder): its strength, its games from 0.
    fn join(&mut self, strength: f64) {
        let i = self.truth.len();
        self.truth.push(strength);
        self.ids.push(self.names.id(&format!("b{i:02}")));
        self.games.push(0);
        self.batch = self.truth.len().div_ceil(self.players).max(4);
        self.balancer = None;
    }

    fn normal(&mut self) -> f64 {
        let (u, v): (f64, f64) = (self.rng.random(), self.rng.random());
        (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    fn play(&mut self, table: &[usize]) {
        let scores: Vec<u32> = if let Some(real) = self.real.as_mut() {
            let seed = self.rng.random::<u64>();
            real.play(self.played, seed, table)
        } else {
            let deal = DEAL_SD * self.normal();
            table
                .iter()
                .map(|&i| {
                    (self.truth[i] + deal + NOISE_SD * self.normal())
                        .round()
                        .max(0.0) as u32
                })
                .collect()
        };
        let ids: Vec<u32> = table.iter().map(|&i| self.ids[i]).collect();
        self.fit
            .add(&ids, &take6::record::score::whole(&scores), |_| false);
        for &i in table {
            self.games[i] += 1;
        }
        self.played += 1;
    }

    /// Entrant indices by fitted score, best first (those without games last).
    fn ranked(&self, fitted: &Fitted) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.truth.len()).collect();
        let score = |i: usize| fitted.score(self.ids[i]).unwrap_or(f64::INFINITY);
        order.sort_by(|&a, &b| score(a).total_cmp(&score(b)));
        order
    }

    fn fit_ids(&self, ranked: &[usize]) -> Vec<u32> {
        ranked.iter().map(|&i| self.ids[i]).collect()
    }

    fn settled(&self, rule: Rule) -> bool {
        if self.games.iter().any(|&g| g < self.min_games.min(2)) {
            return false;
        }
        let fitted = self.fit.fit(&self.names);
        let ranked = self.ranked(&fitted);
        let ids = self.fit_ids(&ranked);
        let pairs = self.top.min(ids.len() - 1);
        match rule {
            Rule::Fixed95 => (0..pairs).all(|r| fitted.separated(ids[r], ids[r + 1])),
            Rule::Sequence => {
                self.games.iter().all(|&g| g >= self.min_games)
                    && settle::settled(&fitted, &ids, self.top, ALPHA)
            }
            Rule::Budget(n) => self.played >= n,
        }
    }

    fn next_tables(&mut self, alloc: Alloc, count: usize) -> Vec<Vec<usize>> {
        let n = self.truth.len();
        if n <= self.players {
            return vec![(0..n).collect(); count];
        }
        match alloc {
            Alloc::Balanced => {
                let (players, seed) = (self.players, self.key);
                let b = self
                    .balancer
                    .get_or_insert_with(|| Balancer::new(n, players, Seed(u128::from(seed))));
                (0..count).map(|_| b.next_table()).collect()
            }
            Alloc::League => {
                let fitted = self.fit.fit(&self.names);
                let ranked = self.ranked(&fitted);
                let ids: Vec<Option<u32>> = self
                    .ids
                    .iter()
                    .zip(&self.games)
                    .map(|(&id, &g)| (g > 0).then_some(id))
                    .collect();
                let field = choose::Field {
                    games: self.games.clone(),
                    need: choose::needs(&fitted, &ids, &ranked, self.top, ALPHA),
                    pinned: choose::pinned(&fitted, &ids, &ranked, self.top, ALPHA),
                    min_games: self.min_games,
                    benched: vec![false; n],
                    leader: ranked.first().copied(),
                    varied: true,
                };
                self.key = self.key.wrapping_add(1);
                choose::choose(self.key, count, self.players, &field)
            }
        }
    }

    /// Plays until `rule` says stop (or the cap): the games played in this call.
    fn run(&mut self, alloc: Alloc, rule: Rule) -> u64 {
        let start = self.played;
        loop {
            if self.settled(rule) || self.played >= self.cap {
                return self.played - start;
            }
            let step = match rule {
                Rule::Fixed95 => 1,
                Rule::Budget(n) => (n - self.played).min(self.batch as u64) as usize,
                Rule::Sequence => self.batch,
            };
            for table in self.next_tables(alloc, step) {
                self.play(&table);
            }
        }
    }

    /// Whether the fitted top `top` (and the one below, K + 1 places: the K adjacent pairs)
    /// are the true ones in the true order.
    fn wrong(&self) -> bool {
        let fitted = self.fit.fit(&self.names);
        let ranked = self.ranked(&fitted);
        let mut truth: Vec<usize> = (0..self.truth.len()).collect();
        truth.sort_by(|&a, &b| self.truth[a].total_cmp(&self.truth[b]));
        let k = (self.top + 1).min(truth.len());
        ranked[..k] != truth[..k]
    }
}

/// Mean, median and 90th percentile of `xs`.
fn describe(mut xs: Vec<u64>) -> String {
    xs.sort_unstable();
    let mean = xs.iter().sum::<u64>() as f64 / xs.len() as f64;
    let at = |q: f64| xs[((xs.len() - 1) as f64 * q).round() as usize];
    let capped = xs.iter().filter(|&&x| x >= CAP).count();
    let cap = if capped > 0 {
        format!(", {capped} hit the cap of {CAP}")
    } else {
        String::new()
    };
    format!("mean {mean:.0}, median {}, p90 {}{cap}", at(0.5), at(0.9))
}

fn line(name: &str, games: Vec<u64>, wrong: usize, leagues: usize) {
    println!(
        "  {name:<44} games: {:<40} wrong order: {wrong}/{leagues} ({:.1} %)",
        describe(games),
        100.0 * wrong as f64 / leagues as f64
    );
}

/// Field strengths: `n` bots `gap` cows apart from 20.
fn field(n: usize, gap: f64) -> Vec<f64> {
    (0..n).map(|i| 20.0 + gap * i as f64).collect()
}

fn efficiency(leagues: usize, n: usize, players: usize, gap: f64) {
    println!(
        "{n} bots at tables of {players}, {gap} cows apart, top 3 (K = 3), {leagues} leagues:"
    );
    let truth = field(n, gap);
    for (name, alloc, rule) in [
        LEAGUE,
        TODAY,
        ("balanced + sequence rule", Alloc::Balanced, Rule::Sequence),
    ] {
        let (mut games, mut wrong) = (Vec::new(), 0);
        for s in 0..leagues {
            let mut sim = Sim::new(&truth, players, 3, 1000 + s as u64);
            games.push(sim.run(alloc, rule));
            wrong += usize::from(sim.wrong());
        }
        line(name, games, wrong, leagues);
    }
}

fn no_choice(leagues: usize) {
    let truth = field(7, 1.5);
    println!(
        "7 bots at one table of 7, 1.5 cows apart, the whole order (K = 6), {leagues} leagues:"
    );
    for (name, rule) in [
        ("--until-separated today (95 %, per game)", Rule::Fixed95),
        ("sequence rule (per batch of 4)", Rule::Sequence),
    ] {
        let (mut games, mut wrong) = (Vec::new(), 0);
        for s in 0..leagues {
            let mut sim = Sim::new(&truth, 7, 6, 5000 + s as u64);
            games.push(sim.run(Alloc::Balanced, rule));
            wrong += usize::from(sim.wrong());
        }
        line(name, games, wrong, leagues);
    }
}

/// The 13th bot's strength: a new best.
const NEWCOMER: f64 = 18.0;

/// 7 at one table where ranks 2 and 3 are truly equal: any stop is a false claim that they
/// are separated. How often each rule makes it within `cap` games.
fn tie(leagues: usize, cap: u64) {
    let truth = [20.0, 21.5, 21.5, 23.0, 24.5, 26.0, 27.5];
    println!(
        "7 bots at one table, ranks 2 and 3 equal (the rest 1.5 cows apart), K = 6, at most \
         {cap} games, {leagues} leagues:"
    );
    for (name, rule) in [
        ("--until-separated today (95 %, per game)", Rule::Fixed95),
        ("sequence rule (per batch of 4)", Rule::Sequence),
    ] {
        let mut stopped = 0;
        for s in 0..leagues {
            let mut sim = Sim::new(&truth, 7, 6, 7000 + s as u64);
            sim.cap = cap;
            sim.run(Alloc::Balanced, rule);
            stopped += usize::from(sim.played < cap);
        }
        println!(
            "  {name:<44} declared the tie separated: {stopped}/{leagues} ({:.1} %)",
            100.0 * stopped as f64 / leagues as f64
        );
    }
}

fn joining(leagues: usize) {
    // 12 bots 2 cows apart; the 13th is a new best, 2 cows ahead.
    let truth = field(12, 2.0);
    println!(
        "Joining: 12 bots at tables of 10, 2 cows apart, settled (K = 3); a 13th joins, 2 \
         cows better than the best; {leagues} leagues:"
    );
    let (mut more, mut fresh, mut wrong_more, mut wrong_fresh, mut wrong_rerun) =
        (Vec::new(), Vec::new(), 0, 0, 0);
    let mut new_right = 0;
    for s in 0..leagues {
        let mut sim = Sim::new(&truth, 10, 3, 9000 + s as u64);
        sim.run(Alloc::League, Rule::Sequence);
        sim.join(NEWCOMER);
        more.push(sim.run(Alloc::League, Rule::Sequence));
        wrong_more += usize::from(sim.wrong());
        let fitted = sim.fit.fit(&sim.names);
        new_right += usize::from(sim.ranked(&fitted)[0] == 12);
        let mut all = truth.clone();
        all.push(NEWCOMER);
        let mut f = Sim::new(&all, 10, 3, 9000 + s as u64);
        fresh.push(f.run(Alloc::League, Rule::Sequence));
        wrong_fresh += usize::from(f.wrong());
        // Today: a fresh series of every 10-subset of 13 (286 games), ranked by the fit.
        let mut r = Sim::new(&all, 10, 3, 9000 + s as u64);
        r.run(Alloc::Balanced, Rule::Budget(286));
        wrong_rerun += usize::from(r.wrong());
    }
    line("league after the join", more, wrong_more, leagues);
    println!("    the newcomer ranked 1st (its true place): {new_right}/{leagues}");
    line("fresh league of 13", fresh, wrong_fresh, leagues);
    line(
        "rerun of 286 games (balanced, no stop)",
        vec![286; leagues],
        wrong_rerun,
        leagues,
    );
}

/// Real Take 6: the five built-in strategies at tables of 4 (a choice of tables), ranked by a
/// 100,000-game balanced reference; then leagues of them, each compared with the reference for
/// every pair it calls separated (the top K adjacent pairs when it stops).
fn reference(leagues: usize) {
    let game = take6::games::default_game();
    let kinds = game.builtins().to_vec();
    let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
    let n = kinds.len();
    // The reference: 100,000 games, balanced, ranked by the fit.
    let mut r = Sim::new(&vec![0.0; n], 4, 3, 38);
    r.real = Some(Real::new(&kinds));
    r.run(Alloc::Balanced, Rule::Budget(100_000));
    let fitted = r.fit.fit(&r.names);
    let truth: Vec<f64> = (0..n)
        .map(|i| fitted.score(r.ids[i]).expect("played"))
        .collect();
    let order = r.ranked(&fitted);
    let shown: Vec<String> = order
        .iter()
        .map(|&i| {
            format!(
                "{} {:.3} ± {:.3}",
                names[i],
                truth[i],
                fitted.ci95(r.ids[i]).unwrap_or(f64::NAN)
            )
        })
        .collect();
    println!(
        "Real Take 6, the {n} built-ins at tables of 4, top 3 (K = 3); the 100,000-game \
         reference (fitted cows, 95 %): {}",
        shown.join(" < ")
    );
    for (name, alloc, rule) in [LEAGUE, TODAY] {
        let (mut games, mut wrong, mut called, mut against) = (Vec::new(), 0, 0, 0);
        for s in 0..leagues {
            let mut sim = Sim::new(&truth, 4, 3, 11_000 + s as u64);
            sim.real = Some(Real::new(&kinds));
            games.push(sim.run(alloc, rule));
            wrong += usize::from(sim.wrong());
            // Every pair it calls separated: the top K adjacent pairs at its stop.
            let fitted = sim.fit.fit(&sim.names);
            let ranked = sim.ranked(&fitted);
            for p in ranked.windows(2).take(3) {
                called += 1;
                against += usize::from(truth[p[0]] > truth[p[1]]);
            }
        }
        line(name, games, wrong, leagues);
        println!(
            "    pairs called separated: {called}, in the reference's order: {}, against it: \
             {against}",
            called - against
        );
    }
}

fn timing() {
    let truth = field(30, 1.0);
    let mut sim = Sim::new(&truth, 10, 3, 1);
    sim.run(Alloc::League, Rule::Budget(600));
    let start = std::time::Instant::now();
    let rounds = 50;
    for _ in 0..rounds {
        std::hint::black_box(sim.next_tables(Alloc::League, sim.batch));
    }
    println!(
        "Choosing a batch of 30 bots at tables of 10 after 600 games (fit + needs + tables): {:.2} ms",
        start.elapsed().as_secs_f64() * 1000.0 / rounds as f64
    );
}

fn main() {
    let leagues: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("LEAGUES is a number"))
        .unwrap_or(200);
    timing();
    no_choice(leagues);
    tie(leagues, 3000);
    efficiency(leagues, 20, 4, 2.0);
    efficiency(leagues, 30, 10, 2.0);
    joining(leagues);
    reference(leagues);
}
