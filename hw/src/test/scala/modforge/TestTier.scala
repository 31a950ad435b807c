package modforge

/** Which SpinalSim cases a run includes (docs/testing.md, "Tiers"). `make test` runs one case per
  * concept: each case is a Verilator build of 10-40 s, and the suite must stay within its 15 minutes
  * on 2 cores; `make test-long` (which sets MODFORGE_SIM_OPS) runs every case: the further widths,
  * sizes and variants that exercise the same RTL again.
  */
object TestTier {
  val long: Boolean = sys.env.contains("MODFORGE_SIM_OPS")

  /** `always` in every run; `longOnly` added in make test-long. */
  def pick[T](always: Seq[T], longOnly: Seq[T]): Seq[T] = if (long) always ++ longOnly else always
}
