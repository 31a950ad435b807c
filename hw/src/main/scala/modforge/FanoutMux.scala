package modforge

import spinal.core._

/** A multiplexer tree whose select lines are registered copies of the select, each copy driving at most
  * [[FanoutReg.maxFanout]] multiplexer inputs.
  *
  * Why: post-synthesis STA buffers no register output (flow/synth.py's `buffer -N 16` runs inside ABC, where flip-flop
  * outputs are inputs), so a select register that picks one of many wide words drives hundreds of multiplexers
  * unbuffered: 33.8 ns on a corner turn's read address in `mpoly_1024_x32_b64_l2_s32_p1`, 7.97 ns on the rows pass's
  * slot select in `mpoly_8192_x32_b256_l1_s32_p1_w31_t1` (docs/polymul_multipass.md). A layout flow's resizer would
  * buffer the nets; copying the register is what a designer does in the RTL.
  *
  * `selNext` is the value the select register takes at the next edge (what its `Reg` is assigned; reset 0): the tree
  * selects `inputs(sel)` with sel that register's value, held in copies ([[FanoutReg]]). Inputs beyond a power of two
  * are zeros.
  */
object FanoutMux {
  def apply(inputs: Seq[UInt], selNext: UInt): UInt = {
    val width = inputs.head.getWidth
    val levels = log2Up(inputs.size)
    require(selNext.getWidth >= levels, s"a select of ${selNext.getWidth} bits for ${inputs.size} inputs")
    val padded = inputs ++ Seq.fill((1 << levels) - inputs.size)(U(0, width bits))
    (0 until levels).foldLeft(padded) { (in, k) =>
      val pairs = in.grouped(2).toSeq
      val sel = FanoutReg(selNext(k), FanoutReg.copies(pairs.size * width))
      pairs.zipWithIndex.map { case (p, i) => Mux(sel(i * width / FanoutReg.maxFanout), p(1), p(0)) }
    }.head
  }
}
