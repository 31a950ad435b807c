package modforge.intfft

import spinal.core._

/** A fully pipelined reducer of one FFT group (Cao et al., Section 3.3, Fig. 3): x in [0, 2^(2m))
  * (the fermat reducer: [0, p^2)) to x mod p in [0, p), `latency` registers, one input a cycle.
  * Data registers have no reset; validity is tracked by the enclosing datapath.
  */
abstract class Reducer(val g: IntFftParams) extends Component {
  val io = new Bundle {
    val x = in UInt (2 * g.m bits)
    val y = out UInt (g.m bits)
  }
  def latency: Int
}

object Reducer {
  def apply(g: IntFftParams): Reducer = g.reducer match {
    case ReducerKind.Dhem    => new DhemBarrett(g)
    case ReducerKind.Fermat  => new FermatReducer(g)
    case ReducerKind.Solinas => new SolinasReducer(g)
  }
  /** The latency of the group's reducer, without building it. */
  def latency(g: IntFftParams): Int = g.reducer match {
    case ReducerKind.Dhem    => DhemBarrett.latency
    case ReducerKind.Fermat  => FermatReducer.latency
    case ReducerKind.Solinas => SolinasReducer.latency
  }
}
