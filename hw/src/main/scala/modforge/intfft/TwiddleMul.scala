package modforge.intfft

import modforge.Multiplier
import spinal.core._

/** x * twiddle mod p, fully reduced, [[TwiddleMul.latency]] registers after x and tw: the
  * multiplier and reducer of a butterfly.
  *
  * Fermat groups (omega = 2, p = 2^(m-1) + 1): every twiddle, k^-1 included, is (-1)^neg 2^s mod p
  * with s < m - 1 (the `tw` code {neg, s}, [[IntFftParams.twiddleCode]]), so the product is a
  * rotation, [[FermatTwiddle]] (Cao et al., Section 3.3: "multiplier-free butterflies").
  * Other groups: a full m x m product ([[modforge.Multiplier]], shared with every other family),
  * registered, then the group's [[Reducer]].
  */
object TwiddleMul {
  def latency(g: IntFftParams): Int = 1 + Reducer.latency(g)

  /** `name`: the instance name of the reducer or rotation (else Spinal's automatic one). */
  def reduced(g: IntFftParams, x: UInt, tw: UInt, name: Option[String] = None): UInt =
    if (g.shiftTwiddles) {
      require(FermatTwiddle.latency == latency(g), "FermatTwiddle must keep the butterfly's latency")
      val t = new FermatTwiddle(g)
      name.foreach(t.setName(_))
      t.io.x := x
      t.io.tw := tw
      t.io.y
    } else {
      val red = Reducer(g)
      name.foreach(red.setName(_))
      red.io.x := RegNext(Multiplier.full(x, tw).resize(2 * g.m bits))
      red.io.y
    }
}
