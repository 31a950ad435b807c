package modforge.multipass

/** The manifest members every multi-pass design shares (the mover, the passes, the engines): the sizes, the bus and
  * the layout of its regions, written once here; each `*Designs` adds its own members after them. */
object MultipassManifest {
  /** `lanes`: the design's P (the mover: its word lanes); `limbs`: how many limbs' regions the footprint holds. */
  def layout(m: MoverConfig, lanes: Int, limbs: Int = 1): String =
    s"""  "n": ${m.n},
  "n1": ${m.n1},
  "n2": ${m.n2},
  "bus_bits": ${m.busBits},
  "burst_beats": ${m.burstBeats},
  "slot_bits": ${m.slotBits},
  "e": ${m.e},
  "be": ${m.be},
  "lanes": $lanes,
  "outstanding": ${m.outstanding},
  "address_bits": ${m.addressBits},
  "region_bytes": ${m.regionBytes},
  "footprint_bytes": ${m.footprintBytes * limbs},"""

  /** The `sram` member (a line of its own) where the rows engine's delay lines reach the macro depth (n2 above
    * 256 words): its macros, as the single-pass engine's manifest gives them ([[modforge.polymul.StreamDesigns.sramJson]]),
    * times `engines` rows engines; nothing otherwise, so designs without macros keep their manifests. The flow reads
    * it to give synthesis the macros' models (flow/harden.py, `sram.macro_models`). */
  def sram(rows: modforge.polymul.StreamConfig, engines: Int = 1): String = {
    val json = modforge.polymul.StreamDesigns.sramJson(rows, engines)
    if (json == "null") "" else s"""
  "sram": $json,"""
  }

  /** A batch design's `batch` member (a line of its own, after `cycles_per_product`), or nothing: `e` the (first)
    * engine, `steady` the cycles per product in the steady state. */
  def batch(e: MultipassEngineConfig, steady: Int): String =
    if (!e.batch) ""
    else if (e.loaded) s"""
  "batch": {"count_bits": ${e.countBits}, "limbs_bits": ${e.limbsBits}, "max_limbs": ${e.maxLimbs}, "limb_stride_bytes": ${e.mover.footprintBytes},
    "unit_id_bits": 2, "id_bits": ${e.batchAxi.idWidth}, "units": ["columns", "rows", "columns_inverse"], "loader_unit_id": 3,
    "steady_cycles_per_item": $steady, "items": "count x limbs, limb after limb of each product",
    "promise": "first item: latency; each later one: steady_cycles_per_item; a product of L limbs: L steady_cycles_per_item"},"""
    else s"""
  "batch": {"count_bits": ${e.countBits}, "product_stride_bytes": ${e.productStrideBytes}, "unit_id_bits": 2, "id_bits": ${e.batchAxi.idWidth},
    "units": ["columns", "rows", "columns_inverse"], "steady_cycles_per_product": $steady,
    "promise": "first product: latency; each later one: steady_cycles_per_product"},"""
}
