//! The points fit of a league whose retired versions play no more, solved on the versions
//! that still play.
//!
//! Number the fitted players `F` (frozen: retired versions, which play no further game) and
//! `A` (the rest). The Laplacian is `L = [[P, Q], [Qᵀ, R]]` (`P` among `F`, `Q` between `F` and
//! `A`, `R` among `A`). Every entry of `P`, `Q` and `F`'s part of `b` is fixed once `F` stops
//! playing, so `Y = P⁻¹ Q`, `P⁻¹` and `C = Qᵀ Y` are computed once per frozen set and kept
//! ([`Frozen`]); each fit then solves only the Schur complement `S = R − C` (Kron's reduction
//! of the graph onto `A`: a Laplacian of `A`'s size), grounded at one player per component.
//! With `G` the grounded inverse (`G_AA = S⁻¹`, `G_FA = −Y S⁻¹`, `G_FF = P⁻¹ + Y S⁻¹ Yᵀ`) and
//! `x = G 1`, every number the fit gives is the dense fit's:
//! - the strengths `θ = G b`, made to average 0 in each component (`L⁺ b`);
//! - a difference's variance `σ² (G_ii + G_jj − 2 G_ij)` (an effective resistance, the same
//!   under any grounding);
//! - a player's variance against its component's average, `σ² L⁺_ii`, from
//!   `L⁺ = (I − J/n) G (I − J/n)`: `G_ii − 2 x_i / n + Σ_c x / n²`.
//!
//! The cost per fit is cubic in `A` only (a league's current field, a few hundred), not in
//! every version ever seen.

use std::sync::{Arc, OnceLock};

use nalgebra::{DMatrix, DVector};

/// What a frozen set fixes: kept while the same players are frozen, the same others fitted
/// and the frozen ones have played the same games.
#[derive(Debug)]
pub(super) struct Frozen {
    /// The frozen players' numbers, the others' and the frozen players' games.
    pub key: (Vec<u32>, Vec<u32>, u64),
    /// `P⁻¹`.
    pinv: DMatrix<f64>,
    /// `Y = P⁻¹ Q` (frozen × active).
    y: DMatrix<f64>,
    /// `C = Qᵀ Y` (active × active).
    c: DMatrix<f64>,
}

impl Frozen {
    /// From `P` and `Q`; `None` when `P` is singular (a frozen player cut off from every
    /// active one).
    pub fn new(key: (Vec<u32>, Vec<u32>, u64), p: DMatrix<f64>, q: DMatrix<f64>) -> Option<Self> {
        let chol = p.cholesky()?;
        let y = chol.solve(&q);
        let c = q.transpose() * &y;
        Some(Frozen {
            key,
            pinv: chol.inverse(),
            y,
            c,
        })
    }
}

/// Where a fitted player sits in the reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    Active(usize),
    Frozen(usize),
}

/// The grounded inverse of one fit, entries on demand.
#[derive(Debug)]
pub(super) struct Reduced {
    /// Per fitted player (the fit's numbering).
    place: Vec<Place>,
    comp: Vec<usize>,
    comp_size: Vec<usize>,
    /// `S⁻¹`, zero at each ground.
    sinv: DMatrix<f64>,
    /// `x = G 1` per fitted player, and its sum per component.
    x: Vec<f64>,
    xsum: Vec<f64>,
    frozen: Arc<Frozen>,
    /// `Y S⁻¹`, made when a frozen player's entry is first asked for.
    z: OnceLock<DMatrix<f64>>,
}

/// The pieces of one reduced solve.
pub(super) struct Parts<'a> {
    pub place: Vec<Place>,
    pub comp: Vec<usize>,
    pub comp_size: Vec<usize>,
    /// `R` (active × active), before the reduction.
    pub r: DMatrix<f64>,
    /// Each component's ground: an active player's place in `A`.
    pub grounds: Vec<usize>,
    /// `b` in the fit's numbering.
    pub b: &'a [f64],
    pub frozen: Arc<Frozen>,
}

/// Solves the reduced system: the strengths (average 0 per component) and the inverse.
/// `None` when the grounded complement is not positive definite.
pub(super) fn solve(parts: Parts<'_>) -> Option<(Vec<f64>, Reduced)> {
    let Parts {
        place,
        comp,
        comp_size,
        r,
        grounds,
        b,
        frozen,
    } = parts;
    let mut s = r - &frozen.c;
    for &g in &grounds {
        s.row_mut(g).fill(0.0);
        s.column_mut(g).fill(0.0);
        s[(g, g)] = 1.0;
    }
    let mut sinv = s.cholesky()?.inverse();
    for &g in &grounds {
        sinv[(g, g)] = 0.0;
    }
    let (na, nf) = (frozen.c.nrows(), frozen.pinv.nrows());
    let split = |v: &dyn Fn(usize) -> f64| {
        let (mut va, mut vf) = (DVector::zeros(na), DVector::zeros(nf));
        for (i, p) in place.iter().enumerate() {
            match *p {
                Place::Active(k) => va[k] = v(i),
                Place::Frozen(k) => vf[k] = v(i),
            }
        }
        (va, vf)
    };
    // G v from v's parts: the active part through S⁻¹, the frozen part back through P⁻¹.
    let apply = |(va, vf): (DVector<f64>, DVector<f64>)| {
        let ga = &sinv * (va - frozen.y.transpose() * &vf);
        let gf = &frozen.pinv * vf - &frozen.y * &ga;
        place
            .iter()
            .map(|p| match *p {
                Place::Active(k) => ga[k],
                Place::Frozen(k) => gf[k],
            })
            .collect::<Vec<f64>>()
    };
    let mut theta = apply(split(&|i| b[i]));
    let x = apply(split(&|_| 1.0));
    let mut mean = vec![0.0; comp_size.len()];
    let mut xsum = vec![0.0; comp_size.len()];
    for i in 0..place.len() {
        mean[comp[i]] += theta[i] / comp_size[comp[i]] as f64;
        xsum[comp[i]] += x[i];
    }
    for (i, t) in theta.iter_mut().enumerate() {
        *t -= mean[comp[i]];
    }
    let reduced = Reduced {
        place,
        comp,
        comp_size,
        sinv,
        x,
        xsum,
        frozen,
        z: OnceLock::new(),
    };
    Some((theta, reduced))
}

impl Reduced {
    fn z(&self) -> &DMatrix<f64> {
        self.z.get_or_init(|| &self.frozen.y * &self.sinv)
    }

    /// `G_ij`.
    fn g(&self, i: usize, j: usize) -> f64 {
        match (self.place[i], self.place[j]) {
            (Place::Active(p), Place::Active(q)) => self.sinv[(p, q)],
            (Place::Frozen(f), Place::Active(q)) | (Place::Active(q), Place::Frozen(f)) => {
                -self.z()[(f, q)]
            }
            (Place::Frozen(f), Place::Frozen(h)) => {
                self.frozen.pinv[(f, h)] + self.z().row(f).dot(&self.frozen.y.row(h))
            }
        }
    }

    /// `L⁺_ii`: player `i`'s variance against its component's average, in units of `σ²`.
    pub fn lplus(&self, i: usize) -> f64 {
        let c = self.comp[i];
        let n = self.comp_size[c] as f64;
        self.g(i, i) - 2.0 * self.x[i] / n + self.xsum[c] / (n * n)
    }

    /// The variance of `i`'s strength less `j`'s, in units of `σ²` (same component).
    pub fn diff(&self, i: usize, j: usize) -> f64 {
        self.g(i, i) + self.g(j, j) - 2.0 * self.g(i, j)
    }
}
