//! The ranking fitted to all games at once, a pure function of the records, so
//! `run`, `league`, `leaderboard`, `verify` and the report agree whatever order the games
//! came in.
//!
//! - **Points** (Take 6's cows, Kingdomino's points): a linear model
//!   `score[g, i] = game[g] + strength[i] + noise`, fitted by least squares. The game term
//!   absorbs how hard a deal or a table was, so a bot is measured only by its deviations within
//!   the games it played: a bot that met only weak tables is not favoured. With the game terms
//!   profiled out the normal equations are `L · strength = b`, `L` the Laplacian of the graph of
//!   who met whom (weight `1/n` per pair and game of `n` seats) and `b` each bot's summed
//!   deviation from its games' means. Intervals are model-based: residual variance `σ²` times
//!   the pseudo-inverse of `L`, with Student's t for the residual degrees of freedom.
//! - **Ranks** (a game that only ranks or gives wins: Botzone's verdicts): Bradley–Terry on
//!   each game's pairs, fitted by Hunter's MM algorithm (2004), every bot given one virtual
//!   drawn comparison against a fixed reference so that a bot that always wins stays finite.
//!   A game of `n` seats gives `n − 1` pairs per bot that are not independent: each pair counts
//!   `1 / (n − 1)` (a bot's games weigh one comparison each), which errs on the wide side.
//!   Intervals from the inverse Fisher information.
//!
//! Every sum is kept in integers ([`FitSums`]), per table size, so adding games in any order
//! gives the same sums; the fit numbers the bots by name, so it is bit for bit the same too.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use nalgebra::{DMatrix, DVector};

use super::reduced::{self, Frozen, Place, Reduced};

use super::interner::{Interner, PairMap, pair_key};
use super::{Direction, Score};

/// Which model a game's results are fitted with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Model {
    /// Scores are points: a linear model with a term per game and per bot.
    #[default]
    Points,
    /// Scores only rank the seats: Bradley–Terry on each game's pairs.
    Ranks,
}

/// A pair's sums at one table size.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct PairSums {
    /// Games the two played together.
    together: u64,
    /// Half-wins of the lower-numbered player over the higher (ties count one each).
    half_lo: u64,
    /// Half-wins of the higher-numbered player.
    half_hi: u64,
}

/// The integer sums of one table size `n`.
#[derive(Debug, Clone, Default)]
struct SizeSums {
    /// Per player: games played.
    games: Vec<u64>,
    /// Per player: Σ (n · score − the game's total), the deviation from the game's mean, times n.
    dev: Vec<i128>,
    /// Per player: Σ score.
    total: Vec<u128>,
    /// Σ over games and seats of (n · score − total)².
    sq: u128,
    /// Games added.
    count: u64,
    pairs: PairMap<PairSums>,
}

/// Everything the fit needs, summed over games: integers only, so the sums are the same in any
/// order games are added in. Players are numbered by the caller's [`Interner`].
#[derive(Debug, Clone, Default)]
pub struct FitSums {
    model: Model,
    direction: Direction,
    by_size: BTreeMap<usize, SizeSums>,
    /// What the last frozen set fixed ([`super::reduced::Frozen`]).
    memo: Memo,
}

/// A kept [`Frozen`], shared by clones.
#[derive(Default)]
struct Memo(Mutex<Option<Arc<Frozen>>>);

impl Memo {
    fn get(&self) -> Option<Arc<Frozen>> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn set(&self, frozen: Arc<Frozen>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(frozen);
    }
}

impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo(Mutex::new(self.get()))
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

/// The points model's sums in the fit's numbering: `L`'s diagonal, `b`, and the totals.
#[derive(Default)]
struct PointSums {
    diag: Vec<f64>,
    b: Vec<f64>,
    syy: f64,
    obs: u64,
    games: u64,
    played: Vec<u64>,
    sum_y: u128,
}

/// The strengths (average 0 per component) and what their covariance is made of.
type Solved = (Vec<f64>, Spread);

impl FitSums {
    pub fn new(model: Model, direction: Direction) -> FitSums {
        FitSums {
            model,
            direction,
            by_size: BTreeMap::new(),
            memo: Memo::default(),
        }
    }

    pub fn model(&self) -> Model {
        self.model
    }

