package modforge.multipass

import spinal.core._

/** The wrapping counters the multi-pass units keep (beats, rows, chunks, blocks): one place for their width and
  * their step, so that a count of 1 is a constant 0 everywhere. */
object WrapCounter {
  /** Width of a counter over x positions: at least one bit. */
  def bits(x: Int): Int = log2Up(x) max 1
  /** Advances such a counter, wrapping after x - 1 (x = 1: it stays 0). */
  def step(r: UInt, x: Int): Unit = if (x == 1) r := 0 else r := r + 1
}
