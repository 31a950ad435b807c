package modforge.intfft

import modforge.Multiplier
import spinal.core._

object PointwiseUnit {
  def latency(g: IntFftParams): Int = 1 + Reducer.latency(g)
}

/** Step 3 of Algorithm 1: Z_T = X_T Y_T mod p, an m x m product (registered) and the group's reducer.
  * The fermat groups need this multiplier too: their butterflies shift, their pointwise products do
  * not (the paper's 64 pointwise 33 x 33 multipliers of 2^32 + 1; notes, Table 4 decomposition).
  */
class PointwiseUnit(val g: IntFftParams) extends Component {
  val io = new Bundle {
    val a, b = in UInt (g.m bits)
    val y = out UInt (g.m bits)
  }
  def latency: Int = PointwiseUnit.latency(g)
  val red = Reducer(g)
  red.io.x := RegNext(Multiplier.full(io.a, io.b))
  io.y := red.io.y
}