    /// Adds a scored game: `ids` the players by seat, `scores` their scores (`faulted(seat)`:
    /// whether the seat faulted, which ranks it last in a higher-is-better game of ranks).
    /// Points are fitted to whole scores (Take 6's, Kingdomino's); ranks to any.
    pub fn add(&mut self, ids: &[u32], scores: &[Score], faulted: impl Fn(usize) -> bool) {
        let n = ids.len();
        let s = self.by_size.entry(n).or_default();
        let most = ids.iter().copied().max().map_or(0, |m| m as usize + 1);
        if s.games.len() < most {
            s.games.resize(most, 0);
            s.dev.resize(most, 0);
            s.total.resize(most, 0);
        }
        let points = self.model == Model::Points;
        let whole = |x: Score| if points { x.get() as i128 } else { 0 };
        let sum: i128 = scores.iter().map(|&x| whole(x)).sum();
        s.count += 1;
        for (&id, &score) in ids.iter().zip(scores) {
            let d = n as i128 * whole(score) - sum;
            s.games[id as usize] += 1;
            s.dev[id as usize] += d;
            s.total[id as usize] += whole(score).max(0) as u128;
            s.sq += (d * d) as u128;
        }
        // Ranked by a key where lower is better, as the game's order of finish.
        let key = |seat: usize| -> u64 {
            match self.direction {
                Direction::Lower => scores[seat].key(),
                Direction::Higher if faulted(seat) => u64::MAX,
                Direction::Higher => u64::MAX - 1 - scores[seat].key(),
            }
        };
        for i in 0..n {
            for j in i + 1..n {
                let ((lo, hi), flip) = pair_key(ids[i], ids[j]);
                let (ki, kj) = if flip {
                    (key(j), key(i))
                } else {
                    (key(i), key(j))
                };
                let p = s.pairs.entry((lo, hi));
                p.together += 1;
                p.half_lo += 2 * u64::from(ki < kj) + u64::from(ki == kj);
                p.half_hi += 2 * u64::from(kj < ki) + u64::from(ki == kj);
            }
        }
    }

    /// The fit of every player `names` numbers (that played a scored game).
    pub fn fit(&self, names: &Interner) -> Fitted {
        self.fit_frozen(names, &[])
    }

    /// [`FitSums::fit`], the players numbered `frozen` known to play no further game (a
    /// league's retired versions): the points model is then solved on the others
    /// ([`super::reduced`]), what they fix kept from one fit to the next while they stay
    /// frozen. The numbers are the dense solve's, to rounding.
    pub fn fit_frozen(&self, names: &Interner, frozen: &[u32]) -> Fitted {
        // Numbered by name, so the fit does not depend on the order names were first seen.
        let mut order: Vec<u32> = (0..names.len() as u32)
            .filter(|&id| self.games_of(id) > 0)
            .collect();
        order.sort_by(|&a, &b| names.name(a).cmp(names.name(b)));
        let mut index = vec![usize::MAX; names.len()];
        for (k, &id) in order.iter().enumerate() {
            index[id as usize] = k;
        }
        let fitted = match self.model {
            Model::Points => {
                let mut by_id = vec![false; names.len()];
                for &id in frozen.iter().filter(|&&id| (id as usize) < names.len()) {
                    by_id[id as usize] = true;
                }
                let frozen: Vec<bool> = order.iter().map(|&id| by_id[id as usize]).collect();
                self.fit_points(&index, &order, &frozen)
            }
            Model::Ranks => self.fit_ranks(&index, order.len()),
        };
        Fitted { index, ..fitted }
    }

    fn games_of(&self, id: u32) -> u64 {
        self.by_size
            .values()
            .map(|s| s.games.get(id as usize).copied().unwrap_or(0))
            .sum()
    }

