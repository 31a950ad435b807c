//! tfhe-ntt negacyclic product in Z_q[x]/(x^n + 1), one core, for issue 27's software baseline.
//! A prime below 2^32 runs on prime32::Plan (32-bit words: 16 lanes in an AVX-512 register), any
//! other on prime64::Plan (below 2^50 it takes the IFMA code path where the CPU has it). Driven by
//! flow/reports/tfhe_ntt.py; three commands, text on stdin/stdout:
//!
//!   primes N L BITS   the L largest primes q < 2^BITS with q = 1 mod 2N that the plan of their
//!                     word size (prime32 for BITS <= 32) accepts, one per line
//!   check             stdin: "N L", the L primes, then per limb a's N coefficients and b's N
//!                     coefficients (all < q_i); stdout: per limb the N coefficients of
//!                     a*b mod (x^N + 1, q_i), one limb per line (fwd a, fwd b,
//!                     mul_assign_normalize, inv)
//!   time N REPS SEED Q1 [Q2 ...]
//!                     times, over REPS repetitions after REPS/10 warm-up ones, the product of
//!                     two seeded random polynomials on all limbs: "full" = copy a and b into
//!                     scratch, 2 fwd + mul_assign_normalize + inv per limb; "pre" = b already
//!                     transformed: copy a, 1 fwd + mul_assign_normalize + inv per limb. The limbs
//!                     must all be below 2^32 (prime32) or none. stdout: one JSON line with min and
//!                     median in microseconds, the plan ("prime32" or "prime64"), and whether the
//!                     plans use the IFMA (52-bit) code path.
use std::io::{self, Read, Write};
use std::time::Instant;
use tfhe_ntt::{prime32, prime64};

/// The three calls of a product on either plan, over its own word.
trait NttPlan: Sized {
    type W: Copy + Default + std::fmt::Display;
    const API: &'static str;
    fn make(n: usize, q: u64) -> Option<Self>;
    fn word(x: u64) -> Self::W;
    fn fwd(&self, buf: &mut [Self::W]);
    fn inv(&self, buf: &mut [Self::W]);
    fn mul_assign_normalize(&self, lhs: &mut [Self::W], rhs: &[Self::W]);
    fn use_ifma(&self) -> bool;
}

impl NttPlan for prime64::Plan {
    type W = u64;
    const API: &'static str = "prime64";
    fn make(n: usize, q: u64) -> Option<Self> { prime64::Plan::try_new(n, q) }
    fn word(x: u64) -> u64 { x }
    fn fwd(&self, buf: &mut [u64]) { prime64::Plan::fwd(self, buf) }
    fn inv(&self, buf: &mut [u64]) { prime64::Plan::inv(self, buf) }
    fn mul_assign_normalize(&self, lhs: &mut [u64], rhs: &[u64]) { prime64::Plan::mul_assign_normalize(self, lhs, rhs) }
    fn use_ifma(&self) -> bool { prime64::Plan::use_ifma(self) }
}

impl NttPlan for prime32::Plan {
    type W = u32;
    const API: &'static str = "prime32";
    fn make(n: usize, q: u64) -> Option<Self> { u32::try_from(q).ok().and_then(|q| prime32::Plan::try_new(n, q)) }
    fn word(x: u64) -> u32 { x as u32 }
    fn fwd(&self, buf: &mut [u32]) { prime32::Plan::fwd(self, buf) }
    fn inv(&self, buf: &mut [u32]) { prime32::Plan::inv(self, buf) }
    fn mul_assign_normalize(&self, lhs: &mut [u32], rhs: &[u32]) { prime32::Plan::mul_assign_normalize(self, lhs, rhs) }
    fn use_ifma(&self) -> bool { false }
}

/// prime32 takes the primes below 2^32: its words are half as wide, so a vector holds twice the lanes.
fn is_32(q: u64) -> bool { q < (1u64 << 32) }

