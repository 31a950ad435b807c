"""The NTT tile's (and the polymul designs') Python side: the negacyclic NTT golden model
(``ntt.ntt``), the RAM tile's host values (``ntt.ntt_host``) and the tables of Millar et al.'s SSA
polynomial multiplier paper (``ntt.millar_tables``). Builds on primetools, reduction and modmul."""