    /// Each pair that met at some table size, in the fit's numbering: `(i, j, size, sums)`.
    fn pairs<'a>(
        &'a self,
        index: &'a [usize],
    ) -> impl Iterator<Item = (usize, usize, usize, &'a PairSums)> + 'a {
        self.by_size.iter().flat_map(move |(&n, s)| {
            s.pairs
                .iter()
                .map(move |((lo, hi), p)| (index[lo as usize], index[hi as usize], n, p))
        })
    }

    /// The points model's sums in the fit's numbering.
    fn point_sums(&self, index: &[usize], m: usize) -> PointSums {
        let mut out = PointSums {
            diag: vec![0.0; m],
            b: vec![0.0; m],
            played: vec![0; m],
            ..PointSums::default()
        };
        for (&n, s) in &self.by_size {
            let k = n as f64;
            for (id, &g) in s.games.iter().enumerate() {
                if g == 0 {
                    continue;
                }
                let i = index[id];
                out.diag[i] += g as f64 * (k - 1.0) / k;
                out.b[i] += s.dev[id] as f64 / k;
                out.played[i] += g;
                out.sum_y += s.total[id];
            }
            out.syy += s.sq as f64 / (k * k);
            out.obs += n as u64 * s.count;
            out.games += s.count;
        }
        out
    }

    /// The dense solve: `(L + Σ_c 1_c 1_cᵀ / |c|)⁻¹` and the strengths.
    fn dense_points(&self, index: &[usize], sums: &PointSums, comp: &[usize]) -> Option<Solved> {
        let m = sums.diag.len();
        let mut l = DMatrix::<f64>::zeros(m, m);
        for (i, &d) in sums.diag.iter().enumerate() {
            l[(i, i)] = d;
        }
        for (i, j, n, p) in self.pairs(index) {
            let w = p.together as f64 / n as f64;
            l[(i, j)] -= w;
            l[(j, i)] -= w;
        }
        let inv = pinned_inverse(l, comp)?;
        let theta = &inv * DVector::from_column_slice(&sums.b);
        Some((theta.iter().copied().collect(), Spread::Dense(inv)))
    }

    /// The reduced solve ([`super::reduced`]) when some frozen player shares a component
    /// with a player that still plays; `None` otherwise (or when it fails: the dense solve).
    fn reduced_points(
        &self,
        index: &[usize],
        order: &[u32],
        frozen: &[bool],
        sums: &PointSums,
        comp: &[usize],
    ) -> Option<Solved> {
        let comp_size = comp_sizes(comp);
        let mut live = vec![false; comp_size.len()];
        for (i, &c) in comp.iter().enumerate() {
            live[c] |= !frozen[i];
        }
        let (mut na, mut nf, mut grounds) = (0, 0, vec![None; comp_size.len()]);
        let place: Vec<Place> = (0..order.len())
            .map(|i| {
                if frozen[i] && live[comp[i]] {
                    nf += 1;
                    Place::Frozen(nf - 1)
                } else {
                    grounds[comp[i]].get_or_insert(na);
                    na += 1;
                    Place::Active(na - 1)
                }
            })
            .collect();
        if nf == 0 {
            return None;
        }
        let ids = |frozen: bool| -> Vec<u32> {
            (0..order.len())
                .filter(|&i| matches!(place[i], Place::Frozen(_)) == frozen)
                .map(|i| order[i])
                .collect()
        };
        let frozen_games = ids(true).iter().map(|&id| self.games_of(id)).sum();
        let key = (ids(true), ids(false), frozen_games);
        let kept = self.memo.get().filter(|f| f.key == key);
        let frozen = match kept {
            Some(f) => f,
            None => {
                let f = Arc::new(self.frozen_part(index, &place, sums, (nf, na), key)?);
                self.memo.set(f.clone());
                f
            }
        };
        let mut r = DMatrix::<f64>::zeros(na, na);
        for (i, p) in place.iter().enumerate() {
            if let Place::Active(k) = *p {
                r[(k, k)] = sums.diag[i];
            }
        }
        for (i, j, n, p) in self.pairs(index) {
            if let (Place::Active(a), Place::Active(b)) = (place[i], place[j]) {
                let w = p.together as f64 / n as f64;
                r[(a, b)] -= w;
                r[(b, a)] -= w;
            }
        }
        let (theta, reduced) = reduced::solve(reduced::Parts {
            place,
            comp: comp.to_vec(),
            comp_size,
            r,
            grounds: grounds.into_iter().flatten().collect(),
            b: &sums.b,
            frozen,
        })?;
        Some((theta, Spread::Reduced(Arc::new(reduced), 1.0)))
    }

    /// `P` (among the frozen) and `Q` (frozen × active) of the Laplacian, made into a
    /// [`Frozen`].
    fn frozen_part(
        &self,
        index: &[usize],
        place: &[Place],
        sums: &PointSums,
        (nf, na): (usize, usize),
        key: (Vec<u32>, Vec<u32>, u64),
    ) -> Option<Frozen> {
        let mut p = DMatrix::<f64>::zeros(nf, nf);
        let mut q = DMatrix::<f64>::zeros(nf, na);
        for (i, pl) in place.iter().enumerate() {
            if let Place::Frozen(k) = *pl {
                p[(k, k)] = sums.diag[i];
            }
        }
        for (i, j, n, pair) in self.pairs(index) {
            let w = pair.together as f64 / n as f64;
            match (place[i], place[j]) {
                (Place::Frozen(a), Place::Frozen(b)) => {
                    p[(a, b)] -= w;
                    p[(b, a)] -= w;
                }
                (Place::Frozen(f), Place::Active(a)) | (Place::Active(a), Place::Frozen(f)) => {
                    q[(f, a)] -= w
                }
                _ => {}
            }
        }
        Frozen::new(key, p, q)
    }

    fn fit_points(&self, index: &[usize], order: &[u32], frozen: &[bool]) -> Fitted {
        let m = order.len();
        let sums = self.point_sums(index, m);
        let comp = components(m, self.pairs(index).map(|(i, j, ..)| (i, j)));
        let solved = self
            .reduced_points(index, order, frozen, &sums, &comp)
            .or_else(|| self.dense_points(index, &sums, &comp));
        let Some((theta, spread)) = solved else {
            return Fitted::empty(m, Model::Points, self.direction);
        };
        let PointSums {
            b,
            syy,
            obs,
            games,
            played,
            sum_y,
            ..
        } = sums;
        let tb = DVector::from_column_slice(&theta).dot(&DVector::from_vec(b));
        let rss = (syy - tb).max(0.0);
        let sizes = comp_sizes(&comp);
        let df = obs as i64 - games as i64 - (m as i64 - sizes.len() as i64);
        let sigma2 = (df > 0).then(|| rss / df as f64);
        // The shift that makes the fitted scores average, over every seat, the mean score.
        let seats: u64 = played.iter().sum();
        let shift = if seats > 0 {
            (sum_y as f64
                - played
                    .iter()
                    .zip(theta.iter())
                    .map(|(&g, t)| g as f64 * t)
                    .sum::<f64>())
                / seats as f64
        } else {
            0.0
        };
        Fitted {
            index: Vec::new(),
            model: Model::Points,
            direction: self.direction,
            strength: theta.iter().map(|t| t + shift).collect(),
            cov: sigma2.map(|s2| match spread {
                Spread::Dense(inv) => Spread::Dense(inv * s2),
                Spread::Reduced(r, _) => Spread::Reduced(r, s2),
            }),
            comp_size: comp.iter().map(|&c| sizes[c]).collect(),
            comp,
            quantile: super::stats::t975(df.max(0) as u64),
            sigma2,
        }
    }

    fn fit_ranks(&self, index: &[usize], m: usize) -> Fitted {
        // Comparisons n_ij and wins w_ij (of i over j), each pair of a game of n weighing
        // 1 / (n − 1).
        let mut n_ij = DMatrix::<f64>::zeros(m, m);
        let mut w_ij = DMatrix::<f64>::zeros(m, m);
        for (i, j, n, p) in self.pairs(index) {
            let weight = 1.0 / (n as f64 - 1.0);
            n_ij[(i, j)] += p.together as f64 * weight;
            n_ij[(j, i)] += p.together as f64 * weight;
            w_ij[(i, j)] += p.half_lo as f64 * weight / 2.0;
            w_ij[(j, i)] += p.half_hi as f64 * weight / 2.0;
        }
        // The virtual reference (strength 1): one drawn comparison with each bot.
        let wins: Vec<f64> = (0..m).map(|i| w_ij.row(i).sum() + 0.5).collect();
        let mut gamma = vec![1.0f64; m];
        for _ in 0..100_000 {
            let mut change = 0.0f64;
            let next: Vec<f64> = (0..m)
                .map(|i| {
                    let mut den = 1.0 / (gamma[i] + 1.0);
                    for j in (0..m).filter(|&j| j != i && n_ij[(i, j)] > 0.0) {
                        den += n_ij[(i, j)] / (gamma[i] + gamma[j]);
                    }
                    wins[i] / den
                })
                .collect();
            for (g, x) in gamma.iter_mut().zip(next) {
                change = change.max((x.ln() - g.ln()).abs());
                *g = x;
            }
            if change < 1e-12 {
                break;
            }
        }
        let beta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
        let mut info = DMatrix::<f64>::zeros(m, m);
        for i in 0..m {
            let p = 1.0 / (1.0 + (-beta[i]).exp());
            info[(i, i)] += p * (1.0 - p);
            for j in (0..m).filter(|&j| j != i) {
                let pij = 1.0 / (1.0 + (beta[j] - beta[i]).exp());
                let v = n_ij[(i, j)] * pij * (1.0 - pij);
                info[(i, i)] += v;
                info[(i, j)] -= v;
            }
        }
        let comp = vec![0; m];
        let cov = info.cholesky().map(|c| c.inverse());
        Fitted {
            index: Vec::new(),
            model: Model::Ranks,
            direction: Direction::Higher,
            // On the Elo scale: 400 / ln 10 per unit of log-strength.
            strength: beta.iter().map(|b| b * ELO).collect(),
            cov: cov.map(|c| Spread::Dense(c * (ELO * ELO))),
            comp_size: vec![m; m],
            comp,
            quantile: Z975,
            // A comparison of equal players carries 1/4 of information (logit units): the
            // noise of one comparison, on the Elo scale.
            sigma2: Some(4.0 * ELO * ELO),
        }
    }
}

