package modforge.mem

import spinal.core._
import spinal.lib._

/** One synchronous memory with one write and one read per cycle, as the NTT tile's banks use it.
  *  - write: `wrData` goes to `wrAddr` when `wrEn` (presented in cycle w, seen by every read
  *    presented in cycle w + 1 or later);
  *  - read: `rdAddr` presented with `rdEn` in cycle t gives `rdData` in cycle t + 1 (only then).
  * A read of the address written in the same cycle has no defined result (the SRAM macros' two
  * ports race, [[SkySramModel]]); the user must not rely on it.
  */
case class SyncRamIo(width: Int, depth: Int) extends Bundle with IMasterSlave {
  val addrBits: Int = log2Up(depth)
  val wrEn = Bool()
  val wrAddr = UInt(addrBits bits)
  val wrData = UInt(width bits)
  val rdEn = Bool()
  val rdAddr = UInt(addrBits bits)
  val rdData = UInt(width bits)
  override def asMaster(): Unit = { out(wrEn, wrAddr, wrData, rdEn, rdAddr); in(rdData) }
}

/** A [[SyncRamIo]] memory: [[SramBank]] (SKY130 macros), [[MemBank]] (a SpinalHDL `Mem`) or [[FlopBank]] (flip-flops). */
abstract class SyncRam(val width: Int, val depth: Int) extends Component {
  val io = slave(SyncRamIo(width, depth))
}

/** Which implementation a [[SyncRam]] gets. */
sealed abstract class SyncRamKind(val name: String)
object SyncRamKind {
  /** A grid of OpenRAM SKY130 macros ([[SramBank]]). */
  case object Sky130 extends SyncRamKind("sram")
  /** A SpinalHDL `Mem` read synchronously ([[MemBank]]): flip-flops in ASIC synthesis, block RAM on FPGAs. */
  case object SyncMem extends SyncRamKind("syncmem")
  /** Flip-flops whose address and data nets drive at most 64 sinks each ([[FlopBank]]): for the ASIC flow. */
  case object Flops extends SyncRamKind("flops")

  def build(kind: SyncRamKind, width: Int, depth: Int): SyncRam = kind match {
    case Sky130  => new SramBank(width, depth)
    case SyncMem => new MemBank(width, depth)
    case Flops   => new FlopBank(width, depth)
  }
}
