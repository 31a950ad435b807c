package modforge.multipass

import modforge.FanoutFifo
import modforge.polymul.{ConstChain, ConstForm, LoadedContext, PrimeChoice, StreamMul, VariableMul}
import spinal.core._
import spinal.lib._

/** The middle twiddles of the streamed column mode (`_c1`), in the rows pass: each word of row k1 (rows k1 = 0 ..
  * n1 - 1 in order, n2 words a row, j2 = 0 .. n2 - 1, P = 1) times twiddle(k1, j2) = g^((2 k1 + 1 - n1) j2) mod q,
  * g = psi (forward: X and Y before the row product) or psi^-1 (inverse: Z after it), exponents mod 2n; `operands`
  * words a cycle, all with the same twiddle. Bit for bit verif/polymul/multipass.py's `RowTwiddles`.
  *
  * **Chains along the row, D apart.** A row's twiddles are the powers of its ratio rho_k1 = g^(2 k1 + 1 - n1). A
  * pipelined BarrettOpt returns a product `L` cycles later, so one chain from word to word cannot give a twiddle a
  * cycle; D = L + 2 chains do (the extra cycles: the twiddle register and a margin):
  *
  *   twiddle(k1, j2) = twiddle(k1, j2 - D) rho_k1^D  (j2 >= D),  twiddle(k1, j2) = rho_k1^j2  (j2 < D: the row's seeds).
  *
  * **Seeds, a row ahead.** While row k1 streams, one more BarrettOpt computes row k1 + 1's D seeds and rho^D, one
  * product after another from its ratio, and that ratio times g^2 for the row after: (D + 1) (L + 2) cycles, which
  * must fit in a row's n2 (checked). Row 0's ratio is the constant g^(1 - n1). So a pass waits for row 0's seeds
  * only, about (D + 1) (L + 2) cycles after `start`.
  *
  * Multipliers: `operands` for the data, one for the chains, one for the seeds; state: 2 (D + 2) words.
  *
  * With `loaded` (`_d1`): the prime's constants (g^(1 - n1), g^2 and the BarrettOpt's) are cells of a chain loaded at
  * run time ([[modforge.polymul.ConstChain]]) between passes, their forms powers of the context's psi; a pass's seeds
  * are computed from them at `start`, as always.
  */
object RowTwiddleStage {
  /** D, the chains along a row, for a BarrettOpt of `l` cycles: its latency, the twiddle register and a margin. */
  def chains(l: Int): Int = l + 2
  /** The seeds of a row: D + 1 products one after another, each with its operand register and the turn-around. */
  def seedCycles(l: Int): Int = (chains(l) + 1) * (l + 2)
  /** What a stage adds to the rows pass's fill: row 0's seeds after `start` (and the limb's settling), then a word's
    * register, its BarrettOpt and the result FIFO. */
  def fillCycles(l: Int): Int = seedCycles(l) + l + 4
}