/// Log-strengths on the Elo scale.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// The normal distribution's 0.975 quantile.
pub const Z975: f64 = 1.959_963_985;

/// Connected components of the graph of who met whom: each player's component number.
fn components(m: usize, edges: impl Iterator<Item = (usize, usize)>) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..m).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (i, j) in edges {
        let (a, b) = (root(&mut parent, i), root(&mut parent, j));
        parent[a.max(b)] = a.min(b);
    }
    let roots: Vec<usize> = (0..m).map(|x| root(&mut parent, x)).collect();
    let mut number = BTreeMap::new();
    roots
        .iter()
        .map(|r| {
            let next = number.len();
            *number.entry(*r).or_insert(next)
        })
        .collect()
}

fn comp_sizes(comp: &[usize]) -> Vec<usize> {
    let mut sizes = vec![0; comp.iter().max().map_or(0, |m| m + 1)];
    for &c in comp {
        sizes[c] += 1;
    }
    sizes
}

/// `(L + Σ_c 1_c 1_cᵀ / |c|)⁻¹`: the Laplacian pinned in each component (`L⁺` plus the same
/// term, which cancels in every difference within a component).
fn pinned_inverse(mut l: DMatrix<f64>, comp: &[usize]) -> Option<DMatrix<f64>> {
    let sizes = comp_sizes(comp);
    for i in 0..comp.len() {
        for j in 0..comp.len() {
            if comp[i] == comp[j] {
                l[(i, j)] += 1.0 / sizes[comp[i]] as f64;
            }
        }
    }
    l.cholesky().map(|c| c.inverse())
}

