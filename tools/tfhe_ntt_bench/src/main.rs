//! tfhe-ntt (prime64::Plan) negacyclic product in Z_q[x]/(x^n + 1), one core, for issue 27's
//! software baseline. Driven by flow/reports/tfhe_ntt.py; three commands, text on stdin/stdout:
//!
//!   primes N L BITS   the L largest primes q < 2^BITS with q = 1 mod 2N that Plan::try_new
//!                     accepts, one per line
//!   check             stdin: "N L", the L primes, then per limb a's N coefficients and b's N
//!                     coefficients (all < q_i); stdout: per limb the N coefficients of
//!                     a*b mod (x^N + 1, q_i), one limb per line (fwd a, fwd b,
//!                     mul_assign_normalize, inv)
//!   time N REPS SEED Q1 [Q2 ...]
//!                     times, over REPS repetitions after REPS/10 warm-up ones, the product of
//!                     two seeded random polynomials on all limbs: "full" = copy a and b into
//!                     scratch, 2 fwd + mul_assign_normalize + inv per limb; "pre" = b already
//!                     transformed: copy a, 1 fwd + mul_assign_normalize + inv per limb.
//!                     stdout: one JSON line with min and median in microseconds, plus whether
//!                     the plans use the IFMA (52-bit) code path.
use std::io::{self, Read, Write};
use std::time::Instant;
use tfhe_ntt::prime64::Plan;

fn plan(n: usize, q: u64) -> Plan {
    Plan::try_new(n, q).unwrap_or_else(|| {
        eprintln!("Plan::try_new({n}, {q}) failed (q must be a prime = 1 mod 2n, n >= 16 a power of 2)");
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

fn product(p: &Plan, a: &[u64], b: &[u64]) -> Vec<u64> {
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    p.fwd(&mut x);
    p.fwd(&mut y);
    p.mul_assign_normalize(&mut x, &y);
    p.inv(&mut x);
    x
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
                if Plan::try_new(n, q).is_some() {
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
            for &q in &qs {
                let a: Vec<u64> = (0..n).map(|_| t.next().unwrap()).collect();
                let b: Vec<u64> = (0..n).map(|_| t.next().unwrap()).collect();
                assert!(a.iter().chain(&b).all(|&c| c < q), "coefficients must be < q");
                let c = product(&plan(n, q), &a, &b);
                let line: Vec<String> = c.iter().map(u64::to_string).collect();
                writeln!(out, "{}", line.join(" ")).unwrap();
            }
        }
        Some("time") => {
            let (n, reps, seed) = (num(1) as usize, num(2) as usize, num(3));
            let qs: Vec<u64> = (4..args.len()).map(num).collect();
            assert!(!qs.is_empty() && reps > 0);
            let plans: Vec<Plan> = qs.iter().map(|&q| plan(n, q)).collect();
            let mut rng = Rng(seed | 1);
            let a: Vec<Vec<u64>> = qs.iter().map(|&q| (0..n).map(|_| rng.next() % q).collect()).collect();
            let b: Vec<Vec<u64>> = qs.iter().map(|&q| (0..n).map(|_| rng.next() % q).collect()).collect();
            let b_hat: Vec<Vec<u64>> = plans.iter().zip(&b).map(|(p, b)| {
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
            let mut x: Vec<Vec<u64>> = vec![vec![0; n]; qs.len()];
            let mut y: Vec<Vec<u64>> = vec![vec![0; n]; qs.len()];
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
            writeln!(out, "{{\"n\": {n}, \"L\": {}, \"primes\": [{}], \"reps\": {reps}, \"full_min_us\": {fmin:.3}, \"full_median_us\": {fmed:.3}, \"pre_min_us\": {pmin:.3}, \"pre_median_us\": {pmed:.3}, \"use_ifma\": [{}]}}",
                qs.len(), qstr.join(", "), ifma.join(", ")).unwrap();
        }
        _ => {
            eprintln!("usage: tfhe_ntt primes N L BITS | check < input | time N REPS SEED Q1 [Q2 ...]");
            std::process::exit(2)
        }
    }
}