/// Whether the limbs run on prime32 (all below 2^32) or prime64 (none); a mix is refused.
fn limbs_32(qs: &[u64]) -> bool {
    if qs.iter().all(|&q| is_32(q)) {
        true
    } else if qs.iter().any(|&q| is_32(q)) {
        eprintln!("the limbs must all be below 2^32 (prime32) or all at or above it (prime64)");
        std::process::exit(2)
    } else {
        false
    }
}

fn plan<P: NttPlan>(n: usize, q: u64) -> P {
    P::make(n, q).unwrap_or_else(|| {
        eprintln!("{}::Plan::try_new({n}, {q}) failed (q must be a prime = 1 mod 2n, n >= 16 (prime32: 32) a power of 2)", P::API);
        std::process::exit(2)
    })
}

// xorshift64*: inputs only need to be arbitrary residues, not cryptographic
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
}

fn product<P: NttPlan>(p: &P, a: &[P::W], b: &[P::W]) -> Vec<P::W> {
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    p.fwd(&mut x);
    p.fwd(&mut y);
    p.mul_assign_normalize(&mut x, &y);
    p.inv(&mut x);
    x
}

/// The check command's products, one line per limb.
fn check<P: NttPlan>(n: usize, qs: &[u64], t: &mut dyn Iterator<Item = u64>, out: &mut dyn Write) {
    for &q in qs {
        let a: Vec<u64> = (0..n).map(|_| t.next().unwrap()).collect();
        let b: Vec<u64> = (0..n).map(|_| t.next().unwrap()).collect();
        assert!(a.iter().chain(&b).all(|&c| c < q), "coefficients must be < q");
        let (a, b): (Vec<P::W>, Vec<P::W>) = (a.into_iter().map(P::word).collect(), b.into_iter().map(P::word).collect());
        let c = product(&plan::<P>(n, q), &a, &b);
        let line: Vec<String> = c.iter().map(|x| x.to_string()).collect();
        writeln!(out, "{}", line.join(" ")).unwrap();
    }
}

/// The time command on one kind of plan (see the module's text).
fn time<P: NttPlan>(n: usize, reps: usize, seed: u64, qs: &[u64]) -> String
where P::W: PartialEq + std::fmt::Debug {
    let plans: Vec<P> = qs.iter().map(|&q| plan::<P>(n, q)).collect();
    let mut rng = Rng(seed | 1);
    let a: Vec<Vec<P::W>> = qs.iter().map(|&q| (0..n).map(|_| P::word(rng.next() % q)).collect()).collect();
    let b: Vec<Vec<P::W>> = qs.iter().map(|&q| (0..n).map(|_| P::word(rng.next() % q)).collect()).collect();
    let b_hat: Vec<Vec<P::W>> = plans.iter().zip(&b).map(|(p, b)| {
        let mut y = b.clone();
        p.fwd(&mut y);
        y
    }).collect();
    // sanity: both paths give the same product
    for i in 0..qs.len() {
        let mut x = a[i].clone();
        plans[i].fwd(&mut x);
        plans[i].mul_assign_normalize(&mut x, &b_hat[i]);
        plans[i].inv(&mut x);
        assert_eq!(x, product(&plans[i], &a[i], &b[i]));
    }
    let mut x: Vec<Vec<P::W>> = vec![vec![P::W::default(); n]; qs.len()];
    let mut y: Vec<Vec<P::W>> = vec![vec![P::W::default(); n]; qs.len()];
    let warm = (reps / 10).max(1);
    let mut full = Vec::with_capacity(reps);
    let mut pre = Vec::with_capacity(reps);
    for r in 0..warm + reps {
        let t0 = Instant::now();
        for i in 0..qs.len() {
            x[i].copy_from_slice(&a[i]);
            y[i].copy_from_slice(&b[i]);
            plans[i].fwd(&mut x[i]);
            plans[i].fwd(&mut y[i]);
            plans[i].mul_assign_normalize(&mut x[i], &y[i]);
            plans[i].inv(&mut x[i]);
        }
        let dt = t0.elapsed().as_secs_f64() * 1e6;
        std::hint::black_box(&x);
        if r >= warm { full.push(dt); }
    }
    for r in 0..warm + reps {
        let t0 = Instant::now();
        for i in 0..qs.len() {
            x[i].copy_from_slice(&a[i]);
            plans[i].fwd(&mut x[i]);
            plans[i].mul_assign_normalize(&mut x[i], &b_hat[i]);
            plans[i].inv(&mut x[i]);
        }
        let dt = t0.elapsed().as_secs_f64() * 1e6;
        std::hint::black_box(&x);
        if r >= warm { pre.push(dt); }
    }
    let (fmin, fmed) = min_median(full);
    let (pmin, pmed) = min_median(pre);
    let qstr: Vec<String> = qs.iter().map(u64::to_string).collect();
    let ifma: Vec<String> = plans.iter().map(|p| p.use_ifma().to_string()).collect();
    format!("{{\"n\": {n}, \"L\": {}, \"primes\": [{}], \"api\": \"{}\", \"reps\": {reps}, \"full_min_us\": {fmin:.3}, \"full_median_us\": {fmed:.3}, \"pre_min_us\": {pmin:.3}, \"pre_median_us\": {pmed:.3}, \"use_ifma\": [{}]}}",
            qs.len(), qstr.join(", "), P::API, ifma.join(", "))
}