/// The covariance of the fitted strengths.
#[derive(Debug, Clone)]
enum Spread {
    /// The whole matrix (points: the pinned inverse, times `σ²`).
    Dense(DMatrix<f64>),
    /// The reduced solve's grounded inverse, times the factor.
    Reduced(Arc<Reduced>, f64),
}

/// The fitted strengths and their covariance.
#[derive(Debug, Clone)]
pub struct Fitted {
    /// The fit's number of each player number (`usize::MAX`: not fitted).
    index: Vec<usize>,
    model: Model,
    direction: Direction,
    /// Per fitted player: the fitted score (points: the mean score at an average table; ranks:
    /// Elo-scale strength).
    strength: Vec<f64>,
    /// Covariance of the strengths (up to a constant per component, which cancels in
    /// differences); `None` without residual degrees of freedom.
    cov: Option<Spread>,
    comp: Vec<usize>,
    comp_size: Vec<usize>,
    /// The 95 % quantile of the intervals (Student's t or the normal).
    quantile: f64,
    /// The residual variance (points); for ranks, the noise of one comparison.
    sigma2: Option<f64>,
}

impl Fitted {
    fn empty(m: usize, model: Model, direction: Direction) -> Fitted {
        Fitted {
            index: Vec::new(),
            model,
            direction,
            strength: vec![0.0; m],
            cov: None,
            comp: (0..m).collect(),
            comp_size: vec![1; m],
            quantile: f64::INFINITY,
            sigma2: None,
        }
    }

    fn at(&self, id: u32) -> Option<usize> {
        self.index
            .get(id as usize)
            .copied()
            .filter(|&i| i != usize::MAX)
    }

    pub fn model(&self) -> Model {
        self.model
    }

    /// Which way the fitted scores point.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The fitted score of player `id`.
    pub fn score(&self, id: u32) -> Option<f64> {
        self.at(id).map(|i| self.strength[i])
    }

    /// Half-width of the 95 % interval of player `id`'s score (against its field's average).
    pub fn ci95(&self, id: u32) -> Option<f64> {
        let i = self.at(id)?;
        let var = match self.cov.as_ref()? {
            Spread::Dense(cov) => {
                let pin = match self.model {
                    Model::Points => 1.0 / self.comp_size[i] as f64 * self.sigma2?,
                    Model::Ranks => 0.0,
                };
                cov[(i, i)] - pin
            }
            Spread::Reduced(r, s2) => r.lplus(i) * s2,
        };
        (var >= 0.0 && self.quantile.is_finite()).then(|| self.quantile * var.sqrt())
    }

    /// The standard error of `score(a) − score(b)`; `None` when they are not connected by
    /// games or there is no residual variance.
    pub fn diff_se(&self, a: u32, b: u32) -> Option<f64> {
        let (i, j) = (self.at(a)?, self.at(b)?);
        if self.comp[i] != self.comp[j] {
            return None;
        }
        let var = match self.cov.as_ref()? {
            Spread::Dense(cov) => cov[(i, i)] + cov[(j, j)] - 2.0 * cov[(i, j)],
            Spread::Reduced(r, s2) => r.diff(i, j) * s2,
        };
        Some(var.max(0.0).sqrt())
    }

    /// How much one comparison's noise the difference of `a` and `b` is measured against:
    /// `σ² / se²`, the effective number of observations (the clock of a confidence sequence).
    pub fn information(&self, a: u32, b: u32) -> Option<f64> {
        let se = self.diff_se(a, b)?;
        Some(self.sigma2? / (se * se))
    }

