package modforge.multipass

import modforge.polymul.{ConstChain, ConstForm, PrimeChoice, VariableMul}
import spinal.core._
import spinal.lib._

/** The middle twiddles of a column pass, generated on chip and multiplied into a stream of R-coefficient words
  * in the order the pass writes (`columns`) or reads (`columns_inverse`) a block: for each block b (columns
  * j2 = b be .. b be + be - 1), for each operand, rows k1 = 0 .. n1 - 1, within a row the be columns, R a word.
  * Word by word, `output` = `input` x twiddle mod q, with twiddle(k1, j2) = g^((2 k1 + 1 - n1) j2), g = psi
  * (forward) or psi^-1 (inverse), exponents mod 2n: verif/polymul/multipass.py's `MiddleTwiddles`, bit for bit.
  *
  * **Running products down the columns.** The model runs its products along a row (the ratio rho_k1 =
  * g^(2 k1 + 1 - n1) from one column to the next), one product after another. A pipelined multiplier cannot
  * close that loop at one twiddle a cycle: its result comes back `barrettLatency` cycles later. So the chains
  * run down the columns instead, where consecutive values of one chain are a row, be / R cycles, apart:
  *
  *   twiddle(k1, j2) = twiddle(k1 - d, j2) V(j2), V(j2) = g^(2 d j2), for k1 >= d,
  *
  * with d = [[ColumnsConfig.phases]] rows in flight (d be / R >= the multiplier's latency; d = 1 unless rows
  * are shorter than the multiplier is deep). The first d rows of a block and the block's be ratios are the
  * carried state, the seeds, updated once a block by constants:
  *
  *   S_k(j2 + be) = S_k(j2) g^((2k + 1 - n1) be) (k < d),   V(j2 + be) = V(j2) g^(2 d be),
  *
  * and set at the start of a pass from S_k(j2) = (g^(2k + 1 - n1))^j2 and V(j2) = (g^(2d))^j2, j2 < be,
  * themselves running products from 1. With d = 1 the constants are the model's four: rho_0 = g^(1 - n1) and
  * g^2 (the start), g^((1 - n1) be) and g^(2 be) (block to block); the carried state is 2 be words (S_0 and V),
  * where the model carries two (the seeds s_b and u_b, from which its rows start).
  *
  * **Multipliers**: BarrettOpt (the streaming engine's pointwise multiplier, [[modforge.polymul.StreamMul]]),
  * R for the data, R for the chains, and one for the seeds: (d + 1) be independent products a block, started
  * once the block's last operand has read its first d rows; after the pass's last block (and after reset) the
  * serial start chains instead, about be (latency + 2) cycles, so that the next pass finds block 0's seeds ready.
  * A block's first rows wait for their seeds (`busy`); the update is hidden while (n1 - d) be / R >= (d + 1) be +
  * latency (and the start chains while (n1 - d) be / R >= be (latency + 2)).
  *
  * **Registers before the multipliers** (`stageCycles`). The twiddle of a word is a (d W)-to-1 choice among the
  * seeds, or the chain's head; the seeds' multiplier's operand a (d + 1) be-to-1 choice among the state. Fed
  * straight into a Barrett, those choices and the fanout of the counters that steer them were the column pass's
  * critical path (`flow/sta_blocks.py` on `mpoly_8192_x32_b256_l1_s32_p1_w31_t1`: 9.0 ns, against 6.8 ns for the
  * arithmetic; docs/polymul_multipass.md, "What sets the clock"). So the chosen twiddle, its column's ratio and
  * whether it starts a chain are registered (a one-deep stream stage, `staged`), and so are the seeds'
  * operands: each loop is one cycle longer, which [[ColumnsConfig.twiddleLoop]] counts in d.
  */
object MiddleTwiddleStage {
  /** The register between the twiddles' choice and the multipliers. */
  val stageCycles: Int = 1
}

class MiddleTwiddleStage(c: ColumnsConfig) extends Component {
  private val R = c.R
  private val w = c.w
  private val d = c.phases
  private val L = c.barrettLatency
  private val be = c.be
  private val W = c.rowWords

