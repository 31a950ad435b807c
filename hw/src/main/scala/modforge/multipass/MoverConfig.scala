package modforge.multipass

import spinal.core._
import spinal.lib.bus.amba4.axi.Axi4Config

/** The generation parameters of the multi-pass engine's burst mover (docs/polymul_multipass.md, "RTL: the
  * burst mover"), as a plain case class. The names are the document's: a region holds n coefficients of
  * one limb as an n1 x n2 matrix, row-major, each coefficient in a slot of `slotBits`; a bus beat holds
  * e = busBits / slotBits slots and a burst be = e * burstBeats coefficients of one row.
  *
  * The memory layout is verif/polymul/multipass_schedule.py's `Layout` for limb 0: five regions a, b, x,
  * y, c, each `regionBytes` (n slots rounded up to 4 KB) from byte address 0, coefficient i of a region at
  * byte offset i * slotBytes.
  *
  * @param n           coefficients of a region (the ring degree)
  * @param n1          rows of the matrix: the on-chip column transform's size (n2 = n / n1 columns)
  * @param busBits     the AXI4 data width
  * @param burstBeats  beats of every burst (AxLEN + 1)
  * @param slotBits    bits a coefficient takes in memory (a power of two >= the limb width)
  * @param lanes       coefficients per word of the mover's streams (a beat is split into e / lanes words);
  *                    0 means e, one word a beat, which keeps pace with the port
  * @param outstanding read bursts in flight, and write bursts unacknowledged, at most (Little's law:
  *                    `outstanding()` of the schedule model says how many hide a memory latency). The
  *                    reader holds this many bursts of beats so that R never waits on the consumer.
  * @param operands    1: the copy moves region a to x; 2: a to x and b to y, the `columns` pass's own reads
  *                    and writes
  * @param addressBits the AXI4 address width
  */
case class MoverConfig(n: Int, n1: Int, busBits: Int = 256, burstBeats: Int = 2, slotBits: Int = 32, lanes: Int = 0,
                       outstanding: Int = 4, operands: Int = 2, addressBits: Int = 32, limb: Int = 0) {
  import MoverConfig._

  require(pow2(n) && n >= 2, s"n = $n: a region holds a power of two of coefficients")
  require(pow2(n1) && n1 <= n, s"n1 = $n1 does not divide n = $n: n1 must be a power of two from 1 to $n")
  require(AxiDataBits.contains(busBits), s"busBits = $busBits: the AXI4 data width is one of ${AxiDataBits.mkString(", ")}")
  require(pow2(slotBits) && slotBits >= 8 && slotBits <= busBits,
    s"slotBits = $slotBits: a slot is a power of two of at least 8 bits and at most the bus width $busBits")
  require(pow2(burstBeats) && burstBeats <= MaxBurstBeats,
    s"burstBeats = $burstBeats: a burst is a power of two from 1 to $MaxBurstBeats beats here")

  val n2: Int = n / n1
  /** e: coefficients per beat. */
  val e: Int = busBits / slotBits
  /** be: coefficients per burst. */
  val be: Int = e * burstBeats
  val slotBytes: Int = slotBits / 8
  val beatBytes: Int = busBits / 8
  val burstBytes: Int = beatBytes * burstBeats
  val wordLanes: Int = if (lanes == 0) e else lanes
  val wordBits: Int = wordLanes * slotBits
  /** Words of the mover's streams per beat. */
  val wordsPerBeat: Int = e / wordLanes

  require(burstBytes <= PageBytes, s"a burst of $burstBeats beats of $busBits bits is $burstBytes bytes, more than AXI4's " +
    s"$PageBytes-byte boundary: use at most ${PageBytes / beatBytes} beats")
  require(be <= n2, s"a burst holds $be coefficients, more than a row of n2 = n / n1 = $n2: bursts must stay within their " +
    s"row; use n1 <= ${n / be}, or fewer beats or a narrower bus")
  require(pow2(wordLanes) && wordLanes <= e, s"lanes = $lanes: a word is a power of two of slots from 1 to e = $e")
  require(outstanding >= 1, s"outstanding = $outstanding: at least one burst in flight")
  require(operands == 1 || operands == 2, s"operands = $operands: the copy moves a (1) or a and b (2)")

  /** A region: n slots, rounded up to whole 4 KB pages (so every region starts on a page). */
  val regionBytes: BigInt = (BigInt(n) * slotBytes + PageBytes - 1) / PageBytes * PageBytes
  /** A region's base for limb `limb`: the schedule's `Layout.base(region, limb)`, limb after limb, five regions each. */
  def regionBase(region: String): BigInt = {
    require(Regions.contains(region), s"region $region: the regions are ${Regions.mkString(", ")}")
    (limb * Regions.size + Regions.indexOf(region)) * regionBytes
  }
  /** One limb's five regions. */
  val footprintBytes: BigInt = regionBytes * Regions.size
  require(limb >= 0, s"limb = $limb: limbs count from 0")
  require(footprintBytes * (limb + 1) <= (BigInt(1) << addressBits),
    s"addressBits = $addressBits: the five regions of ${limb + 1} limbs take ${footprintBytes * (limb + 1)} bytes; use at least " +
      s"${log2Up(footprintBytes * (limb + 1))} bits")

  /** The `columns` pass: n2 / be blocks of be adjacent columns, one burst per row (the corner turn). */
  val blocks: Int = n2 / be
  val rowStrideBytes: BigInt = BigInt(n2) * slotBytes
  val reads: Seq[String] = Seq("a", "b").take(operands)
  val writes: Seq[String] = Seq("x", "y").take(operands)

  // Why no burst of the copy crosses a 4 KB page: it is at most a page, a power of two of bytes, and it
  // starts on a multiple of its own size (regions on pages, rows n2 * slotBytes apart, blocks burstBytes
  // apart, and be <= n2 makes the row stride a multiple of the burst). Checked here, not assumed.
  require(regionBytes % burstBytes == 0 && rowStrideBytes % burstBytes == 0,
    s"bursts of $burstBytes bytes would not stay aligned to their size")

  /** The bus: one ID (every burst in order), INCR bursts of the full width, full strobes. AxCACHE and AxPROT
    * are driven (normal non-cacheable bufferable, unprivileged secure data) for controllers that need them;
    * lock, QoS and region are left out. */
  def axi: Axi4Config = Axi4Config(addressWidth = addressBits, dataWidth = busBits, idWidth = 1, useRegion = false,
    useLock = false, useQos = false)

  /** Widths of a block descriptor's counts: rows up to n1 and beats per row up to a whole row. */
  val rowsBits: Int = log2Up(n1 + 1)
  val rowBeatsBits: Int = log2Up(n2 / e + 1)
}

object MoverConfig {
  val PageBytes = 4096      // AXI4: no burst crosses a 4 KB boundary
  val MaxBurstBeats = 256   // AXI4 INCR: AxLEN + 1 <= 256
  val AxiDataBits: Seq[Int] = Seq(8, 16, 32, 64, 128, 256, 512, 1024)
  /** The layout's regions of one limb, in address order (multipass_schedule.REGIONS). */
  val Regions: Seq[String] = Seq("a", "b", "x", "y", "c")
  /** x is a power of two (x >= 1). */
  def pow2(x: Int): Boolean = x > 0 && (x & (x - 1)) == 0
}