    /// The 95 % quantile the fit's intervals use.
    pub fn quantile(&self) -> f64 {
        self.quantile
    }

    /// How much `a` is better than `b` (positive: better), in the fit's units.
    pub fn lead(&self, a: u32, b: u32) -> Option<f64> {
        let (x, y) = (self.score(a)?, self.score(b)?);
        Some(match self.direction {
            Direction::Lower => y - x,
            Direction::Higher => x - y,
        })
    }

    /// Whether `a` is ahead of `b` at 95 % (a two-sided test at level 5 %).
    pub fn separated(&self, a: u32, b: u32) -> bool {
        match (self.lead(a, b), self.diff_se(a, b)) {
            (Some(d), Some(se)) => d.abs() > self.quantile * se,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sums(
        model: Model,
        direction: Direction,
        games: &[(&[&str], &[u32])],
    ) -> (FitSums, Interner) {
        let mut names = Interner::default();
        let mut fit = FitSums::new(model, direction);
        for (players, scores) in games {
            let ids: Vec<u32> = players.iter().map(|p| names.id(p)).collect();
            fit.add(&ids, &crate::record::score::whole(scores), |_| false);
        }
        (fit, names)
    }

    /// At one table, the fitted score is the mean score, and its interval the mean's
    /// deviation from the field's: the model adds nothing when everyone meets everyone.
    #[test]
    fn at_one_table_the_fitted_score_is_the_mean() {
        let games: Vec<(&[&str], Vec<u32>)> = (0..9u32)
            .map(|g| (&["a", "b", "c"][..], vec![g % 4, 5 + g % 3, 9 - g % 5]))
            .collect();
        let games: Vec<(&[&str], &[u32])> = games.iter().map(|(p, s)| (*p, &s[..])).collect();
        let (fit, names) = sums(Model::Points, Direction::Lower, &games);
        let f = fit.fit(&names);
        for (k, name) in ["a", "b", "c"].iter().enumerate() {
            let mean = games.iter().map(|(_, s)| s[k] as f64).sum::<f64>() / 9.0;
            let got = f.score(names.get(name).unwrap()).unwrap();
            assert!((got - mean).abs() < 1e-9, "{name}: {got} vs {mean}");
        }
        let (a, b) = (names.get("a").unwrap(), names.get("b").unwrap());
        assert!(f.lead(a, b).unwrap() > 0.0, "a scores fewer cows");
        assert!(f.separated(a, b));
    }

    /// A bot that met only weak tables is not favoured: `weak` scores its cows against
    /// players who always take many, `strong` against the good ones, and the model sees
    /// through the raw means.
    #[test]
    fn the_game_term_removes_the_strength_of_the_table() {
        let mut games: Vec<(&[&str], Vec<u32>)> = Vec::new();
        for g in 0..20u32 {
            // The field: good ones g1, g2 take 15 cows fewer than bad ones b1, b2.
            games.push((
                &["lucky", "b1", "b2"],
                vec![9 + g % 3, 15 + g % 2, 16 - g % 2],
            ));
            games.push((
                &["solid", "g1", "g2"],
                vec![10 + g % 3, 5 + g % 2, 6 - g % 2],
            ));
            games.push((&["g1", "b1", "g2", "b2"], vec![5, 20, 6, 21]));
        }
        let games: Vec<(&[&str], &[u32])> = games.iter().map(|(p, s)| (*p, &s[..])).collect();
        let (fit, names) = sums(Model::Points, Direction::Lower, &games);
        let f = fit.fit(&names);
        let (lucky, solid) = (names.get("lucky").unwrap(), names.get("solid").unwrap());
        // Raw means: lucky 10 cows, solid 11; but lucky is 6 under bad players (9 over the
        // good ones), solid 5 over them: solid is 4 better.
        assert!((f.lead(solid, lucky).unwrap() - 4.0).abs() < 0.1, "{f:?}");
        assert!(f.separated(solid, lucky));
    }

    #[test]
    fn bradley_terry_orders_by_wins_and_keeps_an_unbeaten_bot_finite() {
        let mut games: Vec<(&[&str], Vec<u32>)> = Vec::new();
        for g in 0..30u32 {
            games.push((&["ace", "mid"], vec![2, 0]));
            let (m, l) = if g % 3 == 0 { (0, 2) } else { (2, 0) };
            games.push((&["mid", "low"], vec![m, l]));
            games.push((&["ace", "low"], vec![2, 0]));
        }
        let games: Vec<(&[&str], &[u32])> = games.iter().map(|(p, s)| (*p, &s[..])).collect();
        let (fit, names) = sums(Model::Ranks, Direction::Higher, &games);
        let f = fit.fit(&names);
        let id = |n| names.get(n).unwrap();
        let s = |n| f.score(id(n)).unwrap();
        assert!(s("ace").is_finite() && s("ace") > s("mid"), "{f:?}");
        assert!(s("mid") > s("low"));
        assert!(f.separated(id("ace"), id("mid")));
        assert!(f.ci95(id("ace")).unwrap() > 0.0);
    }

    #[test]
    fn players_who_never_met_are_never_separated() {
        let (fit, names) = sums(
            Model::Points,
            Direction::Lower,
            &[
                (&["a", "b"], &[1, 9]),
                (&["a", "b"], &[2, 8]),
                (&["c", "d"], &[0, 30]),
                (&["c", "d"], &[1, 29]),
            ],
        );
        let f = fit.fit(&names);
        let id = |n| names.get(n).unwrap();
        assert!(f.separated(id("a"), id("b")));
        assert_eq!(f.diff_se(id("a"), id("c")), None);
        assert!(!f.separated(id("c"), id("b")));
    }

    /// Seeded normal draws (Box–Muller).
    fn normal(rng: &mut rand::rngs::ChaCha8Rng) -> f64 {
        use rand::RngExt;
        let (u, v): (f64, f64) = (rng.random(), rng.random());
        (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// Random games of 3 or 4 of 6 players (some never at one table with another).
    fn random_games(seed: u64, count: usize) -> Vec<(Vec<&'static str>, Vec<u32>)> {
        use rand::seq::SliceRandom;
        use rand::{RngExt, SeedableRng};
        const POOL: [&str; 6] = ["p", "q", "r", "s", "t", "u"];
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
        (0..count)
            .map(|_| {
                let mut pool = POOL.to_vec();
                pool.shuffle(&mut rng);
                pool.truncate(rng.random_range(3..=4));
                let scores = pool.iter().map(|_| rng.random_range(0..30)).collect();
                (pool, scores)
            })
            .collect()
    }

    /// The profiled normal equations give what ordinary least squares gives on the whole
    /// design (a column per game and per player, solved by SVD): every difference of two
    /// players' strengths, and the residual variance.
    #[test]
    fn the_fit_is_least_squares_on_the_full_design() {
        for seed in 0..20 {
            let games = random_games(seed, 12);
            let refs: Vec<(&[&str], &[u32])> =
                games.iter().map(|(p, s)| (&p[..], &s[..])).collect();
            let (fit, names) = sums(Model::Points, Direction::Lower, &refs);
            let f = fit.fit(&names);
            let players = names.len();
            let rows: usize = games.iter().map(|(p, _)| p.len()).sum();
            let mut x = DMatrix::<f64>::zeros(rows, games.len() + players);
            let mut y = DVector::<f64>::zeros(rows);
            let mut row = 0;
            for (g, (p, sc)) in games.iter().enumerate() {
                for (name, &score) in p.iter().zip(sc) {
                    x[(row, g)] = 1.0;
                    x[(row, games.len() + names.get(name).unwrap() as usize)] = 1.0;
                    y[row] = f64::from(score);
                    row += 1;
                }
            }
            let svd = x.clone().svd(true, true);
            let beta = svd.solve(&y, 1e-9).unwrap();
            let rank = svd.rank(1e-9);
            let rss = (&y - &x * &beta).norm_squared();
            let sigma2 = rss / (rows - rank) as f64;
            assert!(
                (f.sigma2.unwrap() - sigma2).abs() < 1e-6 * sigma2.max(1.0),
                "seed {seed}"
            );
            for a in 0..players as u32 {
                for b in 0..players as u32 {
                    let want = beta[games.len() + a as usize] - beta[games.len() + b as usize];
                    let got = f.score(a).unwrap() - f.score(b).unwrap();
                    assert!((want - got).abs() < 1e-6, "seed {seed}: {want} vs {got}");
                }
            }
        }
    }

    /// A random sparse league of 60 versions at tables of 3 to 6, a third of them retired
    /// after the first 300 of 600 games (one retired group apart, met only among itself), and
    /// 6 never seen again after game 20: the fit with the retired versions frozen gives every
    /// score, interval and difference's standard error the dense solve gives, to 1e-6; and so
    /// does the next fit, which reuses what the frozen set fixed.
    #[test]
    fn the_frozen_solve_gives_the_dense_numbers() {
        use rand::seq::SliceRandom;
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(50);
        let names: Vec<String> = (0..60).map(|i| format!("v{i:02}")).collect();
        let mut sums = FitSums::new(Model::Points, Direction::Lower);
        let mut interner = Interner::default();
        let mut add = |sums: &mut FitSums, pool: &[usize], rng: &mut rand::rngs::ChaCha8Rng| {
            let mut pool = pool.to_vec();
            pool.shuffle(rng);
            pool.truncate(rng.random_range(3..=6.min(pool.len())));
            let ids: Vec<u32> = pool.iter().map(|&i| interner.id(&names[i])).collect();
            let scores: Vec<u32> = pool
                .iter()
                .map(|&i| (i as u32 % 7) * 3 + rng.random_range(0..20))
                .collect();
            sums.add(&ids, &crate::record::score::whole(&scores), |_| false);
        };
        let (early, alone, rest): (Vec<usize>, Vec<usize>, Vec<usize>) =
            ((0..20).collect(), (54..60).collect(), (20..54).collect());
        for g in 0..600 {
            match g {
                0..20 => add(&mut sums, &alone, &mut rng),
                20..300 => add(&mut sums, &[&early[..], &rest[..]].concat(), &mut rng),
                _ => add(&mut sums, &rest, &mut rng),
            }
        }
        let frozen: Vec<u32> = early
            .iter()
            .chain(&alone)
            .map(|&i| interner.get(&names[i]).unwrap())
            .collect();
        let dense = sums.fit(&interner);
        for round in 0..2 {
            let reduced = sums.fit_frozen(&interner, &frozen);
            assert!(matches!(reduced.cov, Some(Spread::Reduced(..))), "{round}");
            let close = |a: Option<f64>, b: Option<f64>, what: &str| match (a, b) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-6, "{what}: {a} vs {b}"),
                (a, b) => assert_eq!(a, b, "{what}"),
            };
            for a in 0..60u32 {
                close(dense.score(a), reduced.score(a), &format!("score {a}"));
                close(dense.ci95(a), reduced.ci95(a), &format!("ci95 {a}"));
                for b in 0..60u32 {
                    close(
                        dense.diff_se(a, b),
                        reduced.diff_se(a, b),
                        &format!("se {a} {b}"),
                    );
                }
            }
            assert_eq!(dense.quantile().to_bits(), reduced.quantile().to_bits());
        }
    }

    /// The fit does not depend on the order of the games: shuffled, every number is the same
    /// to the bit.
    #[test]
    fn shuffled_games_give_the_same_fit_to_the_bit() {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        for model in [Model::Points, Model::Ranks] {
            let games = random_games(7, 40);
            let mut shuffled = games.clone();
            shuffled.shuffle(&mut rand::rngs::ChaCha8Rng::seed_from_u64(1));
            let fit = |games: &[(Vec<&str>, Vec<u32>)]| {
                let refs: Vec<(&[&str], &[u32])> =
                    games.iter().map(|(p, s)| (&p[..], &s[..])).collect();
                let (fit, names) = sums(model, Direction::Lower, &refs);
                let f = fit.fit(&names);
                let by_name = |n: &str| {
                    let id = names.get(n).unwrap();
                    (f.score(id).unwrap().to_bits(), f.ci95(id).map(f64::to_bits))
                };
                ["p", "q", "r", "s", "t", "u"].map(by_name)
            };
            assert_eq!(fit(&games), fit(&shuffled), "{model:?}");
        }
    }

    /// The 95 % interval of a difference covers the true difference about 95 % of the time:
    /// 400 seeded series of 6 players of known strengths at random tables of 3 or 4, normal
    /// noise.
    #[test]
    fn intervals_of_differences_cover_the_truth_95_percent_of_the_time() {
        use rand::SeedableRng;
        let truth = [0.0, 1.0, 1.5, 3.0, 3.2, 6.0];
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(99);
        let (mut covered, mut trials) = (0, 0);
        for seed in 0..400 {
            let mut games = random_games(1000 + seed, 30);
            for (p, sc) in &mut games {
                let deal = 20.0 + 5.0 * normal(&mut rng);
                for (name, score) in p.iter().zip(sc.iter_mut()) {
                    let k = (name.as_bytes()[0] - b'p') as usize;
                    *score = (deal + truth[k] + 3.0 * normal(&mut rng)).round().max(0.0) as u32;
                }
            }
            let refs: Vec<(&[&str], &[u32])> =
                games.iter().map(|(p, s)| (&p[..], &s[..])).collect();
            let (fit, names) = sums(Model::Points, Direction::Lower, &refs);
            let f = fit.fit(&names);
            let (a, b) = (names.get("q").unwrap(), names.get("t").unwrap());
            let d = f.score(b).unwrap() - f.score(a).unwrap();
            let h = f.quantile() * f.diff_se(a, b).unwrap();
            covered += usize::from((d - (truth[4] - truth[1])).abs() <= h);
            trials += 1;
        }
        let rate = covered as f64 / trials as f64;
        assert!((0.92..=0.98).contains(&rate), "coverage {rate}");
    }
}