  private val S = c.qs.size
  val io = new Bundle {
    val input = slave Stream (Vec(UInt(w bits), R))
    val output = master Stream (Vec(UInt(w bits), R))
    /** The seeds are being computed. */
    val busy = out Bool ()
    /** Limbs in sequence: the pass's limb (0 .. S - 1, held through the pass); the next pass's is the one after it,
      * limb 0 after limb S - 1 (a batch runs every product's limbs in order). */
    val limb = (S > 1) generate (in UInt (PrimeChoice.selBits(S) bits))
    /** With constants loaded at run time ([[ColumnsConfig.loaded]]): a word a cycle into this stage's chain
      * ([[modforge.polymul.ConstChain]]), between passes; then `reseed` (a cycle) computes block 0's seeds from them
      * (`busy` meanwhile). A pass's last block then computes no seeds: the next pass's prime is not loaded yet. */
    val load = c.loaded generate slave(Flow(Bits(c.loadedContext.cellBits bits)))
    val reseed = c.loaded generate (in Bool ())
  }
  /** The loaded constants' chain (null: literals or each limb's tables). */
  private val loadedChain: ConstChain = if (c.loaded) new ConstChain(c.loadedContext, null, io.load) else null
  /** The loaded constants' forms, in chain order (empty unless loaded). */
  def loadedForms: Seq[ConstForm] = if (loadedChain != null) loadedChain.forms else Nil