fn min_median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let m = v.len();
    let med = if m % 2 == 1 { v[m / 2] } else { 0.5 * (v[m / 2 - 1] + v[m / 2]) };
    (v[0], med)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize| -> u64 {
        args.get(i).and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            eprintln!("usage: tfhe_ntt primes N L BITS | check < input | time N REPS SEED Q1 [Q2 ...]");
            std::process::exit(2)
        })
    };
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    match args.first().map(String::as_str) {
        Some("primes") => {
            let (n, l, bits) = (num(1) as usize, num(2) as usize, num(3) as u32);
            assert!((20..=63).contains(&bits), "BITS must be in 20..=63");
            let step = 2 * n as u64;
            let mut q = ((1u64 << bits) - 1) / step * step + 1;
            let mut found = 0;
            while found < l && q > step {
                let ok = if is_32(q) { prime32::Plan::make(n, q).is_some() } else { prime64::Plan::make(n, q).is_some() };
                if ok {
                    writeln!(out, "{q}").unwrap();
                    found += 1;
                }
                q -= step;
            }
        }
        Some("check") => {
            let mut s = String::new();
            io::stdin().lock().read_to_string(&mut s).unwrap();
            let mut t = s.split_ascii_whitespace().map(|w| w.parse::<u64>().expect("integer"));
            let n = t.next().unwrap() as usize;
            let l = t.next().unwrap() as usize;
            let qs: Vec<u64> = (0..l).map(|_| t.next().unwrap()).collect();
            if limbs_32(&qs) {
                check::<prime32::Plan>(n, &qs, &mut t, &mut out);
            } else {
                check::<prime64::Plan>(n, &qs, &mut t, &mut out);
            }
        }
        Some("time") => {
            let (n, reps, seed) = (num(1) as usize, num(2) as usize, num(3));
            let qs: Vec<u64> = (4..args.len()).map(num).collect();
            assert!(!qs.is_empty() && reps > 0);
            let line = if limbs_32(&qs) {
                time::<prime32::Plan>(n, reps, seed, &qs)
            } else {
                time::<prime64::Plan>(n, reps, seed, &qs)
            };
            writeln!(out, "{line}").unwrap();
        }
        _ => {
            eprintln!("usage: tfhe_ntt primes N L BITS | check < input | time N REPS SEED Q1 [Q2 ...]");
            std::process::exit(2)
        }
    }
}