class RowTwiddleStage(n: Int, n1: Int, n2: Int, w: Int, mul: StreamMul, qs: Seq[BigInt], psis: Seq[BigInt],
                      inverse: Boolean, operands: Int, loaded: LoadedContext = null) extends Component {
  require(loaded == null || qs.size == 1, "constants loaded at run time: one prime at a time")
  private val L = mul.barrettLatency(w)
  /** Chains in flight along a row. */
  val D: Int = RowTwiddleStage.chains(L)
  /** Cycles the seeds of a row take: D + 1 products, each with its operand register and the turn-around. */
  val seedCycles: Int = RowTwiddleStage.seedCycles(L)
  require(seedCycles + D <= n2, s"rows of n2 = $n2 words are too short for the middle twiddles' seeds ($seedCycles cycles a row with " +
    s"the $L-cycle BarrettOpt): use a smaller n1 (longer rows)")
  private val S = qs.size
  val io = new Bundle {
    val input = slave Stream (Vec(UInt(w bits), operands))
    val output = master Stream (Vec(UInt(w bits), operands))
    /** A pass begins (one cycle): row 0 of the pass's limb is next; its seeds take about `seedCycles`. */
    val start = in Bool ()
    /** Limbs in sequence: the pass's limb, steady from `start` through the pass. */
    val limb = (S > 1) generate (in UInt (PrimeChoice.selBits(S) bits))
    /** With `loaded`: a word a cycle into this stage's chain, between passes; `loadOut` its last cell. */
    val load = (loaded != null) generate slave(Flow(Bits(loaded.cellBits bits)))
    val loadOut = (loaded != null) generate (out Bits (loaded.cellBits bits))
  }
  /** The loaded constants' chain (null: literals or each limb's tables). */
  private val loadedChain: ConstChain = if (loaded != null) new ConstChain(loaded, null, io.load) else null
  /** The loaded constants' forms, in chain order (empty unless loaded). */
  def loadedForms: Seq[ConstForm] = if (loadedChain != null) loadedChain.forms else Nil

  private def gp(l: Int, x: BigInt): BigInt = {
    val g = if (inverse) psis(l).modInverse(qs(l)) else psis(l)
    g.modPow(((x % (2 * n)) + 2 * n) % (2 * n), qs(l))
  }
  /** Row 0's ratio g^(1 - n1) and the ratio's step g^2, per limb. */
  val rho0s: Seq[BigInt] = qs.indices.map(l => gp(l, 1 - n1))
  val g2s: Seq[BigInt] = qs.indices.map(l => gp(l, 2))

  // Two levels of the limb's copies (PrimeChoice), steady from the pass's start; the seeds wait `settle` cycles for them.
  private val current = if (S > 1) PrimeChoice(qs, io.limb, 2)
    else if (loadedChain != null) PrimeChoice.loaded(qs.head, loadedChain) else PrimeChoice.one(qs.head)
  // Picked here, not inside a `when`: with limbs in sequence a pick builds the select's register copies.
  private val g2 = current.pick(g2s, w)
  private val rho0 = current.pick(rho0s, w)
  /** a b mod q, both variable: the streaming engine's BarrettOpt, as [[MiddleTwiddleStage]]'s. */
  private def barrett(a: UInt, b: UInt, valid: Bool): (UInt, Bool) = {
    val m = VariableMul(mul, w, current, a, b, valid)
    require(m.latency == L, s"BarrettOpt latency ${m.latency}, expected $L")
    (m.out_t, m.out_valid)
  }

  // ---- The seeds: `cur` serves the row streaming, `nxt` is filled for the next ----
  val cur = Vec.fill(D)(Reg(UInt(w bits)))
  val curD = Reg(UInt(w bits))
  val curValid = Reg(Bool()) init (False)
  val nxt = Vec.fill(D)(Reg(UInt(w bits)))
  val nxtD = Reg(UInt(w bits))
  val nxtValid = Reg(Bool()) init (False)
  /** The ratio of the row being filled; after its fill, the next row's. */
  val rhoFill = Reg(UInt(w bits))
  val rowsFilled = Reg(UInt(log2Up(n1 + 1) bits)) init (n1)
  val filling = Reg(Bool()) init (False)
  /** Product `step` of a fill: 1 .. D - 1 the seeds rho^step, D rho^D, D + 1 the next ratio rho g^2. */
  val step = Reg(UInt(log2Up(D + 2) bits)) init (0)
  val waiting = Reg(Bool()) init (False)
  val prev = Reg(UInt(w bits))
  val settle = Reg(UInt(2 bits)) init (0)

  def launch(): Unit = { filling := True; step := 1; waiting := False; nxt(0) := 1; prev := 1 }

  val opA = Reg(UInt(w bits))
  val opB = Reg(UInt(w bits))
  val opValid = RegNext(False) init (False)
  val issue = filling && !waiting
  when(issue) {
    waiting := True
    opValid := True
    opA := Mux(step === D + 1, rhoFill, prev)
    opB := Mux(step === D + 1, g2, rhoFill)
  }
  val (seedOut, seedValid) = barrett(opA, opB, opValid)
  when(seedValid) {
    waiting := False
    step := step + 1
    for (i <- 1 until D) when(step === i) { nxt(i) := seedOut; prev := seedOut }
    when(step === D) { nxtD := seedOut }
    when(step === D + 1) { rhoFill := seedOut; filling := False; nxtValid := True; rowsFilled := rowsFilled + 1 }
  }

  // ---- The data: each word's twiddle chosen and registered, then the products ----
  val j2 = Reg(UInt(log2Up(n2) bits)) init (0)
  val fromSeeds = j2 < D
  val chain = StreamFifo(UInt(w bits), D, latency = 0)
  val chosen = Stream(new Bundle {
    val tw = UInt(w bits)
    val rhoD = UInt(w bits)
    val chain = Bool()
  })
  chosen.valid := curValid && (fromSeeds || chain.io.pop.valid)
  chosen.payload.tw := Mux(fromSeeds, cur(j2.resize(log2Up(D))), chain.io.pop.payload)
  chosen.payload.rhoD := curD
  chosen.payload.chain := j2 < n2 - D
  chain.io.pop.ready := chosen.fire && !fromSeeds
  val staged = chosen.m2sPipe()
  val rowEnd = chosen.fire && j2 === n2 - 1
  when(chosen.fire) { j2 := j2 + 1 }

  // A row's end hands over to the next row's seeds at once, if they are ready; else the stream waits for them.
  val promote = nxtValid && (!curValid || rowEnd)
  when(rowEnd) { curValid := False }
  when(promote) {
    cur := nxt; curD := nxtD; curValid := True; nxtValid := False
    when(rowsFilled =/= n1) { launch() }
  }

  private val depth = L + 4
  // The products' FIFO reads its head through copies of its pointer (FanoutFifo): a StreamFifo's one read-address
  // register selected every bit of the operands' words, 3.5 ns from its clock to its output, and then fed the rows
  // engine's input valid (the worst path of mpoly_8192_x32_k2_b256_l1_s32_p1_w31_c1_t1_r2 with the KeepReg copies,
  // 6.05 ns at tt).
  val results = new FanoutFifo(operands * w, depth)
  val inflight = Reg(UInt(log2Up(depth + 1) bits)) init (0)
  val credit = (U(depth, log2Up(depth + 1) bits) - results.io.occupancy) > inflight
  // The words registered before the multipliers: the rows pass's pair buffer drove the first BarrettOpt stage through
  // its select copies, the critical path of the first syntheses (6.56 ns at tt, mpoly_16384_x64_..._w25_c1_t1_d1).
  val words = io.input.m2sPipe()
  val fire = words.valid && staged.valid && credit
  words.ready := staged.valid && credit
  staged.ready := words.valid && credit
  /** A copy of `staged`'s twiddle register for one multiplier ([[modforge.KeepReg]], loaded as `staged` is): with one
    * register the data multipliers shared its recoding, which synthesis merged, and one flip-flop drove both product
    * trees (the critical path of mpoly_16384_x64_b256_l1_s32_p1_w25_c1_t1_d1, 6.41 ns, and of the n = 32768 design). */
  private def twCopy(): UInt = {
    val q = UInt(w bits)
    q := modforge.KeepReg(Mux(chosen.ready, chosen.payload.tw, q))
    q
  }
  val prods = (0 until operands).map(o => barrett(words.payload(o), twCopy(), fire))
  results.io.push.valid := prods.head._2
  results.io.push.payload := Vec(prods.map(_._1)).asBits // operand 0 in the low bits
  inflight := inflight + U(fire).resized - U(prods.head._2).resized
  io.output.valid := results.io.pop.valid
  io.output.payload.assignFromBits(results.io.pop.payload)
  results.io.pop.ready := io.output.ready

  val (chainOut, chainValid) = barrett(twCopy(), staged.payload.rhoD, fire && staged.payload.chain)
  chain.io.push.valid := chainValid
  chain.io.push.payload := chainOut
  // The chains hold at most D values of a row (one per word from j2 - D to j2): a result always has its place.
  assert(!(chain.io.push.valid && !chain.io.push.ready), "RowTwiddleStage: a chain value with no room", FAILURE)

  // ---- A pass: row 0's ratio, once the limb's constants have settled ----
  when(io.start) {
    settle := 3; curValid := False; nxtValid := False; filling := False; rowsFilled := 0; j2 := 0
  }
  when(settle =/= 0) {
    settle := settle - 1
    when(settle === 1) { rhoFill := rho0; launch() }
  }
  if (loadedChain != null) loadedChain.finish(io.loadOut)
}