  /** a b mod q, both variable: the streaming engine's BarrettOpt ([[modforge.polymul.VariableMul]]), as LimbEngine's
    * pointwise product; with limbs in sequence mod the prime `primes` chooses (steady while products are in flight). */
  def barrett(a: UInt, b: UInt, valid: Bool, primes: PrimeChoice): (UInt, Bool) = {
    val m = VariableMul(c.mul, w, primes, a, b, valid)
    require(m.latency == L, s"BarrettOpt latency ${m.latency}, the configuration says $L")
    (m.out_t, m.out_valid)
  }
  // The selects' copies (PrimeChoice): two levels for the pass's limb, steady from the pass's start; one for the
  // seeds' multiplier and start ratios, whose first product reads them two cycles after the init's limb is latched.
  private def choice(sel: UInt, copies: Int) = if (S > 1) PrimeChoice(c.qs, sel, copies)
    else if (loadedChain != null) PrimeChoice.loaded(c.qs.head, loadedChain) else PrimeChoice.one(c.qs.head)
  /** The pass's prime. */
  private val current = choice(io.limb, 2)
  private def cat(parts: (UInt, Int)*): UInt = {
    val ps = parts.filter(_._2 > 0)
    if (ps.isEmpty) U(0, 1 bits) else ps.map { case (v, b) => v.resize(b).asBits }.reduce(_ ## _).asUInt
  }

  // ---- Where the stream is: word u of row k of operand o of block b ----
  val u = Reg(UInt(WrapCounter.bits(W) bits)) init (0)
  val k = Reg(UInt(log2Up(c.n1) bits)) init (0)
  val o = Reg(UInt(1 bits)) init (0)
  val lastWord = u === W - 1
  val lastRow = k === c.n1 - 1
  val lastOperand = if (c.operands == 1) True else o === c.operands - 1
  val blockLast = lastOperand && lastRow && lastWord
  val fromSeeds = k < d

  // ---- The state: S_k(c) at k be + c (k < d), V(c) at d be + c; the next block's V apart ----
  val state = Vec.fill((d + 1) * be)(Reg(UInt(w bits)))
  val ratioNext = Vec.fill(be)(Reg(UInt(w bits)))
  val updating = Reg(Bool()) init (!c.loaded) // block 0's seeds are computed after reset (loaded: after each load)
  io.busy := updating

  // ---- The twiddles of this word: the seeds (rows < d) or the chains ----
  val chain = StreamFifo(Vec(UInt(w bits), R), d * W, latency = 0)
  private val seedRow = k.resize(WrapCounter.bits(d))
  val seedWord = Vec((0 until R).map { i =>
    val v = Vec(for (kk <- 0 until d; uu <- 0 until W) yield state(kk * be + uu * R + i))
    if (v.size == 1) v(0) else v(cat((seedRow, log2Up(d)), (u, log2Up(W))).resize(log2Up(v.size)))
  })
  val ratio = Vec((0 until R).map { i =>
    val v = Vec(for (uu <- 0 until W) yield state(d * be + uu * R + i))
    if (v.size == 1) v(0) else v(u.resize(log2Up(W)))
  })
  val tw = Mux(fromSeeds, seedWord, chain.io.pop.payload)
  /** Loaded constants: the pass's prime has its seeds (a reseed's start chains are done). Cleared when a pass's last
    * word is taken, so that no word of the next pass is taken (into `staged`, a word ahead) before its prime is loaded
    * and seeded; after reset, none before the first load. */
  val seeded = c.loaded generate (Reg(Bool()) init (False))
  val twValid = {
    val v = Mux(fromSeeds, True, chain.io.pop.valid) && !(updating && (fromSeeds || blockLast))
    if (c.loaded) v && seeded else v
  }

  // ---- The twiddle register: the word's twiddle, its column's ratio, and whether it starts a chain ----
  // The counters above walk the words as they are taken into it (`take`), one word ahead of the data.
  val chosen = Stream(new Bundle {
    val tw = Vec(UInt(w bits), R)
    val ratio = Vec(UInt(w bits), R)
    val chain = Bool()
  })
  chosen.valid := twValid
  chosen.payload.tw := tw
  chosen.payload.ratio := ratio
  chosen.payload.chain := k < c.n1 - d
  val staged = chosen.m2sPipe()
  val take = chosen.fire

  // ---- The data products, into a FIFO whose room is counted before a product starts ----
  private val depth = L + 4
  val results = StreamFifo(Vec(UInt(w bits), R), depth)
  val inflight = Reg(UInt(log2Up(depth + 1) bits)) init (0)
  val credit = results.io.availability > inflight
  val fire = io.input.valid && staged.valid && credit
  io.input.ready := staged.valid && credit
  staged.ready := io.input.valid && credit
  chain.io.pop.ready := take && !fromSeeds
  val prods = (0 until R).map(i => barrett(io.input.payload(i), staged.payload.tw(i), fire, current))
  results.io.push.valid := prods.head._2
  results.io.push.payload := Vec(prods.map(_._1))
  inflight := inflight + U(fire).resized - U(prods.head._2).resized
  io.output << results.io.pop

  // ---- The chains: row k + d of this column from row k ----
  val chainIssue = fire && staged.payload.chain
  val next = (0 until R).map(i => barrett(staged.payload.tw(i), staged.payload.ratio(i), chainIssue, current))
  chain.io.push.valid := next.head._2
  chain.io.push.payload := Vec(next.map(_._1))
  // A chain holds at most d rows of a column's values, the FIFO's depth: a result always has its place.
  assert(!(chain.io.push.valid && !chain.io.push.ready), "MiddleTwiddleStage: a chain value with no room", FAILURE)

  when(take) {
    u := (if (W == 1) U(0) else u + 1)
    when(lastWord) {
      k := k + 1
      when(lastRow) { if (c.operands > 1) o := o + 1 }
    }
    when(blockLast) { for (cc <- 0 until be) state(d * be + cc) := ratioNext(cc) }
  }

  // ---- The seeds' multiplier ----
  // Both modes compute the next block's seeds: S_k in place (the block's last operand has read its rows < d), V
  // into ratioNext (the block's chains still use V; it takes ratioNext at the block's last word).
  //  - step (blocks 0 .. B - 2): every state word times its block step, one a cycle, independent;
  //  - init (after reset, and at the pass's last block, for the next pass's block 0): column 0 of every chain is
  //    1, then for column cc = 1 .. be - 1 chain x (x < d: S_x, x = d: V) gets x(cc - 1) times its start ratio, the
  //    d + 1 chains issued back to back, the next column once they have landed.
  // So a pass finds block 0's seeds ready, as soon as the previous pass (or reset) is some way behind.
  private val nState = (d + 1) * be
  val blk = Reg(UInt(WrapCounter.bits(c.blocks) bits)) init (0)
  val initMode = Reg(Bool()) init (True)
  val afterReset = Reg(Bool()) init (True)
  val x = Reg(UInt(WrapCounter.bits(d + 1) bits)) init (0)
  val col = Reg(UInt(log2Up(be + 1) bits)) init (0)
  val j = Reg(UInt(log2Up(nState + 1) bits)) init (0)
  val pending = Reg(UInt(log2Up(nState + L + 2) bits)) init (0)
  // Limbs in sequence: an init computes the next pass's block 0, so it takes the next pass's limb, latched when the
  // init starts (the pass may end, and the limb move on, while it runs); after reset limb 0's. A block step is the
  // pass's own limb.
  val initLimb = (S > 1) generate (Reg(UInt(PrimeChoice.selBits(S) bits)) init (0))
  private val atInit = choice(initLimb, 1)
  private val seeding = choice(if (S > 1) Mux(initMode, initLimb, io.limb) else null, 1)
  private val startRatios = Vec((0 until d).map(kk => atInit.pick(c.qs.indices.map(c.rowRatioOf(_, kk)), w)) :+
    atInit.pick(c.qs.indices.map(c.ratioStepOf), w))
  private val blockSteps = Vec((0 until d).map(kk => current.pick(c.qs.indices.map(c.seedStepOf(_, kk)), w)) :+
    current.pick(c.qs.indices.map(c.ratioBlockStepOf), w))
  private val xIdx = x.resize(log2Up(d + 1))
  // be is a power of two: x be + col is x above col's log2(be) bits.
  val initIdx = cat((x, log2Up(d + 1)), (col, log2Up(be))).resize(log2Up(nState))
  val initV = x === d
  val firstCol = updating && initMode && col === 0 && pending === 0
  val issueInit = updating && initMode && col =/= 0 && col < be && (x =/= 0 || pending === 0)
  val issueBlock = updating && !initMode && j < nState
  val blockX = (j >> log2Up(be)).resize(log2Up(d + 1))
  private val prevCol = (col - 1).resize(log2Up(be))
  val initA = Mux(initV, ratioNext(prevCol), state(initIdx - 1))
  val ua = Mux(initMode, initA, state(j.resize(log2Up(nState))))
  val ub = Mux(initMode, startRatios(xIdx), blockSteps(blockX))
  val issue = issueInit || issueBlock
  // The operands registered first (`stageCycles`): `pending` counts the product from its issue.
  val (upd, updValid) = barrett(RegNext(ua), RegNext(ub), RegNext(issue) init (False), seeding)
  // The result's place: a state word (S), or ratioNext (V).
  val target = Mux(initMode, initIdx, j.resize(log2Up(nState)))
  val toNext = Mux(initMode, initV, j >= d * be)
  val landing = Delay(target, L + MiddleTwiddleStage.stageCycles)
  val landingNext = Delay(toNext, L + MiddleTwiddleStage.stageCycles)
  pending := pending + U(issue).resized - U(updValid).resized
  when(updValid) {
    when(landingNext) { ratioNext(landing.resize(log2Up(be))) := upd }
      .otherwise { state(landing) := upd }
  }
  when(firstCol) {
    for (xx <- 0 until d) state(xx * be) := 1
    ratioNext(0) := 1
    col := 1
  }
  when(issueInit) {
    when(x === d) { x := 0; col := col + 1 } otherwise { x := x + 1 }
  }
  when(issueBlock) { j := j + 1 }
  // Done when every product has landed and none is left to issue. After reset nothing waits for ratioNext at a
  // block's end: V takes it now.
  val initDone = initMode && col === be && pending === 0 && !updValid
  val blockDone = !initMode && j === nState && pending === 0 && !updValid
  when(updating && (initDone || blockDone)) {
    updating := False
    when(afterReset) {
      afterReset := False
      for (cc <- 0 until be) state(d * be + cc) := ratioNext(cc)
    }
  }

  // Block b's last operand has read its seeds (rows < d): the seeds of block b + 1, or of the next pass's block 0.
  val lastBlock = blk === c.blocks - 1
  when(take && blockLast) { WrapCounter.step(blk, c.blocks) }
  when(take && lastOperand && k === d - 1 && lastWord) {
    updating := (if (c.loaded) !lastBlock else True)
    initMode := lastBlock
    if (S > 1) when(lastBlock) { initLimb := Mux(io.limb === S - 1, U(0), io.limb + 1) }
    j := 0
    x := 0
    col := 0
  }
  // Loaded constants: a reseed (the pass's prime just loaded, the stage idle) computes block 0's seeds, as after reset.
  if (c.loaded) {
    when(take && blockLast && lastBlock) { seeded := False }
    when(updating && initMode && initDone) { seeded := True }
    when(io.reseed) {
      updating := True
      initMode := True
      afterReset := True
      j := 0
      x := 0
      col := 0
    }
    loadedChain.finish(Bits(c.loadedContext.cellBits bits)) // the unit's last cell: read by nothing further
  }
}
